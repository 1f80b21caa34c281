"""Composition to the dot scale: offsets, water, barrier fences, LOS and movement across seams."""

from __future__ import annotations

import pytest

from engine.board import compile_board
from engine.errors import LoadError
from engine.io import load_board, resolve_sheets, save_document
from engine.los import line_of_sight
from engine.movement import cheapest_path
from engine.rules import get_ruleset
from engine.rules.base import barrier_of
from engine.zone import linked
from engine.zone.compose import block_scenario, compose, composed_scenario
from engine.zone.io import load_zone
from engine.zone.validate import validate_zone
from tests.zone.helpers import PLAIN_BLOCK, RIVER2, seam_zone, write


def board_of(zone_path):
    z = load_zone(zone_path)
    lay = compose(z, zone_path.parent, str(zone_path))
    return z, lay, compile_board(lay, resolve_sheets(lay, zone_path.parent))


def test_blocks_are_offset_by_block_size_and_ids_prefixed(tmp_path):
    _z, lay, board = board_of(seam_zone(tmp_path))
    assert [(p.id, p.at) for p in lay.pavement] == [("b0-0-street", (0, 0)), ("b1-0-street", (48, 0))]
    assert board.bounds == (-0.5, -0.5, 95.5, 31.5)
    ids = {a.id for a in lay.extras.areas}
    assert ids == set()  # the pavement's cars are sheet features, not layout extras


def test_los_and_movement_cross_the_seam(tmp_path):
    _z, _lay, board = board_of(seam_zone(tmp_path))
    facts = line_of_sight(board, (40, 12, 0), (56, 12, 0))
    assert facts.range == 16 and not facts.blocked and facts.cover == 0
    res = cheapest_path(board, (44, 12, 0), (52, 12, 0), 2)
    assert res.reachable and res.cost == 16 and len(res.steps) == 8
    assert any(d[0] == 47 for d in res.dots) and any(d[0] == 48 for d in res.dots)  # over the seam


def test_a_barrier_becomes_a_fence_with_its_body(tmp_path):
    zp = seam_zone(tmp_path, "barriers:\n  - {between: [[0, 0], [1, 0]], body: 9}\n")
    _z, lay, board = board_of(zp)
    fence = [ln for ln in lay.extras.lines if ln.kind == "fence"]
    assert len(fence) == 1 and fence[0].path == ((47.5, -0.5), (47.5, 31.5)) and fence[0].cls.barrier == 9
    facts = line_of_sight(board, (40, 12, 0), (56, 12, 0))
    assert facts.blocked and facts.blocked_by["kind"] == "fence"
    fence_props = board.feature(facts.blocked_by["feature"]).props
    assert fence_props["class"] == "custom" and fence_props["custom"] == (9, 0)
    assert barrier_of(get_ruleset("dmz1990"), {**fence_props, "kind": "fence"}) == (9, 0)
    assert not cheapest_path(board, (44, 12, 0), (52, 12, 0), 2).reachable


def test_river_block_is_water_sight_clear_no_standing(tmp_path):
    zp = seam_zone(tmp_path, river=True)
    z, lay, board = board_of(zp)
    water = [a for a in lay.extras.areas if a.kind == "water"]
    assert [a.polygon for a in water] == [((47.5, -0.5), (95.5, -0.5), (95.5, 31.5), (47.5, 31.5))]
    facts = line_of_sight(board, (40, 12, 0), (100, 12, 0))
    assert facts.range == 60 and not facts.blocked and facts.cover == 0
    assert board.standable((40, 12, 0)) and board.standable((100, 12, 0))
    assert not board.standable((60, 12, 0))
    assert not cheapest_path(board, (40, 12, 0), (100, 12, 0), 2).reachable
    assert [f.code for f in validate_zone(z, zp.parent) if f.severity == "error"] == []


def test_water_area_under_pavement_takes_its_dots(tmp_path):
    (tmp_path / "wet.yaml").write_text("""\
format: sprawlmap/layout@1
layout:
  lattice: square
  pavement:
    - {sheet: pavement-backstreets, at: [0, 0]}
  extras:
    areas:
      - {id: canal, kind: water, polygon: [[9.5, -0.5], [12.5, -0.5], [12.5, 31.5], [9.5, 31.5]]}
""", encoding="utf-8")
    _sc, board = load_board(tmp_path / "wet.yaml")
    assert not board.standable((10, 5, 0)) and board.standable((9, 5, 0))
    assert not line_of_sight(board, (5, 5, 0), (15, 5, 0)).blocked
    assert not cheapest_path(board, (5, 5, 0), (15, 5, 0), 2).reachable


def test_sample_zone_composes_and_round_trips(tmp_path):
    z = load_zone(RIVER2)
    sc = composed_scenario(z, RIVER2.parent, str(RIVER2))
    out = tmp_path / "out" / "west-bank.yaml"
    out.parent.mkdir()
    save_document(sc, out, layout_only=True)
    _sc, board = load_board(out)
    assert len(sc.layout.pavement) == 4 and len(sc.layout.placements) == 8
    assert sum(a.kind == "water" for a in sc.layout.extras.areas) == 4
    assert board.bounds == (-0.5, -0.5, 95.5, 63.5)


def test_block_scenario_sides_arrive_from_their_edges(tmp_path):
    z = load_zone(RIVER2)
    sc = block_scenario(z, (1, 1), RIVER2.parent, str(RIVER2))
    dep = {s.id: s.deployment.polygon for s in sc.sides}
    assert dep["A"] == ((2.5, -0.5), (44.5, -0.5), (44.5, 2.5), (2.5, 2.5))  # from block 1,0: north
    assert dep["B"] == ((-0.5, 2.5), (2.5, 2.5), (2.5, 28.5), (-0.5, 28.5))  # from block 0,1: west
    home = block_scenario(z, (0, 0), RIVER2.parent, str(RIVER2))
    assert "from the safehouse" in home.sides[0].note
    with pytest.raises(LoadError, match="no linked layout"):
        block_scenario(z, (3, 3), RIVER2.parent, str(RIVER2))


def test_too_large_and_unloadable_blocks(tmp_path):
    (tmp_path / "big.yaml").write_text("""\
format: sprawlmap/layout@1
layout:
  pavement:
    - {sheet: pavement-backstreets, at: [0, 0]}
    - {sheet: pavement-backstreets, at: [48, 0]}
""", encoding="utf-8")
    zp = write(tmp_path, "grid: [2, 2]\nblock_size: [48, 32]\nblocks:\n  - {at: [0, 0], layout: big.yaml}\n")
    z = load_zone(zp)
    f = [x for x in validate_zone(z, tmp_path) if x.code == "block-layout-too-large"]
    assert len(f) == 1 and f[0].where["blocks"] == [[0, 0]]
    with pytest.raises(LoadError, match="larger than the 48 x 32 block"):
        compose(z, tmp_path, str(zp))


def test_no_street_crossing_warning(tmp_path):
    (tmp_path / "walled.yaml").write_text("""\
format: sprawlmap/layout@1
layout:
  pavement:
    - {sheet: pavement-backstreets, at: [0, 0]}
  extras:
    lines:
      - {kind: fence, path: [[46.5, -0.5], [46.5, 31.5]]}
""", encoding="utf-8")
    (tmp_path / "wall2.yaml").write_text("""\
format: sprawlmap/layout@1
layout:
  pavement:
    - {sheet: pavement-backstreets, at: [0, 0]}
  placements:
    - {sheet: warehouse, at: [0, 0]}
    - {sheet: warehouse, at: [0, 16]}
""", encoding="utf-8")
    zp = write(tmp_path, "grid: [2, 1]\nblock_size: [48, 32]\nblocks:\n  - {at: [0, 0], layout: walled.yaml}\n"
                         "  - {at: [1, 0], layout: wall2.yaml}\n")
    f = [x for x in validate_zone(load_zone(zp), tmp_path) if x.code == "no-street-crossing"]
    assert len(f) == 1 and f[0].where["blocks"] == [[0, 0], [1, 0]] and f[0].severity == "warning"


def test_linked_block_cache_keeps_the_newest_blocks_up_to_its_limit(tmp_path, monkeypatch):
    """The compiled block layouts are kept by file (the zone view and the zone checks load
    them at once from two threads): full, the oldest is dropped and the new one kept."""
    src = tmp_path / "block.yaml"
    src.write_text(PLAIN_BLOCK, encoding="utf-8")
    monkeypatch.setattr(linked, "_CACHE", {f"old-{i}": ((0, 0), None) for i in range(3)})
    monkeypatch.setattr(linked, "_CACHE_MAX", 3)
    got = linked.load_linked(tmp_path, "block.yaml")
    assert got.ok
    assert list(linked._CACHE) == ["old-1", "old-2", str(src.resolve())]
    assert linked.load_linked(tmp_path, "block.yaml") is got  # asked again: kept
