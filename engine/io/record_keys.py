"""The keys each feature record of a sheet file accepts: one list for the checked readers
(:mod:`engine.io.features`), the quick ones (:mod:`engine.io.quick_records`) and the schema."""

from __future__ import annotations

WALL_KEYS = ("id", "path", "class", "exterior", "note")
OPENING_KEYS = ("id", "span", "state", "class", "note")
HOLE_KEYS = ("id", "span", "note")
STAIR_KEYS = ("id", "at", "to", "note")
#: keys every area accepts, whatever its kind
AREA_BASE = ("id", "kind", "polygon", "note")
#: keys an area of each kind accepts besides those
AREA_EXTRA: dict[str, tuple[str, ...]] = {
    "obstacle": ("cost", "los", "standable", "class"),
    "dark": ("darkness", "target_modifier"),
    "modifier": ("target_modifier",),
    "hazard": ("effect",),
}
