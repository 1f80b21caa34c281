"""Every scenario and layout loader error at its exact line (``#<`` marks the line)."""

from __future__ import annotations

import pytest
from conftest import dedent, expect_error
from test_sheet_errors import marked_line

from engine.io import load_document

HEAD = """\
format: sprawlmap/scenario@1
title: Test
layout:
  lattice: square
  pavement: [{sheet: pavement-a, at: [0, 0]}]
  pieces:
    - {id: box-east, sheet: box, polygon: [[4.5, -0.5], [9.5, -0.5], [9.5, 7.5], [4.5, 7.5]]}
  placements:
    - {sheet: box, at: [6, 4], rotation: 90}
"""

SIDES = """\
sides:
  - id: runners
    deployment: {edge: west, depth: 3}
    characters:
      - {name: Sabre, move_ratio: 2}
  - id: ghouls
"""

CASES = {
    "unknown top key": (HEAD + "weather: rain  #<\n", "unknown key 'weather' in scenario"),
    "unknown layout key": (HEAD + "  streets: 3  #<\n", "unknown key 'streets' in layout"),
    "unknown placement key": (
        HEAD + "    - {sheet: box, at: [1, 1], flip: true}  #<\n", "unknown key 'flip' in placement"),
    "bad rotation square": (
        HEAD.replace("rotation: 90}", "rotation: 45}  #<"), "rotation 45 is not a multiple of 90 on a square lattice"),
    "bad rotation hex": (
        HEAD.replace("lattice: square", "lattice: hex").replace("rotation: 90}", "rotation: 90}  #<"),
        "rotation 90 is not a multiple of 60 on a hex lattice"),
    "fractional placement": (
        HEAD.replace("at: [6, 4]", "at: [6.5, 4]") .replace("rotation: 90}", "rotation: 90}  #<"),
        "'at' must be a whole number, not the number 6.5"),
    "unknown piece": (
        HEAD + "    - {sheet: box, piece: box-west, at: [1, 1]}  #<\n", "piece 'box-west' is not defined in 'pieces'"),
    "piece of another sheet": (
        HEAD + "    - {sheet: shed, piece: box-east, at: [1, 1]}  #<\n",
        "piece 'box-east' is cut from sheet 'box', not 'shed'"),
    "duplicate placement id": (
        HEAD.replace("at: [6, 4], rotation: 90}", "at: [6, 4], id: a}") + "    - {sheet: box, at: [1, 1], id: a}  #<\n",
        "duplicate placement id 'a' (first used on line 9)"),
    "self-crossing piece": (
        HEAD.replace("[[4.5, -0.5], [9.5, -0.5], [9.5, 7.5], [4.5, 7.5]]}", "[[4.5, -0.5], [9.5, 7.5], [9.5, -0.5], [4.5, 7.5]]}  #<"),
        "piece polygon crosses itself"),
    "bad ruleset": (HEAD + "ruleset: gurps  #<\n", "'ruleset' must be one of dmz1990 | sr3 | sr1 | darkcon"),
    "bad light": (HEAD + "conditions: {light: dusk}  #<\n", "'light' must be one of day | partial-darkness | full-darkness"),
    "unknown condition": (HEAD + "conditions:\n  light: day\n  rain: heavy  #<\n", "unknown key 'rain' in conditions"),
    "bad initiative": (HEAD + "initiative: random  #<\n", "'initiative' must be one of team | character"),
    "bad turn limit": (HEAD + "turn_limit: 0  #<\n", "'turn_limit' must be at least 1, not 0"),
    "turn limit text": (HEAD + "turn_limit: eight  #<\n", "'turn_limit' must be a whole number, not the text 'eight'"),
    "side without id": (HEAD + "sides:\n  - {name: Ghouls}  #<\n", "side is missing 'id'"),
    "duplicate side": (HEAD + SIDES + "  - id: runners  #<\n", "duplicate side id 'runners' (first used on line 11)"),
    "deployment both ways": (
        HEAD + "sides:\n  - id: a\n    deployment: {edge: west, polygon: [[0, 0], [2, 0], [2, 2]]}  #<\n",
        "deployment needs either 'polygon' (with 'level') or 'edge' (with 'depth')"),
    "bad edge": (HEAD + "sides:\n  - id: a\n    deployment: {edge: up}  #<\n", "'edge' must be one of north | south | east | west"),
    "bad vision": (
        HEAD + "sides:\n  - id: a\n    characters:\n      - {name: X, vision: x-ray}  #<\n",
        "'vision' must be one of normal | low-light | thermographic"),
    "bad metatype": (
        HEAD + "sides:\n  - id: a\n    characters:\n      - {name: X, metatype: hobbit}  #<\n",
        "'metatype' must be one of human | elf | dwarf | ork | troll"),
    "skill value text": (
        HEAD + "sides:\n  - id: a\n    characters:\n      - name: X\n        success: {firearms: high}  #<\n",
        "'firearms' must be a whole number, not the text 'high'"),
    "stat a list": (
        HEAD + "sides:\n  - id: a\n    characters:\n      - name: X\n        stats: {body: [4]}  #<\n",
        "'body' must be a whole number or a short code such as 9M, not a list"),
    "weapon stat empty text": (
        HEAD + "sides:\n  - id: a\n    characters:\n      - name: X\n        weapons:\n"
        "          - {type: pistol, stats: {damage: ' '}}  #<\n",
        "'damage' must be a whole number or a short code such as 9M"),
    "character without name": (
        HEAD + "sides:\n  - id: a\n    characters:\n      - {move_ratio: 2}  #<\n", "character is missing 'name'"),
    "too many weapon success values": (
        HEAD + "sides:\n  - id: a\n    characters:\n      - name: X\n        weapons:\n"
        "          - {type: pistol, success: [1, 2, 3, 4, 5]}  #<\n",
        "'success' lists at most 4 values"),
    "unknown weapon key": (
        HEAD + "sides:\n  - id: a\n    characters:\n      - name: X\n        weapons:\n"
        "          - {type: pistol, range: 12}  #<\n", "unknown key 'range' in weapon"),
    "objective of unknown side": (
        HEAD + SIDES + "objectives:\n  - {side: orks, kind: reach, at: [1, 1]}  #<\n",
        "side 'orks' is not one of the scenario's sides"),
    "bad objective kind": (
        HEAD + SIDES + "objectives:\n  - {side: runners, kind: loot}  #<\n",
        "'kind' must be one of reach | hold | retrieve | eliminate | exit | protect"),
    "objective kind a list": (
        HEAD + SIDES + "objectives:\n  - {side: runners, kind: [reach]}  #<\n",
        "'kind' must be one of reach | hold | retrieve | eliminate | exit | protect, not a list"),
    "key of another objective kind": (
        HEAD + SIDES + "objectives:\n  - {side: runners, kind: reach, at: [1, 1], turns: 2}  #<\n",
        "unknown key 'turns' in reach objective (allowed: id, side, kind, at, by_turn, points, note)"),
    "objective missing its place": (
        HEAD + SIDES + "objectives:\n  - {side: runners, kind: hold, turns: 2}  #<\n", "hold objective is missing 'area'"),
    "objective at of four numbers": (
        HEAD + SIDES + "objectives:\n  - {side: runners, kind: reach, at: [1, 1, 0, 4]}  #<\n",
        "'at' must be [c, r] or [c, r, l] of whole numbers"),
    "bad then": (
        HEAD + SIDES + "objectives:\n  - {side: runners, kind: retrieve, at: [1, 1], then: run}  #<\n",
        "'then' must be one of exit-north | exit-south | exit-east | exit-west"),
    "unknown target": (
        HEAD + SIDES + "objectives:\n  - {side: ghouls, kind: eliminate, target: Shadow}  #<\n",
        "target 'Shadow' is not a side or character of this scenario"),
    "duplicate objective id": (
        HEAD + SIDES + "objectives:\n  - {id: o, side: ghouls, kind: exit, edge: west}\n"
        "  - {id: o, side: runners, kind: exit, edge: east}  #<\n",
        "duplicate objective id 'o' (first used on line 17)"),
    "unknown victory key": (HEAD + "victory: {most_kills: true}  #<\n", "unknown key 'most_kills' in victory"),
    "extras unknown kind": (
        HEAD + "  extras:\n    lines:\n      - {kind: wall, path: [[0, 0], [4, 0]]}  #<\n",
        "'kind' must be one of step | incline | contour | low-wall | fence"),
    "extras door refused": (HEAD + "  extras:\n    doors: []  #<\n", "unknown key 'doors' in extras (allowed: areas, lines, trees)"),
    "missing layout": ("format: sprawlmap/scenario@1  #<\ntitle: Empty\n", "scenario is missing 'layout'"),
    "layout file with sides": (
        HEAD.replace("scenario@1", "layout@1") + "sides: []  #<\n", "unknown key 'sides' in layout file"),
    "mapsheet given as document": (
        HEAD.replace("format: sprawlmap/scenario@1", "format: sprawlmap/mapsheet@1  #<"),
        "this is a sprawlmap/mapsheet@1 file, expected sprawlmap/scenario@1 or sprawlmap/layout@1"),
    "newer scenario": (
        HEAD.replace("format: sprawlmap/scenario@1", "format: sprawlmap/scenario@7  #<"),
        "format sprawlmap/scenario@7 is newer than this sprawlmap understands (scenario@1)"),
    "inlined sheet with an error": (
        HEAD + "  sheets:\n    - id: shed\n      title: Shed\n      kind: building\n      size: [2, 2]\n"
        "      outline: [[0, 0], [1, 1], [1, 0], [0, 1]]  #<\n", "outline crosses itself"),
    "inlined sheet twice": (
        HEAD + "  sheets:\n"
        "    - {id: shed, title: Shed, kind: building, size: [2, 2], outline: [[0, 0], [1, 0], [1, 1]]}\n"
        "    - {id: shed, title: Shed, kind: building, size: [2, 2], outline: [[0, 0], [1, 0], [1, 1]]}  #<\n",
        "sheet 'shed' is inlined twice (first on line 11)"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_document_error(name, write):
    text, phrase = CASES[name]
    path = write(text)
    expect_error(lambda: load_document(path), path, marked_line(dedent(text)), phrase)


def test_base_fixture_is_valid(write):
    doc = load_document(write(HEAD + SIDES + "objectives:\n  - {side: ghouls, kind: eliminate, target: Sabre}\n"))
    assert [s.id for s in doc.sides] == ["runners", "ghouls"]
    assert doc.sides[0].characters[0].id == "sabre"
    assert doc.objectives[0].id == "ghouls-eliminate"
    assert doc.layout.placements[0].rotation == 90
    assert doc.layout.placements[0].id == "box-1"
    assert doc.layout.pavement[0].id == "pavement-a-1"


def test_ruleset_stats_round_trip(write, tmp_path):
    """Character and weapon ``stats`` keep their keys, values and order through a save."""
    from engine.io import save_document

    text = HEAD + SIDES.replace(
        "      - {name: Sabre, move_ratio: 2}",
        "      - name: Sabre\n        stats: {quickness: 5, body: 4, reaction: 6}\n"
        "        weapons:\n          - {type: heavy-pistol, stats: {damage: 9M, mode: SA}}")
    doc = load_document(write(text))
    sabre = doc.sides[0].characters[0]
    assert sabre.stats == (("quickness", 5), ("body", 4), ("reaction", 6))
    assert sabre.weapons[0].stats == (("damage", "9M"), ("mode", "SA"))
    out = tmp_path / "again.yaml"
    save_document(doc, out)
    again = load_document(out)
    assert again.sides[0].characters[0] == sabre
