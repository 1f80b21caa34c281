"""Spells that hold a place on the map: Chaotic World, Poltergeist and the two Barriers
(seed 000 l.1730-1735, l.1768-1773, l.1784-1796; numbers in :mod:`engine.rules.dmz1990_spells`).

A place spell is aimed at a dot the mage sees (the Area Effect centre, l.1445), or for a
Barrier at his own dot (a dome, three dots round him) or at a dot three dots ahead of him (a
wall six dots long across the line from him to it, l.1794).

* **Chaotic World**: everyone within three dots of the centre whom the mage sees rolls against
  his Physical (Spell) Defense plus cover; each one it takes fights at +2 while it is Sustained.
* **Poltergeist**: one test against 5.  Its whirling debris is a feature of the board (an
  obstacle that interrupts sight and costs no MP, put in through the board view like grenade
  smoke), so every sight line the engine traces through the area is interrupted; everyone
  standing in it is +1 to all his tests and takes a one-box stun attack, Force x 5 against his
  Impact Defense (a Manipulation spell's defense, l.694), when it is cast and again at the
  start of each of the mage's phases while he Sustains it.
* **Barriers**: one test against 5.  The force-field is a feature of the board of kind
  ``force-field``, which the movement graph never crosses and sight ignores (the book has
  attacks go across it); nobody walks through either kind (l.1796).  A shot across a Physical
  Barrier adds its Force to the target's Ballistic or Impact Defense (a grenade's blast too),
  a spell across a Mana Barrier adds it to his Mana or Physical Spell Defense (:func:`across`);
  nothing is thrown through a Physical Barrier (only molecules pass, l.1794).

``GameState.spell_areas`` keeps each place (saved with the game); dropping the spell takes its
feature off the board again.
"""

from __future__ import annotations

import math
from typing import Any

from engine.play.condition import STUN
from engine.play.errors import PlayError
from engine.play.state import STANDING, CharacterState, named_dot
from engine.rules.dmz1990_spells import (
    AREA_RADIUS,
    DOME_RADIUS,
    POLTERGEIST_SV_PER_FORCE,
    WALL_AHEAD,
    WALL_LENGTH,
    NonCombat,
)

#: what each Barrier adds its Force to, for attacks across it (l.1796)
BARRIER_DEFENSES = {"physical-barrier": ("ballistic", "impact"),
                    "mana-barrier": ("mana_spell", "physical_spell")}


def victims(game: Any, m: CharacterState, at: tuple[int, int, int],
            radius: int = AREA_RADIUS) -> list[CharacterState]:
    """Everyone an area spell aimed at ``at`` reaches: within ``radius`` dots on its level
    and in the mage's sight (the mage himself too, if he stands in it; l.1447)."""
    lat = game.board.lattice
    out = []
    for c in game.state.characters.values():
        if c.out or c.pos is None or c.pos[2] != at[2]:
            continue
        if lat.distance(c.pos[:2], at[:2]) > radius:
            continue
        if c is m or not game.sight(m, c)[0].blocked:
            out.append(c)
    return out


def place(game: Any, m: CharacterState, sp: NonCombat, target: str | None,
          at: list[int] | tuple[int, ...] | None) -> dict[str, Any]:
    """Where ``m``'s place spell goes, checked: ``{"at": dot}`` (+ ``shape`` for a Barrier)."""
    if at is None:
        if sp.reach == "barrier":
            at = m.pos
        elif target is not None:
            at = game.char(target).pos
        else:
            raise PlayError(f"{sp.key} is an area spell: give 'at' (or a target)")
    at = named_dot(at, m.pos[2])
    if not game.board.standable(at):
        raise PlayError(f"{list(at)} is not a dot of the map")
    if sp.reach == "barrier":
        if at == tuple(m.pos):
            return {"at": at, "shape": "dome"}
        if at[2] != m.pos[2] or game.board.lattice.distance(at[:2], m.pos[:2]) != WALL_AHEAD:
            raise PlayError(f"a {sp.key} is a dome round {m.id} (cast it at his own dot) or a "
                            f"wall {WALL_AHEAD} dots in front of him (l.1794)")
        if game.board.sight(m.pos, at, m.posture, STANDING, m.vision).blocked:
            raise PlayError(f"{m.id} cannot see {list(at)}")
        return {"at": at, "shape": "wall"}
    if game.board.sight(m.pos, at, m.posture, STANDING, m.vision).blocked:
        raise PlayError(f"{m.id} cannot see {list(at)} (l.1447)")
    return {"at": at}


def wall_shape(game: Any, m: CharacterState, at: tuple[int, int, int]) -> Any:
    """The line a Barrier wall ``m`` casts at ``at`` (three dots ahead) lays (l.1794)."""
    return _geometry(game, m, {"at": at, "shape": "wall"})


def _geometry(game: Any, m: CharacterState, where: dict[str, Any]) -> Any:
    """The shape a Barrier or Poltergeist lays on the board, in the lattice's units."""
    from shapely.geometry import LineString, Point, Polygon
    from shapely.ops import unary_union

    lat = game.board.lattice
    at = where["at"]
    x, y = lat.point(at[:2])
    if where.get("shape") == "dome":
        # between the third ring of dots and the fourth: everyone within three dots is inside
        return Point(x, y).buffer(DOME_RADIUS + 0.5, 32).exterior
    if where.get("shape") == "wall":
        mx, my = lat.point(m.pos[:2])
        dx, dy = x - mx, y - my
        n = math.hypot(dx, dy) or 1.0
        # across the line from the mage, half a spacing nearer him so it runs between dots
        cx, cy = x - 0.5 * dx / n, y - 0.5 * dy / n
        px, py = -dy / n * WALL_LENGTH / 2, dx / n * WALL_LENGTH / 2
        return LineString([(cx - px, cy - py), (cx + px, cy + py)])
    ring = {tuple(at[:2])}
    edge = list(ring)
    for _ in range(AREA_RADIUS):
        edge = [n for d in edge for n in lat.neighbours(d) if n not in ring]
        ring.update(edge)
    return unary_union([Polygon(lat.cell(d)) for d in sorted(ring)]).buffer(0)


def cast(game: Any, m: CharacterState, sp: NonCombat, force: int, sv: int,
         mods: dict[str, int], where: dict[str, Any]) -> None:
    """Roll a place spell (paid for) and lay its effect (see the module docstring)."""
    at = where["at"]
    entry: dict[str, Any] = {"spell": sp.key, "target": m.id, "force": force}
    if sp.effect == "distract":  # Chaotic World: each one in the area resists
        hit = []
        for c in victims(game, m, at):
            tm = {"spell": c.defense_value(str(sp.target_value)), **mods}
            s = game.sight(m, c)[0] if c is not m else None
            if s is not None:
                tm.update({k: v for k, v in s.modifiers.items() if v and k != "elevation"})
            res = game.dice.test("spell", sv, sum(tm.values()), tm, attacker=m.id,
                                 target=c.id, spell=sp.key, force=force)
            if res.success and sp.key not in c.under:
                c.under[sp.key] = sp.distract
                hit.append(c.id)
                game.log.record("distracted", who=c.id, by=m.id, spell=sp.key,
                                modifier=sp.distract)
        if hit:
            entry.update(victims=hit, area=list(at))
            m.sustained.append(entry)
        return
    tm = {"spell": int(sp.target_value), **mods}
    res = game.dice.test("spell", sv, sum(tm.values()), tm, attacker=m.id, target=m.id,
                         spell=sp.key, force=force, at=list(at))
    if not res.success:
        return
    n = sum(1 for a in game.state.spell_areas if a["by"] == m.id) + 1
    fid = f"play/{sp.key}-{m.id}-{game.state.turn}-{n}"
    area = {"id": fid, "spell": sp.key, "by": m.id, "force": force, "at": list(at),
            "radius": AREA_RADIUS if sp.effect == "poltergeist" else DOME_RADIUS,
            **({"shape": where["shape"], "from": list(m.pos)} if "shape" in where else {}),
            **({"distract": sp.distract} if sp.distract else {})}
    game.state.spell_areas.append(area)
    _lay(game, area)
    entry["area"] = fid
    m.sustained.append(entry)
    game.log.record("spell-area", who=m.id, spell=sp.key, at=list(at),
                    shape=where.get("shape", "area"), feature=fid)
    if sp.effect == "poltergeist":
        haunt(game, area)


def haunt(game: Any, area: dict[str, Any]) -> None:
    """The Poltergeist's debris at everyone inside: a one-box stun attack each, Force x 5
    against his Impact Defense (l.1773), when it is cast and at the start of each of the
    mage's phases while he Sustains it."""
    for c in [c for c in game.state.characters.values() if _inside(game, c, area)]:
        tv = c.defense_value("impact")
        r = game.dice.test("poltergeist", POLTERGEIST_SV_PER_FORCE * area["force"], tv,
                           {"defense": tv}, attacker=area["by"], target=c.id)
        if r.success:
            game.damage(c, 1, STUN, source=area["by"], spell=area["spell"])


def haunt_again(game: Any, e: dict[str, Any]) -> None:
    """The mage's phase opens: the Poltergeist of his entry ``e`` (if it is one) strikes."""
    area = next((a for a in game.state.spell_areas if a["id"] == e.get("area")), None)
    if area is not None and area["spell"] == "poltergeist":
        haunt(game, area)


def _inside(game: Any, c: CharacterState, area: dict[str, Any]) -> bool:
    at = area["at"]
    return not c.out and c.pos is not None and c.pos[2] == at[2] and \
        game.board.lattice.distance(c.pos[:2], tuple(at[:2])) <= area["radius"]


def _lay(game: Any, area: dict[str, Any]) -> None:
    """Put the area's feature on the board (through the board view, as smoke is)."""
    m = game.state.characters.get(area["by"])
    if m is None:
        return
    where = {"at": tuple(area["at"])}
    if "shape" in area:
        where["shape"] = area["shape"]
        ghost = CharacterState(id=m.id, side=m.side, name=m.name, move_ratio=1, fire_ratio=1,
                               pos=tuple(area["from"]))
        m = ghost
    geom = _geometry(game, m, where)
    if area["spell"] == "poltergeist":
        kind, props = "obstacle", {"los": "interrupts", "cost": 0, "standable": "on",
                                   "note": "poltergeist"}
    else:
        kind, props = "force-field", {"note": area["spell"], "force": area["force"]}
    game.board.add_spell_feature(area["id"], kind, area["at"][2], geom, props)


def restore(game: Any) -> None:
    """A loaded game: the board shows the places its spells hold."""
    for area in game.state.spell_areas:
        _lay(game, area)


def remove(game: Any, e: dict[str, Any]) -> None:
    """The spell of entry ``e`` is dropped: its victims and its place are freed."""
    for cid in e.get("victims", ()):
        c = game.state.characters.get(cid)
        if c is not None:
            c.under.pop(e["spell"], None)
    fid = e.get("area")
    if isinstance(fid, str):
        game.state.spell_areas[:] = [a for a in game.state.spell_areas if a["id"] != fid]
        game.board.remove_spell_feature(fid)


def across(game: Any, a: CharacterState, t: CharacterState, defenses: tuple[str, ...]
           ) -> int:
    """Force of the Barriers between ``a`` and ``t`` that raise one of ``defenses`` (l.1796)."""
    if not game.state.spell_areas or a.pos is None or t.pos is None:
        return 0
    return across_dots(game, a.pos, t.pos, defenses)


def across_dots(game: Any, p3: tuple[int, int, int], q3: tuple[int, int, int],
                defenses: tuple[str, ...]) -> int:
    """Force of the Barriers on the line ``p3``..``q3`` that raise one of ``defenses``."""
    if not game.state.spell_areas:
        return 0
    lat = game.board.lattice
    p, q = lat.point(p3[:2]), lat.point(q3[:2])
    total = 0
    for area in game.state.spell_areas:
        kinds = BARRIER_DEFENSES.get(area["spell"])
        if not kinds or not set(kinds) & set(defenses):
            continue
        if area["at"][2] not in (p3[2], q3[2]):
            continue
        if _crosses(game, area, p, q):
            total += area["force"]
    return total


def _crosses(game: Any, area: dict[str, Any], p: tuple[float, float],
             q: tuple[float, float]) -> bool:
    from shapely.geometry import LineString

    m = CharacterState(id=area["by"], side="", name="", move_ratio=1, fire_ratio=1,
                       pos=tuple(area.get("from", area["at"])))
    geom = _geometry(game, m, {"at": tuple(area["at"]), "shape": area.get("shape")})
    return LineString([p, q]).intersects(geom)
