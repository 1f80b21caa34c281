"""Round trips keep everything: ids, notes, order, classes; saved text is tidy and stable."""

from __future__ import annotations

from engine.io import (
    load_document,
    load_sheet,
    save_document,
    save_sheet,
    scenario_from_data,
    scenario_to_data,
    sheet_from_data,
    sheet_to_data,
)
from engine.model import Barrier

SPEC_SHEET = """\
format: sprawlmap/mapsheet@1
id: coffin-hotel
title: Coffin Hotel
kind: building
lattice: square
size: [24, 16]
outline: [[-0.5,-0.5],[23.5,-0.5],[23.5,15.5],[-0.5,15.5]]
height: 2
defaults: {wall: thick, door: average, window: reinforced}
levels:
  - level: 1
    note: upstairs first on purpose
    walls:
      - {path: [[-0.5,-0.5],[23.5,-0.5]], class: {barrier: 12, armor: 1}, id: north-1}
  - level: 0
    walls:    [{path: [[-0.5,-0.5],[23.5,-0.5]], class: thick, exterior: true}]
    doors:    [{span: [[3.5,-0.5],[4.5,-0.5]], state: open, note: "front door"}]
    windows:  [{span: [[8.5,-0.5],[9.5,-0.5]], state: closed, class: reinforced}]
    holes:    [{span: [[12.5,-0.5],[13.5,-0.5]]}]
    areas:
      - {kind: rubble, polygon: [[1,1],[3,1],[3,3]]}
      - {kind: obstacle, polygon: [[5,5],[7,5],[7,6],[5,6]], cost: 2, los: interrupts, standable: on, note: couch}
      - {kind: dark, polygon: [[1,1],[3,1],[3,3]], darkness: full, target_modifier: 2}
      - {kind: modifier, polygon: [[1,1],[3,1],[3,3]], target_modifier: -1, note: bright lights}
      - {kind: hazard, polygon: [[1,1],[3,1],[3,3]], note: slime, effect: "prone on 1 in d6"}
    lines:
      - {kind: step, path: [[1,1],[2,1],[2,4]]}
      - {kind: low-wall, path: [[1,1],[2,1]], cost: 1, los: interrupts-prone}
      - {kind: fence, path: [[1,8],[9,8]], class: thin, id: yard}
    trees:    [{trunk: [3, 4], canopy: [[1,1],[5,1],[5,5]]}]
    stairs:   [{at: [3, 4], to: 1}]
    elevators: [{at: [5, 5], levels: [0, 1, 2]}]
    climbs:   [{at: [6, 6], to: 2, assisted: true}]
notes: |
  free text shown in the editor
  over two lines
"""


def test_spec_sheet_loads_with_everything(write):
    sheet = load_sheet(write(SPEC_SHEET, "coffin-hotel.yaml"))
    assert [lv.level for lv in sheet.levels] == [1, 0]  # file order kept
    upper, ground = sheet.levels
    assert upper.note == "upstairs first on purpose"
    assert upper.walls[0].cls == Barrier(12, 1) and upper.walls[0].id == "north-1"
    assert ground.walls[0].cls == "thick" and ground.walls[0].exterior is True
    assert ground.doors[0].note == "front door" and ground.doors[0].kind == "door"
    assert ground.windows[0].state == "closed" and ground.windows[0].cls == "reinforced"
    assert ground.holes[0].kind == "hole" and ground.holes[0].state == "open"
    assert ground.areas[1].standable == "on" and ground.areas[1].cost == 2
    assert ground.areas[3].target_modifier == -1
    assert ground.lines[2].id == "yard" and ground.lines[2].cls == "thin"
    assert ground.climbs[0].assisted is True and ground.climbs[0].to == 2
    assert sheet.defaults.wall == "thick" and sheet.defaults.window == "reinforced"
    assert sheet.notes == "free text shown in the editor\nover two lines\n"
    # generated ids: level, kind, index in its list
    assert [a.id for a in ground.areas] == [f"L0-area-{i}" for i in range(5)]
    assert [ln.id for ln in ground.lines] == ["L0-line-0", "L0-line-1", "yard"]
    assert ground.walls[0].id == "L0-wall-0" and ground.stairs[0].id == "L0-stair-0"


def test_sheet_file_round_trip_and_stable_text(write, tmp_path):
    sheet = load_sheet(write(SPEC_SHEET, "coffin-hotel.yaml"))
    out = tmp_path / "saved.yaml"
    save_sheet(sheet, out)
    first = out.read_text()
    again = load_sheet(out)
    assert again == sheet
    save_sheet(again, out)
    assert out.read_text() == first  # saving is deterministic
    assert "  - level: 1\n" in first
    assert "        path: [[-0.5, -0.5], [23.5, -0.5]]\n" in first  # points in flow style
    assert "        class: {barrier: 12, armor: 1}\n" in first
    assert "        standable: 'on'\n" in first  # quoted for YAML 1.1 readers, read back as text
    assert "notes: |\n  free text shown in the editor\n  over two lines\n" in first
    assert "state: open" not in first  # defaults left out
    assert "id: L0-area-4" in first  # generated ids are saved


def test_sheet_key_order_follows_spec(write):
    sheet = load_sheet(write(SPEC_SHEET))
    data = sheet_to_data(sheet)
    assert list(data) == [
        "format", "id", "title", "kind", "lattice", "size", "outline", "height", "defaults", "levels", "notes",
    ]
    assert data["defaults"] == {"wall": "thick", "window": "reinforced"}
    assert list(data["levels"][1]) == [
        "level", "walls", "doors", "windows", "holes", "areas", "lines", "trees", "stairs", "elevators", "climbs",
    ]
    assert list(data["levels"][1]["areas"][1]) == ["id", "kind", "polygon", "cost", "los", "standable", "note"]
    assert sheet_from_data(data, "mem") == sheet


def test_generated_ids_avoid_explicit_ones(write):
    text = SPEC_SHEET.replace("class: thick, exterior: true}", "class: thick, exterior: true, id: L0-stair-0}")
    sheet = load_sheet(write(text))
    ground = sheet.levels[1]
    assert ground.walls[0].id == "L0-stair-0"
    assert ground.stairs[0].id == "L0-stair-0-2"


SPEC_SCENARIO = """\
format: sprawlmap/scenario@1
title: Ghouls at the Coffin Hotel
ruleset: sr3
layout:
  lattice: square
  pavement: [{sheet: pavement-a, at: [0, 0]}, {sheet: pavement-a, at: [48, 0], id: east-street}]
  pieces:
    - {id: hotel-east-wing, sheet: coffin-hotel, polygon: [[11.5,-0.5],[23.5,-0.5],[23.5,15.5],[11.5,15.5]], note: cut}
  placements:
    - {sheet: coffin-hotel, piece: null, at: [6, 4], rotation: 90, mirror: false}
    - {sheet: coffin-hotel, piece: hotel-east-wing, at: [30, 4], rotation: 270, mirror: true, note: rubble side}
  extras:
    areas: [{kind: smoke, polygon: [[0,0],[3,0],[3,3]]}]
    lines: [{kind: low-wall, path: [[10, 20], [14, 20]], id: jersey-barrier}]
    trees: [{trunk: [40, 2]}]
conditions: {light: partial-darkness}
turn_limit: 8
initiative: character
sides:
  - id: runners
    name: Shadowrunners
    deployment: {polygon: [[0,0],[4,0],[4,4],[0,4]], level: 1}
    characters:
      - {name: Sabre, archetype: street-samurai, move_ratio: 2, fire_ratio: 2, vision: low-light,
         metatype: human, success: {unarmed: 16, firearms: 14},
         defense: {ballistic: 9, impact: 8, physical_spell: 6, mana_spell: 5},
         weapons: [{type: heavy-pistol, success: [14, 12, 10, 8], shots: 12, damage: 3}]}
      - {name: Sabre, metatype: troll, note: the other one}
  - id: ghouls
    deployment: {edge: west, depth: 3}
    note: hungry
objectives:
  - {id: grab-data, side: runners, kind: retrieve, at: [30, 12, 1], then: exit-west, points: 10}
  - {side: ghouls, kind: hold, area: [[0,0],[4,0],[4,4]], level: 1, turns: 2, by_turn: 6}
  - {side: ghouls, kind: protect, target: ghouls}
victory: {points: 20, most_points: true}
notes: briefing text
"""


def test_spec_scenario_loads(write):
    doc = load_document(write(SPEC_SCENARIO))
    assert doc.ruleset == "sr3" and doc.initiative == "character" and doc.turn_limit == 8
    assert doc.light == "partial-darkness"
    assert doc.victory == (("points", 20), ("most_points", True))  # file order
    sabre = doc.sides[0].characters[0]
    assert sabre.success == (("unarmed", 16), ("firearms", 14))
    assert sabre.defense[3] == ("mana_spell", 5)
    assert sabre.weapons[0].success == (14, 12, 10, 8)
    assert [c.id for c in doc.sides[0].characters] == ["sabre", "sabre-2"]
    assert doc.sides[0].deployment.level == 1
    assert doc.sides[1].deployment.edge == "west" and doc.sides[1].deployment.depth == 3
    pls = doc.layout.placements
    assert [p.id for p in pls] == ["coffin-hotel-1", "coffin-hotel-2"]
    assert pls[1].mirror is True and pls[1].rotation == 270 and pls[1].note == "rubble side"
    assert [p.id for p in doc.layout.pavement] == ["pavement-a-1", "east-street"]
    assert doc.layout.extras.lines[0].id == "jersey-barrier"
    assert doc.layout.extras.areas[0].id == "area-0" and doc.layout.extras.trees[0].id == "tree-0"
    assert [o.id for o in doc.objectives] == ["grab-data", "ghouls-hold", "ghouls-protect"]
    assert doc.objectives[1].area == ((0.0, 0.0), (4.0, 0.0), (4.0, 4.0))
    assert doc.objectives[0].at == (30, 12, 1)


def test_scenario_round_trip(write, tmp_path):
    doc = load_document(write(SPEC_SCENARIO))
    out = tmp_path / "saved.yaml"
    save_document(doc, out)
    assert load_document(out) == doc
    data = scenario_to_data(doc)
    assert list(data) == [
        "format", "title", "ruleset", "layout", "conditions", "turn_limit", "initiative", "sides",
        "objectives", "victory", "notes",
    ]
    assert scenario_from_data(data, "mem.yaml") == doc


def test_default_light_is_not_written(write):
    doc = load_document(write(SPEC_SCENARIO.replace("conditions: {light: partial-darkness}\n", "")))
    assert doc.conditions == (("light", "day"),)
    assert "conditions" not in scenario_to_data(doc)


def test_layout_only_file(write, tmp_path):
    text = """\
    format: sprawlmap/layout@1
    layout:
      lattice: hex
      pavement: [{sheet: hex-street, at: [0, 0], rotation: 120}]
    """
    path = write(text, "corner-block.yaml")
    doc = load_document(path)
    assert doc.title == "corner-block"  # from the file name
    assert doc.sides == () and doc.layout.lattice == "hex"
    assert doc.layout.pavement[0].rotation == 120
    out = tmp_path / "other.yaml"
    save_document(doc, out, layout_only=True)
    comment, text_out = out.read_text().split("\n", 1)
    assert comment.startswith("# yaml-language-server: $schema=") and comment.endswith("/layout.schema.json")
    assert text_out.startswith("format: sprawlmap/layout@1\ntitle: corner-block\nlayout:\n")
    assert load_document(out) == doc


def test_scenario_saved_as_layout_keeps_the_layout(write, tmp_path):
    doc = load_document(write(SPEC_SCENARIO))
    out = tmp_path / "layout.yaml"
    save_document(doc, out, layout_only=True)
    back = load_document(out)
    assert back.layout == doc.layout and back.title == doc.title and back.sides == ()


def test_bundle_with_inlined_sheets_round_trips(write, tmp_path):
    sheet = load_sheet(write(SPEC_SHEET, "coffin-hotel.yaml"))
    doc = load_document(write(SPEC_SCENARIO))
    from dataclasses import replace

    bundle = replace(doc, layout=replace(doc.layout, sheets=(sheet,)))
    out = tmp_path / "bundle.yaml"
    save_document(bundle, out)
    assert "  sheets:\n    - format: sprawlmap/mapsheet@1\n      id: coffin-hotel\n" in out.read_text()
    assert load_document(out) == bundle


def test_words_that_look_like_numbers_or_booleans_stay_words():
    from engine.io import dump_text, parse_text

    words = ["09", "010", "1e5", "1E+5", "+1", ".5", "1.", "on", "yes", "No", "True", "~", "null", "",
             "2024-01-01", "0x1F", "1_000", ".inf", "-.INF", ".NaN", "12:30", "=", "<<", "- a", "a: b", "#x"]
    text = dump_text({"notes": words})
    assert parse_text(text)["notes"] == words
    import yaml

    assert yaml.safe_load(text)["notes"] == words  # and for any other YAML reader
