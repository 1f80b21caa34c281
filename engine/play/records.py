"""Per-game records: what one bot game says about a scenario, as one JSON line.

A report is rebuilt from records alone (``sprawlmap play-merge``), so seed ranges played on
different machines merge into one report.  A records file is JSON Lines: a header line
(``{"record": "header", ...}``: the scenario's title, sides, objectives, turn limit and the
unopposed-turn estimates) and then one ``{"record": "game", ...}`` line per game.

A game record keeps the summary the report needs (winner, scores, turn each objective fell,
turns each ``hold`` was held, when each item was picked up and by whom, and every carrier put
down while carrying it)
and the places that make the heat map: every casualty (who, by whom, how, turn, dot), every
shooter's dot and every dot a character ended his movement on.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from engine.errors import SprawlmapError
from engine.model import Scenario
from engine.play.objectives import implicit_objectives, points

FORMAT = "sprawlmap/play-records@1"
#: purposes of the Success Tests that are shots at characters
SHOT_PURPOSES = ("movement fire", "reaction fire", "blind fire")
#: purposes of the tests that can put a character out, as a casualty's "how"
HOW = {"movement fire": "movement fire", "reaction fire": "reaction fire",
       "blind fire": "blind fire", "melee": "melee",
       "counterattack": "melee", "move-by attack": "melee", "grenade blast": "grenade",
       "fall": "fall"}


class RecordsError(SprawlmapError):
    """A records file that cannot be read; the message is ``file:line: problem``."""


def header(scenario: Scenario, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    sides = [s.id for s in scenario.sides]
    objectives = list(scenario.objectives) or implicit_objectives(sides)
    h = {
        "record": "header", "format": FORMAT, "scenario": scenario.title,
        "ruleset": scenario.ruleset or "dmz1990", "sides": sides,
        "characters": {c.id or c.name: s.id for s in scenario.sides for c in s.characters},
        "objectives": [{"id": o.id, "side": o.side, "kind": o.kind, "points": points(o),
                        "by_turn": o.by_turn, "turns": o.turns} for o in objectives],
        "turn_limit": scenario.turn_limit,
        "places": {o.id: place for o in objectives if (place := _place(o)) is not None},
    }
    h.update(extra or {})
    return h


def _place(obj: Any) -> list[float] | None:
    """Where an objective is played on the map: its dot, or its area's middle (None for
    eliminate, protect and exit objectives, which follow characters or an edge)."""
    if obj.at is not None:
        return [float(v) for v in tuple(obj.at)[:2]]
    if obj.area:
        xs = [p[0] for p in obj.area]
        ys = [p[1] for p in obj.area]
        return [round(sum(xs) / len(xs), 1), round(sum(ys) / len(ys), 1)]
    return None


def game_record(game: Any, seed: int, bots: dict[str, str] | None = None) -> dict[str, Any]:
    """The record of one finished game, read from its event log."""
    st = game.state
    side_of = {c.id: c.side for c in st.characters.values()}
    pos: dict[str, list[int]] = {}
    turn = 1
    last_test: dict[str, str] = {}
    last_hit: dict[str, tuple[str, str]] = {}
    shots = reaction_shots = hits = melee = grenades = 0
    shots_at: list[list[int]] = []
    ends: list[list[Any]] = []
    casualties: list[dict[str, Any]] = []
    objective_turns: dict[str, int] = {}
    #: objective -> [turn picked up, who]; a carrier put down while carrying is a "drop"
    pickups: dict[str, list[Any]] = {}
    carrying: dict[str, str] = {}
    drops: list[dict[str, Any]] = []
    for e in game.log.events:
        kind = e["event"]
        if kind == "phase":
            turn = e["turn"]
        elif kind == "deploy":
            pos[e["who"]] = list(e["at"])
        elif kind in ("move", "fall"):
            pos[e["who"]] = list(e["to"])
        elif kind == "test":
            purpose = e.get("purpose", "")
            target = e.get("target") or e.get("who")
            if target is not None:
                last_test[target] = purpose
            if purpose in SHOT_PURPOSES:
                shots += 1
                reaction_shots += purpose == "reaction fire"
                hits += bool(e.get("success"))
                a = e.get("attacker")
                if a in pos:
                    shots_at.append(pos[a])
            elif purpose in ("melee", "counterattack", "move-by attack"):
                melee += purpose == "melee"
        elif kind == "grenade-lands":
            grenades += 1
        elif kind == "damage":
            how = HOW.get(last_test.get(e["target"], ""), "other")
            last_hit[e["target"]] = (e.get("source", ""), how)
        elif kind == "end" and e.get("pos") is not None:
            ends.append([side_of.get(e["who"], ""), *e["pos"]])
        elif kind == "pickup":
            pickups.setdefault(e["objective"], [turn, e["who"]])
            carrying[e["objective"]] = e["who"]
        elif kind == "out":
            for oid, who in list(carrying.items()):
                if who == e["who"]:
                    drops.append({"objective": oid, "who": who, "turn": turn,
                                  "at": pos.get(who)})
                    del carrying[oid]
            by, how = last_hit.get(e["who"], ("", "other"))
            casualties.append({
                "who": e["who"], "side": side_of.get(e["who"], ""),
                "by": by if by in side_of else "", "by_side": side_of.get(by, ""),
                "how": how if by in side_of or how in ("grenade", "fall") else "other",
                "turn": turn, "at": pos.get(e["who"]), "dead": bool(e.get("dead")),
            })
        elif kind == "objective":
            objective_turns.setdefault(e["objective"], e.get("turn", turn))
    fin = game.log.of_kind("finish")
    return {
        "record": "game", "seed": seed, "winner": st.winner, "turns": st.turn,
        "achieved": dict(st.achieved), "objective_turns": objective_turns,
        "held": dict(st.held), "pickups": pickups, "drops": drops,
        "scores": dict(fin[-1]["scores"]) if fin else {},
        "out": sorted(c.id for c in st.characters.values() if c.condition.out),
        "shots": shots, "reaction_shots": reaction_shots, "hits": hits, "melee": melee,
        "grenades": grenades, "casualties": casualties, "shots_at": shots_at, "ends": ends,
        "bots": dict(bots or {}),
    }


def write_records(path: str | os.PathLike[str], head: dict[str, Any],
                  games: list[dict[str, Any]]) -> None:
    """Write a records file whole (temp file + rename: never a partly written file)."""
    from engine.export.files import atomic_write

    lines = [json.dumps(head)] + [json.dumps(g) for g in games]
    atomic_write(path, ("\n".join(lines) + "\n").encode("utf-8"))


def read_records(paths: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the games of one or more records files of the same scenario; games
    sorted by seed, a seed played twice counted once."""
    head: dict[str, Any] | None = None
    games: dict[int, dict[str, Any]] = {}
    for p in paths:
        try:
            text = Path(p).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise RecordsError(f"{p}:1: cannot read records ({e.__class__.__name__})") from None
        mine: dict[str, Any] | None = None
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                raise RecordsError(f"{p}:{n}: not a JSON line ({e.msg})") from None
            if not isinstance(rec, dict) or rec.get("record") not in ("header", "game"):
                raise RecordsError(f"{p}:{n}: not a play record")
            if rec["record"] == "header":
                if rec.get("format") != FORMAT:
                    raise RecordsError(f"{p}:{n}: format {rec.get('format')!r}, expected {FORMAT}")
                mine = rec
                if head is None:
                    head = rec
                elif (rec.get("scenario"), rec.get("sides"), rec.get("objectives")) != \
                        (head.get("scenario"), head.get("sides"), head.get("objectives")):
                    raise RecordsError(f"{p}:{n}: records of another scenario "
                                       f"({rec.get('scenario')!r}, not {head.get('scenario')!r})")
                continue
            if mine is None:
                raise RecordsError(f"{p}:{n}: a game record before the header")
            if not isinstance(rec.get("seed"), int) or "winner" not in rec:
                raise RecordsError(f"{p}:{n}: a game record needs a seed and a winner")
            games[rec["seed"]] = rec
        if mine is None:
            raise RecordsError(f"{p}:1: no header line (not a play records file)")
    assert head is not None
    return head, [games[s] for s in sorted(games)]
