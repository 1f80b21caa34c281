"""Balance at a glance: findings drawn from the tempo and exposure lenses.

* ``tempo-gap`` (info): a place an objective names (``at`` dot or hold area) is first reached
  by one side's fastest character at least :data:`TEMPO_GAP` turns before any other side's --
  the race for it is decided before the first shot (the dots are the objective's);
* ``deployment-exposed`` (warning): every dot of a side's deployment zone is seen by at least
  one dot of another side's zone -- nowhere to set up out of sight (the dots are the zone's
  corners, and the enemy dot that sees the last one found).  Up to :data:`EXPOSURE_SOURCES`
  enemy dots are looked from, so the finding never cries wolf but may miss a zone.

Both run with :func:`engine.validate.validate`, so the CLI, the editor's findings panel and
export show them (docs/analysis.md).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine import model as m
from engine.analysis.lens import nodes_of
from engine.board import Board
from engine.findings import INFO, WARNING, CheckList, Finding
from engine.los import los_fan
from engine.pace import HORIZON, side_paces, walk_to
from engine.scenario_checks import deployment_dots, polygon_dots
from engine.sight import fan_verdict, sight

CHECKS = CheckList()
check = CHECKS.register

#: a side that is this many turns ahead on an objective makes it a finding
TEMPO_GAP = 2
#: at most this many fans per zone (validation stays quick): a zone reported exposed is
#: exposed; a zone not reported may still be seen from an enemy dot left out
EXPOSURE_SOURCES = 48


def objective_dots(board: Board, obj: m.Objective) -> np.ndarray | None:
    """The dots an objective asks a side to stand on (None: no place, e.g. eliminate)."""
    if obj.at is not None:
        at = tuple(int(v) for v in obj.at)
        d = (at[0], at[1], at[2] if len(at) > 2 else 0)
        return np.array([d]) if board.standable(d) else None
    if obj.kind == "hold" and obj.area is not None:
        dots, _ = polygon_dots(board, obj.area, obj.level)
        return dots if len(dots) else None
    return None


def _first_turn(pace: Any, field: Any, nodes: np.ndarray, within: int | None
                ) -> tuple[bool, int | None]:
    """(known, turn): the turn a side's fastest character first stands on one of ``nodes``
    (None: never); not known when that is later than ``within`` turns (None: no bound)."""
    c = field.cost_within(nodes, math.inf if within is None else within * pace.per_turn)
    if c is None:
        return False, None
    t = pace.turns_of(np.array([c]))[0]  # turns grow with the walk
    return True, None if np.isnan(t) else int(t)


@check
def tempo_gaps(board: Board, scenario: Any) -> list[Finding]:
    if not isinstance(scenario, m.Scenario) or len(scenario.sides) < 2:
        return []
    sides = [s for s in scenario.sides if s.deployment is not None]
    if len(sides) < 2:
        return []
    ruleset = scenario.ruleset or "dmz1990"
    limits = [o.by_turn for o in scenario.objectives if o.by_turn] + [scenario.turn_limit or 0]
    turns = max(limits) if any(limits) else 4  # what the first searches cover (they widen)
    # how far the race is judged: a side first there later than HORIZON times the longest
    # limit is "not within" that (no limit: every walk is searched to its end)
    far = HORIZON * max(limits) if any(limits) else None
    fields = {}  # side -> (its fastest pace, its walk); a side without sheets is left out
    for s in sides:
        paces = side_paces(ruleset, s)
        if paces is not None:
            zone = deployment_dots(board, s.deployment)
            fields[s.id] = (paces[0], walk_to(board, ruleset, nodes_of(board, zone), paces[0],
                                              turns * paces[0].per_turn))
    out = []
    for obj in scenario.objectives:
        dots = objective_dots(board, obj)
        if dots is None:
            continue
        nodes = nodes_of(board, dots)
        nodes = nodes[nodes >= 0]
        first: dict[str, int | None] = {}  # None: never; absent: not within the search
        for sid, (pace, f) in fields.items():
            known, t = _first_turn(pace, f, nodes, far)
            if known:
                first[sid] = t
        reached = {k: v for k, v in first.items() if v is not None}
        if not reached:
            continue
        lead_id = min(reached, key=lambda k: reached[k])
        # a side not there within the horizon may be just behind a lead at its end: its walk
        # is searched as far as the gap needs
        bound = far if far is None else max(far, reached[lead_id] + TEMPO_GAP - 1)
        for sid, (pace, f) in fields.items():
            if sid not in first and bound != far:
                known, t = _first_turn(pace, f, nodes, bound)
                if known:
                    first[sid] = t
        others = [v for k, v in first.items() if k != lead_id]
        gap = min((v for v in others if v is not None), default=None)
        if gap is not None and gap - reached[lead_id] < TEMPO_GAP:
            continue
        rest = ", ".join(f"{k} on turn {first[k]}" if k in first and first[k] is not None
                         else f"{k} never" if k in first else f"{k} not within {bound} turns"
                         for k in fields if k != lead_id)
        out.append(Finding(
            "tempo-gap", INFO,
            f"objective {obj.id} ({obj.side}, {obj.kind}): side {lead_id} first gets there on "
            f"turn {reached[lead_id]}, {rest} (tempo map, fastest characters)",
            {"dots": [[int(v) for v in d] for d in dots[:10]], "objectives": [obj.id],
             "sides": [lead_id]}))
    return out


@check
def exposed_deployments(board: Board, scenario: Any) -> list[Finding]:
    if not isinstance(scenario, m.Scenario) or len(scenario.sides) < 2:
        return []
    zones = {s.id: deployment_dots(board, s.deployment) for s in scenario.sides
             if s.deployment is not None}
    out = []
    for sid, zone in zones.items():
        if not len(zone):
            continue
        enemy = [z for k, z in zones.items() if k != sid and len(z)]
        if not enemy:
            continue
        witness = _all_seen(board, scenario, zone, np.unique(np.concatenate(enemy), axis=0))
        if witness is None:
            continue
        corners = zone[[int(np.argmin(zone[:, 0] + zone[:, 1])),
                        int(np.argmax(zone[:, 0] + zone[:, 1]))]]
        out.append(Finding(
            "deployment-exposed", WARNING,
            f"every one of the {len(zone)} dots of side {sid}'s deployment zone is in sight of "
            f"another side's zone (e.g. from {','.join(map(str, witness))}): nowhere to set up "
            f"out of sight (exposure map)",
            {"dots": [[int(v) for v in d] for d in corners] + [list(witness)], "sides": [sid]}))
    return out


def _all_seen(board: Board, scenario: m.Scenario, zone: np.ndarray, sources: np.ndarray
              ) -> list[int] | None:
    """An enemy dot that sees the last of ``zone``'s dots to be seen, or None when some dot of
    ``zone`` is hidden from every enemy dot looked from.  Fans go from the smaller set to the
    larger: from each zone dot to the enemy dots (each sighting then confirmed by the forward
    query), or from the enemy dots to the zone; at most :data:`EXPOSURE_SOURCES` fans."""
    if len(zone) <= len(sources):
        return _all_seen_reverse(board, scenario, zone, sources)
    pick = np.unique(np.linspace(0, len(sources) - 1, min(len(sources), EXPOSURE_SOURCES))
                     .round().astype(int))
    return _all_seen_forward(board, scenario, zone, sources[pick])


def _all_seen_forward(board: Board, scenario: m.Scenario, zone: np.ndarray, sources: np.ndarray
                      ) -> list[int] | None:
    unseen = {lv: {tuple(d) for d in zone[zone[:, 2] == lv][:, :2].tolist()}
              for lv in set(zone[:, 2].tolist())}
    for s in sources:
        origin = (int(s[0]), int(s[1]), int(s[2]))
        for lv, left in unseen.items():
            if not left:
                continue
            tg = np.array(sorted(left))
            fan = los_fan(board, origin, radius=10_000, level=lv, targets=tg)
            v = fan_verdict(fan, ruleset=scenario.ruleset, light=scenario.light)
            for c, r in fan.dots[~v.blocked].tolist():
                left.discard((c, r))
            if origin[2] == lv:
                left.discard(origin[:2])
        if not any(unseen.values()):
            return list(origin)
    return None


def _all_seen_reverse(board: Board, scenario: m.Scenario, zone: np.ndarray, sources: np.ndarray
                      ) -> list[int] | None:
    if len(zone) > EXPOSURE_SOURCES:
        return None
    witness = None
    for z in zone:
        target = (int(z[0]), int(z[1]), int(z[2]))
        seers = []
        for lv in sorted(set(sources[:, 2].tolist())):
            tg = sources[sources[:, 2] == lv][:, :2]
            fan = los_fan(board, target, radius=10_000, level=lv, targets=tg)
            v = fan_verdict(fan, ruleset=scenario.ruleset, light=scenario.light)
            seers += [(int(c), int(r), lv) for c, r in fan.dots[~v.blocked].tolist()]
        for e in seers[:4]:  # the line back from the enemy must agree
            if not sight(board, e, target, ruleset=scenario.ruleset,
                         light=scenario.light).blocked:
                witness = list(e)
                break
        else:
            return None
    return witness
