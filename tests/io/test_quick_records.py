"""Walls and openings read without per-field messages are the ones the checked readers make.

For every record, faulty or not: when the quick reader answers, the checked reader (the quick
one switched off) makes an equal object and claims the same ids with the same lines; when the
checked reader refuses the record, the quick reader does not answer.
"""

from __future__ import annotations

import copy
import math
import random
from typing import Any

import pytest

from engine.errors import LoadError
from engine.io import features as F
from engine.io import parse_text, sheet_from_data
from engine.io.fields import At
from engine.io.geometry import wall_cover
from engine.io.quick_records import (
    _AREA_BASE,
    _AREA_KEYS,
    quick_area,
    quick_opening,
    quick_points,
    quick_stair,
    quick_wall,
)
from engine.model import AREA_KINDS

WALLS = [[(-0.5, -0.5), (6.5, -0.5), (6.5, 4.5)], [(2.5, -0.5), (2.5, 4.5)]]
GOOD = {
    "wall": {"path": [[-0.5, -0.5], [6.5, -0.5], [6.5, 4.5]], "exterior": True},
    "door": {"span": [[2.5, 1.5], [2.5, 2.5]], "state": "closed"},
    "window": {"span": [[0.5, -0.5], [1.5, -0.5]], "class": "reinforced"},
    "hole": {"span": [[6.5, 1.5], [6.5, 3]], "note": "blown"},
    "area": {"kind": "obstacle", "polygon": [[1.6, 1.6], [2.4, 1.6], [2.4, 2.4], [1.6, 2.4]], "cost": 2},
    "stair": {"at": [1, 2], "to": 1},
    "dark area": {"kind": "dark", "polygon": [[0, 0], [3, 0], [3, 2], [0, 2]], "target_modifier": 2},
}
JUNK: list[Any] = [
    None, True, False, 0, 7, -1, 1.5, math.nan, math.inf, 10**400, "", "x", "thin", "thick",
    "standard", "reinforced", "open", "closed", "ajar", "a b", "ok-1", "dup", "L0-door-0", [],
    {}, [[0, 0]], [[2.5, 1.5], [2.5, 1.5]], [[2.5, 1.5], [2.5, 2.5], [2.5, 3.5]], [["a", 1], [1, 2]],
    [[True, 1], [1, 2]], [[2.5, 0], [2.5, 10**400]], [[6.5, 0.5], [6.5, 1.5]], [[0, 0], [1, 1]],
    [2.5, 1.5], {"barrier": 3}, {"barrier": 3, "armor": 1}, [[-0.5, -0.5], [6.5, -0.5]],
    "obstacle", "dark", "modifier", "hazard", "rubble", "water", "blocks", "on-or-under", "full",
    2.0, 20, 21, -20, [[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]], [[0, 0], [1, 1], [1, 0], [0, 1]],
    [[0, 0], [2, 0], [2, 2], [1, 3], [0, 2]], [[0, 0], [1, 0], [1, 1e-13], [0, 1e-13]],
]
KEYS = ["id", "span", "path", "state", "class", "note", "exterior", "kind", "at", "polygon", "cost",
        "los", "standable", "darkness", "target_modifier", "effect", "to"]


def checked(kind: str, v: Any, book: F.IdBook, cover: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The checked reader's answer (an object or the LoadError's text)."""
    with monkeypatch.context() as m:
        for name in ("quick_wall", "quick_opening", "quick_area", "quick_stair"):
            m.setattr(F, name, lambda *a: None)
        try:
            if kind == "wall":
                return F.read_wall(v, At("f.yaml", 9, "walls"), book)
            if kind.endswith("area"):
                return F.read_area(v, At("f.yaml", 9, "areas"), book)
            if kind == "stair":
                return F.read_stair(v, At("f.yaml", 9, "stairs"), book, 0, 2)
            return F.read_opening(kind, v, At("f.yaml", 9, kind + "s"), book, cover)
        except LoadError as e:
            return str(e)


def quick(kind: str, v: Any, book: F.IdBook, cover: Any) -> Any:
    if kind == "wall":
        return quick_wall(v, At("f.yaml", 9, "walls"), book)
    if kind.endswith("area"):
        return quick_area(v, At("f.yaml", 9, "areas"), book)
    if kind == "stair":
        return quick_stair(v, At("f.yaml", 9, "stairs"), book, 0, 2)
    return quick_opening(kind, v, At("f.yaml", 9, kind + "s"), book, cover)


def test_quick_and_checked_readers_agree(monkeypatch):
    rng = random.Random(3)
    cover = wall_cover(WALLS)
    answered = refused = 0
    kinds = {k: 0 for k in GOOD}
    for _ in range(9000):
        kind = rng.choice(list(GOOD))
        v = copy.deepcopy(GOOD[kind])
        for _ in range(rng.choice([0, 1, 1, 2])):
            key = rng.choice(KEYS)
            if rng.random() < 0.2:
                v.pop(key, None)
            else:
                v[key] = copy.deepcopy(rng.choice(JUNK))
        if rng.random() < 0.05:
            v = rng.choice(JUNK)
        book_a, book_b = F.IdBook(), F.IdBook()
        for book in (book_a, book_b):
            book.claim("dup", At("f.yaml", 4, "id"))
        want = checked(kind, v, book_a, cover, monkeypatch)
        got = quick(kind, v, book_b, cover)
        if got is None:
            refused += isinstance(want, str)
            continue
        answered += 1
        kinds[kind] += 1
        assert got == want and type(got) is type(want), (kind, v)
        assert book_a.used == book_b.used, (kind, v)
    assert answered > 2500 and refused > 2500, (answered, refused)
    assert min(kinds.values()) > 200, kinds


def test_area_keys_are_the_checked_readers():
    for kind in AREA_KINDS:
        want = {"id", "kind", "polygon", "note", *F.AREA_EXTRA.get(kind, ())}
        assert set(_AREA_KEYS.get(kind, _AREA_BASE)) == want, kind


def test_quick_points_reads_as_points_does():
    assert quick_points([[1, 2], [3.5, -0.5]], 2) == ((1.0, 2.0), (3.5, -0.5))
    assert all(type(x) is float for p in quick_points([[1, 2]], 1) for x in p)
    for bad in ([[1, 2]], [[1, True], [0, 0]], [[1, math.nan], [0, 0]], [[1, 10**400], [0, 0]],
                "ab", [(1, 2), (3,)], None):
        assert quick_points(bad, 2) is None
    assert quick_points([[0, 0]] * 3, 2, most=2) is None


def test_vertex_limit_still_applies(monkeypatch):
    monkeypatch.setenv("SPRAWLMAP_MAX_VERTICES", "1")
    text = SHEET.split("  - level: 1")[0]
    with pytest.raises(LoadError, match="over the limit of 1"):
        sheet_from_data(parse_text(text, "s.yaml"), "s.yaml")


SHEET = """\
format: sprawlmap/mapsheet@1
id: box
title: Box
kind: building
size: [7, 5]
outline: [[-0.5, -0.5], [6.5, -0.5], [6.5, 4.5], [-0.5, 4.5]]
height: 1
levels:
  - level: 0
    walls:
      - path: [[-0.5, -0.5], [6.5, -0.5], [6.5, 4.5], [-0.5, 4.5], [-0.5, -0.5]]
      - path: [[2.5, -0.5], [2.5, 4.5]]
    doors:
      - span: [[2.5, 0.5], [2.5, 1.5]]
      - span: [[2.5, 2.5], [2.5, 3.5]]
        id: back
  - level: 1
    walls: [{path: [[2.5, -0.5], [2.5, 4.5]]}]
    doors: [{id: L0-door-0, span: [[2.5, 1.5], [2.5, 2.5]]}]
"""


def test_generated_ids_step_round_ids_taken_later():
    sheet = sheet_from_data(parse_text(SHEET, "s.yaml"), "s.yaml")
    assert [d.id for d in sheet.levels[0].doors] == ["L0-door-0-2", "back"]
    assert [w.id for w in sheet.levels[0].walls] == ["L0-wall-0", "L0-wall-1"]
    assert [d.id for d in sheet.levels[1].doors] == ["L0-door-0"]


def test_a_fault_is_still_named_at_its_line():
    text = SHEET.replace("        id: back", "        id: back\n        state: ajar")
    with pytest.raises(LoadError) as e:
        sheet_from_data(parse_text(text, "s.yaml"), "s.yaml")
    assert str(e.value) == "s.yaml:17: 'state' must be one of open | closed, not the text 'ajar'"
    text = SHEET.replace("{id: L0-door-0,", "{id: back,")
    with pytest.raises(LoadError) as e:
        sheet_from_data(parse_text(text, "s.yaml"), "s.yaml")
    assert str(e.value) == "s.yaml:19: duplicate id 'back' (first used on line 16)"


def test_a_huge_whole_number_is_a_fault_not_a_crash(tmp_path):
    text = SHEET.replace("[[2.5, 0.5], [2.5, 1.5]]", "[[2.5, 0.5], [2.5, 1" + "0" * 400 + "]]")
    with pytest.raises(LoadError) as e:
        sheet_from_data(parse_text(text, "s.yaml"), "s.yaml")
    assert str(e.value) == "s.yaml:14: 'span' is too large a number"
