"""The ``format: sprawlmap/<kind>@<version>`` line: checking it, refusing newer versions and
upgrading older ones through :mod:`engine.io.migrations`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import LoadError
from engine.io.fields import describe
from engine.io.migrations import MIGRATIONS

#: the version each kind of file is written in, and the newest one this code reads
CURRENT: dict[str, int] = {"mapsheet": 1, "layout": 1, "scenario": 1}

FORMAT_RE = re.compile(r"^sprawlmap/([a-z]+)@([0-9]+)$")


def format_string(kind: str) -> str:
    return f"sprawlmap/{kind}@{CURRENT[kind]}"


def read_format(data: Any, file: str | None, expected: Sequence[str]) -> tuple[str, Any]:
    """Check the ``format`` of ``data`` against the kinds ``expected``; return the kind and
    the data upgraded to the current version of that kind."""
    want = " or ".join(format_string(k) for k in expected)
    if not isinstance(data, Mapping):
        raise LoadError(
            f"expected a mapping with 'format: {want}' at the top, not {describe(data)}",
            file,
            getattr(data, "line", None),
        )
    line = getattr(data, "value_lines", {}).get("format", getattr(data, "line", None))
    fmt = data.get("format")
    if fmt is None:
        raise LoadError(f"missing 'format' (expected {want})", file, getattr(data, "line", None))
    m = FORMAT_RE.match(fmt) if isinstance(fmt, str) else None
    if not m:
        raise LoadError(f"'format' must look like {want}, not {describe(fmt)}", file, line)
    kind, version = m.group(1), int(m.group(2))
    if kind not in expected:
        raise LoadError(f"this is a {fmt} file, expected {want}", file, line)
    current = CURRENT[kind]
    if version > current:
        raise LoadError(
            f"format {fmt} is newer than this sprawlmap understands ({kind}@{current})", file, line
        )
    while version < current:
        step = MIGRATIONS.get((kind, version))
        if step is None:
            raise LoadError(f"format {fmt} is too old: no upgrade from {kind}@{version}", file, line)
        data = step(data)
        version += 1
    return kind, data
