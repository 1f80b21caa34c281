"""The bots' Non-Combat spells: heal, armor or hide a friend when it pays (seed 000 l.1699-1782).

A mage weighs every Non-Combat spell he knows, at Maximum and Minimum Force, on himself and on
each friend he can touch: the chance of the spell test times what it buys, less the stun its
Drain is expected to cost him.  What it buys is counted in boxes, like the rest of the bot:

* a Heal spell, the physical boxes it gives back (and :data:`BACK_IN_FIGHT` more when it wakes
  an unconscious friend);
* Armor and Invisibility, the boxes of fire the enemy is expected to put into the friend where
  he stands with one shot each, less the same with the spell on: the referee's own odds
  (``exposure``) asked with the defense raised or the friend unseen.

A bot mage holds one Sustained spell at a time (each one is +1 to all his tests, l.1495).
"""

from __future__ import annotations

from typing import Any

from engine.play.bot_odds import exposure, shot_odds
from engine.play.condition import PHYSICAL
from engine.play.referee_areas import victims as area_victims
from engine.play.referee_blind import BLIND_FIRE_MP, blind_value
from engine.play.referee_effects import known_to
from engine.play.referee_levels import fall_targets, may_stop_on
from engine.play.referee_levitate import leg_mp
from engine.play.referee_spells import drain_risk, spell_value
from engine.play.referee_sustain import problem, target_value
from engine.play.shots import p_success
from engine.play.state import CharacterState
from engine.rules.dmz1990_spells import (
    ARMORED,
    DOME_RADIUS,
    LEVITATE_MP_PER_TURN,
    NON_COMBAT_MP,
    POLTERGEIST_SV_PER_FORCE,
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
INF = float("inf")


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
                  keep_mp: float) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The Non-Combat ``cast`` worth most to ``ch``'s side now, and why; None when nothing
    buys :data:`WORTH` boxes or he cannot spare 3 MP beyond ``keep_mp``."""
    if game.units != "MP" or ch.sustained or ch.mp_left < NON_COMBAT_MP + keep_mp:
        return None
    best: tuple[float, dict[str, Any], dict[str, Any]] | None = None
    mine = [c for c in game.state.characters.values()
            if c.side == ch.side and c.pos is not None and c.exited is None]
    for sp, level, f in castings(ch.spells, non_combat):
        sv = success_value(ch.success_value("sorcery"), f)
        drain = drain_risk(ch, sp, f)
        options = [(t, None) for t in _targets(game, ch, sp, mine, foes)
                   if not problem(game, ch, sp, t)]
        options += _places(game, ch, sp, f, foes, mine)
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
            foes: list[CharacterState], mine: list[CharacterState]
            ) -> list[tuple[None, tuple[tuple[int, int, int], int, float]]]:
    """Place spells worth weighing: (None, (dot, Target Value, boxes bought)).  Chaotic World
    and Poltergeist at each enemy he sees (friends in the area count against it), a Physical
    Barrier dome round himself (the fire it keeps off him, as Armor of its Force would)."""
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
    for f in foes:
        if f.invisible and not known_to(game, ch, f):
            continue
        v = blind_value(game, ch, f)
        if v >= GOOD_BLIND and (best is None or v > best[0]):
            best = (v, f)
    if best is None:
        return None
    return ({"act": "blind", "target": best[1].id},
            {"target": best[1].id, "blind": True, "expected_boxes": round(best[0], 2)})


def levitation(game: Any, ch: CharacterState, goal: tuple[int, int, int] | None
               ) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """A Levitate Person shortcut towards ``goal`` for a mage who knows the spell: a leg over
    a ledge (up or down, :func:`engine.play.referee_levitate.leg_mp`) that saves at least
    :data:`LEG_SAVES` MP of walking, then the leg; a levitation that saves nothing more is
    dropped (it costs him +1 on every test)."""
    if game.units != "MP" or goal is None or ch.pos is None or ch.out:
        return None
    held = next((e for e in ch.sustained if e["spell"] == "levitate-person"
                 and e["target"] == ch.id), None)
    top = next((f for n, f in ch.spells.items() if non_combat(n) is not None
                and non_combat(n).effect == "levitate"), None)
    if top is None:
        return None
    board, pos = game.board, ch.pos
    legs = {d: leg_mp(game, pos, d) for d in ledge_dots(board, pos)}
    legs = {d: mp for d, mp in legs.items() if mp is not None and
            may_stop_on(game.state, board, ch, d) is None}
    best = None
    if legs:
        dots = [pos, *legs]
        costs = [INF if c is None else c for c in board.costs_to(goal, ch.move_ratio, dots)]
        for d, c in zip(dots[1:], costs[1:], strict=True):
            saves = costs[0] - (c + legs[d])
            if c < INF and saves >= LEG_SAVES and (best is None or saves > best[0]):
                best = (saves, d)
    if held is not None:
        if best is None:
            return ({"act": "drop", "spell": "levitate-person", "target": ch.id},
                    {"spell": "levitate-person", "why": "no ledge worth floating over"})
        used = held.get("levitate", 0) if held.get("turn") == game.state.turn else 0
        mp = legs[best[1]]
        if ch.mp_left < mp or used + mp > LEVITATE_MP_PER_TURN:
            return None
        return ({"act": "levitate", "target": ch.id, "to": list(best[1])},
                {"to": list(best[1]), "saves_mp": round(best[0], 1), "leg_mp": mp})
    if best is None or ch.sustained or ch.mp_left < NON_COMBAT_MP + legs[best[1]]:
        return None
    sp = non_combat("levitate-person")
    p = p_success(success_value(ch.success_value("sorcery"), top) - int(sp.target_value))
    if p < LEVITATE_ODDS:
        return None
    return ({"act": "cast", "spell": sp.key, "target": ch.id, "force": "max"},
            {"spell": sp.key, "target": ch.id, "chance": round(p, 2),
             "saves_mp": round(best[0], 1)})


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
