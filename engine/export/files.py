"""Output files: the names of per-level files (writes go through :mod:`engine.atomic_file`)."""

from __future__ import annotations

import os
from pathlib import Path


def level_path(out: str | os.PathLike[str], level: int) -> Path:
    """``map.svg`` for level 0, ``map-L1.svg`` for level 1, and so on."""
    p = Path(out)
    if level == 0:
        return p
    return p.with_name(f"{p.stem}-L{level}{p.suffix}")
