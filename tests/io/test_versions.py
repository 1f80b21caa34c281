"""Format versions: newer refused, older migrated through the registry, lines kept."""

from __future__ import annotations

from conftest import expect_error

from engine.io import CURRENT, format_string, load_sheet
from engine.io.migrations import MIGRATIONS, mapsheet_0_to_1

OLD_SHEET = """\
format: sprawlmap/mapsheet@0
id: shed
title: Shed
kind: building
cols: 6
rows: 4
outline: [[-0.5, -0.5], [5.5, -0.5], [5.5, 3.5], [-0.5, 3.5]]
notes: drawn before size existed
"""


def test_current_versions():
    assert CURRENT == {"mapsheet": 1, "layout": 1, "scenario": 1}
    assert format_string("mapsheet") == "sprawlmap/mapsheet@1"
    assert MIGRATIONS[("mapsheet", 0)] is mapsheet_0_to_1


def test_mapsheet_0_is_migrated(write):
    sheet = load_sheet(write(OLD_SHEET))
    assert sheet.size == (6, 4)
    assert sheet.notes == "drawn before size existed"
    assert sheet.height == 1


def test_errors_after_migration_point_at_the_users_lines(write):
    path = write(OLD_SHEET.replace("rows: 4", "rows: four"))
    expect_error(lambda: load_sheet(path), path, 5, "'size' must be a whole number, not the text 'four'")
    path = write(OLD_SHEET + "colour: red\n")
    expect_error(lambda: load_sheet(path), path, 9, "unknown key 'colour' in mapsheet")


def test_migration_keeps_key_order_and_leaves_new_files_alone():
    from engine.io.reader import parse_text

    data = parse_text(OLD_SHEET, "f.yaml")
    out = mapsheet_0_to_1(data)
    assert list(out) == ["format", "id", "title", "kind", "size", "outline", "notes"]
    assert out["size"] == [6, 4] and out.value_lines["size"] == 5 and out["size"].item_lines == [5, 6]
    plain = {"format": "x", "size": [1, 2]}
    assert mapsheet_0_to_1(plain) is plain


def test_newer_versions_refused(write):
    path = write(OLD_SHEET.replace("@0", "@2"))
    expect_error(
        lambda: load_sheet(path), path, 1,
        "format sprawlmap/mapsheet@2 is newer than this sprawlmap understands (mapsheet@1)",
    )


def test_missing_migration_step_is_reported(write, monkeypatch):
    monkeypatch.delitem(MIGRATIONS, ("mapsheet", 0))
    path = write(OLD_SHEET)
    expect_error(lambda: load_sheet(path), path, 1, "format sprawlmap/mapsheet@0 is too old: no upgrade from mapsheet@0")
