"""Finding sheets: inlined first, then the document's folder, then the library; load_board."""

from __future__ import annotations

import sys
import types
from pathlib import Path

from conftest import expect_error

import engine
from engine import library
from engine.io import load_board, load_document, resolve_sheets

PAVEMENT = """\
format: sprawlmap/mapsheet@1
id: {id}
title: {title}
kind: pavement
lattice: {lattice}
size: [4, 4]
outline: [[-0.5, -0.5], [3.5, -0.5], [3.5, 3.5], [-0.5, 3.5]]
"""

DOC = """\
format: sprawlmap/layout@1
layout:
  pavement:
    - {sheet: street, at: [0, 0]}
  placements:
    - {sheet: kiosk, at: [1, 1]}
"""


def sheet_text(ident: str, title: str, lattice: str = "square") -> str:
    return PAVEMENT.format(id=ident, title=title, lattice=lattice)


def make(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text)
    return path


def test_library_is_the_projects_mapsheets_folder():
    assert library.bundled_dir() == Path(engine.__file__).resolve().parent.parent / "mapsheets"


def test_folder_then_library_and_files_found_by_declared_id(tmp_path):
    docs, lib = tmp_path / "docs", tmp_path / "lib"
    make(docs, "whatever-name.yaml", sheet_text("street", "Street in the folder"))
    make(docs, "notes.yaml", "this: is not a sheet\n")
    make(docs, "broken.yaml", "a: [unclosed\n")
    make(lib, "street.yaml", sheet_text("street", "Street in the library"))
    make(lib, "kiosk.yaml", sheet_text("kiosk", "Kiosk in the library"))
    doc = load_document(make(docs, "doc.yaml", DOC))
    sheets = resolve_sheets(doc.layout, docs, library=lib)
    assert sheets["street"].title == "Street in the folder"
    assert sheets["kiosk"].title == "Kiosk in the library"
    assert list(sheets) == ["street", "kiosk"]


def test_inlined_sheets_come_first(tmp_path):
    docs = tmp_path / "docs"
    make(docs, "street.yaml", sheet_text("street", "Street in the folder"))
    inline = "  sheets:\n" + "".join(
        "    - " + line + "\n" if i == 0 else "      " + line + "\n"
        for i, line in enumerate(sheet_text("street", "Inlined street").splitlines())
    )
    doc = load_document(make(docs, "doc.yaml", DOC.replace("  placements:\n    - {sheet: kiosk, at: [1, 1]}\n", "") + inline))
    assert resolve_sheets(doc.layout, docs, library=tmp_path / "none")["street"].title == "Inlined street"


def test_missing_sheet_names_the_placement_line(tmp_path):
    docs = tmp_path / "docs"
    make(docs, "street.yaml", sheet_text("street", "Street"))
    path = make(docs, "doc.yaml", DOC)
    doc = load_document(path)
    expect_error(
        lambda: resolve_sheets(doc.layout, docs, library=tmp_path / "lib"), path, 6,
        f"sheet 'kiosk' not found: not inlined in the layout, no mapsheet with that id in {docs} or {tmp_path / 'lib'}",
    )


def test_broken_sheet_file_with_the_wanted_name_reports_its_own_line(tmp_path):
    docs = tmp_path / "docs"
    make(docs, "street.yaml", sheet_text("street", "Street"))
    bad = make(docs, "kiosk.yaml", sheet_text("kiosk", "Kiosk") + "height: 3\n")
    doc = load_document(make(docs, "doc.yaml", DOC))
    expect_error(lambda: resolve_sheets(doc.layout, docs, library=tmp_path / "lib"), bad, 8,
                 "a pavement sheet has height 0")


def test_lattice_mismatch_refused(tmp_path):
    docs = tmp_path / "docs"
    make(docs, "street.yaml", sheet_text("street", "Street", lattice="hex"))
    make(docs, "kiosk.yaml", sheet_text("kiosk", "Kiosk"))
    path = make(docs, "doc.yaml", DOC)
    doc = load_document(path)
    expect_error(lambda: resolve_sheets(doc.layout, docs, library=tmp_path / "lib"), path, 4,
                 "sheet 'street' is drawn on a hex lattice, the layout is square")


def test_load_board_compiles_with_the_resolved_sheets(tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    make(docs, "street.yaml", sheet_text("street", "Street"))
    make(docs, "kiosk.yaml", sheet_text("kiosk", "Kiosk"))
    path = make(docs, "doc.yaml", DOC)
    calls = []
    fake = types.ModuleType("engine.board")

    def compile_board(layout, sheets):
        calls.append((layout, sheets))
        return "the board"

    fake.compile_board = compile_board
    monkeypatch.setitem(sys.modules, "engine.board", fake)
    scenario, board = load_board(path)
    assert board == "the board"
    assert calls[0][0] == scenario.layout
    assert sorted(calls[0][1]) == ["kiosk", "street"]
    assert scenario.title == "doc"


def test_load_board_end_to_end_with_the_real_compiler(tmp_path):
    docs = tmp_path / "docs"
    make(docs, "street.yaml", sheet_text("street", "Street").replace("[4, 4]", "[12, 10]")
         .replace("[[-0.5, -0.5], [3.5, -0.5], [3.5, 3.5], [-0.5, 3.5]]",
                  "[[-0.5, -0.5], [11.5, -0.5], [11.5, 9.5], [-0.5, 9.5]]"))
    make(docs, "kiosk.yaml", """\
format: sprawlmap/mapsheet@1
id: kiosk
title: Kiosk
kind: building
size: [3, 2]
outline: [[-0.5, -0.5], [2.5, -0.5], [2.5, 1.5], [-0.5, 1.5]]
levels:
  - level: 0
    walls:
      - {id: shell, path: [[-0.5, -0.5], [2.5, -0.5], [2.5, 1.5], [-0.5, 1.5], [-0.5, -0.5]]}
    doors:
      - {id: hatch, span: [[0.5, 1.5], [1.5, 1.5]], state: closed}
""")
    scenario, board = load_board(make(docs, "doc.yaml", DOC))
    ids = {f.id for f in board.all_features()}
    assert {"kiosk-1/shell", "kiosk-1/hatch"} <= ids
    assert [b.placement.id for b in board.buildings] == ["kiosk-1"]
