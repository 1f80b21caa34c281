"""What a scenario asks before anyone fights: turns each objective needs unopposed.

The estimate walks the cheapest path (the referee's own movement costs) from the nearest dot
of the side's deployment zone with its fastest character, at what the ruleset's referee says
a turn's movement is (``Game.turn_budget``: DMZ's 12 MP, Shadowrun's metres...): to the
objective's dot (reach, retrieve), on to the exit edge (retrieve ... then exit-EDGE, exit); a
hold counts the turn its area is reached as its first held turn.  An objective that needs more
turns than the limit cannot fall however the dice roll, and the report says so.
"""

from __future__ import annotations

import math
from typing import Any

from engine.lattice import Dot3
from engine.model import Scenario
from engine.play import objectives as obj_rules
from engine.play.board_view import BoardView
from engine.play.referees import game_class
from engine.play.turn import DEFAULT_TURN_LIMIT, FALLBACK_DEPTH, FALLBACK_EDGES

MP_PER_TURN = 12


def deploy_zone(scenario: Scenario, view: BoardView, index: int) -> list[Dot3]:
    side = scenario.sides[index]
    dep = side.deployment
    if dep is not None and (dep.polygon is not None or dep.edge is not None):
        return view.deploy_dots(dep.polygon, dep.level, dep.edge, dep.depth)
    return view.deploy_dots(None, 0, FALLBACK_EDGES[index % 4], FALLBACK_DEPTH)


def _cost(view: BoardView, starts: list[Dot3], goal: Dot3, move_ratio: int) -> float | None:
    if not starts or not view.standable(goal):
        return None
    got = [c for c in view.costs_to(goal, move_ratio, starts) if c is not None]
    return min(got) if got else None


def _edge_dots(view: BoardView, edge: str) -> list[Dot3]:
    return view.deploy_dots(None, 0, edge, 1)


def unopposed_turns(scenario: Scenario, view: BoardView) -> dict[str, dict[str, Any]]:
    """Per objective of a moving kind: {"turns": n or None, "mp": cost, "limit": limit}."""
    out: dict[str, dict[str, Any]] = {}
    limit = scenario.turn_limit or DEFAULT_TURN_LIMIT
    referee = game_class(scenario.ruleset or "dmz1990")
    metric = referee.units != "MP"
    for obj in scenario.objectives:
        if obj.kind not in ("reach", "retrieve", "exit", "hold"):
            continue
        idx = next((i for i, s in enumerate(scenario.sides) if s.id == obj.side), None)
        if idx is None:
            continue
        side = scenario.sides[idx]
        ratios = sorted({c.move_ratio for c in side.characters}) or [3]
        per_turn = max((referee.turn_budget(c) for c in side.characters),
                       default=MP_PER_TURN)
        starts = deploy_zone(scenario, view, idx)
        best: float | None = None
        for mr in ratios[:1]:  # the fastest (lowest Move Ratio) character
            leave = 0 if metric else mr  # leaving the map: DMZ charges the move ratio
            total: float | None
            if obj.kind == "exit":
                edge = _edge_dots(view, obj.edge or "")
                costs = [_cost(view, starts, d, mr) for d in edge[:: max(1, len(edge) // 40)]]
                costs = [c for c in costs if c is not None]
                total = min(costs) + leave if costs else None
            else:
                goal = obj_rules.at_dot(obj)
                if goal is None and obj.area is not None:
                    dots = view.deploy_dots(obj.area, obj.level, None, None)
                    cs = [_cost(view, starts, d, mr) for d in dots[:: max(1, len(dots) // 20)]]
                    cs = [c for c in cs if c is not None]
                    total = min(cs) if cs else None
                else:
                    total = _cost(view, starts, goal, mr) if goal is not None else None
                edge_name = obj_rules.exit_edge(obj)
                if total is not None and edge_name and goal is not None:
                    back = [c for c in view.costs_to(goal, mr, _edge_dots(view, edge_name))
                            if c is not None]
                    total = total + min(back) + leave if back else None
            if total is not None and (best is None or total < best):
                best = total
        turns = None if best is None else max(1, math.ceil(best / per_turn))
        if turns is not None and obj.kind == "hold":
            turns += (obj.turns or 1) - 1  # the turn he gets there is the first one held
        out[obj.id] = {"turns": turns, "mp": best, "limit": obj.by_turn or limit}
        if metric:
            out[obj.id]["units"] = referee.units
    return out
