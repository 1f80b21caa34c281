"""Output files: the names of per-level files (writes go through :mod:`engine.atomic_file`)."""

from __future__ import annotations

import os
from pathlib import Path

from engine import atomic_file


def atomic_write(path: str | os.PathLike[str], data: bytes | str) -> Path:
    """:func:`engine.atomic_file.atomic_write` into a folder made if missing (an export may
    name a new folder)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    return atomic_file.atomic_write(path, data)


def level_path(out: str | os.PathLike[str], level: int) -> Path:
    """``map.svg`` for level 0, ``map-L1.svg`` for level 1, and so on."""
    p = Path(out)
    if level == 0:
        return p
    return p.with_name(f"{p.stem}-L{level}{p.suffix}")
