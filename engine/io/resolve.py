"""Finding the sheets a layout places, and compiling a document into a board.

Search order for each sheet id: sheets inlined in the layout (bundles), then mapsheet files in
the document's own folder, then the project's ``mapsheets/`` library.  In a folder, the file
``<id>.yaml`` is tried first; otherwise every ``*.yaml`` mapsheet there is looked at.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import engine
from engine import limits
from engine.errors import LoadError
from engine.io import sources
from engine.io.files import load_document, load_sheet
from engine.io.reader import read_yaml
from engine.model import Layout, Scenario, Sheet

PathLike = str | os.PathLike[str]

#: the project's own sheet library
LIBRARY = Path(engine.__file__).resolve().parent.parent / "mapsheets"

# path -> (mtime_ns, size, declared sheet id or None); avoids re-reading unchanged files
_ID_CACHE: dict[str, tuple[int, int, str | None]] = {}


def _declared_id(path: Path) -> str | None:
    """The ``id`` a YAML file declares if it is a mapsheet; None for anything else."""
    try:
        st = path.stat()
    except OSError:
        return None
    key = str(path)
    hit = _ID_CACHE.get(key)
    if hit and hit[0] == st.st_mtime_ns and hit[1] == st.st_size:
        return hit[2]
    ident = None
    try:
        data = read_yaml(path)
    except LoadError:
        data = None
    if isinstance(data, dict) and str(data.get("format", "")).startswith("sprawlmap/mapsheet@"):
        value = data.get("id")
        ident = value if isinstance(value, str) else None
    _ID_CACHE[key] = (st.st_mtime_ns, st.st_size, ident)
    return ident


def _find_in(folder: Path, ident: str) -> Sheet | None:
    if not folder.is_dir():
        return None
    direct = folder / f"{ident}.yaml"
    if direct.is_file() and _declared_id(direct) == ident:
        return load_sheet(direct)
    for path in sorted(folder.glob("*.yaml")):
        if path != direct and _declared_id(path) == ident:
            return load_sheet(path)
    return None


def needed_sheet_ids(layout: Layout) -> list[str]:
    """Every sheet id a layout uses (pavement, placements, pieces), in first-use order."""
    ids = [p.sheet for p in layout.pavement] + [p.sheet for p in layout.placements]
    ids += [pc.sheet for pc in layout.pieces]
    return list(dict.fromkeys(ids))


def resolve_sheets(
    layout: Layout, base_dir: PathLike | None, library: PathLike | None = None
) -> dict[str, Sheet]:
    """The sheets a layout needs, by id (plus every inlined sheet).

    A sheet that cannot be found is a :class:`LoadError` at the line of the first placement
    naming it; a sheet on the wrong lattice is refused the same way.
    """
    found: dict[str, Sheet] = {s.id: s for s in layout.sheets}
    folders = [Path(base_dir)] if base_dir is not None else []
    folders.append(Path(library) if library is not None else LIBRARY)
    users = list(layout.pavement) + list(layout.placements)
    for ident in needed_sheet_ids(layout):
        if ident not in found:
            for folder in folders:
                sheet = _find_in(folder, ident)
                if sheet is not None:
                    found[ident] = sheet
                    break
        user = next((p for p in users if p.sheet == ident), None)
        file, line = sources.where(user) if user is not None else (None, None)
        if ident not in found:
            looked = " or ".join(str(f) for f in folders)
            raise LoadError(
                f"sheet '{ident}' not found: not inlined in the layout, no mapsheet with that id in {looked}",
                file,
                line,
            )
        if found[ident].lattice != layout.lattice:
            raise LoadError(
                f"sheet '{ident}' is drawn on a {found[ident].lattice} lattice, the layout is {layout.lattice}",
                file,
                line,
            )
    return found


def load_board(path: PathLike) -> tuple[Scenario, Any]:
    """Load a document, find its sheets and compile its board (the CLI's first step)."""
    from engine.board import compile_board  # the board compiler is a heavier, separate layer

    scenario = load_document(path)
    sheets = resolve_sheets(scenario.layout, Path(os.fspath(path)).resolve().parent)
    limits.check_board(scenario.layout, sheets, os.fspath(path))
    return scenario, compile_board(scenario.layout, sheets)
