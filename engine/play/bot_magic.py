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

from engine.play.bot_odds import exposure
from engine.play.condition import PHYSICAL
from engine.play.referee_sustain import problem, target_value
from engine.play.shots import p_success
from engine.play.state import CharacterState
from engine.rules.dmz1990_spells import (
    ARMORED,
    NON_COMBAT_MP,
    armor_bonus,
    force_of,
    non_combat,
    success_value,
)

#: boxes an unconscious friend healed back into the fight is worth beyond the boxes themselves
BACK_IN_FIGHT = 3.0
#: expected boxes a support spell must buy before a bot mage spends 3 MP on it
WORTH = 0.6


def _shielded(game: Any, t: CharacterState, effect: str, force: int,
              foes: list[CharacterState]) -> float:
    """Boxes of fire the spell would keep off ``t`` standing where he is (one shot a foe)."""
    before = exposure(game, t, t.pos, foes)
    if before <= 0:
        return 0.0
    if effect == "armor":
        bonus = armor_bonus(force)
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


def support_spell(game: Any, ch: CharacterState, foes: list[CharacterState],
                  keep_mp: float) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The Non-Combat ``cast`` worth most to ``ch``'s side now, and why; None when nothing
    buys :data:`WORTH` boxes or he cannot spare 3 MP beyond ``keep_mp``."""
    if game.units != "MP" or ch.sustained or ch.mp_left < NON_COMBAT_MP + keep_mp:
        return None
    best: tuple[float, dict[str, Any], dict[str, Any]] | None = None
    friends = [c for c in game.state.characters.values()
               if c.side == ch.side and c.pos is not None and c.exited is None]
    for name, top in ch.spells.items():
        sp = non_combat(name)
        if sp is None:
            continue
        for level in ("max", "min"):
            f = force_of(top, level)
            sv = success_value(ch.success_value("sorcery"), f)
            drain = (1 - p_success(ch.defense_value("mana_spell") - sp.drain_value(f))) * \
                sp.drain_damage(f)
            for t in friends:
                if problem(game, ch, sp, t):
                    continue
                p = p_success(sv - target_value(sp, t))
                if sp.effect == "heal":
                    gain = float(min(sp.heal, len(t.condition.marked(PHYSICAL))))
                    if t.condition.out and t.condition.boxes.get(0) == PHYSICAL:
                        gain += BACK_IN_FIGHT  # box 0 is the first healed: he wakes
                else:
                    gain = _shielded(game, t, sp.effect, f, foes)
                value = p * gain - drain
                if value >= WORTH and (best is None or value > best[0]):
                    act = {"act": "cast", "spell": sp.key, "target": t.id, "force": level}
                    why = {"spell": sp.key, "target": t.id, "force": level,
                           "chance": round(p, 2), "buys_boxes": round(gain, 2),
                           "drain_boxes": round(drain, 2)}
                    best = (value, act, why)
    return None if best is None else (best[1], best[2])
