"""The one mapsheet library: search order, origins, the user library and SPRAWLMAP_LIBRARY."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

import engine
from engine import library
from engine.cli import main
from engine.errors import LoadError
from engine.io import load_board, load_document, resolve_sheets

CHECKOUT = Path(engine.__file__).resolve().parent.parent
BUNDLED_SHEETS = sorted(p.stem for p in (CHECKOUT / "mapsheets").glob("*.yaml"))

SHEET = """\
format: sprawlmap/mapsheet@1
id: {id}
title: {title}
kind: pavement
lattice: square
size: [4, 4]
outline: [[-0.5, -0.5], [3.5, -0.5], [3.5, 3.5], [-0.5, 3.5]]
"""

DOC = """\
format: sprawlmap/layout@1
layout:
  pavement:
    - {sheet: %s, at: [0, 0]}
"""


def sheet(folder: Path, ident: str, title: str, name: str | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (name or f"{ident}.yaml")
    path.write_text(SHEET.format(id=ident, title=title))
    return path


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A user data folder and SPRAWLMAP_LIBRARY of the test's own (two folders)."""
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    env = [tmp_path / "env1", tmp_path / "env2"]
    monkeypatch.setenv(library.ENV, f"{env[0]}{os.pathsep}{env[1]}")
    return tmp_path


def test_search_order_document_bundled_user_env(home):
    got = library.sources(home / "docs")
    assert [(s.origin, s.folder) for s in got] == [
        ("document", home / "docs"), ("bundled", CHECKOUT / "mapsheets"),
        ("user", home / "data" / "sprawlmap" / "mapsheets"),
        ("env", home / "env1"), ("env", home / "env2")]
    assert library.user_library() == home / "data" / "sprawlmap" / "mapsheets"


def test_document_folder_that_is_a_library_folder_keeps_the_library_name(home):
    got = library.sources(CHECKOUT / "mapsheets")
    assert [s.origin for s in got] == ["bundled", "user", "env", "env"]


def test_user_data_dir_per_platform(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("APPDATA", str(tmp_path / "Roaming"))
    assert library.user_library() == tmp_path / "Roaming" / "sprawlmap" / "mapsheets"
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: tmp_path))
    assert library.user_data_dir() == tmp_path / "Library" / "Application Support" / "sprawlmap"
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert library.user_data_dir() == tmp_path / ".local" / "share" / "sprawlmap"


def test_a_copied_scenario_finds_user_and_env_sheets(home):
    sheet(home / "data" / "sprawlmap" / "mapsheets", "mine", "My street")
    sheet(home / "env2", "theirs", "Shared street", name="any-name.yaml")
    for ident, title in (("mine", "My street"), ("theirs", "Shared street")):
        doc = home / "elsewhere" / f"{ident}.yaml"
        doc.parent.mkdir(exist_ok=True)
        doc.write_text(DOC % ident)
        _sc, board = load_board(doc)
        sheets = resolve_sheets(load_document(doc).layout, doc.parent)
        assert sheets[ident].title == title and board is not None


def test_first_wins_and_the_hidden_file_is_reported(home):
    user = sheet(home / "data" / "sprawlmap" / "mapsheets", "pavement-downtown", "Shadow")
    env = sheet(home / "env1", "extra", "Extra street")
    sheet(home / "env2", "extra", "Second extra")
    winners, shadowed = library.entries(library.sources())
    by_id = {e.id: e for e in winners}
    assert by_id["pavement-downtown"].origin == "bundled"
    assert by_id["extra"].path == env and by_id["extra"].origin == "env"
    assert sorted((e.id, e.origin) for e in shadowed) == [("extra", "env"),
                                                          ("pavement-downtown", "user")]
    assert user in [e.path for e in shadowed]


def test_missing_sheet_names_every_folder_looked_at(home):
    doc = home / "docs" / "doc.yaml"
    doc.parent.mkdir()
    doc.write_text(DOC % "nowhere")
    with pytest.raises(LoadError) as err:
        load_board(doc)
    msg = str(err.value)
    assert msg.startswith(f"{doc}:4: sheet 'nowhere' not found")
    for folder in (home / "docs", CHECKOUT / "mapsheets", library.user_library(), home / "env2"):
        assert str(folder) in msg


def test_broken_sheet_file_is_one_error_and_the_next_file_supplies_the_id(home):
    env1 = home / "env1"
    env1.mkdir()
    (env1 / "bad.yaml").write_text("format: sprawlmap/mapsheet@1\nid: [unclosed\n")
    good = sheet(home / "env2", "extra", "Extra street")
    sheets, where, errors = library.load_all(library.sources())
    assert len(errors) == 1 and errors[0].startswith(str(env1 / "bad.yaml"))
    assert where["extra"].path == good and sheets["extra"].title == "Extra street"
    assert sorted(i for i, e in where.items() if e.origin == "bundled") == BUNDLED_SHEETS


def test_cli_library_list_json_shows_origins_and_samples(home, capsys):
    sheet(home / "data" / "sprawlmap" / "mapsheets", "mine", "My street")
    sheet(home / "env1", "theirs", "Shared street")
    assert main(["library", "list", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    origins = {s["id"]: s["origin"] for s in d["sheets"]}
    assert origins.pop("mine") == "user" and origins.pop("theirs") == "env"
    assert sorted(origins) == BUNDLED_SHEETS and set(origins.values()) == {"bundled"}
    assert [(f["origin"], f["exists"], f["sheets"]) for f in d["folders"]] == [
        ("bundled", True, len(BUNDLED_SHEETS)), ("user", True, 1), ("env", True, 1),
        ("env", False, 0)]
    shipped = sorted(p.stem for p in (CHECKOUT / "scenarios").glob("*.yaml"))
    assert {"nightclub-hold", "police-station-extraction", "street-ambush"} <= set(shipped)
    assert [s["name"] for s in d["samples"]] == [*shipped, "river-1", "river-2"]
    assert all(Path(s["path"]).is_file() for s in d["samples"])


def test_cli_library_list_text_and_for_a_document(home, capsys):
    docs = home / "docs"
    sheet(docs, "local", "Local street")
    (docs / "doc.yaml").write_text(DOC % "local")
    assert main(["library", "list", "--for", str(docs / "doc.yaml")]) == 0
    out = capsys.readouterr().out
    assert f"1. document folder    {docs}  (1 sheets)" in out
    assert "local " in out and "hidden" not in out
    assert main(["library", "list", "--for", str(home / "missing.yaml")]) == 2
    assert capsys.readouterr().err == f"sprawlmap: {home / 'missing.yaml'}: no such file\n"


def test_version(capsys):
    with pytest.raises(SystemExit) as ex:
        main(["--version"])
    assert ex.value.code == 0
    assert capsys.readouterr().out == f"sprawlmap {engine.__version__}\n"


def test_checkout_uses_the_repository_folders():
    assert library.is_checkout()
    assert library.bundled_dir("scenarios") == CHECKOUT / "scenarios"
    assert library.sample() == CHECKOUT / "scenarios" / "street-ambush.yaml"
    assert library.new_sheet_folder() == CHECKOUT / "mapsheets"



def test_library_sample_copies_a_sample_and_never_overwrites(home, capsys, monkeypatch):
    work = home / "anywhere"
    work.mkdir()
    monkeypatch.chdir(work)
    assert main(["library", "sample", "street-ambush", "mine.yaml"]) == 0
    assert (work / "mine.yaml").read_bytes() == library.sample().read_bytes()
    assert main(["validate", "mine.yaml"]) == 0
    capsys.readouterr()
    assert main(["library", "sample", "street-ambush", "mine.yaml"]) == 2
    assert capsys.readouterr().err == "sprawlmap: mine.yaml: already exists; choose another name\n"
    assert main(["library", "sample", "nope", "x.yaml"]) == 2
    err = capsys.readouterr().err
    assert "no bundled sample 'nope'; there are: " in err and " nightclub-hold," in err
    assert not (work / "x.yaml").exists()
    assert main(["library", "sample", "nightclub-hold", "."]) == 0
    assert (work / "nightclub-hold.yaml").is_file()


def test_resolving_a_sheet_parses_its_file_once_and_a_changed_file_again(home, monkeypatch):
    """Finding a sheet reads its id, loading it reads the rest: one parse serves both (a
    16x16-block city has 635 sheet files), and a file changed in between is read again."""
    folder = home / "doc"
    for i in range(3):
        sheet(folder, f"s{i}", f"Sheet {i}")
    doc = folder / "city.yaml"
    doc.write_text(DOC % "s0" + "".join(f"    - {{sheet: s{i}, at: [0, {4 * i}]}}\n"
                                         for i in (1, 2)))
    parsed: list[str] = []
    real = library.parse_text
    monkeypatch.setattr(library, "parse_text", lambda text, f: parsed.append(Path(f).name) or real(text, f))
    monkeypatch.setattr(library, "load_sheet", lambda p: parsed.append(Path(p).name) or
                        pytest.fail("a peeked sheet was parsed a second time"))
    library._ID_CACHE.clear()
    library._SHEET_CACHE.clear()
    found = resolve_sheets(load_document(doc).layout, folder)
    assert sorted(parsed) == ["s0.yaml", "s1.yaml", "s2.yaml"]
    assert [found[f"s{i}"].title for i in range(3)] == ["Sheet 0", "Sheet 1", "Sheet 2"]
    # the id is peeked, then the file grows before it is loaded: loaded from the new text
    library._ID_CACHE.clear()
    library._SHEET_CACHE.clear()
    path = folder / "s1.yaml"
    assert library.declared_id(path) == "s1"
    path.write_text(path.read_text().replace("Sheet 1", "Sheet one, redrawn"))
    monkeypatch.setattr(library, "load_sheet", lambda p: parsed.append("reload") or
                        real_load(p))
    assert library.sheet_at(path).title == "Sheet one, redrawn"
    assert parsed[-1] == "reload"


real_load = library.load_sheet
