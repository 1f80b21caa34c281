"""The sight primitives built with array code (issue 11) equal the ones the per-feature
construction gave: the reference below is that construction, one feature and one ring at a
time; every array of every part must match it, on the samples, a benchmark city, a hex
board and features of every geometry shape."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import shapely

from benchmarks.neighbourhood import neighbourhood
from engine.board import Feature, compile_board
from engine.io.resolve import load_board
from engine.lattice import get_lattice
from engine.los import (
    _KIND_OF,
    BLOCK,
    OBST,
    OBST_PRONE,
    _build_parts,
    _footprint_parts,
    _Prims,
    _segments_many,
)
from tests.engine.test_movement_graph_arrays import hex_hut

ROOT = Path(__file__).resolve().parents[2]


def _ref_segments(g) -> list[np.ndarray]:
    out = []
    t = g.geom_type
    if t in ("LineString", "LinearRing"):
        c = np.asarray(g.coords)
        if len(c) >= 2:
            out.append(np.stack([c[:-1], c[1:]], axis=1))
    elif t == "Polygon":
        out.extend(_ref_segments(g.exterior))
        for ring in g.interiors:
            out.extend(_ref_segments(ring))
    elif t.startswith("Multi") or t == "GeometryCollection":
        for sub in g.geoms:
            out.extend(_ref_segments(sub))
    return out


def _ref_part(lat, fs: list[Feature]) -> dict[str, object]:
    """The per-feature construction the array code replaced (engine/los.py before)."""
    feats, segs, owner, kinds, poly, fol_xy, fol_feat = [], [], [], [], [], [], []

    def add(f, kind):
        fi = len(feats)
        feats.append(f)
        parts = _ref_segments(f.geom)
        arr = np.concatenate(parts) if parts else np.zeros((0, 2, 2))
        if len(arr):
            segs.append(arr)
            owner.extend([fi] * len(arr))
            kinds.extend([kind] * len(arr))
        if f.geom.geom_type in ("Polygon", "MultiPolygon"):
            poly.append(fi)

    for f in fs:
        k = f.kind
        if k == "obstacle":
            los = f.props.get("los", "interrupts")
            if los == "none":
                continue
            add(f, {"blocks": BLOCK, "interrupts": OBST, "interrupts-prone": OBST_PRONE}[los])
        elif k in _KIND_OF:
            add(f, _KIND_OF[k])
        elif f.props.get("target_modifier") and f.geom.geom_type in ("Polygon", "MultiPolygon"):
            poly.append(len(feats))
            feats.append(f)
        elif k == "foliage":
            fi = len(feats)
            feats.append(f)
            x0, y0, x1, y1 = f.geom.bounds
            cand = lat.dots_in_box(x0, y0, x1, y1)
            if len(cand):
                pts = lat.points(cand)
                inside = pts[shapely.contains_xy(f.geom, pts[:, 0], pts[:, 1])]
                fol_xy.append(inside.astype(float))
                fol_feat.extend([fi] * len(inside))
    return {
        "feats": feats,
        "seg": np.concatenate(segs) if segs else np.zeros((0, 2, 2)),
        "owner": np.array(owner, dtype=np.int64),
        "kind": np.array(kinds, dtype=np.int64),
        "poly": np.array(poly, dtype=np.int64),
        "fol_xy": np.concatenate(fol_xy) if fol_xy else np.zeros((0, 2)),
        "fol_feat": np.array(fol_feat, dtype=np.int64),
        "building": np.array([-1 if f.building is None else f.building for f in feats]),
        "level": np.array([f.level for f in feats]),
        "is_poly": np.array([f.geom.geom_type in ("Polygon", "MultiPolygon") for f in feats],
                            dtype=bool),
        "full_dark": np.array([f.props.get("darkness") == "full" for f in feats], dtype=bool),
        "closed_door": np.array([f.kind == "door" and f.props.get("state") == "closed"
                                 for f in feats], dtype=bool),
    }


def _same_parts(lat, lists: list[list[Feature]]) -> int:
    """Every part built together equals its reference; returns the segments compared."""
    n = 0
    for fs, part in zip(lists, _build_parts(lat, lists), strict=True):
        ref = _ref_part(lat, fs)
        assert len(part.feats) == len(ref["feats"])
        assert all(a is b for a, b in zip(part.feats, ref["feats"]))
        for name, want in ref.items():
            if name == "feats":
                continue
            got = getattr(part, name)
            assert got.shape == np.shape(want) and np.array_equal(got, want), name
            assert got.dtype.kind == np.asarray(want).dtype.kind or not len(got), name
        n += len(part.seg)
    return n


def _board_lists(board) -> list[list[Feature]]:
    return [fs for u, _shared in board.unit_features() for fs in u.values()]


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml")))
def test_parts_equal_the_per_feature_construction_on_samples(name):
    _scen, board = load_board(ROOT / "scenarios" / name)
    assert _same_parts(board.lattice, _board_lists(board)) > 50


def test_parts_equal_the_per_feature_construction_on_a_city_and_hex_board():
    lay, sheets = neighbourhood(seed=5, blocks=2)
    board = compile_board(lay, sheets)
    assert _same_parts(board.lattice, _board_lists(board)) > 1000
    from engine.model import Layout, Placement, Sheet

    pav = Sheet(id="hex-pav", title="Hex pavement", kind="pavement", lattice="hex",
                size=(30, 24), outline=((-0.5, -0.5), (30.0, -0.5), (30.0, 22.5), (-0.5, 22.5)))
    lay = Layout(lattice="hex", pavement=(Placement("hex-pav", (0, 0)),),
                 placements=(Placement("hut", (6, 4), id="h1"), Placement("hut", (16, 10), id="h2")))
    hexb = compile_board(lay, {"hex-pav": pav, "hut": hex_hut()})
    assert _same_parts(hexb.lattice, _board_lists(hexb)) > 20


def test_parts_of_every_geometry_shape():
    """Lines, rings, polygons with holes, multi-parts, nested collections, empty and point
    geometries, modifier areas that are and are not polygons, foliage, every obstacle kind."""
    lat = get_lattice("square")
    holed = shapely.Polygon([(0, 0), (6, 0), (6, 6), (0, 6)],
                            [[(1, 1), (2, 1), (2, 2)], [(3, 3), (4, 3), (4, 5), (3, 4)]])
    geoms = [
        shapely.LineString([(0, 0), (3, 1), (3, 4)]),
        shapely.LinearRing([(0, 0), (1, 0), (1, 1)]),
        holed,
        shapely.MultiPolygon([holed, shapely.box(10, 10, 12, 13)]),
        shapely.MultiLineString([[(0, 0), (1, 0)], [(5, 5), (6, 6), (7, 5)]]),
        shapely.GeometryCollection([shapely.MultiPolygon([shapely.box(0, 0, 1, 1)]),
                                    shapely.Point(3, 3), shapely.LineString([(9, 9), (8, 8)])]),
        shapely.Polygon(), shapely.LineString(), shapely.Point(2, 2),
        shapely.LineString([(4, 4), (4, 4)]),
    ]
    kinds = ["wall", "fence", "trunk", "door", "window", "hole", "low-wall", "canopy", "dark",
             "smoke", "obstacle", "stair", "foliage"]
    props = [{}, {"los": "blocks"}, {"los": "interrupts-prone"}, {"los": "none"},
             {"target_modifier": 2}, {"darkness": "full"}, {"state": "closed"}]
    fs = [Feature(k, f"f{i}", i % 3, g, i % 4 - 1, dict(props[i % len(props)]))
          for i, (k, g) in enumerate((k, g) for k in kinds for g in geoms
                                     if not (k == "foliage" and g.is_empty))]
    fs.append(Feature("foliage", "bush", 0, shapely.box(1, 1, 4, 3), None, {}))
    fs.append(Feature("zone", "mod", 0, shapely.box(1, 1, 4, 3), None, {"target_modifier": 1}))
    fs.append(Feature("zone", "modline", 0, shapely.LineString([(0, 0), (1, 1)]), None,
                      {"target_modifier": 1}))
    lists = [fs[:40], [], fs[40:41], fs[41:], fs[::7]]
    assert _same_parts(lat, lists) > 400


def test_segments_and_footprints_of_many():
    """The array pass gives each geometry's segments in the per-ring order; footprints too."""
    lay, sheets = neighbourhood(seed=2, blocks=2)
    board = compile_board(lay, sheets)
    geoms = [f.geom for f in board.all_features()]
    seg, which = _segments_many(np.array(geoms, dtype=object))
    for i, g in enumerate(geoms):
        ref = _ref_segments(g)
        want = np.concatenate(ref) if ref else np.zeros((0, 2, 2))
        assert np.array_equal(seg[which == i], want), i
    for b, (f, s) in zip(board.buildings, _footprint_parts(board.buildings), strict=True):
        assert f.geom is b.footprint and f.building == b.index and f.props["height"] == b.height
        assert np.array_equal(s, np.concatenate(_ref_segments(b.footprint)))
    # the board's primitives end with the footprints, building by building
    feet = np.concatenate([np.concatenate(_ref_segments(b.footprint)) for b in board.buildings])
    p = _Prims(board)
    assert np.array_equal(p.p[-len(feet):], feet[:, 0]) and np.array_equal(p.q[-len(feet):], feet[:, 1])


def _same_grid(a, b):
    for name in ("seg", "start", "origin", "shape", "c0", "c1"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert a.count == b.count


def test_grid_patched_for_moved_segments_equals_a_grid_built_again():
    """Random segments, random ones moved (some to the grid's edge, past it, or the one
    that set its origin): the patched bucket grid is the grid built from scratch."""
    from engine.los import _SegGrid

    rng = np.random.default_rng(7)
    for trial in range(60):
        n = int(rng.integers(1, 400))
        p = rng.uniform(0, 200, (n, 2)).round(1)
        q = p + rng.uniform(-12, 12, (n, 2)).round(1)
        grid = _SegGrid(p, q)
        for _ in range(4):
            k = int(rng.integers(0, min(n, 30) + 1))
            which = np.sort(rng.choice(n, k, replace=False)) if k else np.zeros(0, dtype=np.int64)
            step = rng.uniform(-40, 40, 2).round(1) if trial % 3 else rng.integers(-2, 3, 2)
            p2, q2 = p.copy(), q.copy()
            p2[which] += step
            q2[which] += step
            if trial % 5 == 0 and k:  # a segment to the far corner: the shape changes
                p2[which[0]] = q2[which[0]] = (260.0, 255.5)
            patched = grid.moved(p2, q2, which)
            _same_grid(patched, _SegGrid(p2, q2))
            assert np.array_equal(patched.query(20, 30, 90, 70), _SegGrid(p2, q2).query(20, 30, 90, 70))
            p, q, grid = p2, q2, patched


def test_grid_patched_when_the_segments_at_its_edges_move_in():
    """The segment that alone reached the last row and column of cells, or the first, moves
    into the middle: the patched grid shrinks (or its origin moves) as one built again."""
    from engine.los import _SegGrid

    rng = np.random.default_rng(11)
    p = rng.uniform(20, 180, (200, 2)).round(1)
    q = p + rng.uniform(-6, 6, (200, 2)).round(1)
    p[7], q[7] = (250.0, 240.5), (255.5, 251.0)  # alone at the far corner
    p[9], q[9] = (0.5, 1.0), (3.0, -2.5)  # alone at the near corner
    grid = _SegGrid(p, q)
    for k, step in ((7, (-150.0, -140.0)), (9, (90.0, 80.0))):
        p2, q2 = p.copy(), q.copy()
        p2[k] += step
        q2[k] += step
        fresh = _SegGrid(p2, q2)
        assert not np.array_equal(fresh.shape, grid.shape) or \
            not np.array_equal(fresh.origin, grid.origin)
        _same_grid(grid.moved(p2, q2, np.array([k])), fresh)
        p, q, grid = p2, q2, grid.moved(p2, q2, np.array([k]))


def test_polygons_holding_points_are_the_strtree_answers():
    """The polygon index answers which polygons hold a point as shapely's STRtree with the
    intersects predicate does: points inside, on edges and corners, outside, off the board;
    after a move too."""
    from engine.los import _PolyIndex

    lay, sheets = neighbourhood(seed=3, blocks=2)
    board = compile_board(lay, sheets)
    p = _Prims(board)
    geoms = p.poly_index.geoms
    assert len(geoms) > 40
    tree = shapely.STRtree(list(geoms))
    rng = np.random.default_rng(1)
    corners = shapely.get_coordinates(geoms[::5])
    x0, y0, x1, y1 = board.bounds
    pts = np.concatenate([corners, (corners[:-1] + corners[1:]) / 2,
                          rng.uniform([x0 - 5, y0 - 5], [x1 + 5, y1 + 5], (3000, 2)),
                          board.lattice.points(board.dots(0)[::7]).astype(float)])
    ti, gi = tree.query(shapely.points(pts), predicate="intersects")
    want = set(zip(ti.tolist(), gi.tolist()))
    pi, gj = p.poly_index.points(pts)
    assert set(zip(pi.tolist(), gj.tolist())) == want and len(pi) == len(want) > 200
    for k in rng.choice(len(pts), 300, replace=False):
        got = p.poly_index.point(*pts[k])
        assert np.array_equal(got, np.sort(tree.query(shapely.Point(pts[k]),
                                                      predicate="intersects"))), k
        assert np.array_equal(p.holding(tuple(pts[k])), p.poly_feats[got])
    # moved polygons: the patched index equals one built from the moved geometries
    which = np.sort(rng.choice(len(geoms), 12, replace=False))
    moved = geoms.copy()
    moved[which] = shapely.transform(geoms[which], lambda c: c + (3.5, -2.0))
    patched, fresh = p.poly_index.moved(moved, which), _PolyIndex(moved)
    _same_grid(patched.grid, fresh.grid)
    tree = shapely.STRtree(list(moved))
    ti, gi = tree.query(shapely.points(pts), predicate="intersects")
    pi, gj = patched.points(pts)
    assert set(zip(pi.tolist(), gj.tolist())) == set(zip(ti.tolist(), gi.tolist()))


@pytest.mark.parametrize("name", [None, "police-station-extraction.yaml"])
def test_a_board_built_cold_takes_the_batch_arrays_whole(name, monkeypatch):
    """A board whose parts were all built in one call takes that call's arrays as they are;
    every array and list is the one the part-by-part concatenation gives."""
    from engine import board as board_module
    from engine import los

    board_module._UNITS.clear()
    los._PARTS.clear()
    if name is None:
        lay, sheets = neighbourhood(blocks=3)
        board = compile_board(lay, sheets)
    else:
        _scen, board = load_board(ROOT / "scenarios" / name)
        los._PARTS.clear()
    used = []
    whole = los._whole
    monkeypatch.setattr(los, "_whole", lambda parts: used.append(whole(parts)) or used[-1])
    fast = _Prims(board)
    assert used[0] is not None
    monkeypatch.setattr(los, "_whole", lambda parts: None)
    slow = _Prims(board)
    assert fast.__dict__.keys() == slow.__dict__.keys()
    for k, v in fast.__dict__.items():
        w = slow.__dict__[k]
        if isinstance(v, np.ndarray):
            assert v.dtype == w.dtype and np.array_equal(v, w), k
        elif isinstance(v, list):
            assert len(v) == len(w) and all(a is b for a, b in zip(v, w)), k
    assert len(fast.feats) > 100 and len(fast.p) > 100
