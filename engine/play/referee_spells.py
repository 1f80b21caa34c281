"""Casting combat spells in play (seed 000 l.1459-1491; the numbers in
:mod:`engine.rules.dmz1990_spells`).

``{"act": "cast", "spell": "mana-bolt", "target": id}`` (or ``"at": [c, r, l]`` for an area
spell, ``"force": "min"`` for Minimum Force) is Movement Fire with magic: 3 MP like a shot
(l.1465), +2 to the Target Value for casting on the move (l.894), the ready weapon put away for
nothing (l.656; readying it again costs its 3 MP).  Reaction fire is taken first and a caster it
stops casts nothing (l.971).  Each target rolls the mage's Sorcery + Force against his Mana or
Physical Spell Defense plus cover and visibility but no elevation (l.812, l.1481); a hit marks
the spell's damage (stun for the stun spells).  An area spell hits every character within three
dots of the aimed dot on its level that the mage can see, friend or foe (l.1447).  A touch spell
needs an adjoining target and an Unarmed Combat test 3 easier first; a failed touch casts
nothing (l.1479).  Every spell cast then tests Drain: Mana Defense against the Drain Value, a
failure marks half the damage as stun on the mage (l.1487).

**Reaction fire** (l.1461, l.962): a mage holding an arc with a weapon may cast a combat spell
instead of firing, one for each Fire Ratio's worth of MP the mover spends, as he would fire; no
+2 for Movement Fire; the weapon is dropped for nothing and costs its 3 MP to ready again in
his own next phase.  The referee casts for him (:func:`react_with_spell`) when the spell
worth most after its expected Drain beats the weapon's shot and its chance is at least the one
a reacting shooter holds out for.  The book puts no limit on which combat spell reacts
(l.1459, l.1463), so an area spell may: aimed at the mover's dot, it is worth what it does to
every enemy within three dots less what it does to the mage's own side there, himself
included (:func:`area_value`).

The referee's hooks are ``Game._do_cast`` (which hands the action here; Non-Combat spells go
on to :mod:`engine.play.referee_sustain`) and ``Game._reaction_attack``.
"""

from __future__ import annotations

from typing import Any

from engine.play.condition import PHYSICAL, STUN
from engine.play.errors import PlayError
from engine.play.referee_areas import across, victims
from engine.play.referee_effects import burden
from engine.play.referee_melee import melee_contact
from engine.play.referee_sustain import cast_non_combat
from engine.play.shots import p_success
from engine.play.state import STANDING, CharacterState
from engine.rules.dmz1990_spells import (
    TOUCH_EASIER,
    Spell,
    castings,
    force_of,
    non_combat,
    refused,
    spell,
    spell_key,
    success_value,
)

#: Target Value modifier of Movement Fire, magic included (seed 000 l.894)
MOVEMENT_FIRE = 2


def known(ch: CharacterState, name: str) -> tuple[Any, int]:
    """The spell ``ch`` knows by that name (a combat :class:`Spell` or a
    :class:`~engine.rules.dmz1990_spells.NonCombat`) and its Maximum Force, or a PlayError."""
    sp = spell(name) or non_combat(name)
    if sp is None:
        why = refused(name)
        if why:
            raise PlayError(f"{spell_key(name)} is not in play: {why}")
        raise PlayError(f"{name!r} is not a spell play knows (docs/play.md, Spells)")
    for have, force in ch.spells.items():
        if (spell(have) or non_combat(have)) == sp:
            return sp, force
    raise PlayError(f"{ch.id} does not know {sp.key}")


def spell_numbers(game: Any, m: CharacterState, t: CharacterState, sp: Spell, force: int,
                  pos: tuple[int, int, int] | None = None, reaction: bool = False
                  ) -> dict[str, Any] | None:
    """Success Value, Target Value and modifiers of ``m``'s spell at ``t`` (standing on
    ``pos``, his own dot when None); None when the mage cannot see him.  Reaction fire has
    no Movement Fire modifier."""
    tpos = pos or t.pos
    if m.pos is None or tpos is None:
        return None
    if pos is None:
        s, chars, _why = game.sight(m, t)
    else:
        s, chars = game.board.sight(m.pos, tpos, m.posture, t.posture, m.vision), 0
    if s.blocked:
        return None
    mods: dict[str, int] = {"defense": t.defense_value(sp.defense)}
    los = {k: v for k, v in s.modifiers.items() if v and k != "elevation"}
    mods.update(los)
    if chars:
        mods["characters"] = chars
    wall = across(game, m, t, (sp.defense,))  # a Mana Barrier between them (l.1796)
    if wall:
        mods["barrier_spell"] = wall
    if not reaction:
        mods["movement_fire"] = MOVEMENT_FIRE
    if m.condition.modifier:
        mods["injury"] = m.condition.modifier
    mods.update(burden(game, m))
    tv = sum(mods.values())
    sv = success_value(m.success_value("sorcery"), force)
    return {"success_value": sv, "target_value": tv, "modifiers": mods}


def spell_value(game: Any, m: CharacterState, t: CharacterState, sp: Spell, force: int,
                pos: tuple[int, int, int] | None = None, reaction: bool = False) -> float:
    """Expected boxes of one cast at ``t`` (what the bots rank by; touch spells 0 unless
    adjoining)."""
    if sp.touch and not melee_contact(game.board, m.pos, pos or t.pos):
        return 0.0
    n = spell_numbers(game, m, t, sp, force, pos, reaction)
    if n is None:
        return 0.0
    p = p_success(n["success_value"] - n["target_value"])
    if sp.touch:
        p *= p_success(m.success_value("unarmed") - t.defense_value("impact") + TOUCH_EASIER)
    return p * sp.damage(force)


def drain_risk(m: CharacterState, sp: Spell, force: int) -> float:
    """Stun boxes a cast is expected to cost the mage in Drain."""
    return (1 - p_success(m.defense_value("mana_spell") - sp.drain_value(force))) * \
        sp.drain_damage(force)


def cast(game: Any, spell_name: str, target: str | None = None,
         at: list[int] | tuple[int, ...] | None = None, force: str = "max",
         extra: int = 0) -> None:
    """Carry out a ``cast`` action for the moving character (see the module docstring)."""
    m = game.mover
    sp, max_force = known(m, spell_name)
    if not isinstance(sp, Spell):
        cast_non_combat(game, m, sp, max_force, target, force, extra, at)
        return
    if extra:
        raise PlayError("a combat spell costs 3 MP like a shot: no extra MP (l.1465)")
    if force not in ("max", "min"):
        raise PlayError(f"force is max or min, not {force!r}")
    f = force_of(max_force, force)
    if sp.area:
        if at is None:
            if target is None:
                raise PlayError(f"{sp.key} is an area spell: give 'at' (or a target)")
            at = game.char(target).pos
        at = tuple(at) if len(at) == 3 else (at[0], at[1], m.pos[2])
        s = game.board.sight(m.pos, at, m.posture, STANDING, m.vision)
        if s.blocked:
            raise PlayError(f"{m.id} cannot see {list(at)}")
        hit = victims(game, m, at)
    else:
        if target is None:
            raise PlayError(f"{sp.key} needs a target")
        t = game.char(target)
        if t.out or t is m:
            raise PlayError(f"{target} is not a target")
        if sp.touch:
            if not melee_contact(game.board, m.pos, t.pos):
                raise PlayError(f"{sp.key} needs {target} on an adjoining dot")
        elif spell_numbers(game, m, t, sp, f) is None:
            raise PlayError(f"{m.id} cannot see {target}: a spell needs sight, and Blind Fire "
                            "never involves magic (l.1427, l.995)")
        hit = [t]
    cost = game.cost("fire", m)
    game._need(m, cost, "casting a spell")
    if m.ready is not None:  # no MP to put the weapon away (l.656)
        game.log.record("unready", who=m.id, weapon=m.weapons[m.ready].name)
        m.ready = None
    if not game._spend(m, cost, f"cast {sp.key}"):
        return  # reaction fire stopped him: the spell is not cast (l.971)
    game.log.record("cast", who=m.id, spell=sp.key, force=f, damage=sp.damage(f),
                    targets=[c.id for c in hit], at=list(at) if at is not None else None)
    resolve(game, m, sp, f, hit, reaction=False)


def resolve(game: Any, m: CharacterState, sp: Spell, f: int, hit: list[CharacterState],
            reaction: bool) -> None:
    """The touch test, each target's spell test and damage, then Drain (cast and paid)."""
    if sp.touch:
        t = hit[0]
        tv = t.defense_value("impact") - TOUCH_EASIER
        res = game.dice.test("touch", m.success_value("unarmed"), tv,
                             {"defense": t.defense_value("impact"), "touch": -TOUCH_EASIER},
                             attacker=m.id, target=t.id, spell=sp.key)
        if not res.success:
            game.log.record("spell-fizzles", who=m.id, spell=sp.key, why="no touch")
            return
    for t in hit:
        if t.out:
            continue
        n = spell_numbers(game, m, t, sp, f, reaction=reaction) if t is not m else {
            "success_value": success_value(m.success_value("sorcery"), f),
            "target_value": m.defense_value(sp.defense),
            "modifiers": {"defense": m.defense_value(sp.defense)}}
        if n is None:
            continue
        res = game.dice.test("reaction spell" if reaction else "spell", n["success_value"],
                             n["target_value"], n["modifiers"], attacker=m.id, target=t.id,
                             spell=sp.key, force=f)
        if res.success:
            game.damage(t, sp.damage(f), STUN if sp.stun else PHYSICAL, source=m.id,
                        spell=sp.key)
    drain(game, m, sp, f)


def drain(game: Any, m: CharacterState, sp: Spell, force: int) -> None:
    """The Drain Resistance test after every spell cast (l.1487)."""
    if m.out:
        return
    dv = sp.drain_value(force)
    res = game.dice.test("drain", m.defense_value("mana_spell"), dv, {"drain": dv},
                         who=m.id, spell=sp.key, force=force)
    if not res.success:
        game.damage(m, sp.drain_damage(force), STUN, source="drain", spell=sp.key)


def area_value(game: Any, m: CharacterState, at: tuple[int, int, int], sp: Spell, force: int,
               reaction: bool = False) -> float:
    """Expected boxes an area spell aimed at ``at`` deals the mage's enemies less what it
    deals his own side (himself included) (what the reacting mage and the bots weigh)."""
    total = 0.0
    for v in victims(game, m, at):
        if v is m:
            p = p_success(success_value(m.success_value("sorcery"), force) -
                          m.defense_value(sp.defense))
            total -= p * sp.damage(force)
            continue
        got = spell_value(game, m, v, sp, force, reaction=reaction)
        total += got if v.side != m.side else -got
    return total


def best_reaction_spell(game: Any, r: CharacterState, m: CharacterState
                        ) -> tuple[float, Spell, int] | None:
    """The combat spell ``r`` knows worth most at ``m`` as reaction fire (expected boxes less
    expected Drain), at Maximum or Minimum Force; an area spell is aimed at ``m``'s dot and
    counts what it does to everyone there, friends against it (l.1447, l.1459)."""
    best = None
    for sp, _level, f in castings(r.spells):
        worth = area_value(game, r, m.pos, sp, f, reaction=True) if sp.area else \
            spell_value(game, r, m, sp, f, reaction=True)
        value = worth - drain_risk(r, sp, f)
        if best is None or value > best[0]:
            best = (value, sp, f)
    return best


def react_with_spell(game: Any, r: CharacterState, m: CharacterState) -> bool:
    """One reaction attack of mage ``r`` at mover ``m`` as a spell, when it promises more
    than his weapon (see the module docstring).  True if he cast."""
    best = best_reaction_spell(game, r, m)
    if best is None or best[0] <= 0:
        return False
    value, sp, f = best
    n = spell_numbers(game, r, m, sp, f, reaction=True)
    if n is None or n["success_value"] - n["target_value"] < game.min_chance:
        return False
    w = r.ready_weapon
    if w is not None and not w.is_grenade and w.can_fire():
        plan = game.plan_shot(r, m, movement_fire=False)
        if plan is not None and game.reaction_hold(r, m, plan) is None and \
                plan.expected >= value:
            return False  # the gun is the better answer
    if r.ready is not None:  # dropped for nothing; 3 MP to ready it in his phase (l.1461)
        game.log.record("unready", who=r.id, weapon=r.weapons[r.ready].name)
        r.ready = None
    hit = victims(game, r, m.pos) if sp.area else [m]
    game.log.record("cast", who=r.id, spell=sp.key, force=f, damage=sp.damage(f),
                    targets=[c.id for c in hit], at=list(m.pos) if sp.area else None,
                    reaction=True, expected=round(value, 2))
    resolve(game, r, sp, f, hit, reaction=True)
    return True
