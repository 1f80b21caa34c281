"""JSON Schema of the file formats, built from the loader's own key lists and choices.

Why: designers who edit YAML by hand get completion and errors in their text editor (the
``# yaml-language-server: $schema=...`` line that :func:`engine.io.files.schema_comment` puts at
the top of saved files points at ``docs/schema/*.json``).  The key tuples and enumerations come from the loader modules, so a key
added there shows up here; ``tests/robust/test_schema.py`` checks the committed files equal
:func:`schemas` and that the schema accepts every shipped file and rejects broken ones the
loader rejects.  The schema is the shape only: geometry checks (crossing outlines, openings off
their wall) stay the loader's.

Run ``python -m engine.io.schema`` to rewrite ``docs/schema/``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from engine.io import features as F
from engine.io import layout as L
from engine.io import scenario as S
from engine.io import sheet as SH
from engine.io.fields import ID_RE, SHEET_ID_RE
from engine.io.versions import CURRENT, format_string
from engine.model import (
    AREA_KINDS,
    DARKNESS,
    LINE_KINDS,
    LOS_EFFECTS,
    OPENING_STATES,
    STANDABLE,
    WALL_CLASSES,
    WINDOW_CLASSES,
)
from engine.zone import io as Z
from engine.zone import model as ZM

DRAFT = "https://json-schema.org/draft/2020-12/schema"
BASE_URL = "https://sprawlmap.invalid/schema/"
#: where the committed schema files live, relative to the repository root
SCHEMA_DIR = "docs/schema"

Schema = dict[str, Any]


def schema_file(kind: str) -> str:
    return f"{kind}.schema.json"


# ------------------------------------------------------------------------ building blocks
NUMBER: Schema = {"type": "number"}
INT: Schema = {"type": "integer"}
TEXT: Schema = {"type": "string"}
BOOL: Schema = {"type": "boolean"}
POINT: Schema = {"type": "array", "items": NUMBER, "minItems": 2, "maxItems": 2}
FEATURE_ID: Schema = {"anyOf": [{"type": "string", "pattern": ID_RE.pattern}, INT]}
SHEET_ID: Schema = {"type": "string", "pattern": SHEET_ID_RE.pattern}


def nonneg(lo: int = 0) -> Schema:
    return {"type": "integer", "minimum": lo}


def points(n: int) -> Schema:
    return {"type": "array", "items": POINT, "minItems": n}


def enum(values: tuple[str, ...]) -> Schema:
    return {"enum": list(values)}


def record(props: dict[str, Schema], required: tuple[str, ...] = (), keys: tuple[str, ...] | None = None) -> Schema:
    """A mapping with exactly the loader's keys (``keys`` when given must equal ``props``)."""
    if keys is not None and tuple(keys) != tuple(props):
        missing = set(keys) ^ set(props)
        raise AssertionError(f"schema keys differ from the loader's: {sorted(missing)}")
    # the loader reads an empty (null) optional key as absent
    props = {k: v if k in required else {"anyOf": [v, {"type": "null"}]} for k, v in props.items()}
    out: Schema = {"type": "object", "properties": props, "additionalProperties": False}
    if required:
        out["required"] = list(required)
    return out


def barrier(names: tuple[str, ...]) -> Schema:
    return {"anyOf": [enum(names), record({"barrier": nonneg(), "armor": nonneg()}, ("barrier",))]}


def kinded(kinds: tuple[str, ...], base: dict[str, Schema], extra: dict[str, tuple[str, ...]],
           extra_props: dict[str, Schema], geom: str) -> Schema:
    """One record per kind: the keys a kind takes depend on it, as in the loader."""
    branches = []
    for k in kinds:
        props = {**base, "kind": {"const": k}}
        for key in extra.get(k, ()):
            props[key] = extra_props[key]
        props["note"] = TEXT
        branches.append(record(props, ("kind", geom)))
    return {"oneOf": branches}


# ------------------------------------------------------------------------------ features
AREA_PROPS = {"cost": nonneg(), "los": enum(LOS_EFFECTS), "standable": enum(STANDABLE),
              "class": barrier(WALL_CLASSES), "darkness": enum(DARKNESS),
              "target_modifier": {"type": "integer", "minimum": -20, "maximum": 20},
              "effect": TEXT}


def area() -> Schema:
    return kinded(AREA_KINDS, {"id": FEATURE_ID, "polygon": points(3)}, F.AREA_EXTRA, AREA_PROPS,
                  "polygon")


def line() -> Schema:
    return kinded(LINE_KINDS, {"id": FEATURE_ID, "path": points(2)}, F.LINE_EXTRA, AREA_PROPS, "path")


def tree() -> Schema:
    return record({"id": FEATURE_ID, "trunk": POINT, "canopy": points(3), "note": TEXT}, ("trunk",))


def level() -> Schema:
    span = points(2)
    wall = record({"id": FEATURE_ID, "path": points(2), "class": barrier(WALL_CLASSES),
                   "exterior": BOOL, "note": TEXT}, ("path",))
    door = record({"id": FEATURE_ID, "span": span, "state": enum(OPENING_STATES),
                   "class": barrier(WALL_CLASSES), "note": TEXT}, ("span",))
    window = record({"id": FEATURE_ID, "span": span, "state": enum(OPENING_STATES),
                     "class": barrier(WINDOW_CLASSES), "note": TEXT}, ("span",))
    hole = record({"id": FEATURE_ID, "span": span, "note": TEXT}, ("span",))
    stair = record({"id": FEATURE_ID, "at": POINT, "to": INT, "note": TEXT}, ("at", "to"))
    elevator = record({"id": FEATURE_ID, "at": POINT, "levels": {"type": "array", "items": INT},
                       "note": TEXT}, ("at", "levels"))
    climb = record({"id": FEATURE_ID, "at": POINT, "to": INT, "assisted": BOOL, "note": TEXT},
                   ("at", "to"))
    lists = {"walls": wall, "doors": door, "windows": window, "holes": hole, "areas": area(),
             "lines": line(), "trees": tree(), "stairs": stair, "elevators": elevator,
             "climbs": climb}
    props: dict[str, Schema] = {"level": nonneg()}
    props.update({k: {"type": "array", "items": lists[k]} for k in SH.LEVEL_KEYS[1:-1]})
    props["note"] = TEXT
    return record(props, ("level",), SH.LEVEL_KEYS)


def format_const(kinds: tuple[str, ...]) -> Schema:
    return enum(tuple(format_string(k) for k in kinds))


def sheet_props(with_format: bool) -> dict[str, Schema]:
    props: dict[str, Schema] = {
        "format": format_const(("mapsheet",)),
        "id": SHEET_ID, "title": TEXT, "kind": enum(SH.SHEET_KINDS), "lattice": enum(SH.LATTICES),
        "size": {"type": "array", "items": nonneg(1), "minItems": 2, "maxItems": 2},
        "outline": points(3), "height": {"type": "integer", "minimum": 0, "maximum": SH.MAX_HEIGHT},
        "defaults": record({"wall": barrier(WALL_CLASSES), "door": barrier(WALL_CLASSES),
                            "window": barrier(WINDOW_CLASSES)}),
        "levels": {"type": "array", "items": {"$ref": "#/$defs/level"}},
        "notes": TEXT,
    }
    assert tuple(props) == SH.SHEET_KEYS
    if not with_format:
        props = {k: v for k, v in props.items() if k != "format"}
    return props


def mapsheet() -> Schema:
    return _root("mapsheet", record(sheet_props(True), ("format", "id", "title", "kind", "size", "outline")),
                 {"level": level()})


# ------------------------------------------------------------------------------- layout
def layout_body() -> Schema:
    placement = record({"id": FEATURE_ID, "sheet": SHEET_ID, "piece": SHEET_ID,
                        "at": {"type": "array", "items": INT, "minItems": 2, "maxItems": 2},
                        "rotation": INT, "mirror": BOOL, "note": TEXT}, ("sheet", "at"),
                       L.PLACEMENT_KEYS)
    piece = record({"id": SHEET_ID, "sheet": SHEET_ID, "polygon": points(3), "note": TEXT},
                   ("id", "sheet", "polygon"))
    extras = record({"areas": {"type": "array", "items": area()},
                     "lines": {"type": "array", "items": line()},
                     "trees": {"type": "array", "items": tree()}})
    inline = record(sheet_props(True), ("id", "title", "kind", "size", "outline"))
    return record({
        "lattice": enum(SH.LATTICES),
        "pavement": {"type": "array", "items": placement},
        "placements": {"type": "array", "items": placement},
        "pieces": {"type": "array", "items": piece},
        "extras": extras,
        "sheets": {"type": "array", "items": inline},
    }, (), L.LAYOUT_KEYS)


def layout() -> Schema:
    body = record({"format": format_const(("layout",)), "title": TEXT,
                   "layout": {"$ref": "#/$defs/layout"}, "notes": TEXT},
                  ("format", "layout"), S.LAYOUT_FILE_KEYS)
    return _root("layout", body, {"layout": layout_body(), "level": level()})


# ----------------------------------------------------------------------------- scenario
def objective() -> Schema:
    extra_props = {"at": {"type": "array", "items": INT, "minItems": 2, "maxItems": 3},
                   "area": points(3), "level": nonneg(), "turns": nonneg(1),
                   "consecutive": BOOL, "then": enum(S.THEN), "target": TEXT,
                   "edge": enum(S.EDGES)}
    branches = []
    for kind, extra in S.OBJECTIVE_EXTRA.items():
        props = {"id": FEATURE_ID, "side": FEATURE_ID, "kind": {"const": kind}}
        props.update({k: extra_props[k] for k in extra})
        props.update({"by_turn": nonneg(1), "points": INT, "note": TEXT})
        branches.append(record(props, ("side", "kind", extra[0])))
    assert tuple(S.OBJECTIVE_EXTRA) == S.OBJECTIVE_KINDS
    return {"oneOf": branches}


def scenario() -> Schema:
    ints = {"type": "object", "additionalProperties": INT}
    stats = {"type": "object", "additionalProperties": {"type": ["integer", "string"]},
             "description": "figures another ruleset needs (sr3 body, damage 9M...)"}
    weapon = record({"type": TEXT, "name": TEXT, "success": {"type": "array", "items": nonneg()},
                     "shots": nonneg(), "clips": nonneg(), "damage": nonneg(), "note": TEXT,
                     "stats": stats}, ("type",))
    character = record({"id": FEATURE_ID, "name": TEXT, "archetype": TEXT, "move_ratio": nonneg(1),
                        "fire_ratio": nonneg(1), "vision": enum(S.VISION), "metatype": enum(S.METATYPES),
                        "success": ints, "defense": ints,
                        "weapons": {"type": "array", "items": weapon}, "note": TEXT,
                        "stats": stats,
                        "spells": {"type": "object", "additionalProperties": nonneg(1),
                                   "description": "DMZ spells known: name -> Maximum Force"}},
                       ("name",), S.CHARACTER_KEYS)
    deployment = {"anyOf": [
        record({"polygon": points(3), "level": nonneg()}, ("polygon",)),
        record({"edge": enum(S.EDGES), "depth": nonneg(1)}, ("edge",)),
    ]}
    side = record({"id": FEATURE_ID, "name": TEXT, "deployment": deployment,
                   "characters": {"type": "array", "items": character}, "note": TEXT}, ("id",))
    victory = record({"most_points": BOOL, "points": nonneg(1), "last_standing": BOOL})
    assert tuple(victory["properties"]) == tuple(S.VICTORY)  # noqa: S101
    conditions = record({"light": enum(S.LIGHT), "ambush": FEATURE_ID})
    assert tuple(conditions["properties"]) == tuple(S.CONDITIONS)
    body = record({
        "format": format_const(("scenario",)), "title": TEXT, "ruleset": enum(S.RULESETS),
        "layout": {"$ref": "#/$defs/layout"}, "conditions": conditions, "turn_limit": nonneg(1),
        "initiative": enum(S.INITIATIVE), "sides": {"type": "array", "items": side},
        "objectives": {"type": "array", "items": objective()}, "victory": victory, "notes": TEXT,
    }, ("format", "layout"), S.SCENARIO_KEYS)
    return _root("scenario", body, {"layout": layout_body(), "level": level()})


# --------------------------------------------------------------------------------- zone
def zone() -> Schema:
    block = {"type": "array", "items": INT, "minItems": 2, "maxItems": 2}
    blocks = {"type": "array", "items": block}
    pair = {"type": "array", "items": nonneg(1), "minItems": 2, "maxItems": 2}
    crossing = {"type": "array", "items": enum(ZM.CROSSINGS)}
    player = record({"id": FEATURE_ID, "name": TEXT, "safehouse": enum(ZM.SIDES), "entries": blocks,
                     "note": TEXT}, ("id", "safehouse"), Z.PLAYER_KEYS)
    river = record({"preset": {"enum": [1, 2]}, "blocks": blocks, "crossing": crossing}, (),
                   Z.RIVER_KEYS)
    barrier = record({"between": {"type": "array", "items": block, "minItems": 2, "maxItems": 2},
                      "body": nonneg(), "note": TEXT}, ("between", "body"), Z.BARRIER_KEYS)
    zblock = record({"at": block, "layout": TEXT, "label": TEXT, "card": enum(ZM.CARDS), "note": TEXT},
                    ("at",), Z.BLOCK_KEYS)
    limits = record({"runners_per_block": nonneg(1), "events_per_block": nonneg()}, (), Z.LIMITS_KEYS)
    growth = record({"enabled": BOOL, "trigger": nonneg(1), "side": enum(ZM.GROWTH_SIDES)}, (),
                    Z.GROWTH_KEYS)
    landslide = record({"enabled": BOOL, "stay_damage": nonneg(), "off_edge": enum(ZM.OFF_EDGE)}, (),
                       Z.LANDSLIDE_KEYS)
    body = record({
        "format": {"const": Z.FORMAT}, "title": TEXT, "grid": pair,
        "shape": {"anyOf": [{"type": "null"}, {"type": "array", "items": {"type": "string",
                                                                         "pattern": "^[#.]+$"}}]},
        "block_size": pair, "players": {"type": "array", "items": player}, "river": river,
        "barriers": {"type": "array", "items": barrier}, "blocks": {"type": "array", "items": zblock},
        "limits": limits, "growth": growth, "landslide": landslide, "notes": TEXT,
    }, ("format", "grid"), Z.ZONE_KEYS)
    return _root("zone", body, {})


def _root(kind: str, body: Schema, defs: dict[str, Schema]) -> Schema:
    return {"$schema": DRAFT, "$id": BASE_URL + schema_file(kind),
            "title": f"sprawlmap {kind} file ({Z.FORMAT if kind == 'zone' else format_string(kind)})",
            "description": "Generated by engine/io/schema.py from the loader's definitions; "
                           "do not edit by hand.",
            **body, "$defs": defs}


def schemas() -> dict[str, Schema]:
    """Every format's schema by file kind (mapsheet, layout, scenario, zone)."""
    assert set(CURRENT) == {"mapsheet", "layout", "scenario"}
    return {"mapsheet": mapsheet(), "layout": layout(), "scenario": scenario(), "zone": zone()}


def schema_text(s: Schema) -> str:
    return json.dumps(s, indent=1, sort_keys=False) + "\n"


def write_all(root: Path) -> list[Path]:
    from engine.atomic_file import atomic_write

    out = []
    folder = root / SCHEMA_DIR
    folder.mkdir(parents=True, exist_ok=True)
    for kind, s in schemas().items():
        out.append(atomic_write(folder / schema_file(kind), schema_text(s)))
    return out


if __name__ == "__main__":
    for p in write_all(Path(sys.argv[1]) if len(sys.argv) > 1 else Path.cwd()):
        print(f"wrote {p}")
