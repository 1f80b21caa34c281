"""Blind Fire in play (seed 000 l.993-1007, l.617, l.712-713, l.729-731), and what a Detect
spell's knowledge is for.

``{"act": "blind", "target": id}`` is Blind Movement Fire with the ready firearm at an enemy
the shooter cannot see: 3 MP (the narrow arc's Blind Fire, l.617), +4 to the Target Value
(twice the narrow arc's 2 MP, l.999) on top of Movement Fire's +2, cover as usual but no
visibility modifier (the shot is blind already).  The book allows it only where smoke or
darkness is all that hides the target (l.995): play asks the sight verdict for the same line
seen with thermographic eyes, which smoke and darkness do not block (l.860-869); a line a wall
blocks stays blocked.

Who may be fired at blind: DMZ hides no counter (l.1001), so an enemy in smoke or darkness may
be.  An *invisible* enemy (l.1742, "see Perception") is different: the shooter must be aware of
him.  He is when a Detect spell a friend Sustains has found him
(:func:`engine.play.referee_effects.known_to`); otherwise the shot, paid for, begins with a
Perception test (l.973-989): Success Value 20 against the distance in dots, +10 for the
invisible target, +1 a level of cover; a failure wastes the 3 MP and no round is fired.
Blind Fire never involves magic (l.995): no spell is cast at what the mage cannot see.

Firing blind into a group (l.1005): the shooter names a target, but every enemy he could fire
at blind inside the narrow arc he fires along (45 degrees, pointed at the one he named, the
arc whose +4 he pays) is as likely to be hit: the referee picks the target at random before
the shot (logged as ``blind-target``); the same one may be picked again by the next shot.
Friends in the arc are not in the group (the referee never fires at a friend).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.play.condition import PHYSICAL
from engine.play.errors import PlayError
from engine.play.reaction import Arc, direction_to
from engine.play.referee_areas import across
from engine.play.referee_effects import burden, known_to
from engine.play.referee_sustain import sees
from engine.play.shots import p_success
from engine.play.state import CharacterState
from engine.play.weapons import defense_type, minimum_range_penalty, range_step

#: Blind Movement Fire: twice the narrow arc's 2 MP (l.999)
BLIND_MOVEMENT_FIRE = 4
#: Blind Fire with the narrow arc costs 3 MP (l.617)
BLIND_FIRE_MP = 3
MOVEMENT_FIRE = 2
#: the Perception test: Success Value always 20, +10 for an invisible target (l.977-982)
PERCEPTION_SV = 20
PERCEPTION_INVISIBLE = 10


_NOT_BLIND = "nothing but smoke, darkness or invisibility may hide {} from Blind Fire (l.995)"


def blind_numbers(game: Any, a: CharacterState, t: CharacterState) -> dict[str, Any] | str:
    """The numbers of ``a``'s Blind Fire at ``t``, or why there is none."""
    w = a.ready_weapon
    if w is None or w.is_grenade or not w.success:
        return f"{a.id} has no firearm ready"
    if a.pos is None or t.pos is None or t.out:
        return f"{t.id} is not a target"
    if game.board.walled(a.pos, t.pos):
        # a wall, floor or building on the line blocks every eye: he does not see the target
        # and thermographic eyes would not either (the verdicts below, found untraced)
        return _NOT_BLIND.format(t.id)
    # a line a fan found blocked for his eyes (nearly every line a bot weighs a blind shot
    # on): his own verdict is blocked, so neither Game.sight nor it is worked out again
    dark = game.board.known_blocked(a.pos, t.pos, a.vision)
    if not dark:
        s, _chars, _why = game.sight(a, t)
        if not s.blocked:
            return f"{a.id} sees {t.id}: fire at him"
    thermo = game.board.sight(a.pos, t.pos, a.posture, t.posture, "thermographic")
    own_blocked = dark or game.board.sight(a.pos, t.pos, a.posture, t.posture,
                                           a.vision).blocked
    unseen = not sees(a, t)  # invisible to his eyes
    if thermo.blocked or not (own_blocked or unseen):
        return _NOT_BLIND.format(t.id)
    step = range_step(w.type, thermo.range)
    if step is None or step >= len(w.success):
        return f"{t.id} is out of range of the {w.name}"
    mods: dict[str, int] = {"defense": t.defense_value(defense_type(w.type))}
    cover = thermo.total - thermo.visibility
    if cover:
        mods["cover"] = cover
    mods["blind_fire"] = BLIND_MOVEMENT_FIRE
    mods["movement_fire"] = MOVEMENT_FIRE
    if a.condition.modifier:
        mods["injury"] = a.condition.modifier
    mods.update(burden(game, a))
    mr = minimum_range_penalty(w.type, thermo.range)
    if mr:
        mods["minimum_range"] = mr
    wall = across(game, a, t, (defense_type(w.type),))
    if wall:
        mods["barrier_spell"] = wall
    return {"success_value": w.success[step], "target_value": sum(mods.values()),
            "modifiers": mods}


#: how :func:`blind_value` and :func:`blind_group` get a target's numbers
Numbers = Callable[[Any, CharacterState, CharacterState], "dict[str, Any] | str"]


def numbers_memo() -> Numbers:
    """:func:`blind_numbers`, each (shooter, target) worked out once: for a bot weighing a
    blind shot at each enemy in one state, where every target's value asks the numbers of
    the others in its arc again (a third of the calls in Street Ambush's night)."""
    memo: dict[tuple[str, str], dict[str, Any] | str] = {}

    def numbers(game: Any, a: CharacterState, t: CharacterState) -> dict[str, Any] | str:
        key = (a.id, t.id)
        got = memo.get(key)
        if got is None:
            got = memo[key] = blind_numbers(game, a, t)
        return got

    return numbers


def perceives(game: Any, a: CharacterState, t: CharacterState) -> bool:
    """The Perception test of ``a`` for the invisible ``t`` (l.975-989): 20 against the
    distance, +10 for Invisibility, +1 a level of cover on the line."""
    thermo = game.board.sight(a.pos, t.pos, a.posture, t.posture, "thermographic")
    mods = {"distance": game.board.lattice.distance(a.pos[:2], t.pos[:2]),
            "invisible": PERCEPTION_INVISIBLE}
    cover = thermo.modifiers.get("cover", 0)
    if cover:
        mods["cover"] = cover
    res = game.dice.test("perception", PERCEPTION_SV, sum(mods.values()), mods,
                         who=a.id, target=t.id)
    if not res.success:
        game.log.record("unperceived", who=a.id, target=t.id)
    return res.success


def blind_targets(game: Any, a: CharacterState) -> list[str]:
    """Enemies ``a`` could fire at blind now (the hot-seat panel's Blind fire… button)."""
    w = a.ready_weapon
    if a.out or a.pos is None or w is None or w.is_grenade or not w.can_fire():
        return []
    return [t.id for t in game.state.enemies_of(a)
            if not t.out and t.pos is not None and not isinstance(blind_numbers(game, a, t), str)]


def blind_group(game: Any, a: CharacterState, t: CharacterState,
                numbers: Numbers = blind_numbers) -> list[CharacterState]:
    """The enemies a Blind Fire shot of ``a`` aimed at ``t`` may hit (l.1005): ``t`` and every
    other enemy he could fire at blind inside the narrow arc pointed at ``t``, by id.
    ``numbers``: :func:`blind_numbers`, or a memo of it for one state (:func:`numbers_memo`)."""
    here = game.point(a.pos)
    arc = Arc("narrow", here, direction_to(here, game.point(t.pos)))
    group = [t]
    for o in game.state.enemies_of(a):
        if o is t or o.out or o.pos is None or not arc.contains(game.point(o.pos)):
            continue
        if not isinstance(numbers(game, a, o), str):
            group.append(o)
    return sorted(group, key=lambda c: c.id)


def blind_value(game: Any, a: CharacterState, t: CharacterState,
                numbers: Numbers = blind_numbers) -> float:
    """Expected boxes of one Blind Fire shot aimed at ``t`` (0: none), the target picked at
    random from its group: what the bots rank it by.  ``numbers`` as for :func:`blind_group`."""
    n = numbers(game, a, t)
    if isinstance(n, str):
        return 0.0
    group = blind_group(game, a, t, numbers)
    total = 0.0
    for o in group:
        no = n if o is t else numbers(game, a, o)
        if not isinstance(no, str):
            total += p_success(no["success_value"] - no["target_value"])
    return total / len(group) * a.ready_weapon.damage


def pick_target(game: Any, a: CharacterState, t: CharacterState) -> CharacterState:
    """The one a blind shot aimed at ``t`` hits, picked at random from its group (l.1005)."""
    group = blind_group(game, a, t)
    if len(group) == 1:
        return t
    hit = group[game.dice.rng.randrange(len(group))]
    game.log.record("blind-target", who=a.id, aimed=t.id, group=[c.id for c in group],
                    target=hit.id)
    return hit


def blind_fire(game: Any, target: str) -> None:
    """Carry out a ``blind`` action of the mover (see the module docstring)."""
    m = game.mover
    t = game.char(target)
    if t.side == m.side:
        raise PlayError(f"{target} is not a target")
    w = m.ready_weapon
    if w is not None and not w.is_grenade and not w.can_fire():
        raise PlayError(f"{m.id}'s {w.name} cannot fire (empty or at its rate of fire)")
    n = blind_numbers(game, m, t)
    if isinstance(n, str):
        raise PlayError(n)
    cost = (float(BLIND_FIRE_MP), 0)
    game._need(m, cost, "blind fire")
    if not game._spend(m, cost, "blind fire") or t.out:
        return
    n = blind_numbers(game, m, t)  # reaction fire may have changed things
    if isinstance(n, str):
        return
    t = pick_target(game, m, t)
    n = blind_numbers(game, m, t)
    if isinstance(n, str):
        return
    if not sees(m, t) and not known_to(game, m, t) and not perceives(game, m, t):
        return
    if w.loaded is not None:
        w.loaded -= 1
    w.fired_this_turn += 1
    res = game.dice.test("blind fire", n["success_value"], n["target_value"], n["modifiers"],
                         attacker=m.id, target=t.id, weapon=w.name)
    if res.success:
        game.damage(t, w.damage, PHYSICAL, source=m.id)
