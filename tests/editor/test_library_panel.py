"""The library panel says where each sheet comes from (engine.library's search path)."""

from __future__ import annotations

import shutil
import sys

from PySide6.QtCore import Qt

from editor.document import SAMPLE, Document
from engine import library

SHEET = """\
format: sprawlmap/mapsheet@1
id: my-street
title: My street
kind: pavement
lattice: square
size: [4, 4]
outline: [[-0.5, -0.5], [3.5, -0.5], [3.5, 3.5], [-0.5, 3.5]]
"""


def test_panel_names_the_origin_of_each_sheet(make_editor, tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv(library.ENV, raising=False)
    user = library.user_library()
    user.mkdir(parents=True)
    (user / "my-street.yaml").write_text(SHEET)
    copy = tmp_path / "work" / "ambush.yaml"
    copy.parent.mkdir()
    shutil.copy(SAMPLE, copy)
    doc = Document.open(copy)
    assert doc.library_origins["my-street"].origin == "user"
    assert doc.library_origins["office-tower"].origin == "bundled"
    win, _ = make_editor()
    win.set_document(doc)
    mine = win.library.item_for("sheet:my-street")
    assert mine.text() == "My street\n4×4\nuser library"
    assert mine.toolTip().endswith(f"\nuser library: {user / 'my-street.yaml'}")
    tower = win.library.item_for("sheet:office-tower")
    assert tower.text().endswith("\nbundled library")
    assert str(library.bundled_dir() / "office-tower.yaml") in tower.toolTip()
    assert tower.data(Qt.ItemDataRole.UserRole) == "sheet:office-tower"


def test_an_installed_sample_is_a_template_saved_elsewhere(make_editor, tmp_path, monkeypatch):
    from dataclasses import replace

    assert not library.is_installed_file(SAMPLE)  # a checkout edits its samples in place
    monkeypatch.setattr(library, "is_checkout", lambda: False)  # as in an installed wheel
    assert library.is_installed_file(SAMPLE)
    assert not library.is_installed_file(tmp_path / "street-ambush.yaml")
    before = SAMPLE.read_bytes()
    doc = Document.open(SAMPLE)
    assert doc.recovery_path(tmp_path / "rec").parent == tmp_path / "rec"  # not beside it
    win, _ = make_editor()
    win.set_document(doc)
    doc.push(replace(doc.root, title="My ambush"), "Title")
    asked = []
    out = tmp_path / "mine.yaml"
    win.ask_path = lambda save: asked.append(save) or out
    assert win.save()
    assert asked == [True] and win.doc.path == out
    assert "title: My ambush" in out.read_text()
    assert SAMPLE.read_bytes() == before
