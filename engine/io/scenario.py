"""Scenario and layout-only files (SPEC section 4): data <-> :class:`engine.model.Scenario`."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import PurePath
from typing import Any

from engine.io import features as F
from engine.io.fields import (
    At,
    Rec,
    boolean,
    choice,
    describe,
    feature_id,
    int_tuple,
    integer,
    list_of,
    pairs,
    points,
    points_out,
    put,
    seq,
    text,
)
from engine.io.geometry import check_polygon
from engine.io.layout import layout_to_data, read_layout
from engine.io.versions import format_string, read_format
from engine.model import (
    LIGHT,
    RULESETS,
    Character,
    Deployment,
    Layout,
    Objective,
    Scenario,
    Side,
    Weapon,
)

SCENARIO_KEYS = (
    "format", "title", "ruleset", "layout", "conditions", "turn_limit", "initiative", "sides",
    "objectives", "victory", "notes",
)
LAYOUT_FILE_KEYS = ("format", "title", "layout", "notes")
EDGES = ("north", "south", "east", "west")
VISION = ("normal", "low-light", "thermographic")
METATYPES = ("human", "elf", "dwarf", "ork", "troll")
INITIATIVE = ("team", "character")
OBJECTIVE_KINDS = ("reach", "hold", "retrieve", "eliminate", "exit", "protect")
#: keys each objective kind takes besides id, side, kind, by_turn, points, note; first is required
OBJECTIVE_EXTRA: dict[str, tuple[str, ...]] = {
    "reach": ("at",),
    "hold": ("area", "level", "turns", "consecutive"),
    "retrieve": ("at", "then"),
    "eliminate": ("target",),
    "exit": ("edge",),
    "protect": ("target",),
}
THEN = tuple(f"exit-{e}" for e in EDGES)
#: victory keys and their readers
VICTORY = {"most_points": boolean, "points": integer(1), "last_standing": boolean}
#: condition keys and their readers
#: ``ambush`` names a side that starts unseen and opens fire (Dark Conspiracy's ambush turn,
#: seed 003 l.184; the other rulesets ignore it)
CONDITIONS = {"light": choice(LIGHT), "ambush": text}
DEFAULT_CONDITIONS = (("light", "day"),)


def _items(r: Rec, key: str) -> list[tuple[Any, At]]:
    if key not in r:
        return []
    at = r.at(key)
    items = seq(r.raw(key), at)
    return [(x, at.item(items, i)) for i, x in enumerate(items)]


def _stem(file: str | None) -> str:
    return PurePath(file).stem if file else "untitled"


def scenario_from_data(data: Any, file: str | None = None) -> Scenario:
    """A Scenario from scenario or layout-only data.  A layout-only file becomes a scenario
    with no sides, titled by its ``title`` or else by the file name."""
    kind, data = read_format(data, file, ("scenario", "layout"))
    at = At(file, getattr(data, "line", None), "document")
    if kind == "layout":
        r = Rec(data, at, "layout file", LAYOUT_FILE_KEYS, ("layout",))
        return Scenario(
            title=r.get("title", text, _stem(file)),
            layout=r.get("layout", read_layout),
            notes=r.get("notes", text, ""),
        )
    r = Rec(data, at, "scenario", SCENARIO_KEYS, ("layout",))
    conditions = r.get("conditions", pairs(CONDITIONS.__getitem__, "conditions", tuple(CONDITIONS)), ())
    if "light" not in dict(conditions):
        conditions = DEFAULT_CONDITIONS + conditions

    people = F.IdBook("character id")
    sides: list[Side] = []
    side_ids = F.IdBook("side id")
    for item, item_at in _items(r, "sides"):
        sides.append(_side(item, item_at, side_ids, people))
    sides = [_fill_character_ids(s, people) for s in sides]
    ambush = dict(conditions).get("ambush")
    if ambush is not None and ambush not in side_ids.used:
        r.at("conditions").fail(f"conditions: ambush {ambush!r} is not a side id "
                                f"({', '.join(side_ids.used) or 'no sides'})")
    targets = set(side_ids.used) | {c.id for s in sides for c in s.characters} | {
        c.name for s in sides for c in s.characters
    }

    objectives: list[Objective] = []
    obj_ids = F.IdBook("objective id")
    raw_objectives = [(_objective(x, a, obj_ids, side_ids, targets)) for x, a in _items(r, "objectives")]
    for ob in raw_objectives:
        objectives.append(ob if ob.id else replace(ob, id=obj_ids.fresh(f"{ob.side}-{ob.kind}")))

    return Scenario(
        title=r.get("title", text, _stem(file)),
        layout=r.get("layout", read_layout),
        ruleset=r.get("ruleset", choice(RULESETS), "dmz1990"),
        conditions=conditions,
        turn_limit=r.get("turn_limit", integer(1)),
        initiative=r.get("initiative", choice(INITIATIVE), "team"),
        sides=tuple(sides),
        objectives=tuple(objectives),
        victory=r.get("victory", pairs(VICTORY.__getitem__, "victory", tuple(VICTORY)), ()),
        notes=r.get("notes", text, ""),
    )


def _deployment(v: Any, at: At) -> Deployment:
    r = Rec(v, at, "deployment", ("polygon", "level", "edge", "depth"))
    if ("polygon" in r) == ("edge" in r):
        r.fail("deployment needs either 'polygon' (with 'level') or 'edge' (with 'depth')")
    if "polygon" in r:
        if "depth" in r:
            r.key_at("depth").fail("'depth' goes with 'edge', not with 'polygon'")
        polygon = r.get("polygon", points(3))
        check_polygon(polygon, r.at("polygon"), "deployment polygon")
        return Deployment(polygon=polygon, level=r.get("level", integer(0), 0))
    if "level" in r:
        r.key_at("level").fail("'level' goes with 'polygon', not with 'edge'")
    return Deployment(edge=r.get("edge", choice(EDGES)), depth=r.get("depth", integer(1)))


def _weapon(v: Any, at: At) -> Weapon:
    r = Rec(v, at, "weapon", ("type", "name", "success", "shots", "clips", "damage", "note", "stats"),
            ("type",))
    success = r.get("success", list_of(integer(0)), ())
    if len(success) > 4:
        r.at("success").fail("'success' lists at most 4 values (short, medium, long, extreme)")
    return Weapon(
        type=r.get("type", text), name=r.get("name", text, ""), success=success,
        shots=r.get("shots", integer(0)), clips=r.get("clips", integer(0)),
        damage=r.get("damage", integer(0)), note=r.get("note", text, ""),
        stats=r.get("stats", pairs(lambda k: stat_value, "stats"), ()),
    )


CHARACTER_KEYS = (
    "id", "name", "archetype", "move_ratio", "fire_ratio", "vision", "metatype", "success",
    "defense", "weapons", "note", "stats", "spells",
)


def stat_value(v: Any, at: At) -> int | str:
    """A ruleset figure: a whole number (``body: 4``) or a short code (``damage: 9M``)."""
    if isinstance(v, bool) or not isinstance(v, (int, str)) or (isinstance(v, str) and not v.strip()):
        at.fail(f"'{at.name}' must be a whole number or a short code such as 9M, not {describe(v)}")
    return v


def _character(v: Any, at: At, people: F.IdBook) -> Character:
    r = Rec(v, at, "character", CHARACTER_KEYS, ("name",))
    ident = r.get("id", feature_id, "")
    people.claim(ident, r.at("id"))
    return Character(
        id=ident,
        name=r.get("name", text),
        archetype=r.get("archetype", text, ""),
        move_ratio=r.get("move_ratio", integer(1), 3),
        fire_ratio=r.get("fire_ratio", integer(1), 3),
        vision=r.get("vision", choice(VISION), "normal"),
        metatype=r.get("metatype", choice(METATYPES), "human"),
        success=r.get("success", pairs(lambda k: integer(), "success"), ()),
        defense=r.get("defense", pairs(lambda k: integer(), "defense"), ()),
        weapons=r.get("weapons", list_of(_weapon), ()),
        note=r.get("note", text, ""),
        stats=r.get("stats", pairs(lambda k: stat_value, "stats"), ()),
        spells=r.get("spells", pairs(lambda k: integer(1), "spells"), ()),
    )


def _side(v: Any, at: At, side_ids: F.IdBook, people: F.IdBook) -> Side:
    r = Rec(v, at, "side", ("id", "name", "deployment", "characters", "note"), ("id",))
    ident = r.get("id", feature_id)
    side_ids.claim(ident, r.at("id"))
    return Side(
        id=ident,
        name=r.get("name", text, ""),
        deployment=r.get("deployment", _deployment),
        characters=tuple(_character(x, a, people) for x, a in _items(r, "characters")),
        note=r.get("note", text, ""),
    )


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "character"


def _fill_character_ids(side: Side, people: F.IdBook) -> Side:
    if all(c.id for c in side.characters):
        return side
    chars = tuple(c if c.id else replace(c, id=people.fresh(_slug(c.name))) for c in side.characters)
    return replace(side, characters=chars)


def _objective(v: Any, at: At, obj_ids: F.IdBook, side_ids: F.IdBook, targets: set[str]) -> Objective:
    base = ("id", "side", "kind")
    tail = ("by_turn", "points", "note")
    if isinstance(v, dict) and isinstance(v.get("kind"), str) and v["kind"] in OBJECTIVE_EXTRA:
        kind = v["kind"]
        extra = OBJECTIVE_EXTRA[kind]
        r = Rec(v, at, f"{kind} objective", base + extra + tail, ("side", "kind", extra[0]))
    else:
        r = Rec(v, at, "objective", base + tuple(dict.fromkeys(sum(OBJECTIVE_EXTRA.values(), ()))) + tail,
                ("side", "kind"))
        kind = r.get("kind", choice(OBJECTIVE_KINDS))
    ident = r.get("id", feature_id, "")
    obj_ids.claim(ident, r.at("id"))
    side = r.get("side", feature_id)
    if side not in side_ids.used:
        r.at("side").fail(f"side '{side}' is not one of the scenario's sides")
    target = r.get("target", text)
    if target is not None and target not in targets:
        r.at("target").fail(f"target '{target}' is not a side or character of this scenario")
    area = None
    if "area" in r:
        area = r.get("area", points(3))
        check_polygon(area, r.at("area"), "objective area")
    return Objective(
        id=ident, side=side, kind=kind,
        at=r.get("at", int_tuple((2, 3), lo=None)),
        area=area,
        level=r.get("level", integer(0), 0),
        turns=r.get("turns", integer(1)),
        consecutive=r.get("consecutive", boolean, True),
        then=r.get("then", choice(THEN)),
        target=target,
        edge=r.get("edge", choice(EDGES)),
        by_turn=r.get("by_turn", integer(1)),
        points=r.get("points", integer()),
        note=r.get("note", text, ""),
    )


# --------------------------------------------------------------------------- writing


def _deployment_out(dp: Deployment) -> dict[str, Any]:
    d: dict[str, Any] = {}
    if dp.polygon is not None:
        d["polygon"] = points_out(dp.polygon)
        put(d, "level", dp.level, 0)
    else:
        put(d, "edge", dp.edge)
        put(d, "depth", dp.depth)
    return d


def _weapon_out(w: Weapon) -> dict[str, Any]:
    d: dict[str, Any] = {"type": w.type}
    put(d, "name", w.name, "")
    put(d, "success", list(w.success))
    for key in ("shots", "clips", "damage"):
        put(d, key, getattr(w, key))
    put(d, "note", w.note, "")
    put(d, "stats", dict(w.stats))
    return d


def _character_out(c: Character) -> dict[str, Any]:
    d: dict[str, Any] = {"id": c.id} if c.id else {}
    d["name"] = c.name
    put(d, "archetype", c.archetype, "")
    put(d, "move_ratio", c.move_ratio, 3)
    put(d, "fire_ratio", c.fire_ratio, 3)
    put(d, "vision", c.vision, "normal")
    put(d, "metatype", c.metatype, "human")
    put(d, "success", dict(c.success))
    put(d, "defense", dict(c.defense))
    put(d, "weapons", [_weapon_out(w) for w in c.weapons])
    put(d, "note", c.note, "")
    put(d, "stats", dict(c.stats))
    put(d, "spells", dict(c.spells))
    return d


def _side_out(s: Side) -> dict[str, Any]:
    d: dict[str, Any] = {"id": s.id}
    put(d, "name", s.name, "")
    if s.deployment is not None:
        d["deployment"] = _deployment_out(s.deployment)
    put(d, "characters", [_character_out(c) for c in s.characters])
    put(d, "note", s.note, "")
    return d


def _objective_out(o: Objective) -> dict[str, Any]:
    d: dict[str, Any] = {"id": o.id} if o.id else {}
    d["side"] = o.side
    d["kind"] = o.kind
    put(d, "at", list(o.at) if o.at is not None else None)
    put(d, "area", points_out(o.area) if o.area is not None else None)
    if o.area is not None:
        put(d, "level", o.level, 0)
    for key in ("turns", "then", "target", "edge", "by_turn", "points"):
        put(d, key, getattr(o, key))
    if o.kind == "hold":
        put(d, "consecutive", o.consecutive, True)
    put(d, "note", o.note, "")
    return d


def scenario_to_data(scenario: Scenario, layout_only: bool = False) -> dict[str, Any]:
    """Plain YAML-ready data for a scenario (or, with ``layout_only``, a layout file)."""
    if layout_only:
        d: dict[str, Any] = {"format": format_string("layout"), "title": scenario.title}
        d["layout"] = layout_to_data(scenario.layout)
        put(d, "notes", scenario.notes, "")
        return d
    d = {"format": format_string("scenario"), "title": scenario.title, "ruleset": scenario.ruleset}
    d["layout"] = layout_to_data(scenario.layout if scenario.layout is not None else Layout())
    conditions = scenario.conditions
    if conditions != DEFAULT_CONDITIONS:
        put(d, "conditions", dict(conditions))
    put(d, "turn_limit", scenario.turn_limit)
    put(d, "initiative", scenario.initiative, "team")
    put(d, "sides", [_side_out(s) for s in scenario.sides])
    put(d, "objectives", [_objective_out(o) for o in scenario.objectives])
    put(d, "victory", dict(scenario.victory))
    put(d, "notes", scenario.notes, "")
    return d
