"""Non-Combat and Sustained spells in play (seed 000 l.1433-1439, l.1469-1495, l.1699-1782; the
numbers in :mod:`engine.rules.dmz1990_spells`).

``{"act": "cast", "spell": "heal-moderate-wound", "target": id, "extra": 1}`` casts a Non-Combat
spell in the mage's own Movement Phase only (never as reaction fire, l.1483): 3 MP, and 3 MP
more for each -1 to the Target Value (``extra``, l.1471).  Reaction fire at the mage is taken
first (l.971).  The subject is the mage or a friend on an adjoining dot (touch; a voluntary
subject needs no Unarmed Combat test, l.1479).  The test rolls Sorcery + Force against the
spell's Target Value (the boxes the subject has filled for a Heal spell, 5 for Armor and
Invisibility), then Drain: Mana Defense against Force + the spell's modifier, half the Force
as stun on a failure (l.1489, l.1505).

A spell that works stays Sustained: it is listed on the mage (``sustained``) and adds 1 to the
Target Value of every test he makes (l.1495).  A Heal spell restores its boxes at once, from
the lowest-numbered physical box up, and becomes permanent after a turn a box (l.1719); Armor
and Invisibility last while Sustained.  ``{"act": "drop", "spell": key}`` drops one at no cost
(l.1437): a Heal spell dropped early loses its effect, the boxes come back.  A mage knocked out
drops them all (he can no longer hold them: assumed, the book does not say).
"""

from __future__ import annotations

from typing import Any

from engine.play import referee_areas
from engine.play.condition import PHYSICAL, STUN
from engine.play.errors import PlayError
from engine.play.referee_effects import apply, burden, detect, undo
from engine.play.referee_melee import melee_contact
from engine.play.state import CharacterState
from engine.rules.dmz1990_spells import (
    ARMORED,
    NonCombat,
    armor_bonus,
    effort_mp,
    force_of,
    non_combat,
    success_value,
)


def sustaining(ch: CharacterState) -> int:
    """The Target Value modifier of the spells ``ch`` Sustains: +1 each (l.1495)."""
    return len(ch.sustained)


def effect_on(game: Any, t: CharacterState, key: str) -> tuple[CharacterState, dict] | None:
    """(mage, entry) of the spell ``key`` someone Sustains on ``t``, or None."""
    for c in game.state.characters.values():
        for e in c.sustained:
            if e["spell"] == key and e["target"] == t.id:
                return c, e
    return None


def target_value(sp: NonCombat, t: CharacterState, m: CharacterState | None = None) -> int:
    """The spell's Target Value on ``t``: the boxes he has filled for a Heal spell (l.1719),
    one of his Defenses (Chaos, Petrify), else the spell's number; Levitate on an enemy 9
    (l.1766)."""
    if sp.target_value is None:
        return len(t.condition.marked())
    if isinstance(sp.target_value, str):
        return t.defense_value(sp.target_value)
    if sp.unwilling is not None and m is not None and t.side != m.side:
        return sp.unwilling
    return sp.target_value


def problem(game: Any, m: CharacterState, sp: NonCombat, t: CharacterState) -> str | None:
    """Why ``m`` cannot cast ``sp`` on ``t`` now (None: he can)."""
    if game.units != "MP":
        return "Non-Combat spells are DMZ's (seed 000)"
    if t.condition.dead or t.pos is None or t.exited is not None or "petrified" in t.under:
        return f"{t.id} is beyond help" if t.side == m.side else f"{t.id} is not a target"
    if t.out and (t.side != m.side or sp.effect != "heal"):
        return f"{t.id} is out of the fight"  # only a Heal spell wakes the unconscious
    if sp.reach == "self" and t is not m:
        return f"{sp.key} works on the caster alone"
    if sp.reach in ("touch", "self") and t.side != m.side:
        return f"{sp.key} needs a willing subject, not {t.id}"
    if sp.reach == "touch" and t is not m and not melee_contact(game.board, m.pos, t.pos):
        return f"{sp.key} needs {t.id} on an adjoining dot (touch)"
    if sp.reach == "los" and t is not m and game.sight(m, t)[0].blocked:
        return f"{m.id} cannot see {t.id} (l.1427)"
    if sp.effect == "heal" and not t.condition.marked(PHYSICAL):
        return f"{t.id} has no physical damage to heal"
    if sp.effect != "heal" and effect_on(game, t, sp.key) is not None:
        return f"{t.id} is already under {sp.key}"
    if sp.effect == "ratios" and effect_on_kind(game, t, "ratios") is not None:
        return f"{t.id}'s ratios are already changed by a spell"
    return None


def effect_on_kind(game: Any, t: CharacterState, key: str) -> dict | None:
    for c in game.state.characters.values():
        for e in c.sustained:
            if key in e and e["target"] == t.id:
                return e
    return None


def los_mods(game: Any, m: CharacterState, t: CharacterState, sp: NonCombat) -> dict[str, int]:
    """Cover and visibility on a spell cast at another character's Defense, as for a combat
    spell but never elevation (l.812, l.1477-1481); none for a fixed Target Value."""
    if t is m or not isinstance(sp.target_value, str):
        return {}
    s = game.sight(m, t)[0]
    return {k: v for k, v in s.modifiers.items() if v and k != "elevation"}


def cast_non_combat(game: Any, m: CharacterState, sp: NonCombat, max_force: int,
                    target: str | None, force: str = "max", extra: int = 0,
                    at: list[int] | tuple[int, ...] | None = None) -> None:
    """Carry out a Non-Combat ``cast`` for the moving character (see the module docstring)."""
    if force not in ("max", "min"):
        raise PlayError(f"force is max or min, not {force!r}")
    if not isinstance(extra, int) or extra < 0:
        raise PlayError(f"extra is a number of 3 MP steps, not {extra!r}")
    if game.units != "MP":
        raise PlayError("Non-Combat spells are DMZ's (seed 000)")
    if sp.reach in ("area", "barrier"):
        place = referee_areas.place(game, m, sp, target, at)
        t = m
    else:
        place = None
        t = game.char(target) if target else m
        if sp.reach == "around":
            t = m
        why = problem(game, m, sp, t)
        if why:
            raise PlayError(why)
    f = force_of(max_force, force)
    cost = (float(effort_mp(extra)), 0)
    game._need(m, cost, "casting a spell")
    if not game._spend(m, cost, f"cast {sp.key}"):
        return  # reaction fire stopped him: the spell is not cast (l.971)
    mods: dict[str, int] = {}
    if extra:
        mods["extra_mp"] = -extra
    mods.update(burden(game, m))
    sv = success_value(m.success_value("sorcery"), f)
    game.log.record("cast", who=m.id, spell=sp.key, force=f, targets=[t.id], mp=cost[0],
                    non_combat=True, **({"at": list(place["at"])} if place else {}))
    if sp.effect == "detect":
        entry: dict[str, Any] = {"spell": sp.key, "target": m.id, "force": f}
        detect(game, m, sp, f, sv, mods, entry)
        m.sustained.append(entry)
    elif place is not None:
        referee_areas.cast(game, m, sp, f, sv, mods, place)
    else:
        tm = {"spell": target_value(sp, t, m), **los_mods(game, m, t, sp), **mods}
        res = game.dice.test("spell", sv, sum(tm.values()), tm, attacker=m.id, target=t.id,
                             spell=sp.key, force=f)
        if res.success:
            _take_effect(game, m, t, sp, f)
    drain = sp.drain_value(f)
    if m.out:
        return
    d = game.dice.test("drain", m.defense_value("mana_spell"), drain, {"drain": drain},
                       who=m.id, spell=sp.key, force=f)
    if not d.success:
        game.damage(m, sp.drain_damage(f), STUN, source="drain", spell=sp.key)


def _take_effect(game: Any, m: CharacterState, t: CharacterState, sp: NonCombat,
                 f: int) -> None:
    entry: dict[str, Any] = {"spell": sp.key, "target": t.id, "force": f}
    if sp.effect == "heal":
        was_out = t.condition.out
        restored = sorted(t.condition.marked(PHYSICAL))[:sp.heal]  # lowest-numbered first
        for b in restored:
            t.condition.boxes[b] = None
        entry.update(restored=restored, until=game.state.turn + len(restored))
        game.log.record("healed", who=t.id, by=m.id, spell=sp.key, boxes=restored,
                        permanent_on_turn=entry["until"], modifier=t.condition.modifier,
                        mp=t.condition.mp)
        if was_out and not t.condition.out:
            game.log.record("revived", who=t.id, by=m.id)
    elif sp.effect == "armor":
        bonus = armor_bonus(f)
        for k in ARMORED:
            t.defense[k] = t.defense_value(k) + bonus
        entry["bonus"] = bonus
        game.log.record("armored", who=t.id, by=m.id, bonus=bonus, defense={
            k: t.defense_value(k) for k in ARMORED})
    elif sp.effect == "invisible":
        t.invisible = True
        game.log.record("invisible", who=t.id, by=m.id)
    elif sp.effect == "levitate":
        entry.update(levitate=0, turn=game.state.turn)
        game.log.record("levitating", who=t.id, by=m.id)
    else:
        apply(game, m, t, sp, entry)
    m.sustained.append(entry)
    if sp.effect == "petrify" and t.sustained:
        drop_all(game, t, "turned to stone")


def tick(game: Any, m: CharacterState) -> None:
    """His phase opens: a Heal spell Sustained a turn a box is permanent now (l.1719)."""
    for e in list(m.sustained):
        if "until" in e and game.state.turn >= e["until"]:
            m.sustained.remove(e)
            game.log.record("spell-permanent", who=m.id, spell=e["spell"], target=e["target"])
        elif "area" in e:
            referee_areas.haunt_again(game, e)
        elif "found" in e:  # a Detect spell looks again round him (l.1660)
            sp = non_combat(e["spell"])
            mods = burden(game, m)
            detect(game, m, sp, e["force"], success_value(m.success_value("sorcery"),
                                                           e["force"]), mods, e)


def drop(game: Any, m: CharacterState, key: str, why: str = "dropped",
         target: str | None = None) -> None:
    """``m`` stops Sustaining ``key`` (on ``target``, else the first listed): its effect ends
    (l.1437)."""
    e = next((x for x in m.sustained if x["spell"] == key and target in (None, x["target"])),
             None)
    if e is None:
        raise PlayError(f"{m.id} sustains no {key}")
    m.sustained.remove(e)
    t = game.state.characters.get(e["target"])
    game.log.record("spell-dropped", who=m.id, spell=key, target=e["target"], why=why)
    if "area" in e:
        referee_areas.remove(game, e)
    if t is None:
        return
    if "restored" in e:  # dropped before it was permanent: the effect is lost (l.1719)
        for b in e["restored"]:
            t.condition.boxes[b] = PHYSICAL
        game.log.record("heal-lost", who=t.id, boxes=e["restored"], modifier=t.condition.modifier)
        if t.condition.out and t.pos is not None:
            game.consequences(t, False)
    elif "bonus" in e:
        for k in ARMORED:
            t.defense[k] = t.defense_value(k) - e["bonus"]
    elif e["spell"] == "invisibility":
        t.invisible = False
    else:
        undo(game, t, e)


def drop_all(game: Any, m: CharacterState, why: str) -> None:
    for e in list(m.sustained):
        if e in m.sustained:
            drop(game, m, e["spell"], why, e["target"])


def sees(a: CharacterState, b: CharacterState) -> bool:
    """Invisibility hides ``b`` from eyes without thermographic vision (l.1742)."""
    return not b.invisible or a.vision == "thermographic"
