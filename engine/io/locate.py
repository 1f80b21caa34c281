"""Which line of a scenario file a validation finding is about.

Findings name what they concern (``where``: sides, characters, objectives) but the model keeps
no line numbers.  The reader's located data does, so the CLI re-reads the file and points at
the character or objective a finding names: ``street.yaml:42: error: ...``, as every load
error already does.  Ids the loader filled in (a character's slug of its name, an objective's
``side-kind``) are matched the same way.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "character"


def _items(seq: Any) -> list[tuple[Any, int | None]]:
    if not isinstance(seq, Sequence) or isinstance(seq, str):
        return []
    lines = list(getattr(seq, "item_lines", []))
    return [(v, lines[i] if i < len(lines) else getattr(v, "line", None))
            for i, v in enumerate(seq)]


def _is(entry: Any, ident: str, auto: str) -> bool:
    if not isinstance(entry, Mapping):
        return False
    own = entry.get("id")
    return own == ident if own else bool(auto) and (auto == ident or ident.startswith(auto + "-"))


def _character_line(data: Mapping, side: str | None, who: str) -> int | None:
    for s, _ in _items(data.get("sides")):
        if not isinstance(s, Mapping) or (side is not None and s.get("id") != side):
            continue
        for c, line in _items(s.get("characters")):
            name = str(c.get("name", "")) if isinstance(c, Mapping) else ""
            if _is(c, who, _slug(name)) or (isinstance(c, Mapping) and name == who):
                return line
    return None


def finding_line(data: Any, where: Mapping[str, Any]) -> int | None:
    """The line of the first character or objective ``where`` names in ``data`` (the
    reader's located parse of the file), else of the first side; None if none is found."""
    if not isinstance(data, Mapping):
        return None
    sides = list(where.get("sides") or [])
    for who in where.get("characters") or []:
        line = _character_line(data, sides[0] if sides else None, str(who))
        if line is not None:
            return line
    for ident in where.get("objectives") or []:
        for o, line in _items(data.get("objectives")):
            auto = f"{o.get('side')}-{o.get('kind')}" if isinstance(o, Mapping) else ""
            if _is(o, str(ident), auto):
                return line
    for ident in sides:
        for s, line in _items(data.get("sides")):
            if isinstance(s, Mapping) and s.get("id") == ident:
                return line
    return None
