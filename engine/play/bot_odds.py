"""Expected damage for the bots, from the referee's own sight lines and Success Values.

A bot ranks its options by boxes of damage it expects to deal and to take.  Every figure here
comes from the same place the referee's dice do: :meth:`engine.play.game.Game.plan_shot`'s
Target Value (defense, cover, posture, characters in the way, movement fire, injury) and the
2D6 odds of the Success Test (2 always succeeds, 12 always fails, below -10 never).

``path_danger`` walks a planned path step by step the way the referee will: each enemy arc
the mover is in when he spends MP adds them to that enemy's Fire Ratio tally, each full Fire
Ratio is a reaction shot at the dot he reached, and a mover who began in an arc and drew no
shot draws the free one.  So a dash across a held street costs what it really costs.

A line the board already knows is blocked (``known_blocked``: a fan traced from either end)
is worth 0.0 without asking the referee: every ruleset's ``shot_value`` answers 0.0 there
(its ``shot_sight`` is None), so the figures are the same, for a dict look-up.
"""

from __future__ import annotations

from typing import Any

from engine.lattice import Dot3
from engine.play.shots import p_success
from engine.play.state import PRONE, STANDING, CharacterState

__all__ = ["best_offense", "exposure", "in_any_arc", "p_success", "path_danger", "shot_odds"]

def shot_odds(game: Any, shooter: CharacterState, shooter_pos: Dot3, target: CharacterState,
              target_pos: Dot3, movement_fire: bool, target_posture: str | None = None,
              ) -> float:
    """Expected damage one shot of ``shooter``'s ready firearm does from ``shooter_pos`` at
    ``target`` standing on ``target_pos`` (0 when there is no shot): the referee's
    ``shot_value`` hook, in its ruleset's damage units."""
    return game.shot_value(shooter, shooter_pos, target, target_pos, movement_fire,
                           target_posture)


def in_any_arc(reactor: CharacterState, point: tuple[float, float]) -> bool:
    return any(a.contains(point) for a in reactor.arcs)


def path_danger(game: Any, mover: CharacterState, path: list[Dot3], step_costs: list[int],
                min_chance: int = 3, memo: dict | None = None) -> float:
    """Expected boxes of reaction fire ``mover`` takes walking ``path`` (its first dot is
    where he stands), ``step_costs[i]`` MP for reaching ``path[i + 1]``.  ``memo`` keeps
    which dots are in a reactor's arcs and his shot at the mover on each, for the paths of
    one decision (they share most of their dots; nothing moves between them)."""
    reactors = [r for r in game.state.enemies_of(mover) if r.arcs and not r.out and r.pos]
    if not reactors or len(path) < 2:
        return 0.0
    total = 0.0
    posture = mover.posture if mover.posture == PRONE else STANDING
    memo = {} if memo is None else memo
    point = game.point
    blocked = game.board.known_blocked
    warm = game.board.warm_blocked

    def inside(r: CharacterState, dot: Dot3) -> bool:
        key = (r.id, dot, None)
        got = memo.get(key)
        if got is None:
            got = memo[key] = in_any_arc(r, point(dot))
        return got

    def shot(r: CharacterState, dot: Dot3) -> float:
        key = (r.id, dot, posture)
        got = memo.get(key)
        if got is None:
            got = memo[key] = 0.0 if blocked(r.pos, dot, r.vision) else \
                shot_odds(game, r, r.pos, mover, dot, False, posture)
        return got

    for r in reactors:
        # the dots he shoots at, in the order the referee's walk draws the shots ...
        fr = max(1, r.fire_ratio)
        started = inside(r, path[0])
        tally = 0
        at: list[Dot3] = []
        for dot, cost in zip(path[1:], step_costs, strict=False):
            if not inside(r, dot):
                if started and not at:
                    # leaving the arc he began in: the free shot, at the dot he leaves
                    at.append(path[path.index(dot) - 1])
                continue
            tally += cost
            while tally >= fr:
                tally -= fr
                at.append(dot)
        if started and not at and inside(r, path[-1]):
            at.append(path[-1])
        # ... the lines not priced yet answered blocked or traced in one fan from him (most
        # are blocked: a fan finds that for less than a line traced in full), then summed
        # in that order (the same floats)
        new = [d for d in at if (r.id, d, posture) not in memo]
        if new:
            warm(r.pos, new, (r.vision,))
        for dot in at:
            total += shot(r, dot)
    return total


def exposure(game: Any, ch: CharacterState, dot: Dot3, foes: list[CharacterState],
             posture: str | None = None) -> float:
    """Expected boxes the ``foes`` can put into ``ch`` on ``dot`` with one aimed movement-fire
    shot each (what standing there until their next phase risks)."""
    blocked = game.board.known_blocked
    return sum([0.0 if blocked(f.pos, dot, f.vision) else
                shot_odds(game, f, f.pos, ch, dot, True, posture) for f in foes
                if f.pos is not None and not f.out])


def best_offense(game: Any, ch: CharacterState, dot: Dot3, foes: list[CharacterState]
                 ) -> tuple[float, CharacterState | None]:
    """The best expected boxes of one movement-fire shot from ``dot``, and at whom."""
    best: tuple[float, CharacterState | None] = (0.0, None)
    blocked = game.board.known_blocked
    for f in foes:
        if f.out or f.pos is None or blocked(dot, f.pos, ch.vision):
            continue
        v = shot_odds(game, ch, dot, f, f.pos, True)
        if v > best[0]:
            best = (v, f)
    return best
