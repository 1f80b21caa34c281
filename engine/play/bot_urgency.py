"""How much risk a side must take: a side behind on points takes more as the turns run out.

A bot that weighs danger the same on turn 11 of 12 as on turn 1 lets a side that is behind
sit out the game in safety (Nightclub Hold: the gang stood off the runners' arcs while the
runners' points ran to the end).  A player behind on the points the game will count at its end
(objectives already scored, and every ``protect`` objective whose charge is still standing)
accepts more danger the fewer turns are left: the danger weight falls with the share of the
turn limit still to play, never below the ``reckless`` behaviour's weight.
"""

from __future__ import annotations

from typing import Any

from engine.play import objectives as obj_rules

#: the lowest danger weight urgency brings a bot to (the ``reckless`` behaviour's)
FLOOR = 0.35


def projected_scores(game: Any) -> dict[str, int]:
    """Points each side would have if the game ended now (protect objectives count while
    their charge stands)."""
    st = game.state
    out = obj_rules.scores(st, game.objectives)
    for obj in game.objectives:
        if obj.kind == "protect" and obj.id not in st.achieved:
            charge = obj_rules.targets(st, obj.target)
            if charge and not any(c.condition.out for c in charge):
                out[obj.side] = out.get(obj.side, 0) + obj_rules.points(obj)
    return out


def carried_points(game: Any) -> dict[str, int]:
    """Points each side carries towards an exit (a retrieve item held by one of its
    characters still in the fight): not scored yet, but what the other side must stop."""
    st = game.state
    out: dict[str, int] = {}
    for obj in game.objectives:
        if obj.kind != "retrieve" or obj.id in st.achieved:
            continue
        if any(obj.id in c.carrying and not c.out for c in st.characters.values()):
            out[obj.side] = out.get(obj.side, 0) + obj_rules.points(obj)
    return out


def urgency(game: Any, side: str) -> float:
    """The factor on a bot's danger weight: 1 unless its side is behind, else the share of
    the turn limit left to play (turn 1 of 12: 1.0; turn 7: 0.5), at least :data:`FLOOR`.
    Behind counts the enemy's carried items as scored and its own as not: the side that
    must stop a carrier hurries, the carrier's side is not yet safe."""
    sc = projected_scores(game)
    theirs = carried_points(game)
    mine = sc.get(side, 0)
    best = max((v + theirs.get(s, 0) for s, v in sc.items() if s != side), default=0)
    if mine >= best:
        return 1.0
    st = game.state
    limit = st.turn_limit or 10
    left = (limit - st.turn + 1) / limit
    return max(FLOOR, min(1.0, left))
