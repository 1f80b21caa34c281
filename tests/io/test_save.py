"""Saving is atomic: on any failure the target keeps its old bytes and no temp file is left."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest
from conftest import expect_error
from test_roundtrip import SPEC_SHEET

from engine import atomic_file as writer_mod
from engine.errors import LoadError
from engine.io import load_sheet, save_document, save_sheet
from engine.model import Layout, Opening, Scenario, Wall


@pytest.fixture
def saved(write, tmp_path):
    sheet = load_sheet(write(SPEC_SHEET, "src.yaml"))
    target = tmp_path / "target.yaml"
    target.write_text("original bytes\n")
    return sheet, target


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_unserialisable_value_leaves_target_untouched(saved, tmp_path):
    sheet, target = saved
    bad = replace(sheet, notes=object())  # not text: cannot be written
    expect_error(lambda: save_sheet(bad, target), target, None, "not saved: cannot write a value of type object")
    assert target.read_text() == "original bytes\n"
    assert leftovers(tmp_path) == []


def test_invalid_model_is_refused_before_writing(saved, tmp_path):
    sheet, target = saved
    lv = sheet.levels[1]
    zero = replace(lv, walls=lv.walls + (Wall(path=((2.0, 2.0), (2.0, 2.0)), id="stub"),))
    bad = replace(sheet, levels=(sheet.levels[0], zero))
    err = expect_error(lambda: save_sheet(bad, target), target, None, "not saved: zero-length wall at (2, 2)")
    assert "(line " in str(err)
    floating = replace(lv, doors=(Opening(kind="door", span=((1.0, 1.0), (2.0, 1.0)), id="ghost"),))
    bad = replace(sheet, levels=(sheet.levels[0], floating))
    expect_error(lambda: save_sheet(bad, target), target, None, "does not lie on a wall of its level")
    assert target.read_text() == "original bytes\n"
    assert leftovers(tmp_path) == []


def test_failure_while_replacing_removes_temp(saved, tmp_path, monkeypatch):
    sheet, target = saved

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(writer_mod.os, "replace", boom)
    expect_error(lambda: save_sheet(sheet, target), target, None, "cannot save: No space left on device")
    assert target.read_text() == "original bytes\n"
    assert leftovers(tmp_path) == []


def test_interrupt_while_writing_removes_temp(saved, tmp_path, monkeypatch):
    sheet, target = saved

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(writer_mod.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_sheet(sheet, target)
    assert target.read_text() == "original bytes\n"
    assert leftovers(tmp_path) == []


def test_successful_save_replaces_and_keeps_mode(saved, tmp_path):
    sheet, target = saved
    os.chmod(target, 0o640)
    save_sheet(sheet, target)
    assert target.read_text().splitlines()[1] == "format: sprawlmap/mapsheet@1"
    assert os.stat(target).st_mode & 0o777 == 0o640
    assert load_sheet(target) == sheet
    assert leftovers(tmp_path) == []


def test_save_into_missing_folder_is_a_load_error(saved, tmp_path):
    sheet, _ = saved
    target = tmp_path / "no" / "such" / "dir.yaml"
    expect_error(lambda: save_sheet(sheet, target), target, None, "cannot save")


def test_save_document_refuses_non_scenario(tmp_path):
    with pytest.raises(LoadError, match="not a Scenario but Layout"):
        save_document(Layout(), tmp_path / "x.yaml")
    assert not (tmp_path / "x.yaml").exists()


def test_scenario_with_dangling_objective_side_is_refused(tmp_path):
    from engine.model import Objective

    doc = Scenario(title="t", layout=Layout(), objectives=(Objective(id="o", side="nobody", kind="exit", edge="west"),))
    target = tmp_path / "s.yaml"
    expect_error(lambda: save_document(doc, target), target, None, "side 'nobody' is not one of the scenario's sides")
    assert not target.exists() and leftovers(tmp_path) == []
