#!/usr/bin/env python3
"""Draw every mapsheet in mapsheets/ to docs/sheets/<id>.png (street level / ground floor).

Run after changing a sheet: ``python3 scripts/sheet_pictures.py``.  Uses the same renderer
as ``sprawlmap export --format png``, at a smaller scale so the pictures stay light.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from editor.render import raster  # noqa: E402  (registers the Qt painter)
from engine import library  # noqa: E402
from engine import model as m  # noqa: E402
from engine.atomic_file import atomic_write  # noqa: E402
from engine.board import compile_board  # noqa: E402
from engine.render.display import build_scenes  # noqa: E402

PX_PER_DOT = 18


def picture(sheet: m.Sheet) -> bytes:
    placement = m.Placement(sheet.id, (0, 0), id=sheet.id)
    if sheet.kind == "pavement":
        layout = m.Layout(lattice=sheet.lattice, pavement=(placement,))
    else:
        layout = m.Layout(lattice=sheet.lattice, placements=(placement,))
    board = compile_board(layout, {sheet.id: sheet})
    scenario = m.Scenario(title=sheet.title, layout=layout)
    scene = build_scenes(board, scenario)[0]
    return raster.png_bytes(raster.render_image(scene, PX_PER_DOT))


def main() -> int:
    out_dir = ROOT / "docs" / "sheets"
    out_dir.mkdir(parents=True, exist_ok=True)
    for entry in library.scan(library.Source("bundled", library.bundled_dir())):
        sheet = library.sheet_at(entry.path)
        target = out_dir / f"{sheet.id}.png"
        atomic_write(target, picture(sheet))
        print(f"wrote {target.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
