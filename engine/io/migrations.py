"""Upgrades of older file versions, one function per (kind, from_version) step.

When a format changes, bump its number in :data:`engine.io.versions.CURRENT` and register a
function here that turns data of the previous version into the next one.  A step receives the
located data of the whole file (a :class:`~engine.io.reader.YMap`) and returns the upgraded
data; keep the line numbers of moved values (use :func:`moved`) so that errors found after the
upgrade still point at the user's own lines.  Steps chain: @0 -> @1 -> @2 ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.io.reader import YList, YMap

Migration = Callable[[Any], Any]

#: (kind, from_version) -> step to from_version + 1
MIGRATIONS: dict[tuple[str, int], Migration] = {}


def migration(kind: str, from_version: int) -> Callable[[Migration], Migration]:
    def register(fn: Migration) -> Migration:
        MIGRATIONS[(kind, from_version)] = fn
        return fn

    return register


def moved(data: Any, replacements: dict[str, tuple[str, Any, str]]) -> YMap:
    """A copy of ``data`` in which each key in ``replacements`` is replaced by
    ``(new_key, new_value, key_whose_lines_it_takes)``; a replacement to an empty new key
    drops the old key.  Order and lines of all other keys are kept."""
    out = YMap(getattr(data, "line", None))
    key_lines = getattr(data, "key_lines", {})
    value_lines = getattr(data, "value_lines", {})
    for key, value in data.items():
        new_key, new_value, line_key = replacements.get(key, (key, value, key))
        if not new_key:
            continue
        out[new_key] = new_value
        if line_key in key_lines:
            out.key_lines[new_key] = key_lines[line_key]
            out.value_lines[new_key] = value_lines[line_key]
    return out


@migration("mapsheet", 0)
def mapsheet_0_to_1(data: Any) -> Any:
    """mapsheet@0 (the pre-release draft) gave the extent as two keys ``cols:`` and ``rows:``;
    @1 writes it as one pair ``size: [cols, rows]``, like every other point in the file."""
    if "cols" not in data and "rows" not in data:
        return data
    size = YList(getattr(data, "value_lines", {}).get("cols", getattr(data, "line", None)))
    for key in ("cols", "rows"):
        if key in data:
            size.append(data[key])
            size.item_lines.append(getattr(data, "value_lines", {}).get(key, size.line))
    first = "cols" if "cols" in data else "rows"
    other = "rows" if first == "cols" else "cols"
    return moved(data, {first: ("size", size, first), other: ("", None, other)})
