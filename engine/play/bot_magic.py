"""The bots' Non-Combat spells: heal, armor or hide a friend when it pays (seed 000 l.1699-1782).

A mage weighs every Non-Combat spell he knows, at Maximum and Minimum Force, on himself and on
each friend he can touch: the chance of the spell test times what it buys, less the stun its
Drain is expected to cost him.  What it buys is counted in boxes, like the rest of the bot:

* a Heal spell, the physical boxes it gives back (and :data:`BACK_IN_FIGHT` more when it wakes
  an unconscious friend);
* Armor and Invisibility, the boxes of fire the enemy is expected to put into the friend where
  he stands with one shot each, less the same with the spell on: the referee's own odds
  (``exposure``) asked with the defense raised or the friend unseen.

* a Physical Barrier wall (l.1794-1796), the fire it keeps off each friend along the first
  dots of his way to his goal (his exposure to each enemy whose line to those dots the wall
  crosses, with the wall's Force on his Ballistic and Impact Defense), less the fire it keeps
  off the enemy from our side where we stand; never a wall across a friend's own way;
* Levitate Person on a friend (l.1753-1766), when a leg over a ledge (up onto a roof, out of a
  pit) saves his walk more than the mage's MP it costs.

A bot mage holds one Sustained spell at a time (each one is +1 to all his tests, l.1495).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import shapely

from engine.lattice import Dot3
from engine.play.bot_odds import exposure, in_any_arc, shot_odds
from engine.play.condition import PHYSICAL
from engine.play.referee_areas import BARRIER_DEFENSES, wall_shape
from engine.play.referee_areas import victims as area_victims
from engine.play.referee_blind import BLIND_FIRE_MP, blind_value, numbers_memo
from engine.play.referee_effects import known_to
from engine.play.referee_levels import fall_targets, may_stop_on
from engine.play.referee_levitate import leg_mp
from engine.play.referee_spells import drain_risk, spell_value
from engine.play.referee_sustain import problem, target_value
from engine.play.shots import p_success
from engine.play.state import STANDING, CharacterState
from engine.rules.dmz1990_spells import (
    ARMORED,
    DOME_RADIUS,
    LEVITATE_MP_PER_TURN,
    NON_COMBAT_MP,
    POLTERGEIST_SV_PER_FORCE,
    WALL_AHEAD,
    NonCombat,
    armor_bonus,
    castings,
    force_of,
    non_combat,
    ratio_after,
    success_value,
)
from engine.rules.dmz1990_spells import spell as combat_spell

#: boxes an unconscious friend healed back into the fight is worth beyond the boxes themselves
BACK_IN_FIGHT = 3.0
#: expected boxes a support spell must buy before a bot mage spends 3 MP on it
WORTH = 0.6
#: MP a mover is reckoned to spend in an arc he crosses (what a Fire Ratio change is worth)
ARC_WALK = 6
#: the chance a reacting character's arc is crossed at all before his next phase
ARC_ODDS = 0.5
#: turns a Petrified enemy is reckoned to stay out (the mage drops nothing he need not)
PETRIFIED_TURNS = 2
#: expected boxes before a bot fires blind (a blind shot wastes ammunition more often)
GOOD_BLIND = 0.5
#: MP of walking a levitation leg must save before a bot mage floats
LEG_SAVES = 3
#: the least chance a bot mage casts Levitate on himself with
LEVITATE_ODDS = 0.7
#: what a levitation saves when no walk gets there at all (up onto a roof, out of a pit)
WALK_NONE = "cannot walk there"
#: dots of a friend's way to his goal a Barrier wall is weighed over (about a turn's walk)
WAY_DOTS = 6
INF = float("inf")
#: where a friend is heading (the bot's own goal for him), or None
GoalOf = Callable[[CharacterState], "Dot3 | None"]


def _shielded(game: Any, t: CharacterState, effect: str, force: int,
              foes: list[CharacterState]) -> float:
    """Boxes of fire the spell would keep off ``t`` standing where he is (one shot a foe)."""
    before = exposure(game, t, t.pos, foes)
    if before <= 0:
        return 0.0
    if effect in ("armor", "barrier"):
        bonus = armor_bonus(force) if effect == "armor" else force
        saved = dict(t.defense)
        for k in ARMORED:
            t.defense[k] = t.defense_value(k) + bonus
        try:
            after = exposure(game, t, t.pos, foes)
        finally:
            t.defense.clear()
            t.defense.update(saved)
    else:
        t.invisible = True
        try:
            after = exposure(game, t, t.pos, foes)
        finally:
            t.invisible = False
    return max(0.0, before - after)


def _reaction_shots(fire_ratio: int) -> float:
    """Reaction attacks a mover walking :data:`ARC_WALK` MP through an arc draws."""
    return ARC_WALK / max(1, fire_ratio)


def _best_at(game: Any, a: CharacterState, others: list[CharacterState]) -> float:
    """``a``'s best expected boxes of one shot at any of ``others`` from where he stands."""
    return max((shot_odds(game, a, a.pos, o, o.pos, False) for o in others
                if o.pos is not None and not o.out), default=0.0)


def _threat(game: Any, foe: CharacterState, mine: list[CharacterState]) -> float:
    """Boxes ``foe`` puts into ``mine`` with one aimed shot each (what silencing him saves)."""
    return sum(shot_odds(game, foe, foe.pos, c, c.pos, True) for c in mine
               if c.pos is not None and not c.out)


def _distracted(game: Any, foe: CharacterState, key: str, by: int,
                mine: list[CharacterState]) -> float:
    """Boxes of his fire a +``by`` to ``foe``'s tests keeps off ``mine`` (the referee's own
    odds asked with the modifier on)."""
    before = _threat(game, foe, mine)
    if before <= 0:
        return 0.0
    foe.under[key] = by
    try:
        after = _threat(game, foe, mine)
    finally:
        del foe.under[key]
    return max(0.0, before - after)


def _gain(game: Any, ch: CharacterState, sp: NonCombat, t: CharacterState, force: int,
          foes: list[CharacterState], mine: list[CharacterState]) -> float:
    """Boxes a spell on ``t`` buys ``ch``'s side (module docstring)."""
    if sp.effect == "heal":
        gain = float(min(sp.heal, len(t.condition.marked(PHYSICAL))))
        if t.condition.out and t.condition.boxes.get(0) == PHYSICAL:
            gain += BACK_IN_FIGHT  # box 0 is the first healed: he wakes
        return gain
    if sp.effect in ("armor", "invisible"):
        return _shielded(game, t, sp.effect, force, foes)
    if sp.effect == "ratios":
        fr = ratio_after(t.fire_ratio, sp.fire)
        shots = _reaction_shots(fr) - _reaction_shots(t.fire_ratio)
        if t.side == ch.side:  # more reaction attacks of his
            return max(0.0, shots) * _best_at(game, t, foes) * ARC_ODDS
        return max(0.0, -shots) * _best_at(game, t, mine) * ARC_ODDS
    if t.side == ch.side:
        return 0.0
    if sp.effect == "distract":
        return _distracted(game, t, sp.key, sp.distract, mine)
    if sp.effect == "petrify":
        return PETRIFIED_TURNS * _threat(game, t, mine)
    return 0.0


def _targets(game: Any, ch: CharacterState, sp: NonCombat, mine: list[CharacterState],
             foes: list[CharacterState]) -> list[CharacterState]:
    if sp.reach in ("touch", "self"):
        return mine
    if sp.reach == "los" and sp.effect != "levitate":
        return mine + foes
    return []


def support_spell(game: Any, ch: CharacterState, foes: list[CharacterState],
                  keep_mp: float, goal_of: GoalOf | None = None
                  ) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The Non-Combat ``cast`` worth most to ``ch``'s side now, and why; None when nothing
    buys :data:`WORTH` boxes or he cannot spare 3 MP beyond ``keep_mp``.  ``goal_of`` says
    where each friend is heading (a Barrier wall is weighed over his way there)."""
    if game.units != "MP" or ch.sustained or ch.mp_left < NON_COMBAT_MP + keep_mp:
        return None
    best: tuple[float, dict[str, Any], dict[str, Any]] | None = None
    mine = [c for c in game.state.characters.values()
            if c.side == ch.side and c.pos is not None and c.exited is None]
    memo: dict[str, Any] = {}  # what every Force of every spell weighs alike (nothing moves)
    for sp, level, f in castings(ch.spells, non_combat):
        sv = success_value(ch.success_value("sorcery"), f)
        drain = drain_risk(ch, sp, f)
        options = [(t, None) for t in _targets(game, ch, sp, mine, foes)
                   if not problem(game, ch, sp, t)]
        options += _places(game, ch, sp, f, foes, mine, goal_of, memo)
        for t, place in options:
            if place is None:
                p = p_success(sv - target_value(sp, t, ch))
                gain = _gain(game, ch, sp, t, f, foes, mine)
            else:
                # each one in a Chaotic World and each enemy a Detect spell looks
                # for rolls alone (counted in the gain); the others roll once
                p = 1.0 if sp.effect in ("distract", "detect") else \
                    p_success(sv - int(place[1]))
                gain = place[2]
            value = p * gain - drain
            if value >= WORTH and (best is None or value > best[0]):
                act = {"act": "cast", "spell": sp.key, "force": level}
                if place is None:
                    act["target"] = t.id
                elif sp.reach != "around":
                    act["at"] = list(place[0])
                why = {"spell": sp.key, "target": t.id if place is None else None,
                       "force": level, "chance": round(p, 2), "buys_boxes": round(gain, 2),
                       "drain_boxes": round(drain, 2)}
                best = (value, act, why)
    return None if best is None else (best[1], best[2])


def _places(game: Any, ch: CharacterState, sp: NonCombat, force: int,
            foes: list[CharacterState], mine: list[CharacterState],
            goal_of: GoalOf | None = None, memo: dict[str, Any] | None = None
            ) -> list[tuple[None, tuple[tuple[int, int, int], int, float]]]:
    """Place spells worth weighing: (None, (dot, Target Value, boxes bought)).  Chaotic World
    and Poltergeist at each enemy he sees (friends in the area count against it), a Physical
    Barrier dome round himself (the fire it keeps off him, as Armor of its Force would) and,
    knowing where his friends head, a Physical Barrier wall (:func:`_walls`; ``memo`` keeps
    what does not depend on the Force for the next one weighed in the same position)."""
    out: list[tuple[None, tuple[tuple[int, int, int], int, float]]] = []
    if sp.reach == "area":
        sv = success_value(ch.success_value("sorcery"), force)
        for f in foes:
            if f.pos is None or f.out or game.sight(ch, f)[0].blocked:
                continue
            gain = 0.0
            for v in area_victims(game, ch, f.pos):
                sign = 1.0 if v.side != ch.side else -1.0
                if sp.effect == "distract":
                    p = p_success(sv - target_value(sp, v, ch))
                    gain += sign * p * (_distracted(game, v, sp.key, sp.distract, mine)
                                        if v.side != ch.side else ARC_ODDS)
                else:  # Poltergeist: a box of stun at Force x 5 against Impact
                    gain += sign * p_success(POLTERGEIST_SV_PER_FORCE * force -
                                             v.defense_value("impact"))
            out.append((None, (f.pos, int(sp.target_value or 0), gain)))
    elif sp.effect == "detect" and ch.pos is not None:
        lat = game.board.lattice
        hidden = [f for f in foes if f.invisible and f.pos is not None and not f.out and
                  not known_to(game, ch, f) and
                  lat.distance(f.pos[:2], ch.pos[:2]) <= sp.radius]
        sv = success_value(ch.success_value("sorcery"), force)
        gain = sum(_threat(game, f, mine) * p_success(sv - target_value(sp, f, ch))
                   for f in hidden) * ARC_ODDS
        out.append((None, (ch.pos, 0, gain)))
    elif sp.reach == "barrier" and ch.pos is not None:
        # a dome: it covers every friend within three dots of him (the foes stay outside)
        lat = game.board.lattice
        inside = [c for c in mine if not c.out and c.pos is not None and c.pos[2] ==
                  ch.pos[2] and lat.distance(c.pos[:2], ch.pos[:2]) <= DOME_RADIUS]
        outside = [f for f in foes if f.pos is not None and
                   lat.distance(f.pos[:2], ch.pos[:2]) > DOME_RADIUS]
        gain = sum(_shielded(game, c, "barrier", force, outside) if sp.key ==
                   "physical-barrier" else _spells_kept_off(game, c, force, outside)
                   for c in inside)
        out.append((None, (ch.pos, int(sp.target_value or 0), gain)))
        if goal_of is not None and "ballistic" in BARRIER_DEFENSES.get(sp.key, ()):
            out += [(None, (at, int(sp.target_value or 0), g))
                    for at, g in _walls(game, ch, force, foes, mine, goal_of, memo)]
    return out


def _planned(board: Any, key: tuple, work: Any, near: tuple[Dot3, int] | None = None) -> list:
    """``work()`` as a list, kept by ``key`` in the map state's table for what the bots
    work out from its answers alone (:meth:`~engine.play.engine_board.EngineBoard.plans`)
    when the board has one; a board without it works it out each time.  ``near`` (a dot,
    a radius): the work asks only sight lines within that ring, so it is kept for every
    door state alike in the doors there (``plans_near``)."""
    shared = None if near is None else getattr(board, "plans_near", None)
    got = None if shared is None else shared(*near)
    if got is not None:
        table, doors = got
        key = (*key, doors)
        if len(table) > 50_000:
            table.clear()
    else:
        plans = getattr(board, "plans", None)
        if plans is None:
            return list(work())
        table = plans()
    got = table.get(key)
    if got is None:
        got = table[key] = tuple(work())
    return list(got)


def _way(game: Any, c: CharacterState, goal: Dot3, n: int = WAY_DOTS) -> list[Dot3]:
    """The first ``n`` dots of ``c``'s cheapest walk to ``goal`` on his level (down the
    field of path costs to it), after the dot he stands on: a fact of the map state."""
    return _planned(game.board, ("way", tuple(c.pos), tuple(goal), c.move_ratio, n),
                    lambda: _way_down(game, c.pos, goal, c.move_ratio, n))


def _way_down(game: Any, here: Dot3, goal: Dot3, move_ratio: int, n: int) -> list[Dot3]:
    """:func:`_way` worked out, one :func:`_step_down` at a time.  Each step is kept in the
    map state's table (:meth:`~engine.play.engine_board.EngineBoard.plans`): a friend who
    walked on asks his way again from a dot of the way he was given, and the ways of
    friends heading for one goal soon meet, so most steps were worked out already."""
    board = game.board
    plans = getattr(board, "plans", None)
    table = None if plans is None else plans()
    here, goal = tuple(here), tuple(goal)
    out: list[Dot3] = []
    for _ in range(n):
        if here == goal:
            break
        if table is None:
            nxt = _step_down(game, here, goal, move_ratio)
        else:
            key = ("way-step", here, goal, move_ratio)
            nxt = table.get(key, _UNASKED)
            if nxt is _UNASKED:
                nxt = table[key] = _step_down(game, here, goal, move_ratio)
        if nxt is None:
            break
        here = nxt
        out.append(here)
    return out


#: not in the table yet (None there is an answer: no step down)
_UNASKED = object()


def _step_down(game: Any, here: Dot3, goal: Dot3, move_ratio: int) -> Dot3 | None:
    """The next dot of the way from ``here`` to ``goal``: the neighbour on his level with the
    least step plus cost to the goal (of equal ones, the straightest: nearest the goal as
    the crow flies, then the lowest dot); None when there is none.  Neighbours are priced
    cheapest cost to the goal first, and one whose cost alone is above the best found is
    not priced: no step costs less than nothing.  tests/play/test_bot_way_lean.py compares
    the way with pricing every step."""
    board = game.board
    lat = board.lattice
    # the dots one step away on his level (a step exists where the graph has an edge)
    linked = set(board.neighbours(here))
    lv = here[2]
    nbrs = [d for x, y in lat.neighbours(here[:2])
            if (d := (x, y, lv)) in linked and board.standable(d)]
    if not nbrs:
        return None
    costs = board.costs_to(goal, move_ratio, nbrs)
    best = None
    for cost, k in sorted((cost, k) for k, cost in enumerate(costs) if cost is not None):
        if best is not None and cost > best[0]:
            break
        d = nbrs[k]
        st = board.step(here, d, move_ratio)
        if st is None:
            continue
        cand = (cost + st.cost, _dist2(game, d, goal), d)
        if best is None or cand < best:
            best = cand
    return None if best is None else best[2]


def _dist2(game: Any, a: Dot3, b: Dot3) -> float:
    (ax, ay), (bx, by) = game.point(a), game.point(b)
    return (ax - bx) ** 2 + (ay - by) ** 2


def _wall_dots(game: Any, ch: CharacterState) -> list[Dot3]:
    """The dots a wall may be cast at: :data:`WALL_AHEAD` dots from him on his level, in
    his sight (l.1794); a fact of the map state."""
    return _planned(game.board, ("wall_dots", tuple(ch.pos), ch.posture, ch.vision),
                    lambda: _wall_dots_seen(game.board, ch.pos, ch.posture, ch.vision),
                    (ch.pos, WALL_AHEAD))


def _wall_lines(game: Any, ch: CharacterState) -> list[tuple[Dot3, Any]]:
    """Each of :func:`_wall_dots` with the line a wall cast there lays (``wall_shape``)."""
    return _planned(game.board, ("wall_lines", tuple(ch.pos), ch.posture, ch.vision),
                    lambda: [(at, wall_shape(game, ch, at)) for at in _wall_dots(game, ch)],
                    (ch.pos, WALL_AHEAD))


def _wall_dots_seen(board: Any, pos: Dot3, posture: str, vision: str) -> list[Dot3]:
    """:func:`_wall_dots` worked out for an eye on ``pos``."""
    lat = board.lattice
    ring, edge = {pos[:2]}, [pos[:2]]
    for _ in range(WALL_AHEAD):
        edge = [n for d in edge for n in lat.neighbours(d) if n not in ring]
        ring.update(edge)
    dots = [(x, y, pos[2]) for x, y in sorted(ring)
            if lat.distance((x, y), pos[:2]) == WALL_AHEAD and board.standable((x, y, pos[2]))]
    # one fan tells the blocked lines of the ring (most of them, indoors) without tracing
    # each; the rest are asked in full as before: the same dots
    board.warm_blocked(pos, dots, (vision,))
    return [d for d in dots if not board.known_blocked(pos, d, vision) and
            not board.sight(pos, d, posture, STANDING, vision).blocked]


def _kept_off(game: Any, shooter: CharacterState, sdot: Dot3, t: CharacterState, tdot: Dot3,
              force: int, memo: dict) -> float:
    """Expected boxes of one shot of ``shooter`` at ``t`` on ``tdot`` that a Physical
    Barrier of ``force`` between them keeps off (+Force to his Ballistic and Impact, l.1796)."""
    key = (shooter.id, sdot, t.id, tdot)
    got = memo.get(key)
    if got is None:
        before = shot_odds(game, shooter, sdot, t, tdot, True)
        after = before
        if before > 0:
            saved = dict(t.defense)
            for k in ARMORED:
                t.defense[k] = t.defense_value(k) + force
            try:
                after = shot_odds(game, shooter, sdot, t, tdot, True)
            finally:
                t.defense.clear()
                t.defense.update(saved)
        got = memo[key] = max(0.0, before - after)
    return got


def _walls(game: Any, ch: CharacterState, force: int, foes: list[CharacterState],
           mine: list[CharacterState], goal_of: GoalOf, memo: dict[str, Any] | None = None
           ) -> list[tuple[Dot3, float]]:
    """Each wall he may cast and the boxes it buys (module docstring).  A friend on his way
    draws, from an enemy holding an arc over it, a reaction attack for every Fire Ratio of
    MP he spends in the arc (l.971; one step a dot at his Move Ratio), and from one without
    an arc a shot where he ends up; the wall keeps its Force off each of those across it.  A
    friend standing where he is loses its Force on his own shots across it.  A wall across
    a friend's way (it stops walkers, l.1796) is not weighed.  Which lines each wall
    crosses does not depend on its Force: ``memo`` keeps them for the next Force weighed."""
    layout = None if memo is None else memo.get("walls")
    if layout is None:
        layout = _wall_layout(game, ch, foes, mine, goal_of)
        if memo is not None:
            memo["walls"] = layout
    kept_memo: dict = {}
    out = []
    for at, legs, stands in layout:
        gain = 0.0
        for c, f, dots in legs:
            kept = sum(_kept_off(game, f, f.pos, c, d, force, kept_memo) for d in dots)
            gain += kept * c.move_ratio / max(1, f.fire_ratio) if f.arcs else kept
        gain -= sum(_kept_off(game, c, c.pos, f, f.pos, force, kept_memo) for c, f in stands)
        if gain > 0:
            out.append((at, gain))
    return out


def _wall_layout(game: Any, ch: CharacterState, foes: list[CharacterState],
                 mine: list[CharacterState], goal_of: GoalOf
                 ) -> list[tuple[Dot3, list[tuple[CharacterState, CharacterState, list[Dot3]]],
                                 list[tuple[CharacterState, CharacterState]]]]:
    """Per wall :func:`_walls` weighs (in :func:`_wall_dots` order, none across a friend's
    way): (its dot, (friend, enemy, the dots of his way under that enemy's fire the wall
    crosses the line to) per friend on his way and enemy, (friend, enemy) per friend
    standing whose line to that enemy it crosses).  No wall without an enemy in sight: his
    friends' goals and ways are not asked then."""
    seen = [f for f in foes if f.pos is not None and not f.out]
    if not seen:
        return []
    level = ch.pos[2]
    ways, standing = [], []
    for c in mine:
        if c.out or c.pos is None:
            continue
        goal = goal_of(c) if c.pos[2] == level else None
        way = _way(game, c, goal) if goal is not None and goal != c.pos else []
        if way:
            ways.append((c, way))
        else:
            standing.append(c)
    if not ways:
        return []
    walls = _wall_lines(game, ch)
    if not walls:
        return []
    pt = game.point
    # the lines do not depend on where the wall goes: made once, not once per wall dot, and
    # each crossed with every wall in one call (shapely's own predicate, on arrays)
    way_lines = [shapely.linestrings([pt(d) for d in (c.pos, *way)]) for c, way in ways]
    legs = []  # (friend, enemy, dots of his way under that enemy's fire)
    segs = []  # their sight lines' ends, then those of the friends standing
    for c, way in ways:
        for f in seen:
            dots = [d for d in way if in_any_arc(f, pt(d))] if f.arcs else way[-1:]
            legs.append((c, f, dots))
            segs += [(pt(f.pos), pt(d)) for d in dots]
    stands = [(c, f) for c in standing for f in seen]
    segs += [(pt(c.pos), pt(f.pos)) for c, f in stands]
    lines = np.array([line for _at, line in walls], dtype=object)
    blocked = shapely.intersects(np.array(way_lines, dtype=object)[:, None],
                                 lines[None, :]).any(axis=0).tolist()
    crossed = shapely.intersects(shapely.linestrings(np.array(segs, dtype=float))[:, None],
                                 lines[None, :]).T.tolist() if segs else [[] for _ in walls]
    out = []
    for (at, _line), stop, cross in zip(walls, blocked, crossed, strict=True):
        if stop:
            continue  # it would stop him too
        k = 0
        per_leg = []
        for c, f, dots in legs:
            per_leg.append((c, f, [d for d, x in zip(dots, cross[k:k + len(dots)],
                                                     strict=True) if x]))
            k += len(dots)
        out.append((at, per_leg, [(c, f) for (c, f), x in zip(stands, cross[k:], strict=True)
                                  if x]))
    return out


def _spells_kept_off(game: Any, t: CharacterState, force: int,
                     foes: list[CharacterState]) -> float:
    """Boxes of the enemy mages' best spell at ``t`` a Mana Barrier dome of ``force`` keeps
    off (it adds its Force to his Mana and Physical Spell Defense against them, l.1796)."""
    def threat() -> float:
        total = 0.0
        for f in foes:
            if f.out or f.pos is None or not f.spells:
                continue
            total += max((spell_value(game, f, t, sp, force_of(top, "max"))
                          for name, top in f.spells.items()
                          if (sp := combat_spell(name)) is not None and not sp.area),
                         default=0.0)
        return total

    before = threat()
    if before <= 0:
        return 0.0
    saved = dict(t.defense)
    for k in ("mana_spell", "physical_spell"):
        t.defense[k] = t.defense_value(k) + force
    try:
        after = threat()
    finally:
        t.defense.clear()
        t.defense.update(saved)
    return max(0.0, before - after)


def blind_shot(game: Any, ch: CharacterState, foes: list[CharacterState]
               ) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Blind Fire when it is worth a shot: at an enemy smoke or darkness hides, or an invisible
    one a friend's Detect spell has found (the expected boxes with the target picked at random
    from the group in the arc, l.1005)."""
    if game.units != "MP" or ch.mp_left < BLIND_FIRE_MP:
        return None
    best = None
    numbers = numbers_memo()  # (nothing changes while he weighs them: each target's once)
    for f in foes:
        if f.invisible and not known_to(game, ch, f):
            continue
        v = blind_value(game, ch, f, numbers)
        if v >= GOOD_BLIND and (best is None or v > best[0]):
            best = (v, f)
    if best is None:
        return None
    return ({"act": "blind", "target": best[1].id},
            {"target": best[1].id, "blind": True, "expected_boxes": round(best[0], 2)})


def levitation(game: Any, ch: CharacterState, goal: tuple[int, int, int] | None,
               t: CharacterState | None = None
               ) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """A Levitate Person shortcut for ``t`` (himself when None) towards ``goal`` for a mage
    who knows the spell: a leg over a ledge (up or down,
    :func:`engine.play.referee_levitate.leg_mp`) that saves at least :data:`LEG_SAVES` MP
    of walking more than the leg costs the mage (a way he cannot walk at all, out of a pit or
    up onto a roof without stairs, saves everything), then the leg; a levitation that saves
    nothing more is dropped (it costs him +1 on every test).  A friend must be in his sight
    (l.1760)."""
    t = ch if t is None else t
    if game.units != "MP" or goal is None or t.pos is None or t.out or ch.out:
        return None
    held = next((e for e in ch.sustained if e["spell"] == "levitate-person"
                 and e["target"] == t.id), None)
    top = next((f for n, f in ch.spells.items() if non_combat(n) is not None
                and non_combat(n).effect == "levitate"), None)
    if top is None:
        return None
    if t is not ch and game.sight(ch, t)[0].blocked:
        return None
    board, pos = game.board, t.pos
    legs = {d: leg_mp(game, pos, d) for d in ledge_dots(board, pos)}
    legs = {d: mp for d, mp in legs.items() if mp is not None and
            may_stop_on(game.state, board, t, d) is None}
    best = None
    if legs:
        dots = [pos, *legs]
        costs = [INF if c is None else c for c in board.costs_to(goal, t.move_ratio, dots)]
        for d, c in zip(dots[1:], costs[1:], strict=True):
            saves = costs[0] - (c + legs[d])
            if c < INF and saves >= LEG_SAVES and (best is None or saves > best[0]):
                best = (saves, d)
    if held is not None:
        if best is None:
            return ({"act": "drop", "spell": "levitate-person", "target": t.id},
                    {"spell": "levitate-person", "why": "no ledge worth floating over"})
        used = held.get("levitate", 0) if held.get("turn") == game.state.turn else 0
        mp = legs[best[1]]
        if ch.mp_left < mp or used + mp > LEVITATE_MP_PER_TURN:
            return None
        return ({"act": "levitate", "target": t.id, "to": list(best[1])},
                {"to": list(best[1]), "saves_mp": _saves(best[0]), "leg_mp": mp})
    if best is None or ch.sustained or ch.mp_left < NON_COMBAT_MP + legs[best[1]]:
        return None
    sp = non_combat("levitate-person")
    p = p_success(success_value(ch.success_value("sorcery"), top) - target_value(sp, t, ch))
    if p < LEVITATE_ODDS:
        return None
    return ({"act": "cast", "spell": sp.key, "target": t.id, "force": "max"},
            {"spell": sp.key, "target": t.id, "chance": round(p, 2),
             "saves_mp": _saves(best[0])})


def _saves(mp: float) -> float | str:
    """The walk a levitation saves, for the ``why`` trace (JSON has no infinity)."""
    return round(mp, 1) if mp < INF else WALK_NONE


def lift_friend(game: Any, ch: CharacterState, goal_of: GoalOf
                ) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Levitation for the friend it helps most (:func:`levitation` on each friend he sees,
    heading where ``goal_of`` says): the leg of a friend he already holds up first, then a
    new cast for the friend it saves most walking."""
    if game.units != "MP" or ch.out or ch.pos is None or not any(
            (sp := non_combat(n)) is not None and sp.effect == "levitate" for n in ch.spells):
        return None
    best = None
    for c in game.state.characters.values():
        if c is ch or c.side != ch.side or c.out or c.pos is None or c.exited is not None:
            continue
        got = levitation(game, ch, goal_of(c), c)
        if got is None:
            continue
        if got[0]["act"] != "cast":
            return got  # a leg or a drop of the one he holds
        saves = got[1]["saves_mp"]
        rank = INF if saves == WALK_NONE else saves
        if best is None or rank > best[0]:
            best = (rank, got)
    return None if best is None else best[1]


def ledge_dots(board: Any, pos: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    """Dots a levitation leg over a ledge may reach from ``pos``: those it would fall to, and
    the ledges above his neighbours it would fall from (within three stories)."""
    out = list(fall_targets(board, pos))
    for n in board.lattice.neighbours(pos[:2]):
        for lv in range(pos[2] + 1, pos[2] + 4):
            d = (n[0], n[1], lv)
            if board.standable(d) and pos in fall_targets(board, d):
                out.append(d)
    return out
