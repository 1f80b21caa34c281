"""What the Sustained spells beyond Heal, Armor and Invisibility do to a character
(seed 000 l.1643-1697, l.1725-1735, l.1798-1805; the numbers in
:mod:`engine.rules.dmz1990_spells`), and the Target Value modifiers a character carries into
every test he makes (:func:`burden`).

* Combat Sense, Personal Combat Sense, Increase and Decrease Reaction change his Move and Fire
  Ratios while Sustained, never below 1 (l.1653, l.1697).  A Move Ratio prices every step from
  his next one; a Fire Ratio counts from the next mover's phase (a tally already running keeps
  the ratio it began with).
* Chaos and Chaotic World add +2 to the Target Value of every test he attempts (l.1735);
  Poltergeist +1 to everyone inside its area (l.1773, :mod:`engine.play.referee_areas`).
* Petrify turns him to stone (l.1803-1805): unconscious, so out of the fight while Sustained,
  but not eliminated (he is back when the spell drops); nobody attacks a statue in play, so his
  Defense 25 and his immunity to stun never come up.
* The Detect spells (l.1655-1681) find characters within six dots of the caster, each with a
  test; a found enemy is *known* to the caster's side (:func:`known_to`) while the spell lasts.
  DMZ hides no counter (l.1001), so knowing matters only where a character cannot see an enemy
  he may still shoot at blind: :mod:`engine.play.referee_blind`.
"""

from __future__ import annotations

from typing import Any

from engine.play.state import CharacterState
from engine.rules.dmz1990_spells import DETECT_BLOCKED, NonCombat, ratio_after


def burden(game: Any, ch: CharacterState) -> dict[str, int]:
    """Target Value modifiers of ``ch``'s own tests from spells: +1 a spell he Sustains
    (l.1495), Chaos +2 (l.1735), +1 inside a Poltergeist (l.1773).  Empty for most."""
    out: dict[str, int] = {}
    if ch.sustained:
        out["sustaining"] = len(ch.sustained)
    for k, v in ch.under.items():
        if k != "petrified":
            out[k] = v
    areas = game.state.spell_areas
    if areas and ch.pos is not None:
        lat = game.board.lattice
        for a in areas:
            if a.get("distract") and a["at"][2] == ch.pos[2] and \
                    lat.distance(tuple(a["at"][:2]), ch.pos[:2]) <= a["radius"]:
                out["poltergeist"] = out.get("poltergeist", 0) + a["distract"]
    return out


def apply(game: Any, m: CharacterState, t: CharacterState, sp: NonCombat,
          entry: dict[str, Any]) -> None:
    """The spell worked on ``t``: its effect starts (``entry`` is what ``m`` Sustains)."""
    if sp.effect == "ratios":
        mr, fr = ratio_after(t.move_ratio, sp.move), ratio_after(t.fire_ratio, sp.fire)
        entry["ratios"] = [mr - t.move_ratio, fr - t.fire_ratio]
        t.move_ratio, t.fire_ratio = mr, fr
        game.log.record("ratios", who=t.id, by=m.id, spell=sp.key, move_ratio=mr,
                        fire_ratio=fr)
    elif sp.effect == "distract":
        t.under[sp.key] = sp.distract
        game.log.record("distracted", who=t.id, by=m.id, spell=sp.key, modifier=sp.distract)
    elif sp.effect == "petrify":
        t.under["petrified"] = 1
        t.arcs = []
        game.log.record("petrified", who=t.id, by=m.id)


def undo(game: Any, t: CharacterState, e: dict[str, Any]) -> bool:
    """The spell of entry ``e`` on ``t`` ends; False when it is not one of this module's."""
    if "ratios" in e:
        dm, df = e["ratios"]
        t.move_ratio -= dm
        t.fire_ratio -= df
        game.log.record("ratios", who=t.id, by=None, spell=e["spell"],
                        move_ratio=t.move_ratio, fire_ratio=t.fire_ratio)
        return True
    if e["spell"] in t.under:
        del t.under[e["spell"]]
        return True
    if e["spell"] == "petrify":
        t.under.pop("petrified", None)
        game.log.record("unpetrified", who=t.id)
        return True
    return "found" in e


# ============================================================================ detection
def detect(game: Any, m: CharacterState, sp: NonCombat, force: int, sv: int,
           mods: dict[str, int], entry: dict[str, Any]) -> None:
    """Roll the Detect spell at every character it can find within its ring round ``m``
    (each his own test, l.1660-1669): the found ones go into ``entry["found"]``."""
    lat = game.board.lattice
    found = []
    for c in game.state.characters.values():
        if c.side == m.side or c.out or c.pos is None:
            continue
        if sp.finds not in ("enemies", "life") and c.metatype != sp.finds:
            continue
        if lat.distance(c.pos[:2], m.pos[:2]) > sp.radius:
            continue
        tm = dict(mods)
        if isinstance(sp.target_value, str):
            tm["spell"] = c.defense_value(sp.target_value)
            # a line walls, smoke or darkness block (l.860-869), not Invisibility: the spell
            # is for finding what the eye misses
            if game.board.sight(m.pos, c.pos, m.posture, c.posture, m.vision).blocked:
                tm["blocked"] = DETECT_BLOCKED
        else:
            tm["spell"] = sp.target_value
        res = game.dice.test("detect", sv, sum(tm.values()), tm, attacker=m.id, target=c.id,
                             spell=sp.key, force=force)
        if res.success:
            found.append(c.id)
    entry["found"] = found
    game.log.record("detected", who=m.id, spell=sp.key, found=found)


def known_to(game: Any, ch: CharacterState, t: CharacterState) -> bool:
    """Does ``ch``'s side know where ``t`` is by a Detect spell one of them Sustains?"""
    for c in game.state.characters.values():
        if c.side != ch.side or not c.sustained:
            continue
        for e in c.sustained:
            if t.id in e.get("found", ()):
                return True
    return False
