"""Levitate Person in play (seed 000 l.1753-1766): the mage moves the character he holds up.

Once the spell works (cast like any Non-Combat spell: Target Value 5 on himself or a friend,
9 on an enemy, LOS), ``{"act": "levitate", "target": id, "to": dot}`` moves the levitated
character one leg, paid from the *mage's* MP (l.1758): 3 MP a dot, 4 MP a story, at most
12 MP of levitation a turn.  Debris and obstacles cost nothing extra, but a levitated body is
still a body: the legs are the movement graph's own.

* a dot along his level: a step the movement graph allows (so no wall, closed door or closed
  window in between), 3 MP whatever the ground;
* up or down a level: the pair of dots a fall would join (:func:`fall_targets`, the same
  geometry as ``jump``), from a ledge down or from below up onto it, 4 MP a story and 3 MP for
  the dot across; a character lowered this way does not fall.

A levitated character the mage can no longer see drifts down (l.1760); since a counter
always stands on a dot play knows, he is already down, and the mage simply cannot move him
until he sees him again.  Reaction fire is at the mage for the MP he spends, as for any action
of his (l.971); a moving friend draws none on his way.
"""

from __future__ import annotations

from typing import Any

from engine.play import objectives as obj_rules
from engine.play.errors import PlayError
from engine.play.referee_levels import fall_targets, may_stop_on
from engine.play.state import CharacterState, named_dot
from engine.rules.dmz1990_spells import (
    LEVITATE_DOT_MP,
    LEVITATE_MP_PER_TURN,
    LEVITATE_STORY_MP,
)


def leg_mp(game: Any, frm: tuple[int, int, int], to: tuple[int, int, int]) -> int | None:
    """MP of one levitation leg ``frm`` -> ``to``, or None when it is none (module doc)."""
    if frm[2] == to[2]:
        if game.board.lattice.distance(frm[:2], to[:2]) != 1:
            return None
        if game.board.step(frm, to, 1) is None:
            return None
        if any(op.state == "closed" for op in game.board.openings_on(frm, to)):
            return None
        return LEVITATE_DOT_MP
    down = fall_targets(game.board, frm).get(to)
    if down is not None:
        return LEVITATE_STORY_MP * down + LEVITATE_DOT_MP
    up = fall_targets(game.board, to).get(frm)
    if up is not None:
        return LEVITATE_STORY_MP * up + LEVITATE_DOT_MP
    return None


def levitating(m: CharacterState, target: str) -> dict[str, Any] | None:
    return next((e for e in m.sustained
                 if e["spell"] == "levitate-person" and e["target"] == target), None)


def levitate(game: Any, target: str, to: list[int] | tuple[int, ...]) -> None:
    """Carry out a ``levitate`` action of the moving mage (see the module docstring)."""
    m = game.mover
    t = game.char(target)
    e = levitating(m, t.id)
    if e is None:
        raise PlayError(f"{m.id} holds no Levitate spell on {t.id}")
    if t.out or t.pos is None:
        raise PlayError(f"{t.id} cannot be moved")
    if t is not m and game.sight(m, t)[0].blocked:
        raise PlayError(f"{m.id} cannot see {t.id}: the levitation drifts down (l.1760)")
    to = named_dot(to, t.pos[2])
    if not game.board.standable(to):
        raise PlayError(f"{list(to)} is not a dot of the map")
    mp = leg_mp(game, t.pos, to)
    if mp is None:
        raise PlayError(f"{t.id} cannot be levitated from {list(t.pos)} to {list(to)} "
                        "(one dot along his level, or over a ledge one dot across)")
    why = may_stop_on(game.state, game.board, t, to)
    if why:
        raise PlayError(why)
    if e.get("turn") != game.state.turn:
        e.update(turn=game.state.turn, levitate=0)
    if e["levitate"] + mp > LEVITATE_MP_PER_TURN:
        raise PlayError(f"levitation moves {LEVITATE_MP_PER_TURN} MP a turn; "
                        f"{e['levitate']} used, this leg costs {mp} (l.1758)")
    game._need(m, (float(mp), 0), "levitating")
    frm = t.pos
    t.pos = to
    e["levitate"] += mp
    game.log.record("levitate", who=t.id, by=m.id, frm=list(frm), to=list(to), mp=mp)
    game._spend(m, (float(mp), 0), "levitate")
    obj_rules.check_position(game.state, game.objectives, t, game.log)
