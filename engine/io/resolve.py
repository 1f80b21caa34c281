"""Finding the sheets a layout places, and compiling a document into a board.

Search order for each sheet id: sheets inlined in the layout (bundles), then the library's
search path (:mod:`engine.library`: the document's own folder, the bundled library, the user
library, ``SPRAWLMAP_LIBRARY``).
"""

from __future__ import annotations

import gc
import os
from pathlib import Path
from typing import Any

from engine import library as sheet_library  # a module reference: engine.library imports engine.io
from engine import limits
from engine.errors import LoadError
from engine.io import sources
from engine.io.files import load_document
from engine.model import Layout, Scenario, Sheet

PathLike = str | os.PathLike[str]


def needed_sheet_ids(layout: Layout) -> list[str]:
    """Every sheet id a layout uses (pavement, placements, pieces), in first-use order."""
    ids = [p.sheet for p in layout.pavement] + [p.sheet for p in layout.placements]
    ids += [pc.sheet for pc in layout.pieces]
    return list(dict.fromkeys(ids))


def resolve_sheets(
    layout: Layout, base_dir: PathLike | None, library: PathLike | None = None
) -> dict[str, Sheet]:
    """The sheets a layout needs, by id (plus every inlined sheet).

    ``library`` replaces the library search path with that one folder (after ``base_dir``).
    A sheet that cannot be found is a :class:`LoadError` at the line of the first placement
    naming it; a sheet on the wrong lattice is refused the same way.

    Python's cyclic garbage collector is paused meanwhile, as in the board compile: reading a
    16x16-block city's 635 sheets makes about a million objects that all live on (the parsed
    data until its sheet is built, then the sheets), and the collections they set off found
    nothing to free.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        return _resolve(layout, base_dir, library)
    finally:
        if was:
            gc.enable()


def _resolve(layout: Layout, base_dir: PathLike | None, library: PathLike | None) -> dict[str, Sheet]:
    found: dict[str, Sheet] = {s.id: s for s in layout.sheets}
    if library is None:
        search = sheet_library.sources(base_dir)
    else:
        search = [sheet_library.Source("document", Path(base_dir))] if base_dir is not None else []
        search.append(sheet_library.Source("bundled", Path(library)))
    users: dict[str, Any] = {}  # sheet id -> its first placement (the line an error names)
    for p in (*layout.pavement, *layout.placements):
        users.setdefault(p.sheet, p)
    for ident in needed_sheet_ids(layout):
        if ident not in found:
            entry = sheet_library.find(ident, search)
            if entry is not None:
                found[ident] = sheet_library.sheet_at(entry.path)
        user = users.get(ident)
        file, line = sources.where(user) if user is not None else (None, None)
        if ident not in found:
            looked = " or ".join(str(s.folder) for s in search)
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

    was = gc.isenabled()
    gc.disable()  # one pause for the whole load, not one per step (see resolve_sheets)
    try:
        scenario = load_document(path)
        sheets = resolve_sheets(scenario.layout, Path(os.fspath(path)).resolve().parent)
        limits.check_board(scenario.layout, sheets, os.fspath(path))
        return scenario, compile_board(scenario.layout, sheets)
    finally:
        if was:
            gc.enable()
