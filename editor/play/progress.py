"""Objective progress and the score, in words, from the engine's objectives module.

The play panel lists every objective with where it stands (open, achieved, held 1/2 turns,
carried by someone, 1/3 down, too late) and the points of each side; the same words go to the
status bar at each turn end and to the announcement of the winner.
"""

from __future__ import annotations

from engine.model import Objective
from engine.play import objectives as obj_rules
from engine.play.game import Game


def status(game: Game, o: Objective) -> str:
    st = game.state
    if o.id in st.achieved:
        return "achieved"
    if not obj_rules.in_time(o, st.turn):
        return "too late"
    if o.kind == "hold":
        return f"held {st.held.get(o.id, 0)}/{o.turns or 1} turns"
    if o.kind == "retrieve":
        who = [c.id for c in st.characters.values() if o.id in c.carrying]
        if who:
            return f"carried by {who[0]}"
        lies = st.items.get(o.id)
        return f"dropped at {lies[0]},{lies[1]}" if lies is not None else "not picked up"
    if o.kind == "eliminate":
        tg = obj_rules.targets(st, o.target)
        down = sum(1 for c in tg if c.condition.out)
        return f"{down}/{len(tg)} down"
    if o.kind == "protect":
        tg = obj_rules.targets(st, o.target)
        return "still standing" if tg and not any(c.condition.out for c in tg) else "down"
    return "open"


def objective_lines(game: Game) -> list[str]:
    """One line per objective: 'corner (red, reach, 2 pts): open'."""
    return [f"{o.id} ({o.side}, {o.kind}, {obj_rules.points(o)} pts): {status(game, o)}"
            for o in game.objectives]


def scores_text(game: Game) -> str:
    sc = obj_rules.scores(game.state, game.objectives)
    return ", ".join(f"{s} {v}" for s, v in sc.items())


def winner_text(game: Game) -> str:
    w = game.state.winner
    return "a draw" if w == "draw" else f"{w} wins"
