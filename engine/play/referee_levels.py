"""Rules of play about levels: elevators and uncontrolled falls.

Elevators (seed 000 l.604-606): up to four friendly characters may share an elevator's dot
(anywhere else nobody may end his movement on another character's dot, l.602), and each of
them fights at a combat modifier equal to the number of people in the elevator.

Falls (seed 000 l.582-584 and l.1362-1364): jumping off an edge of one story or more is an
uncontrolled fall.  It costs no MP and leaves the faller Prone; a Success Test with his
Impact value against 4 x the stories fallen decides whether he lands unhurt, and a failure
costs him one box of Physical damage per story.  (The book's "Impact Success Value" is not a
value its character sheets carry; play reads it as the Impact Defense Value, the one Impact
figure on the sheet.)  A controlled drop of one story is an ordinary step of the movement
graph (+2 MP, l.578-580) and does no damage.
"""

from __future__ import annotations

from engine.lattice import Dot3
from engine.play.board_view import BoardView
from engine.play.state import CharacterState, GameState

#: friendly characters one elevator holds
ELEVATOR_CAPACITY = 4
#: Target Value of the fall test per story fallen
FALL_TV_PER_STORY = 4
#: Physical boxes a failed fall test costs per story
FALL_DAMAGE_PER_STORY = 1


def elevator_dots(board: BoardView) -> frozenset[Dot3]:
    """Every dot an elevator stops at (cached on the view; empty for boards without any)."""
    got = getattr(board, "_play_elevator_dots", None)
    if got is not None:
        return got
    fn = getattr(board, "elevator_dots", None)
    if callable(fn):
        dots = frozenset(tuple(d) for d in fn())
    else:
        links = getattr(getattr(board, "board", None), "elevator_links", ())
        dots = frozenset(tuple(d) for a, b, _f in links for d in (a, b))
    try:
        board._play_elevator_dots = dots  # type: ignore[attr-defined]
    except AttributeError:
        pass
    return dots


def in_elevator(board: BoardView, dot: Dot3 | None) -> bool:
    return dot is not None and tuple(dot) in elevator_dots(board)


def riders(state: GameState, board: BoardView, ch: CharacterState) -> int:
    """How many people share ``ch``'s elevator (0 when he is not in one)."""
    if not in_elevator(board, ch.pos):
        return 0
    return sum(1 for c in state.characters.values() if not c.out and c.pos == ch.pos)


def may_stop_on(state: GameState, board: BoardView, ch: CharacterState, dot: Dot3) -> str | None:
    """Why ``ch`` may not end his movement on ``dot``, or None when he may."""
    d = tuple(dot)
    others = [c for c in state.characters.values()
              if c.pos == d and c is not ch and not c.out]
    if not others:
        return None
    if not in_elevator(board, dot):
        return f"{ch.id} cannot end his movement on {others[0].id}'s dot"
    if any(c.side != ch.side for c in others):
        return f"{ch.id} cannot share an elevator with an enemy"
    if len(others) + 1 > ELEVATOR_CAPACITY:
        return f"the elevator holds {ELEVATOR_CAPACITY} people"
    return None


def fall_targets(board: BoardView, dot: Dot3) -> dict[Dot3, int]:
    """Dots ``dot`` can fall to, with the stories fallen: a lower standable dot beside it with
    open air above it up to ``dot``'s level."""
    c, r, lv = dot
    out: dict[Dot3, int] = {}
    if lv <= 0:
        return out
    for nc, nr in board.lattice.neighbours((c, r)):
        if board.standable((nc, nr, lv)):
            continue  # a floor at his own level: that is a step, not a fall
        for low in range(lv - 1, -1, -1):
            if board.standable((nc, nr, low)):
                out[(nc, nr, low)] = lv - low
                break
    return out


def fall_target_value(stories: int) -> int:
    return FALL_TV_PER_STORY * stories


def fall_damage(stories: int) -> int:
    return FALL_DAMAGE_PER_STORY * stories
