"""Scenario checks: can each side do what its objectives ask, in time, from where it sets up?

Listed in :data:`CHECKS`, which :func:`engine.validate.validate` runs after the layout
checks, so ``sprawlmap validate``, the editor's findings panel and export all run them.  Movement questions use the board's movement graph and scipy's
Dijkstra: one multi-source search per side and move ratio answers "how far is every dot from
anywhere in the deployment zone" at once.

Turns needed = ceil(MP / 12); a side is checked at its slowest and its fastest move ratio.  An
objective even the fastest character cannot finish within the limit (``by_turn`` or the
scenario's ``turn_limit``) is an error; one the slowest cannot finish is a warning.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from scipy.sparse.csgraph import breadth_first_order, connected_components

from engine import model as m
from engine.analysis.lens import nodes_of
from engine.board import Board, Feature
from engine.catalogue import grenade_kind
from engine.findings import ERROR, INFO, WARNING, CheckList, Finding
from engine.lattice import Dot3
from engine.movement import MoveGraph, build_graph
from engine.pace import (
    HORIZON,
    Pace,
    WalkField,
    one_component,
    side_paces,
    strong_components,
    walk_to,
)
from engine.pace import MP_PER_TURN as MP_PER_TURN  # re-exported: the lenses read it here
from engine.rules.combat_checks import character_problems

#: default depth (in dots) of an edge deployment without one
DEFAULT_DEPTH = 3
#: a component of the movement graph cut off from the street with more dots than this is "sealed"
SEALED_MIN_DOTS = 2
#: at most this many deployment dots are used as LOS sources per side pair
LOS_SOURCES = 48
#: findings list at most this many dots in ``where``
WHERE_DOTS = 40

#: the scenario checks, in order (run by :func:`engine.validate.validate`)
CHECKS = CheckList()
check = CHECKS.register

Dots = np.ndarray  # (N, 3) int: c, r, level


# ------------------------------------------------------------------------------ geometry


def edge_dots(board: Board, edge: str, depth: int = 1, level: int = 0) -> Dots:
    """Standable dots of ``level`` within ``depth`` dots of one edge of the map's bounds
    (read-only: kept with the board, the checks ask for the same strips several times)."""
    d = board.dots(level)
    cache = board.__dict__.setdefault("_edge_dots", {})
    got = cache.get((edge, depth, level))
    if got is not None and got[0] is d:
        return got[1]
    out = _edge_dots(board, d, edge, depth, level)
    out.flags.writeable = False
    cache[edge, depth, level] = (d, out)
    return out


def _edge_dots(board: Board, d: np.ndarray, edge: str, depth: int, level: int) -> Dots:
    if not len(d):
        return np.zeros((0, 3), dtype=int)
    x0, y0, x1, y1 = board.bounds
    p = board.lattice.points(d)
    sel = {
        "west": p[:, 0] < x0 + depth, "east": p[:, 0] > x1 - depth,
        "north": p[:, 1] < y0 + depth, "south": p[:, 1] > y1 - depth,
    }.get(edge)
    if sel is None:
        raise ValueError(f"unknown map edge {edge!r} (north, south, east or west)")
    out = d[sel]
    return np.column_stack([out, np.full(len(out), level)]).astype(int)


def polygon_dots(board: Board, polygon: Any, level: int) -> tuple[Dots, int]:
    """Standable dots of ``level`` covered by a polygon, and how many map dots it covers."""
    poly = shapely.Polygon(polygon)
    if not poly.is_valid:
        poly = poly.buffer(0)
    x0, y0, x1, y1 = poly.bounds
    cand = board.lattice.dots_in_box(x0, y0, x1, y1)
    covered = 0
    if len(cand):
        pts = board.lattice.points(cand)
        bx0, by0, bx1, by1 = board.bounds
        on_map = (pts[:, 0] >= bx0) & (pts[:, 0] <= bx1) & (pts[:, 1] >= by0) & (pts[:, 1] <= by1)
        covered = int((shapely.intersects_xy(poly, pts[:, 0], pts[:, 1]) & on_map).sum())
    d = board.dots(level)
    if not len(d):
        return np.zeros((0, 3), dtype=int), covered
    p = board.lattice.points(d)
    box = np.nonzero((p[:, 0] >= x0) & (p[:, 0] <= x1) & (p[:, 1] >= y0) & (p[:, 1] <= y1))[0]
    out = d[box[shapely.intersects_xy(poly, p[box, 0], p[box, 1])]]  # (none outside its box)
    return np.column_stack([out, np.full(len(out), level)]).astype(int), covered


def deployment_dots(board: Board, dep: m.Deployment) -> Dots:
    """The standable dots of a deployment zone (polygon on its level, or a strip along an edge)."""
    if dep.polygon is not None:
        return polygon_dots(board, dep.polygon, dep.level)[0]
    return edge_dots(board, dep.edge or "west", dep.depth or DEFAULT_DEPTH, 0)


def exit_edge(obj: m.Objective) -> str | None:
    """The map edge an objective leaves by: ``edge`` for exit, ``then: exit-<edge>`` for retrieve."""
    if obj.edge:
        return obj.edge
    if obj.then and obj.then.startswith("exit-"):
        return obj.then[len("exit-"):]
    return None


def _as_list(dots: Dots, limit: int = WHERE_DOTS) -> list[list[int]]:
    return [[int(v) for v in d] for d in dots[:limit]]


def _dot3(at: tuple[int, ...]) -> Dot3:
    return (int(at[0]), int(at[1]), int(at[2]) if len(at) > 2 else 0)


def _nodes(board: Board, dots: Dots) -> np.ndarray:
    """The movement-graph node of each dot (raises QueryError for one nobody stands on)."""
    d = np.asarray(dots, dtype=np.int64).reshape(-1, 3)
    out = nodes_of(board, d)
    for k in np.nonzero(out < 0)[0][:1]:
        board.node(tuple(int(v) for v in d[k]))  # raises: not a standable dot
    return out


# ------------------------------------------------------------------------- the analysis


@dataclass
class Leg:
    """Cheapest walk (MP or metres) at the side's fastest and slowest pace (None: no path;
    ``inf``: farther than validation searches, :data:`engine.pace.HORIZON` times the limit)."""

    fastest: float | None
    slowest: float | None


class _Analysis:
    """Deployment zones and distance fields of one scenario on one board, computed once."""

    def __init__(self, board: Board, scenario: m.Scenario):
        self.board = board
        self.scenario = scenario
        self.ruleset = scenario.ruleset or "dmz1990"
        self.zones: dict[str, Dots] = {}
        for s in scenario.sides:
            if s.deployment is not None:
                self.zones[s.id] = deployment_dots(board, s.deployment)
        self._fields: dict[tuple[str, str, int], WalkField] = {}
        limits = [o.by_turn for o in scenario.objectives if o.by_turn] + [scenario.turn_limit or 0]
        #: turns the searches first cover: what the scenario's limits allow (a farther
        #: objective widens its search; without a limit, a few turns to start with)
        self.turns = max(max(limits), 1) if any(limits) else 4

    def paces(self, side: m.Side) -> tuple[Pace, Pace] | None:
        """(fastest, slowest) pace of a side in the scenario's ruleset (engine.pace)."""
        return side_paces(self.ruleset, side)

    def field(self, side_id: str, pace: Pace) -> WalkField:
        """MP or metres from the nearest dot of a side's zone, at one pace."""
        key = (side_id, pace.units, pace.move_ratio)
        if key not in self._fields:
            src = _nodes(self.board, self.zones[side_id])
            self._fields[key] = walk_to(self.board, self.ruleset, src, pace,
                                        self.turns * pace.per_turn)
        return self._fields[key]

    def from_dot(self, dot: Dot3, pace: Pace) -> WalkField:
        return walk_to(self.board, self.ruleset, np.array([self.board.node(dot)]), pace,
                       self.turns * pace.per_turn)

    @staticmethod
    def best(field: WalkField, nodes: np.ndarray, within: float = math.inf) -> float | None:
        """The cheapest walk to ``nodes``, rounded (None: no path; ``inf``: more than
        ``within``)."""
        if not len(nodes):
            return None
        v = field.cost_within(nodes, within)
        if v is None:
            return math.inf
        return round(v, 1) if math.isfinite(v) else None


def horizon(scenario: m.Scenario, obj: m.Objective) -> int | None:
    """Turns validation walks toward an objective: :data:`engine.pace.HORIZON` times its limit
    (``by_turn`` or the turn limit; None: no limit, the walk is searched as far as it goes)."""
    limit = obj.by_turn or scenario.turn_limit
    return HORIZON * limit if limit else None


def _within(turns: int | None, pace: Pace) -> float:
    return math.inf if turns is None else turns * pace.per_turn


# ------------------------------------------------------------------------------- checks


@check
def deployment_checks(board: Board, scenario: Any) -> list[Finding]:
    """Zones on standable dots, big enough for their characters, not overlapping."""
    if not isinstance(scenario, m.Scenario) or not scenario.sides:
        return []
    out: list[Finding] = []
    zones: dict[str, Dots] = {}
    for s in scenario.sides:
        dep = s.deployment
        if dep is None:
            if s.characters:
                out.append(Finding("deployment-missing", WARNING,
                                   f"side {s.id} has {len(s.characters)} character(s) but no "
                                   f"deployment zone; its objectives cannot be checked",
                                   {"sides": [s.id]}))
            continue
        if dep.polygon is not None:
            dots, covered = polygon_dots(board, dep.polygon, dep.level)
            c = shapely.Polygon(dep.polygon).representative_point()
            cd = board.lattice.dot_at((c.x, c.y))
            here = [[int(cd[0]), int(cd[1]), dep.level]]
            what = f"the deployment zone of side {s.id} (level {dep.level})"
        else:
            dots = deployment_dots(board, dep)
            covered = len(dots)
            here = _as_list(dots, 1)
            what = f"the {dep.edge} edge deployment of side {s.id}"
        zones[s.id] = dots
        if not len(dots):
            why = ("lies off the map" if covered == 0 else
                   f"covers {covered} dot(s), none of them standable (walls, no floor on "
                   f"level {dep.level})")
            out.append(Finding("deployment-not-standable", ERROR, f"{what} {why}",
                               {"sides": [s.id], "dots": here}))
        elif len(dots) < len(s.characters):
            out.append(Finding("deployment-too-small", ERROR,
                               f"{what} has {len(dots)} standable dot(s) for "
                               f"{len(s.characters)} characters (one character per dot)",
                               {"sides": [s.id], "dots": _as_list(dots)}))
    ids = [s.id for s in scenario.sides if s.id in zones]
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            sa = {tuple(d) for d in zones[a].tolist()}
            both = [list(d) for d in zones[b].tolist() if tuple(d) in sa]
            if both:
                out.append(Finding("deployment-overlap", ERROR,
                                   f"the deployment zones of sides {a} and {b} share "
                                   f"{len(both)} dot(s)",
                                   {"sides": [a, b], "dots": sorted(both)[:WHERE_DOTS]}))
    return out


def _reached_floors(board: Board) -> set[tuple[int, int]]:
    """(building index, level) pairs some stair, elevator or climb arrives at."""
    out: set[tuple[int, int]] = set()
    for links in (board.stair_links, board.elevator_links, board.climb_links):
        for a, b, _f in links:
            for d in (a, b):
                bld = board.building_at(d)
                if bld is not None:
                    out.add((bld.index, d[2]))
    return out


def _objective_targets(board: Board, an: _Analysis, obj: m.Objective
                       ) -> tuple[Dots | None, list[list[int]], str | None]:
    """(target dots, where, problem) of an objective that is a place to get to."""
    if obj.kind in ("reach", "retrieve") or (obj.kind == "hold" and obj.at is not None):
        if obj.at is None:
            return None, [], f"{obj.kind} objective {obj.id} has no 'at' dot"
        d = _dot3(obj.at)
        if not board.standable(d):
            return None, [list(d)], (f"objective {obj.id} is at {','.join(map(str, d))}, which "
                                     f"is not a standable dot (wall, or no floor on that level)")
        return np.array([d]), [list(d)], None
    if obj.kind == "hold":
        if obj.area is None:
            return None, [], f"hold objective {obj.id} has no area"
        dots, _ = polygon_dots(board, obj.area, obj.level)
        c = shapely.Polygon(obj.area).representative_point()
        cd = board.lattice.dot_at((c.x, c.y))
        here = [[int(cd[0]), int(cd[1]), obj.level]]
        if not len(dots):
            return None, here, (f"the area of hold objective {obj.id} holds no standable dot "
                                f"on level {obj.level}")
        return dots, here, None
    if obj.kind == "exit":
        edge = exit_edge(obj)
        if edge is None:
            return None, [], f"exit objective {obj.id} names no edge"
        dots = edge_dots(board, edge)
        if not len(dots):
            return None, [], f"exit objective {obj.id}: the {edge} edge has no standable dot"
        return dots, _as_list(dots, 1), None
    if obj.kind == "eliminate" and obj.target:
        side = _target_side(an.scenario, obj.target)
        if side is not None and side in an.zones:
            return an.zones[side], _as_list(an.zones[side], 1), None
    return None, [], None


def _target_side(scenario: m.Scenario, target: str) -> str | None:
    for s in scenario.sides:
        if s.id == target or any(c.id == target or c.name == target for c in s.characters):
            return s.id
    return None


@check
def objective_checks(board: Board, scenario: Any) -> list[Finding]:
    """Every objective reachable by its side from its deployment, in time; retrieves get out."""
    if not isinstance(scenario, m.Scenario) or not scenario.objectives:
        return []
    an = _Analysis(board, scenario)
    sides = {s.id: s for s in scenario.sides}
    floors = _reached_floors(board)
    out: list[Finding] = []
    for obj in scenario.objectives:
        label = f"objective {obj.id} ({obj.kind}) of side {obj.side}"
        side = sides.get(obj.side)
        if side is None:
            out.append(Finding("objective-unknown-side", ERROR,
                               f"{label}: no side {obj.side!r} in this scenario",
                               {"objectives": [obj.id]}))
            continue
        where: dict[str, Any] = {"objectives": [obj.id], "sides": [obj.side]}
        targets, here, problem = _objective_targets(board, an, obj)
        if here:
            where["dots"] = here
        if problem:
            out.append(Finding("objective-not-standable", ERROR, problem, where))
            continue
        if targets is None:
            continue  # protect / eliminate without a zone: nothing to walk to
        upper = targets[targets[:, 2] > 0]
        if len(upper) == len(targets):
            cut_off = []
            for d in upper:
                bld = board.building_at(d)
                if bld is not None and (bld.index, int(d[2])) not in floors:
                    cut_off.append(bld)
            if len(cut_off) == len(targets):
                out.append(Finding(
                    "objective-level-unreached", ERROR,
                    f"{label} is on level {int(targets[0, 2])} of {cut_off[0].label}, which no "
                    f"stair, elevator or climb reaches",
                    {**where, "placements": [cut_off[0].placement_id]}))
                continue
        if obj.side not in an.zones or not len(an.zones[obj.side]):
            continue  # reported by the deployment checks
        paces = an.paces(side)
        if paces is None:
            continue  # no sheet says how far anyone walks: the stats check reports it
        fast, slow = paces
        tnodes = _nodes(board, targets)
        far = horizon(scenario, obj)
        leg = Leg(an.best(an.field(obj.side, fast), tnodes, _within(far, fast)),
                  an.best(an.field(obj.side, slow), tnodes, _within(far, slow)))
        if leg.fastest is None:
            sev = WARNING if obj.kind == "eliminate" else ERROR
            what = ("the deployment zone of its target" if obj.kind == "eliminate"
                    else "its objective")
            out.append(Finding("objective-unreachable", sev,
                               f"{label}: no path from its deployment zone to {what} "
                               f"(sealed room, missing door or stair?)", where))
            continue
        if obj.kind == "eliminate":
            continue  # shooting needs no walking; only a sealed-off target is worth a word
        extra_turns = 0
        if obj.kind == "hold":
            extra_turns = obj.turns or 0
        if obj.kind == "retrieve":
            way = _way_out(board, an, obj, side, _dot3(targets[0]), fast, slow, far)
            if isinstance(way, Finding):
                out.append(way)
                continue
            leg = Leg(leg.fastest + way.fastest,  # type: ignore[operator]
                      None if leg.slowest is None or way.slowest is None
                      else leg.slowest + way.slowest)
        out.append(_timing(scenario, obj, label, leg, fast, slow, extra_turns, where, far))
    return out


def _way_out(board: Board, an: _Analysis, obj: m.Objective, side: m.Side, it: Dot3,
             fast: Pace, slow: Pace, far: int | None) -> Leg | Finding:
    """The carry leg of a retrieve: from the item's dot ``it`` to the exit edge (or back
    home)."""
    edge = exit_edge(obj)
    if edge is not None:
        goal = edge_dots(board, edge)
        goal_name = f"the {edge} edge"
    else:
        goal = an.zones[side.id]
        goal_name = "its own deployment zone"
    where = {"objectives": [obj.id], "sides": [side.id], "dots": [list(it)]}
    if not len(goal):
        return Finding("retrieve-no-way-out", ERROR,
                       f"retrieve objective {obj.id}: {goal_name} has no standable dot", where)
    gnodes = _nodes(board, goal)
    quick = an.best(an.from_dot(it, fast), gnodes, _within(far, fast))
    if quick is None:
        return Finding("retrieve-no-way-out", ERROR,
                       f"retrieve objective {obj.id}: no way out from the item at "
                       f"{','.join(map(str, it))} to {goal_name}", where)
    same = slow.units != "MP" or slow == fast  # one metre map for every pace
    return Leg(quick, quick if same else an.best(an.from_dot(it, slow), gnodes,
                                                 _within(far, slow)))


def _timing(scenario: m.Scenario, obj: m.Objective, label: str, leg: Leg, fast: Pace,
            slow: Pace, extra: int, where: dict[str, Any], far: int | None) -> Finding:
    limit = obj.by_turn or scenario.turn_limit
    beyond = math.inf in (leg.fastest, leg.slowest)

    def total(cost: float | None, pace: Pace) -> int | None:
        """Turns walking and holding; None: no path, or farther than the search went."""
        if cost is None or cost == math.inf:
            return None
        return (pace.turns(cost) or 0) + extra

    tf, ts = total(leg.fastest, fast), total(leg.slowest, slow)

    def leg_text(cost: float | None, turns: int | None, pace: Pace) -> str:
        if cost == math.inf:
            walk = f"more than {far} turn(s)"
            if extra:
                walk += f" + {extra} turn(s) holding"
            return f"{walk} at {pace.label}"
        walk = pace.text(cost)
        if extra:
            walk += f" + {extra} turn(s) holding = {turns}"
        return f"{walk} at {pace.label}"

    facts = leg_text(leg.fastest, tf, fast) + ("" if slow == fast else
                                               ", " + leg_text(leg.slowest, ts, slow))
    where = {**where, "turns": {"fastest": tf, "slowest": ts, "limit": limit}}
    if beyond:  # a walk not searched to its end: more than ``far`` turns (None above)
        where["turns"]["more_than"] = far
    if limit is None:
        return Finding("objective-turns", INFO, f"{label} needs {facts}", where)
    which = "by_turn" if obj.by_turn else "turn limit"
    if tf is None or tf > limit:
        return Finding("objective-too-far", ERROR,
                       f"{label} needs {facts}; even the fastest cannot make it within the "
                       f"{which} of {limit}", where)
    if ts is None or ts > limit:
        return Finding("objective-too-far-for-slowest", WARNING,
                       f"{label} needs {facts}; the slowest character cannot make it within "
                       f"the {which} of {limit}", where)
    return Finding("objective-turns", INFO, f"{label} needs {facts} (limit {limit})", where)


@check
def mutual_los_at_setup(board: Board, scenario: Any) -> list[Finding]:
    """Two sides that can see each other from their set-up dots start the game in a firefight
    (by the scenario's ruleset and light: the same verdict the CLI and play give)."""
    from engine.sight import sight_fan

    if not isinstance(scenario, m.Scenario) or len(scenario.sides) < 2:
        return []
    zones = {s.id: deployment_dots(board, s.deployment) for s in scenario.sides
             if s.deployment is not None}
    ids = [k for k, v in zones.items() if len(v)]
    out: list[Finding] = []
    views: dict[int, Any] = {}
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            za, zb = zones[a], zones[b]
            if len(za) > len(zb):  # fewer sources, more targets per fan
                (a, za), (b, zb) = (b, zb), (a, za)
            def fan(board: Board, a: Any, **kw: Any) -> Any:
                on = _sight_board(board, a[2], kw["level"], views)
                return sight_fan(on, a, ruleset=scenario.ruleset, light=scenario.light, **kw)
            pair = _first_sight(board, za, zb, fan)
            if pair is not None:
                pa, pb = pair
                out.append(Finding("deployment-mutual-los", WARNING,
                                   f"sides {a} and {b} can see each other at set-up (e.g. "
                                   f"{','.join(map(str, pa))} and {','.join(map(str, pb))})",
                                   {"sides": [a, b], "dots": [pa, pb]}))
    return out


class _LevelSight:
    """A board as the sight lines that start and end on one level meet it: the features of
    that level and the street's, everything else the board's own.  A line between two dots
    of a level counts no other feature (engine.los ``_relevant``: a building's features count
    on an end's level, the street's below level 1, footprints always, and the primitives add
    those from the buildings), so a fan traced on its primitives is the fan traced on the
    board's, built from a city's level 0 alone: ~40% of its features (16x16 blocks: 27 ms
    instead of 66 ms for a check that traces a few fans).  Its primitives are built for it
    (never patched from an earlier board's, never cached per unit) and go with it."""

    def __init__(self, board: Board, level: int) -> None:  # noqa: D107
        self._board = board
        self._patch_from: dict[str, Any] = {}
        self._features = {lv: kept for lv, fs in board._features.items()
                          if (kept := [f for f in fs if lv == level or f.building is None])}

    def unit_features(self) -> list[tuple[dict[int, list[Feature]], bool]]:
        return [(self._features, False)]

    def features(self, level: int) -> list[Feature]:
        return self._features.get(level, [])

    def all_features(self) -> list[Feature]:
        return [f for lv in sorted(self._features) for f in self._features[lv]]

    def view(self) -> Any:
        return self._board.view()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._board, name)


def _sight_board(board: Board, la: int, lb: int, views: dict[int, Any]) -> Any:
    """What a fan from level ``la`` to level ``lb`` is traced on: the board itself when it
    has its sight primitives (or patches them from an earlier board's), when the ends lie on
    two levels or play changed it; else its :class:`_LevelSight` of that level (one per
    level, kept in ``views`` for the check's other fans)."""
    if la != lb or "_los_prims" in board.__dict__ or board._patch_from.get("_los_prims") \
            or board.overlay or type(board) is not Board:
        return board
    got = views.get(la)
    if got is None:
        got = views[la] = _LevelSight(board, la)
    return got


def _first_sight(board: Board, za: Dots, zb: Dots, los_fan: Any
                 ) -> tuple[list[int], list[int]] | None:
    idx = np.unique(np.linspace(0, len(za) - 1, min(len(za), LOS_SOURCES)).round().astype(int))
    for lv in sorted(set(zb[:, 2].tolist())):
        tg = zb[zb[:, 2] == lv][:, :2]
        for k in idx:
            a = tuple(int(v) for v in za[k])
            fan = los_fan(board, a, radius=10_000, level=lv, targets=tg)
            seen = np.nonzero(~fan.blocked)[0]
            if len(seen):
                c, r = fan.dots[seen[0]]
                return list(a), [int(c), int(r), int(lv)]
    return None


def _connections(g: MoveGraph) -> Any:
    """A matrix of the graph's steps for questions of connection alone: every move ratio's
    (crawling or not) has the same entries, only their costs differ, so one the timing checks
    already built serves (a matrix at 16x16 blocks costs about 0.3 s)."""
    for key, mat in list(g._mats.items()):
        if len(key) == 2 and isinstance(key[0], int) and isinstance(key[1], bool) \
                and getattr(mat, "shape", None) == (g.n, g.n):
            return mat
    return g.matrix(1, False)


@check
def sealed_rooms(board: Board, scenario: Any) -> list[Finding]:
    """Dots nobody can walk to from the street: a room without a door, a floor without stairs."""
    n = board.node_count
    if n == 0:
        return []
    g = build_graph(board)
    if one_component(g):
        return []  # every dot reaches every other, found without a matrix of the board
    mat = _connections(g)
    labels = strong_components(g, mat)
    ncomp = int(labels.max()) + 1
    if ncomp == 1:
        return []  # one strong component: every dot reaches every other
    ground = board._node_dots[:, 2] == 0
    if not ground.any():
        return []
    main = int(np.argmax(np.bincount(labels[ground], minlength=ncomp)))
    start = int(np.nonzero(labels == main)[0][0])
    reached = np.zeros(n, dtype=bool)
    reached[breadth_first_order(mat, start, directed=True, return_predecessors=False)] = True
    lost = np.nonzero(~reached)[0]
    if not len(lost):
        return []
    sub = mat[lost][:, lost]
    k, lab = connected_components(sub, directed=False)
    out: list[Finding] = []
    for comp in range(k):
        members = lost[lab == comp]
        if len(members) <= SEALED_MIN_DOTS:
            continue
        dots = board._node_dots[members]
        lv = int(dots[0, 2])
        bld = board.building_at(tuple(dots[0]))
        centre = dots[np.argmin(np.abs(dots[:, :2] - dots[:, :2].mean(axis=0)).sum(axis=1))]
        where = {"dots": [[int(v) for v in centre]] + _as_list(dots),
                 "placements": [bld.placement_id] if bld else []}
        inside = f" of {bld.label}" if bld else " on the street"
        if bld is not None and lv == bld.height and (dots[:, 2] == lv).all():
            out.append(Finding("roof-unreachable", INFO,
                               f"the roof{inside} ({len(members)} dots, level {lv}) has no "
                               f"stair, elevator or climb up to it", where))
        else:
            out.append(Finding("sealed-room", WARNING,
                               f"{len(members)} dots on level {lv}{inside} cannot be reached "
                               f"from the street (no door, hole, window or stair into them)",
                               where))
    return out


@check
def character_checks(board: Board, scenario: Any) -> list[Finding]:
    """Weapons the catalogue does not know, and ratios outside the book's 1 to 4."""
    from engine.catalogue import weapon_type

    if not isinstance(scenario, m.Scenario):
        return []
    out: list[Finding] = []
    for s in scenario.sides:
        for c in s.characters:
            who = f"{c.name} ({s.id})"
            where = {"sides": [s.id], "characters": [c.id or c.name]}
            for w in c.weapons:
                try:
                    weapon_type(w.type)
                except KeyError:
                    if grenade_kind(w.type) is not None:
                        continue  # a grenade is thrown: the throw has its own range rule
                    out.append(Finding("weapon-unknown-type", WARNING,
                                       f"{who} carries a weapon of type {w.type!r}, which has no "
                                       f"range table (ranges cannot be checked)", where))
            for what, v in (("move ratio", c.move_ratio), ("fire ratio", c.fire_ratio)):
                if not 1 <= v <= 4:
                    out.append(Finding("ratio-out-of-range", WARNING,
                                       f"{who} has {what} {v}; DMZ ratios run from 1 (fastest) "
                                       f"to 4 (slowest)", where))
    return out


@check
def ruleset_character_checks(board: Board, scenario: Any) -> list[Finding]:
    """Figures the scenario's ruleset needs to play a character (sr3 Body, a weapon's damage
    code...): each missing or bad one is an error naming the character and the key."""
    if not isinstance(scenario, m.Scenario):
        return []
    ruleset = scenario.ruleset or "dmz1990"
    out: list[Finding] = []
    for s in scenario.sides:
        for c in s.characters:
            where = {"sides": [s.id], "characters": [c.id or c.name]}
            for problem in character_problems(ruleset, c):
                out.append(Finding("character-ruleset-stats", ERROR,
                                   f"{c.name or c.id} ({s.id}): {problem} (needed to play under "
                                   f"{ruleset})", where))
    return out
