"""The sheet generator and the geometry checker behind ``mapsheets/``.

The committed YAML must be exactly what ``make_sheets.py`` writes (so nobody edits one and not
the other), and the shapely checker must pass it while catching the mistakes it exists for.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "mapsheets" / "tools"


def _module(name: str):
    sys.path.insert(0, str(TOOLS))
    try:
        spec = importlib.util.spec_from_file_location(f"sheettools_{name}", TOOLS / f"{name}.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        sys.path.remove(str(TOOLS))


make = _module("make_sheets")
checker = _module("check_sheets")
kit = sys.modules["sheetkit"]


def test_committed_sheets_are_the_generator_output():
    for design in make.DESIGNS:
        sheet = design()
        text = kit.dump_sheet(sheet.to_data(), make.HEADER)
        assert (ROOT / "mapsheets" / f"{sheet.id}.yaml").read_text(encoding="utf-8") == text
    assert len(make.DESIGNS) == len(list((ROOT / "mapsheets").glob("*.yaml"))) == 11


def test_written_yaml_reads_back_as_the_same_data():
    for design in make.DESIGNS:
        data = design().to_data()
        back = yaml.safe_load(kit.dump_sheet(data))
        assert back == data
        for lv in back["levels"]:
            for a in lv.get("areas", []):
                # "on"/"none" must stay strings: YAML 1.1 would read a bare on as true
                assert a.get("standable", "on") in ("none", "on", "on-or-under")


def test_checker_passes_the_library():
    problems = [p for f in sorted((ROOT / "mapsheets").glob("*.yaml")) for p in checker.check(f)]
    assert problems == []


@pytest.mark.parametrize("mutate, expect", [
    # a door moved half a dot off its wall
    (lambda d: d["levels"][0]["doors"][0].update(span=[[2.5, 0.0], [4.5, 0.0]]),
     "does not lie on one wall segment"),
    # the manager's office upstairs loses its only door
    (lambda d: d["levels"][1]["doors"].pop(0), "level 1: 127 standable dots cannot be reached"),
    # a wall run through a row of dots
    (lambda d: d["levels"][0]["walls"].append({"id": "bad", "path": [[0, 7], [7, 7]]}),
     "lies on a wall"),
    # an area poking out of the sheet
    (lambda d: d["levels"][0]["areas"][0].update(polygon=[[-2, 3], [4.5, 3], [4.5, 4], [-2, 4]]),
     "leaves the outline"),
    # two features with one id
    (lambda d: d["levels"][1]["walls"][0].update(id="ext"), "duplicate id"),
    # stairs to a level the building does not have
    (lambda d: d["levels"][0]["stairs"][0].update(to=3), "joins missing level 3"),
])
def test_checker_catches_broken_geometry(tmp_path, mutate, expect):
    data = make.coffin_hotel().to_data()
    mutate(data)
    f = tmp_path / "coffin-hotel.yaml"
    f.write_text(kit.dump_sheet(data), encoding="utf-8")
    problems = checker.check(f)
    assert any(expect in p for p in problems), problems


def test_render_draws_walls_doors_and_capsules():
    data = make.coffin_hotel().to_data()
    pic = checker.render(data["levels"][0], 20, 14).splitlines()
    assert len(pic) == 29 and len(pic[0]) == 41
    assert pic[0].count("D") == 3 and pic[0].count("W") == 3
    assert pic[1][21] == "o"  # capsule on dot (10, 0)
    assert pic[3][15] == "S"  # stairs on dot (7, 1)
