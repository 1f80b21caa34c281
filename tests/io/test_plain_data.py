"""The editor and bundles pass plain dicts and tuples: same checks, errors without a line."""

from __future__ import annotations

import pytest

from engine.errors import LoadError
from engine.io import scenario_from_data, sheet_from_data, sheet_to_data
from engine.model import Wall


def plain_sheet(**extra):
    data = {
        "format": "sprawlmap/mapsheet@1", "id": "kiosk", "title": "Kiosk", "kind": "building",
        "size": (3, 2), "outline": ((-0.5, -0.5), (2.5, -0.5), (2.5, 1.5), (-0.5, 1.5)),
        "levels": [{"level": 0, "walls": [{"path": ((-0.5, -0.5), (2.5, -0.5))}],
                    "doors": [{"span": ((0.5, -0.5), (1.5, -0.5)), "state": "closed"}]}],
    }
    data.update(extra)
    return data


def test_tuples_and_lists_are_both_accepted():
    sheet = sheet_from_data(plain_sheet(), "editor")
    assert sheet.size == (3, 2) and sheet.height == 1
    assert sheet.levels[0].walls == (Wall(path=((-0.5, -0.5), (2.5, -0.5)), id="L0-wall-0"),)
    assert sheet.levels[0].doors[0].state == "closed"
    assert sheet_from_data(sheet_to_data(sheet)) == sheet


def test_error_without_line_names_the_file_only():
    with pytest.raises(LoadError) as info:
        sheet_from_data(plain_sheet(colour="red"), "editor")
    assert str(info.value) == (
        "editor: unknown key 'colour' in mapsheet (allowed: format, id, title, kind, lattice, size, "
        "outline, height, defaults, levels, notes)"
    )
    assert info.value.line is None


def test_error_without_any_file_is_just_the_problem():
    with pytest.raises(LoadError) as info:
        sheet_from_data(plain_sheet(height=-2))
    assert str(info.value) == "'height' must be at least 1, not -2"


def test_layout_only_data_is_titled_from_the_file_stem():
    data = {"format": "sprawlmap/layout@1", "layout": {"placements": [{"sheet": "kiosk", "at": [2, 3]}]}}
    doc = scenario_from_data(data, "/some/where/market-square.yaml")
    assert doc.title == "market-square"
    assert doc.layout.placements[0].at == (2, 3) and doc.layout.placements[0].id == "kiosk-1"
    assert scenario_from_data(data).title == "untitled"
