"""Every mapsheet loader error: one line ``file:line: problem`` at the exact line.

Each fixture marks the line the error must name with a trailing ``#<`` comment.
"""

from __future__ import annotations

import pytest
from conftest import SHEET_HEAD as HEAD
from conftest import dedent, expect_error

from engine.io import load_sheet

WALLS = """\
levels:
  - level: 0
    walls:
      - {path: [[-0.5, -0.5], [9.5, -0.5]], exterior: true}
      - path: [[9.5, -0.5], [9.5, 7.5]]
"""


def marked_line(text: str) -> int:
    lines = [i + 1 for i, ln in enumerate(text.splitlines()) if ln.rstrip().endswith("#<")]
    assert len(lines) == 1
    return lines[0]


CASES = {
    "unknown top key": (HEAD + "colour: red  #<\n", "unknown key 'colour' in mapsheet"),
    "unknown wall key": (
        HEAD + WALLS + "        thicknes: 2  #<\n", "unknown key 'thicknes' in wall (allowed: id, path, class"),
    "unknown key for area kind": (
        HEAD + WALLS + "    areas:\n      - {kind: rubble, polygon: [[1, 1], [3, 1], [3, 3]], cost: 2}  #<\n",
        "unknown key 'cost' in rubble area"),
    "hole takes no state": (
        HEAD + WALLS + "    holes:\n      - span: [[1, -0.5], [2, -0.5]]\n        state: open  #<\n",
        "unknown key 'state' in hole"),
    "wrong type height": (HEAD.replace("height: 2", "height: tall  #<"), "'height' must be a whole number, not the text 'tall'"),
    "wrong type size": (HEAD.replace("size: [10, 8]", "size: 10  #<"), "'size' must be [c, r] of whole numbers"),
    "float size": (HEAD.replace("size: [10, 8]", "size: [10, 8.5]  #<"), "'size' must be a whole number"),
    "wrong type exterior": (
        HEAD + WALLS.replace("exterior: true}", "exterior: yes}  #<"), "'exterior' must be true or false, not the text 'yes'"),
    "wrong type note": (HEAD + WALLS + "        note: 42  #<\n", "'note' must be text, not the number 42"),
    "point of three numbers": (
        HEAD + WALLS.replace("[[9.5, -0.5], [9.5, 7.5]]", "[[9.5, -0.5], [9.5, 7.5, 1]]  #<"),
        "'path' must be a point [x, y]"),
    "nan coordinate": (
        HEAD + WALLS.replace("[[9.5, -0.5], [9.5, 7.5]]", "[[9.5, -0.5], [9.5, .nan]]  #<"),
        "'path' must be a finite number"),
    "missing required top key": ("format: sprawlmap/mapsheet@1  #<\nid: box\ntitle: Box\nkind: building\nsize: [1, 1]\n",
                                 "mapsheet is missing 'outline'"),
    "missing wall path": (HEAD + WALLS + "      - {exterior: true}  #<\n", "wall is missing 'path'"),
    "bad kind": (HEAD.replace("kind: building", "kind: castle  #<"), "'kind' must be one of building | pavement, not the text 'castle'"),
    "bad lattice": (HEAD + "lattice: triangle  #<\n", "'lattice' must be one of square | hex"),
    "bad wall class": (HEAD + WALLS + "        class: paper  #<\n", "'class' must be one of thin | average | thick or {barrier: N, armor: M}"),
    "window class on a door": (
        HEAD + WALLS + "    doors:\n      - {span: [[1, -0.5], [2, -0.5]], class: reinforced}  #<\n",
        "'class' must be one of thin | average | thick"),
    "bad barrier mapping": (HEAD + WALLS + "        class: {barrier: 12, armour: 1}  #<\n", "unknown key 'armour' in class"),
    "negative barrier": (HEAD + WALLS + "        class: {barrier: -3}  #<\n", "'barrier' must be at least 0"),
    "bad state": (
        HEAD + WALLS + "    doors:\n      - {span: [[1, -0.5], [2, -0.5]], state: ajar}  #<\n",
        "'state' must be one of open | closed"),
    "bad los": (
        HEAD + WALLS + "    areas:\n      - {kind: obstacle, polygon: [[1, 1], [3, 1], [3, 3]], los: see-through}  #<\n",
        "'los' must be one of none | interrupts | blocks | interrupts-prone"),
    "bad standable": (
        HEAD + WALLS + "    areas:\n      - {kind: obstacle, polygon: [[1, 1], [3, 1], [3, 3]], standable: under}  #<\n",
        "'standable' must be one of none | on | on-or-under"),
    "bad darkness": (
        HEAD + WALLS + "    areas:\n      - {kind: dark, polygon: [[1, 1], [3, 1], [3, 3]], darkness: pitch}  #<\n",
        "'darkness' must be one of partial | full"),
    "bad area kind": (
        HEAD + WALLS + "    areas:\n      - {kind: lava, polygon: [[1, 1], [3, 1], [3, 3]]}  #<\n",
        "'kind' must be one of rubble | undergrowth"),
    "modifier without value": (
        HEAD + WALLS + "    areas:\n      - {kind: modifier, polygon: [[1, 1], [3, 1], [3, 3]]}  #<\n",
        "modifier area is missing 'target_modifier'"),
    "bad sheet id": (HEAD.replace("id: box", "id: Big_Box  #<"), "'id' must be an id made of lower-case letters, digits and '-'"),
    "bad feature id": (HEAD + WALLS + "        id: a/b  #<\n", "'id' must be an id made of letters"),
    "duplicate feature id": (
        HEAD + WALLS.replace("exterior: true}", "exterior: true, id: north}")
        + "    stairs:\n      - {at: [2, 2], to: 1, id: north}  #<\n",
        "duplicate id 'north' (first used on line 11)"),
    "self-crossing outline": (
        HEAD.replace("outline: [[-0.5, -0.5], [9.5, -0.5], [9.5, 7.5], [-0.5, 7.5]]",
                     "outline: [[-0.5, -0.5], [9.5, 7.5], [9.5, -0.5], [-0.5, 7.5]]  #<"),
        "outline crosses itself near (4.5, 3.5)"),
    "degenerate outline": (
        HEAD.replace("outline: [[-0.5, -0.5], [9.5, -0.5], [9.5, 7.5], [-0.5, 7.5]]",
                     "outline: [[0, 0], [5, 0], [9, 0]]  #<"),
        "outline has zero area"),
    "too few outline points": (
        HEAD.replace("outline: [[-0.5, -0.5], [9.5, -0.5], [9.5, 7.5], [-0.5, 7.5]]", "outline: [[0, 0], [5, 0]]  #<"),
        "'outline' needs at least 3 points, has 2"),
    "self-crossing area polygon": (
        HEAD + WALLS + "    areas:\n      - kind: rubble\n        polygon: [[1, 1], [3, 3], [3, 1], [1, 3]]  #<\n",
        "rubble area crosses itself near (2, 2)"),
    "zero-length wall": (HEAD + WALLS + "      - path: [[2, 2], [2, 2]]  #<\n", "zero-length wall at (2, 2)"),
    "zero-length wall segment (block list)": (
        HEAD + WALLS + "      - path:\n          - [2, 2]\n          - [4, 2]\n          - [4, 2]  #<\n",
        "zero-length wall segment at (4, 2)"),
    "zero-length fence": (
        HEAD + WALLS + "    lines:\n      - {kind: fence, path: [[1, 1], [1, 1]]}  #<\n", "zero-length fence at (1, 1)"),
    "opening not on a wall": (
        HEAD + WALLS + "    doors:\n      - {span: [[1, 0.5], [2, 0.5]]}  #<\n",
        "door span (1, 0.5)-(2, 0.5) does not lie on a wall of its level"),
    "opening running past the wall end": (
        HEAD + WALLS + "    windows:\n      - span: [[9.0, -0.5], [10.5, -0.5]]  #<\n",
        "window span (9, -0.5)-(10.5, -0.5) does not lie on a wall"),
    "opening on a wall of another level": (
        HEAD + WALLS + "  - level: 1\n    holes:\n      - span: [[1, -0.5], [2, -0.5]]  #<\n",
        "hole span (1, -0.5)-(2, -0.5) does not lie on a wall of its level"),
    "zero-length opening": (
        HEAD + WALLS + "    doors:\n      - {span: [[1, -0.5], [1, -0.5]]}  #<\n", "zero-length door span at (1, -0.5)"),
    "span of three points": (
        HEAD + WALLS + "    doors:\n      - {span: [[1, -0.5], [2, -0.5], [3, -0.5]]}  #<\n",
        "'span' of a door must be exactly two points"),
    "level above the building": (
        HEAD + "levels:\n  - level: 3  #<\n", "level 3 is above the building (height 2: the roof is level 2)"),
    "negative level": (HEAD + "levels:\n  - level: -1  #<\n", "'level' must be at least 0, not -1"),
    "level listed twice": (
        HEAD + "levels:\n  - level: 1\n  - level: 1  #<\n", "level 1 is listed twice (first on line 9)"),
    "level above the pavement": (
        HEAD.replace("kind: building", "kind: pavement").replace("height: 2\n", "")
        + "levels:\n  - level: 1  #<\n", "level 1 is above the pavement"),
    "pavement with height": (
        HEAD.replace("kind: building", "kind: pavement").replace("height: 2", "height: 1  #<"),
        "a pavement sheet has height 0 (only level 0), not 1"),
    "building without stories": (HEAD.replace("height: 2", "height: 0  #<"), "'height' must be at least 1"),
    "stair above the roof": (
        HEAD + "levels:\n  - level: 1\n    stairs:\n      - {at: [2, 2], to: 3}  #<\n",
        "stair goes to level 3, outside levels 0..2 of this sheet"),
    "stair below ground": (
        HEAD + "levels:\n  - level: 0\n    stairs:\n      - at: [2, 2]\n        to: -1  #<\n",
        "stair goes to level -1, outside levels 0..2"),
    "stair to own level": (
        HEAD + "levels:\n  - level: 1\n    stairs:\n      - {at: [2, 2], to: 1}  #<\n", "stair on level 1 goes to its own level"),
    "climb above the roof": (
        HEAD + "levels:\n  - level: 0\n    climbs:\n      - {at: [2, 2], to: 5}  #<\n",
        "climb goes to level 5, outside levels 0..2"),
    "elevator beyond the roof": (
        HEAD + "levels:\n  - level: 0\n    elevators:\n      - {at: [2, 2], levels: [0, 1, 4]}  #<\n",
        "elevator serves level 4, outside levels 0..2"),
    "elevator missing own level": (
        HEAD + "levels:\n  - level: 0\n    elevators:\n      - {at: [2, 2], levels: [1, 2]}  #<\n",
        "an elevator on level 0 must list level 0"),
    "levels not a list": (HEAD + "levels: {level: 0}  #<\n", "'levels' must be a list, not a mapping"),
    "wall not a mapping": (HEAD + WALLS + "      - [[1, 1], [2, 2]]  #<\n", "wall must be a mapping"),
    "top not a mapping": ("- format  #<\n", "expected a mapping with 'format: sprawlmap/mapsheet@1' at the top"),
    "empty value for a required key": (HEAD + WALLS + "      - path:  #<\n", "'path' of wall must not be empty"),
    "missing format": (HEAD.replace("format: sprawlmap/mapsheet@1\nid: box", "id: box  #<"),
                       "missing 'format' (expected sprawlmap/mapsheet@1)"),
    "garbled format": (HEAD.replace("format: sprawlmap/mapsheet@1", "format: mapsheet v1  #<"),
                       "'format' must look like sprawlmap/mapsheet@1"),
    "scenario given as sheet": (HEAD.replace("format: sprawlmap/mapsheet@1", "format: sprawlmap/scenario@1  #<"),
                                "this is a sprawlmap/scenario@1 file, expected sprawlmap/mapsheet@1"),
    "newer format refused": (
        HEAD.replace("format: sprawlmap/mapsheet@1", "format: sprawlmap/mapsheet@2  #<"),
        "format sprawlmap/mapsheet@2 is newer than this sprawlmap understands (mapsheet@1)"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_sheet_error(name, write):
    text, phrase = CASES[name]
    path = write(text)
    line = marked_line(dedent(text))
    expect_error(lambda: load_sheet(path), path, line, phrase)


def test_fixtures_without_the_error_load(write):
    """The base fixture is valid, so each case above fails for its own reason only."""
    sheet = load_sheet(write(HEAD + WALLS + "    doors:\n      - {span: [[1, -0.5], [2, -0.5]]}\n"))
    assert [w.id for w in sheet.levels[0].walls] == ["L0-wall-0", "L0-wall-1"]
    assert sheet.levels[0].doors[0].span == ((1.0, -0.5), (2.0, -0.5))


def test_opening_on_a_fence_or_across_joined_walls_is_fine(write):
    text = HEAD + WALLS + (
        "      - path: [[-0.5, 3], [3, 3]]\n"
        "      - path: [[3, 3], [6, 3]]\n"
        "    doors:\n      - {span: [[2, 3], [4, 3]]}\n"
        "    lines:\n      - {kind: fence, path: [[1, 5], [8, 5]]}\n"
        "    holes:\n      - span: [[2, 5], [3, 5]]\n"
    )
    sheet = load_sheet(write(text))
    assert sheet.levels[0].doors[0].id == "L0-door-0"
    assert sheet.levels[0].holes[0].span == ((2.0, 5.0), (3.0, 5.0))
