"""The unit compiler's array work (engine/board_arrays.py) gives what one-at-a-time shapely gave.

The one-at-a-time code (openings cut out of walls one level at a time, each opening's
coverage tested with its own union and buffer; solid dots by one STRtree query per level)
lives here only, as the reference.  Geometry must be equal coordinate for coordinate (same
WKB), loose openings the same and in the same order, solid dots the same rows, on generated
walls (axis-parallel, slanted, rings, walls through dots, openings on, off, across and at the
ends of walls, irrational coordinates), on the samples, the benchmark city and a hex board.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pytest
import shapely
from shapely.geometry import LineString, MultiLineString, Point, Polygon
from shapely.ops import unary_union

from benchmarks.neighbourhood import neighbourhood
from engine import board as board_module
from engine import board_arrays
from engine.board import Feature, cached_unit_ids, compile_board
from engine.io.resolve import load_board
from engine.lattice import get_lattice
from engine.model import Layout, Level, Opening, Placement, Sheet, Wall

ROOT = Path(__file__).resolve().parents[2]
EPS = 1e-7


def ref_cut(feats: dict[int, list[Feature]]) -> list[Feature]:
    """The cut as compiled before: per level, each opening's near walls united and widened."""
    loose = []
    for lv, fs in feats.items():
        spans = [f for f in fs if f.kind in ("door", "window", "hole")]
        if not spans:
            continue
        walls = [f.geom for f in fs if f.kind in ("wall", "fence")]
        wtree = shapely.STRtree(walls) if walls else None
        for f in spans:
            near = wtree.query(f.geom, predicate="dwithin", distance=1e-6) if wtree else []
            if not len(near) or not unary_union([walls[i] for i in near]).buffer(
                    1e-6, cap_style="flat").covers(f.geom):
                loose.append(f)
        cut = unary_union([f.geom for f in spans]).buffer(EPS, cap_style="flat")
        out = []
        for f in fs:
            if f.kind in ("wall", "fence") and f.geom.intersects(cut):
                g = f.geom.difference(cut)
                if g.is_empty:
                    continue
                f = Feature(f.kind, f.id, f.level, g, f.building, f.props)
            out.append(f)
        feats[lv] = out
    return loose


def ref_solid(lat, feats: dict[int, list[Feature]]) -> np.ndarray:
    """Solid dots as found before: every dot of the level's solids' box, one tree query."""
    out = []
    for lv, fs in feats.items():
        solid = [f.geom for f in fs if f.kind in ("wall", "fence", "trunk", "water")
                 or (f.kind == "obstacle" and f.props.get("standable") == "none")]
        if not solid:
            continue
        x0, y0, x1, y1 = shapely.total_bounds(solid)
        cand = lat.dots_in_box(x0 - 1e-6, y0 - 1e-6, x1 + 1e-6, y1 + 1e-6)
        if not len(cand):
            continue
        pts = shapely.points(lat.points(cand))
        pi, _gi = shapely.STRtree(solid).query(pts, predicate="intersects")
        hit = cand[np.unique(pi)]
        out.append(np.column_stack([hit, np.full(len(hit), lv)]))
    return np.concatenate(out).astype(np.int64) if out else np.zeros((0, 3), dtype=np.int64)


def assert_same_units(got: dict[int, list[Feature]], want: dict[int, list[Feature]]) -> None:
    assert list(got) == list(want)
    for lv in want:
        assert len(got[lv]) == len(want[lv]), lv
        for a, b in zip(got[lv], want[lv]):
            assert (a.kind, a.id, a.level, a.building, a.props) == \
                (b.kind, b.id, b.level, b.building, b.props)
            assert a.geom.geom_type == b.geom.geom_type, a.id
            assert shapely.to_wkb(a.geom) == shapely.to_wkb(b.geom), a.id


def check(units: list[dict[int, list[Feature]]], lat_name: str = "square") -> list[list[Feature]]:
    """Run both ways on copies; assert equal; return the loose openings."""
    mine = [{lv: list(fs) for lv, fs in u.items()} for u in units]
    theirs = [{lv: list(fs) for lv, fs in u.items()} for u in units]
    loose = board_arrays.cut_openings(mine)
    want = [ref_cut(u) for u in theirs]
    assert [[f.id for f in lo] for lo in loose] == [[f.id for f in lo] for lo in want]
    for a, b in zip(mine, theirs):
        assert_same_units(a, b)
    lat = get_lattice(lat_name)
    got = board_arrays.solid_dots(lat, mine)
    for g, u in zip(got, theirs):
        ref = ref_solid(lat, u)
        assert g.dtype == ref.dtype and g.tolist() == ref.tolist()
    boxes = board_arrays.boxes(mine)
    for box, u in zip(boxes, mine):
        geoms = [f.geom for fs in u.values() for f in fs]
        if not geoms:
            assert box is None
        else:
            np.testing.assert_array_equal(np.array(box), shapely.total_bounds(geoms))
    return loose


def random_unit(rng: random.Random, tilt: float, shift: tuple[float, float]) -> dict[int, list[Feature]]:
    """A few levels of walls with openings on them, across two of them, at their ends and off
    them; ``tilt`` turns everything (0: axis-parallel walls, with slanted ones among them)."""
    cs, sn = math.cos(tilt), math.sin(tilt)

    def tr(p):
        return (cs * p[0] - sn * p[1] + shift[0], sn * p[0] + cs * p[1] + shift[1])

    def line(pts):
        return LineString([tr(p) for p in pts])

    feats: dict[int, list[Feature]] = {}
    n = 0
    for lv in rng.sample(range(4), rng.randint(1, 3)):
        fs: list[Feature] = []
        w, h = rng.randint(4, 12), rng.randint(4, 12)
        lx, ly = w - 0.5, h - 0.5
        ring = [(-0.5, -0.5), (lx, -0.5), (lx, ly), (-0.5, ly), (-0.5, -0.5)]
        fs.append(Feature("wall", f"w{n}", lv, line(ring), 0, {"class": "thick"}))
        segs = list(zip(ring, ring[1:]))
        x = rng.randint(1, w - 2) + 0.5
        fs.append(Feature("wall", f"w{n}i", lv, line([(x, -0.5), (x, ly)]), 0, {}))
        segs.append(((x, -0.5), (x, ly)))
        # two collinear walls meeting end to end, and a slanted one
        y = rng.randint(0, h - 1) + 0.5
        fs.append(Feature("fence", f"f{n}a", lv, line([(-0.5, y), (x, y)]), 0, {}))
        fs.append(Feature("fence", f"f{n}b", lv, line([(x, y), (lx, y)]), 0, {}))
        d = min(w, h) - 1
        fs.append(Feature("wall", f"w{n}d", lv, line([(-0.5, -0.5), (d - 0.5, d - 0.5)]), 0, {}))
        segs.append(((-0.5, -0.5), (d - 0.5, d - 0.5)))
        if rng.random() < 0.5:  # a wall through dots (solid dots)
            r = rng.randint(0, h - 1)
            fs.append(Feature("wall", f"w{n}t", lv, line([(0, r), (w - 1, r)]), 0, {}))
        k = 0
        for _ in range(rng.randint(2, 9)):
            (ax, ay), (bx, by) = rng.choice(segs)
            ln = math.hypot(bx - ax, by - ay)
            if ln < 1:
                continue
            ux, uy = (bx - ax) / ln, (by - ay) / ln
            how = rng.random()
            if how < 0.15:  # the whole segment
                t0, t1 = 0.0, ln
            elif how < 0.3:  # from one end
                t0, t1 = 0.0, float(rng.randint(1, int(ln)))
            elif how < 0.4:  # past the end (loose)
                t0, t1 = ln - 0.5, ln + rng.choice([0.5, 0.2, 1e-5])
            elif how < 0.45:  # before the start
                t0, t1 = rng.choice([-0.2, -1e-5]), 0.8
            else:
                t0 = rng.randint(0, int(ln) - 1) + rng.choice([0.0, 0.0, 0.25])
                t1 = min(t0 + 1, ln)
            off = rng.choice([0.0] * 6 + [0.3, 0.05, 3e-6, 1e-8, 5e-7])
            p0 = (ax + ux * t0 - uy * off, ay + uy * t0 + ux * off)
            p1 = (ax + ux * t1 - uy * off, ay + uy * t1 + ux * off)
            kind = rng.choice(["door", "window", "hole"])
            fs.append(Feature(kind, f"o{n}-{k}", lv, line([p0, p1]), 0, {"state": "open"}))
            k += 1
        # across the joint of the two fences, a bent opening, an opening of two pieces
        fs.append(Feature("door", f"o{n}-j", lv, line([(x - 0.5, y), (x + 0.5, y)]), 0, {}))
        fs.append(Feature("door", f"o{n}-bent", lv, line([(x, 0.5), (x, 1.5), (x, 2.0)]), 0, {}))
        fs.append(Feature("window", f"o{n}-multi", lv, MultiLineString(
            [[tr((lx, 0.5)), tr((lx, 1.5))], [tr((lx, 2.5)), tr((lx, 3.0))]]), 0, {}))
        fs.append(Feature("trunk", f"t{n}", lv, Point(tr((1, 1))).buffer(0.25, 8), 0, {}))
        fs.append(Feature("obstacle", f"x{n}", lv, Polygon([tr(p) for p in (
            (1.6, 1.6), (2.4, 1.6), (2.4, 2.4), (1.6, 2.4))]), 0, {"standable": "none"}))
        rng.shuffle(fs)
        feats[lv] = fs
        n += 1
    return feats


@pytest.mark.parametrize("seed", range(12))
def test_generated_walls_and_openings(seed):
    rng = random.Random(seed)
    tilt = 0.0 if seed % 3 == 0 else rng.choice([math.pi / 3, math.pi / 2, 0.3, math.pi / 4])
    units = [random_unit(rng, tilt if u % 2 else 0.0, (rng.randint(0, 40) + (0.37 if seed % 2 else 0),
                                                        rng.randint(0, 40)))
             for u in range(6)]
    units.insert(2, {})  # a unit with no features
    loose = check(units, "hex" if seed % 4 == 3 else "square")
    # the generator makes some openings loose and most not
    assert 0 < sum(map(len, loose)) < sum(
        1 for u in units for fs in u.values() for f in fs if f.kind in ("door", "window", "hole"))


def test_opening_on_no_wall_and_a_level_without_walls():
    units = [{0: [Feature("door", "lone", 0, LineString([(0.5, 0.5), (1.5, 0.5)]), None, {})]},
             {1: [Feature("wall", "w", 1, LineString([(-0.5, 0.5), (4.5, 0.5)]), None, {}),
                  Feature("window", "on", 1, LineString([(0.5, 0.5), (1.5, 0.5)]), None, {}),
                  Feature("window", "beside", 1, LineString([(0.5, 0.6), (1.5, 0.6)]), None, {})]}]
    loose = check(units)
    assert [[f.id for f in lo] for lo in loose] == [["lone"], ["beside"]]


class _Checked:
    """Wraps board_arrays' functions so every compile also runs the reference on copies."""

    def __init__(self, monkeypatch):
        self.calls = 0
        self.loose = 0
        cut, solid = board_arrays.cut_openings, board_arrays.solid_dots

        def checked_cut(units):
            theirs = [{lv: list(fs) for lv, fs in u.items()} for u in units]
            want = [ref_cut(u) for u in theirs]
            got = cut(units)
            assert [[f.id for f in lo] for lo in got] == [[f.id for f in lo] for lo in want]
            for a, b in zip(units, theirs):
                assert_same_units(a, b)
            self.calls += 1
            self.loose += sum(map(len, got))
            return got

        def checked_solid(lat, units):
            got = solid(lat, units)
            for g, u in zip(got, units):
                assert g.tolist() == ref_solid(lat, u).tolist()
            return got

        monkeypatch.setattr(board_arrays, "cut_openings", checked_cut)
        monkeypatch.setattr(board_arrays, "solid_dots", checked_solid)


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml")))
def test_samples_compile_as_before(name, monkeypatch):
    seen = _Checked(monkeypatch)
    board_module._UNITS.clear()
    load_board(ROOT / "scenarios" / name)
    assert seen.calls


def test_benchmark_city_and_a_hex_board_compile_as_before(monkeypatch):
    seen = _Checked(monkeypatch)
    board_module._UNITS.clear()
    lay, sheets = neighbourhood(blocks=3)
    board = compile_board(lay, sheets)
    assert seen.calls and len(board.all_features()) > 500
    # a hex sheet turned by 60 degrees (slanted walls, irrational coordinates), with a door
    # off its walls and one across two walls' corner
    box = ((-0.5, -0.5), (5.5, -0.5), (5.5, 3.5), (-0.5, 3.5))
    ring = (*box, box[0])
    hut = Sheet(id="hut", title="Hut", kind="building", lattice="hex", size=(6, 4), outline=box,
                height=1, levels=(Level(0, walls=(Wall(path=ring), Wall(path=((2.5, -0.5), (2.5, 3.5)))),
                                        doors=(Opening("door", ((2.5, 1.0), (2.5, 2.0))),
                                               Opening("door", ((1.0, 1.0), (2.0, 1.0))),
                                               Opening("door", ((4.5, -0.5), (5.5, 0.5)))),
                                        windows=(Opening("window", ((0.5, -0.5), (1.5, -0.5))),)),
                                  Level(1)))
    pav = Sheet(id="hex-pav", title="Hex pavement", kind="pavement", lattice="hex",
                size=(30, 30), outline=((-0.5, -0.5), (29.5, -0.5), (29.5, 29.5), (-0.5, 29.5)))
    lay = Layout(lattice="hex", pavement=(Placement("hex-pav", (0, 0)),),
                 placements=tuple(Placement("hut", (4 + 7 * i, 5 + 3 * i), rotation=60 * i,
                                            id=f"h{i}") for i in range(4)))
    board_module._UNITS.clear()
    before = seen.calls
    hexb = compile_board(lay, {"hex-pav": pav, "hut": hut})
    assert seen.calls > before
    assert sorted(f.id.split("/")[1] for f in hexb.loose_openings) == ["L0-door-1"] * 4 + ["L0-door-2"] * 4


def test_cached_unit_ids_follow_the_cache(monkeypatch):
    monkeypatch.setattr(board_module, "_UNITS_MAX", 7)
    board_module._UNITS.clear()
    assert cached_unit_ids() == set()
    lay, sheets = neighbourhood(blocks=2)
    compile_board(lay, sheets)
    assert len(board_module._UNITS) == 7
    assert cached_unit_ids() == {id(e[1]) for e in board_module._UNITS.values()}
    key = next(iter(board_module._UNITS))
    del board_module._UNITS[key]
    board_module._UNITS.pop(next(iter(board_module._UNITS)))
    assert cached_unit_ids() == {id(e[1]) for e in board_module._UNITS.values()}
    assert len(cached_unit_ids()) == 5
    board_module._UNITS.clear()
    assert cached_unit_ids() == set()


@pytest.mark.parametrize("seed", [1, 5])
def test_drag_renumbers_only_changed_rows_as_a_fresh_compile(seed, monkeypatch):
    """A board compiled from the previous one numbers its nodes as a fresh compile does,
    also when an edit changes how many dots stand in the changed rows (ids after them shift),
    and its features and links, spliced from the previous board's, are a fresh compile's."""
    from dataclasses import replace
    lay, sheets = neighbourhood(seed=seed, blocks=2)
    rng = random.Random(seed)
    prev = compile_board(lay, sheets)
    shifted = 0
    spliced = []
    splice = board_module._spliced_links

    def spy(prev_board, per_unit):
        got = splice(prev_board, per_unit)
        if len(prev_board._unit_links) == len(per_unit):
            spliced.append(got is not None)
        return got
    monkeypatch.setattr(board_module, "_spliced_links", spy)
    for k in range(10):
        pl = list(lay.placements)
        i = rng.randrange(len(pl))
        if k % 3 == 1:  # onto another building or back: the standable count changes
            pl[i] = replace(pl[i], at=(pl[(i + 1) % len(pl)].at[0] + 1, pl[i].at[1]))
        elif k % 3 == 2 and len(pl) > 3:
            pl.pop(rng.randrange(len(pl)))
        else:
            pl[i] = replace(pl[i], at=(pl[i].at[0] + rng.choice((-1, 1)), pl[i].at[1]))
        lay = replace(lay, placements=tuple(pl))
        board = compile_board(lay, sheets, previous=prev)
        fresh = compile_board(lay, sheets)
        assert board._changed is not None
        assert board._n_nodes == fresh._n_nodes
        assert board._node_grid.dtype == fresh._node_grid.dtype
        assert np.array_equal(board._node_grid, fresh._node_grid)
        assert np.array_equal(board._row_counts, fresh._row_counts)
        assert [board.node_dot(j) for j in range(0, board._n_nodes, 997)] == \
            [fresh.node_dot(j) for j in range(0, fresh._n_nodes, 997)]
        # features and links spliced from the previous board's where a building moved
        assert list(board._features) == list(fresh._features)
        for lv in fresh._features:
            assert board._features[lv] == fresh._features[lv]
            assert np.array_equal(board._unit_offsets[lv], fresh._unit_offsets[lv])
        for name in ("stair_links", "elevator_links", "climb_links", "broken_links"):
            assert getattr(board, name) == getattr(fresh, name), name
        shifted += board._n_nodes != prev._n_nodes
        prev = board
    assert shifted  # some edits changed the count
    assert spliced and all(spliced)  # every move spliced the links


def ref_add_level(self, lv, sheet, t, pid, bidx, clip):
    """The features of one level as compiled before: each line made and clipped on its own."""
    from engine import model as m
    from engine.board import TRUNK_RADIUS, _poly, _wall_props, class_props

    k = lv.level
    d = sheet.defaults if sheet else m.Defaults()

    def fid(x, kind, j):
        return f"{pid}/{x.id or f'L{k}-{kind}-{j}'}"

    def clipped(g):
        if clip is None:
            return g
        return g.intersection(clip) if not clip.covers(g) else g

    for j, w in enumerate(lv.walls):
        g = clipped(LineString(t.apply_many(w.path)))
        if not g.is_empty and g.length > 0:
            self.add(Feature("wall", fid(w, "wall", j), k, g, bidx,
                             _wall_props(w.cls, d.wall, w.exterior, w.note)))
    for kind, items, dflt in (("door", lv.doors, d.door), ("window", lv.windows, d.window),
                              ("hole", lv.holes, None)):
        for j, o in enumerate(items):
            g = clipped(LineString(t.apply_many(o.span)))
            if g.is_empty or g.length == 0:
                continue
            props = {"state": "open" if kind == "hole" else o.state, "note": o.note}
            if dflt is not None:
                props.update(class_props(o.cls, dflt))
            self.add(Feature(kind, fid(o, kind, j), k, g, bidx, props))
    for j, a in enumerate(lv.areas):
        g = clipped(_poly(t.apply_many(a.polygon)))
        if g.is_empty:
            continue
        props = {"note": a.note}
        if a.kind == "obstacle":
            props.update({"cost": 1 if a.cost is None else a.cost,
                          "los": a.los or "interrupts", "standable": a.standable or "on"})
            if a.cls is not None:
                props.update(class_props(a.cls, "average"))
        elif a.kind in ("rubble", "undergrowth"):
            props["cost"] = 1 if a.cost is None else a.cost
        elif a.kind == "dark":
            props["darkness"] = a.darkness or "partial"
        if a.target_modifier is not None:
            props["target_modifier"] = a.target_modifier
        if a.effect:
            props["effect"] = a.effect
        if a.cost is not None:
            props["cost"] = a.cost
        self.add(Feature(a.kind, fid(a, a.kind, j), k, g, bidx, props))
    for j, ln in enumerate(lv.lines):
        g = clipped(LineString(t.apply_many(ln.path)))
        if g.is_empty or g.length == 0:
            continue
        props = {"note": ln.note}
        if ln.kind == "fence":
            props.update(class_props(ln.cls, d.wall))
        elif ln.kind == "low-wall":
            props.update({"cost": 1 if ln.cost is None else ln.cost, "los": ln.los or "interrupts"})
            if ln.cls is not None:
                props.update(class_props(ln.cls, "average"))
        else:
            props["cost"] = {"step": 1, "incline": 1, "contour": 2}[ln.kind] if ln.cost is None else ln.cost
        self.add(Feature(ln.kind, fid(ln, ln.kind, j), k, g, bidx, props))
    for j, tr in enumerate(lv.trees):
        p = Point(t.apply(tr.trunk))
        if clip is not None and not clip.covers(p):
            continue
        base = fid(tr, "tree", j)
        self.add(Feature("trunk", base, k, p.buffer(TRUNK_RADIUS, 8), bidx, {"note": tr.note}))
        if len(tr.canopy) >= 3:
            self.add(Feature("canopy", base + "/canopy", k, _poly(t.apply_many(tr.canopy)),
                             bidx, {"note": tr.note}))
    for kind, items in (("stair", lv.stairs), ("elevator", lv.elevators), ("climb", lv.climbs)):
        for j, s in enumerate(items):
            p = Point(t.apply(s.at))
            if clip is not None and not clip.covers(p):
                continue
            props = {"note": s.note}
            if kind == "elevator":
                props["levels"] = tuple(s.levels)
            else:
                props["to"] = s.to
            if kind == "climb":
                props["assisted"] = s.assisted
            self.add(Feature(kind, fid(s, kind, j), k, p, bidx, props))


def _cut_sheet_layouts():
    """Square and hex layouts with cut pieces (a clip that is no rectangle), turned and
    mirrored placements, walls and areas partly or wholly outside the cut, a wall of no
    length, a bent wall, a fence and a low wall."""
    from engine.model import Area, Climb, Elevator, Line, Piece, Stair
    out = []
    for lattice, rots in (("square", (0, 90, 180, 270)), ("hex", (0, 60, 120, 240))):
        box = ((-0.5, -0.5), (9.5, -0.5), (9.5, 7.5), (-0.5, 7.5))
        lv0 = Level(0, walls=(Wall(path=(*box, box[0]), exterior=True),
                              Wall(path=((4.5, -0.5), (4.5, 3.5), (8.5, 3.5))),
                              Wall(path=((2.5, 2.5), (2.5, 2.5))),
                              Wall(path=((12.5, 0.5), (14.5, 0.5)))),
                    doors=(Opening("door", ((4.5, 0.5), (4.5, 1.5))),
                           Opening("door", ((8.5, 7.5), (11.5, 7.5)))),
                    windows=(Opening("window", ((-0.5, 2.0), (-0.5, 3.0))),),
                    areas=(Area("rubble", ((6, 4), (11, 4), (11, 6), (6, 6))),
                           Area("obstacle", ((1.6, 1.6), (2.4, 1.6), (2.4, 2.4), (1.6, 2.4)),
                                standable="none"),
                           Area("dark", ((20, 20), (21, 20), (21, 21)))),
                    lines=(Line("fence", ((0.5, 5.5), (12.5, 5.5))),
                           Line("low-wall", ((1.0, 6.5), (3.0, 6.5))),
                           Line("step", ((5.0, 6.0), (5.0, 6.0)))),
                    stairs=(Stair((1, 1), 2), Stair((8, 2), 2)),  # the second outside the cut
                    elevators=(Elevator((2, 5), (0, 2)),), climbs=(Climb((9, 6), 2),))
        sheet = Sheet(id="cut", title="Cut", kind="building", lattice=lattice, size=(10, 8),
                      outline=box, height=2, levels=(lv0, Level(2)))
        pav = Sheet(id="pav", title="Pavement", kind="pavement", lattice=lattice, size=(60, 60),
                    outline=((-0.5, -0.5), (59.5, -0.5), (59.5, 59.5), (-0.5, 59.5)))
        pieces = (Piece("half", "cut", ((-0.5, -0.5), (6.3, -0.5), (3.7, 7.5), (-0.5, 7.5))),)
        pls = [Placement("cut", (3 + 14 * i, 4 + 11 * (i % 2)), rotation=r, mirror=bool(i % 2),
                         id=f"c{i}") for i, r in enumerate(rots)]
        pls += [Placement("", (30, 30 + 12 * i), rotation=r, piece="half", id=f"h{i}")
                for i, r in enumerate(rots[:3])]
        lay = Layout(lattice=lattice, pavement=(Placement("pav", (0, 0)),), placements=tuple(pls),
                     pieces=pieces)
        out.append((lay, {"pav": pav, "cut": sheet}))
    return out


@pytest.mark.parametrize("case", range(2))
def test_features_made_at_once_as_one_at_a_time(case, monkeypatch):
    """Lines made for all units in one call and clipped at once equal lines made and clipped
    one at a time: same features, same order, same coordinates (cut pieces, turned, mirrored
    and hex placements, things outside the cut, no-length walls)."""
    lay, sheets = _cut_sheet_layouts()[case]
    board_module._UNITS.clear()
    got = compile_board(lay, sheets)
    board_module._UNITS.clear()
    monkeypatch.setattr(board_module._Compiler, "add_level", ref_add_level)
    want = compile_board(lay, sheets)
    assert got.levels == want.levels
    for lv in want._features:
        assert_same_units({lv: got.features(lv)}, {lv: want.features(lv)})
    assert list(got._features) == list(want._features)
    assert [f.id for f in got.loose_openings] == [f.id for f in want.loose_openings]
    assert np.array_equal(got._stand, want._stand)
    ids = {f.id.split("/", 1)[1] for f in got.all_features()}
    assert "L0-wall-3" not in ids and "L0-wall-2" not in ids  # outside the cut / no length
    stairs = [f.id for f in got.features(0) if f.kind == "stair"]
    assert "h0/L0-stair-0" in stairs and "h0/L0-stair-1" not in stairs and "c0/L0-stair-1" in stairs
    assert any(f.geom.geom_type == "MultiLineString" for f in got.features(0))


@pytest.mark.parametrize("name", ["street-ambush.yaml", "police-station-extraction.yaml"])
def test_sample_features_made_at_once_as_one_at_a_time(name, monkeypatch):
    board_module._UNITS.clear()
    _s, got = load_board(ROOT / "scenarios" / name)
    board_module._UNITS.clear()
    monkeypatch.setattr(board_module._Compiler, "add_level", ref_add_level)
    _s, want = load_board(ROOT / "scenarios" / name)
    assert list(got._features) == list(want._features)
    for lv in want._features:
        assert_same_units({lv: got.features(lv)}, {lv: want.features(lv)})


def _ref_owner(board) -> np.ndarray:
    """Which building holds each dot, found footprint by footprint (the first placed wins)."""
    lat = board.lattice
    cmin, rmin, grid = board._owner_grid
    out = np.full(grid.shape, -1, dtype=np.int64)
    for i, b in enumerate(board.buildings):
        if b.footprint.is_empty:
            continue
        cand = lat.dots_in_box(*b.footprint.bounds)
        pts = lat.points(cand)
        inside = cand[shapely.contains_xy(b.footprint, pts[:, 0], pts[:, 1])]
        rr, cc = inside[:, 1] - rmin, inside[:, 0] - cmin
        free = out[rr, cc] < 0
        out[rr[free], cc[free]] = i
    return out


@pytest.mark.parametrize("case", range(3))
def test_owners_found_at_once_as_footprint_by_footprint(case):
    """Footprints tested in one call give the owner grid the per-footprint loop gave, on
    square and hex boards with overlapping buildings (the first placed keeps the dot)."""
    if case < 2:
        lay, sheets = _cut_sheet_layouts()[case]
        from dataclasses import replace
        pls = list(lay.placements)
        pls.append(replace(pls[0], id="over", at=(pls[0].at[0] + 2, pls[0].at[1] + 1)))
        lay = replace(lay, placements=tuple(pls))
    else:
        lay, sheets = neighbourhood(seed=4, blocks=2)
    board = compile_board(lay, sheets)
    want = _ref_owner(board)
    assert np.array_equal(board._owner_grid[2], want)
    assert len(np.unique(want)) == len(board.buildings) + 1


def grid_unit(rng: random.Random, shift: tuple[float, float]) -> dict[int, list[Feature]]:
    """Axis-parallel walls (rings, straight walls either way round) crowded with openings:
    on them, at their ends and corners, ending on a wall (a T), crossing walls and each
    other, in line with another end to end or overlapping, off by about EPS: the cases the
    cut worked out from coordinates must get exactly as GEOS does, or leave to it."""
    def L(pts):
        return LineString([(x + shift[0], y + shift[1]) for x, y in pts])

    feats: dict[int, list[Feature]] = {}
    for lv in range(rng.randint(1, 3)):
        fs: list[Feature] = []
        w, h = rng.randint(3, 9), rng.randint(3, 9)
        lx, ly = w - 0.5, h - 0.5
        ring = [(-0.5, -0.5), (lx, -0.5), (lx, ly), (-0.5, ly), (-0.5, -0.5)]
        if rng.random() < 0.5:
            ring = ring[::-1]
        fs.append(Feature("wall", f"r{lv}", lv, L(ring), 0, {}))
        xs = [rng.randint(0, w - 2) + 0.5 for _ in range(rng.randint(1, 3))]
        ys = [rng.randint(0, h - 2) + 0.5 for _ in range(rng.randint(0, 2))]
        for k, x in enumerate(xs):
            ends = [(x, -0.5), (x, ly)]
            fs.append(Feature("wall", f"v{lv}-{k}", lv, L(ends[::rng.choice([1, -1])]), 0, {}))
        for k, y in enumerate(ys):
            ends = [(-0.5, y), (lx, y)]
            fs.append(Feature("fence", f"h{lv}-{k}", lv, L(ends[::rng.choice([1, -1])]), 0, {}))
        lines = [(-0.5, "y"), (ly, "y"), (-0.5, "x"), (lx, "x")] + [(x, "x") for x in xs] \
            + [(y, "y") for y in ys]
        for k in range(rng.randint(3, 12)):
            at, axis = rng.choice(lines)
            top = lx if axis == "y" else ly
            s0 = rng.choice([-0.5, -0.5, top - 1, rng.randint(0, int(top)) - 0.5,
                             rng.randint(0, int(top)) + 0.25, rng.choice(xs + ys)])
            s1 = min(s0 + rng.choice([1.0, 1.0, 0.5, 2.0, 1e-7, 3.0]), top + rng.choice([0, 0, 0.5]))
            off = rng.choice([0.0] * 8 + [1e-7, -1e-7, 2e-7, 5e-8, 0.5, 1e-9])
            if rng.random() < 0.25:  # across the line, ending on it or crossing it
                c = rng.choice([s0, s1, (s0 + s1) / 2])
                d = rng.choice([1.0, 0.5, 2e-7])
                a_, b_ = at + off + rng.choice([0.0, -d]), at + off + rng.choice([d, 0.0, d / 2])
                pts = [(c, a_), (c, b_)] if axis == "y" else [(a_, c), (b_, c)]
            else:
                pts = [(s0, at + off), (s1, at + off)] if axis == "y" else [(at + off, s0), (at + off, s1)]
            if rng.random() < 0.5:
                pts = pts[::-1]
            if pts[0] == pts[1]:
                continue
            fs.append(Feature(rng.choice(["door", "window", "hole"]), f"o{lv}-{k}", lv, L(pts), 0, {}))
        rng.shuffle(fs)
        feats[lv] = fs
    return feats


@pytest.mark.parametrize("seed", [*range(30), 1113, 1350])
def test_cuts_worked_out_from_coordinates_are_geos_cuts(seed):
    rng = random.Random(seed)
    units = [grid_unit(rng, (rng.randint(0, 60) + rng.choice([0, 0.37, 1 / 3, 0.1]),
                             rng.randint(0, 60) + rng.choice([0, 0.3]))) for _ in range(5)]
    check(units)
    # and most walls were decided from coordinates (what the check above put to the test)
    fs = [f for u in units for lv, got in u.items() for f in got]
    spans = [(u, lv, f) for u, got in enumerate(units) for lv, fl in got.items() for f in fl
             if f.kind in ("door", "window", "hole")]
    groups = {(u, lv): g for g, (u, lv) in enumerate(dict.fromkeys((u, lv) for u, lv, _ in spans))}
    walls = [(u, lv, f) for u, got in enumerate(units) for lv, fl in got.items() for f in fl
             if f.kind in ("wall", "fence") and (u, lv) in groups]
    assert fs
    order_s = sorted(range(len(spans)), key=lambda i: groups[spans[i][:2]])
    order_w = sorted(range(len(walls)), key=lambda i: groups[walls[i][:2]])
    S = np.array([spans[i][2].geom for i in order_s], dtype=object)
    sg = np.array([groups[spans[i][:2]] for i in order_s])
    W = np.array([walls[i][2].geom for i in order_w], dtype=object)
    wg = np.array([groups[walls[i][:2]] for i in order_w])
    decided, cut, on_wall = board_arrays._cuts_on_coordinates(S, sg, W, wg, len(groups))
    assert decided.mean() > 0.2
    assert any(c is not None for c in cut)
    # the openings it found on a wall's segment are ones the loose test finds there too
    assert on_wall.any() and not (on_wall & ~board_arrays._on_one_segment(S, sg, W, wg)).any()


def test_inside_an_upright_rectangle_settled_on_coordinates_as_geos():
    """Points on, just inside and just outside the sides and corners of upright rectangles
    (and of shapes that are not: a rectangle with a hole, a turned one, a triangle, a box
    with a fifth corner on a side) give what ``shapely.contains_xy`` gives."""
    rng = random.Random(5)
    shapes = [shapely.box(-0.5, -0.5, 9.5, 7.5), shapely.box(0.37, 1 / 3, 12.37, 2.0),
              Polygon([(0, 0), (4, 0), (4, 3), (0, 3)]).buffer(0),
              Polygon([(0, 0), (4, 0), (4, 4), (0, 4)], [[(1, 1), (2, 1), (2, 2), (1, 2)]]),
              shapely.affinity.rotate(shapely.box(0, 0, 4, 2), 30),
              Polygon([(0, 0), (4, 0), (0, 3)]), Polygon([(0, 0), (2, 0), (4, 0), (4, 3), (0, 3)])]
    geoms = np.array(shapes, dtype=object)
    boxes = board_arrays.upright_boxes(geoms)
    assert (~np.isnan(boxes[:, 0])).tolist() == [True, True, True, False, False, False, False]
    xs, ys, which = [], [], []
    for i, s in enumerate(shapes):
        x0, y0, x1, y1 = s.bounds
        for _ in range(300):
            x = rng.choice([x0, x1, rng.uniform(x0, x1), np.nextafter(x0, 9), np.nextafter(x1, -9),
                            np.nextafter(x0, -9), (x0 + x1) / 2, x0 - 1])
            y = rng.choice([y0, y1, rng.uniform(y0, y1), np.nextafter(y0, 9), np.nextafter(y1, -9),
                            np.nextafter(y1, 99), (y0 + y1) / 2])
            xs.append(x)
            ys.append(y)
            which.append(i)
    x, y, w = np.array(xs), np.array(ys), np.array(which)
    want = shapely.contains_xy(geoms[w], x, y)
    assert np.array_equal(board_arrays.contains_xy(geoms[w], boxes[w], x, y), want)
    assert 0 < want.sum() < len(want)
    for i in range(len(shapes)):  # one shape for every point
        mine = w == i
        assert np.array_equal(board_arrays.contains_xy(geoms[i:i + 1], boxes[i:i + 1], x[mine], y[mine]),
                              want[mine])


def test_fresh_ids_of_a_drag_are_a_fresh_compiles():
    """A placement with no id gets ``<sheet>-<n>``, n unused by any other: a board compiled
    from the previous one takes that one's ids in use over when the placements kept their
    ids (a drag), and looks again when one took the id the pavement had been given."""
    from dataclasses import replace
    lay, sheets = neighbourhood(seed=2, blocks=2)
    prev = compile_board(lay, sheets)

    def pave_ids(board):
        return {f.id.split("/")[0] for f in board.all_features() if f.id.startswith("city-pavement")}
    assert pave_ids(prev) == {"city-pavement-1"}
    for k, (i, new_id) in enumerate([(3, None), (5, "city-pavement-1"), (5, None),
                                      (7, "city-pavement-2"), (2, None)]):
        pl = list(lay.placements)
        pl[i] = replace(pl[i], at=(pl[i].at[0] + (-1) ** k, pl[i].at[1]),
                        id=new_id if new_id is not None else pl[i].id)
        lay = replace(lay, placements=tuple(pl))
        board = compile_board(lay, sheets, previous=prev)
        fresh = compile_board(lay, sheets)
        if new_id is None:  # (a pavement given another id is another unit: compiled anew)
            assert board._changed is not None  # compiled from the board before
        assert pave_ids(board) == pave_ids(fresh)
        assert [f.id for f in board.all_features()] == [f.id for f in fresh.all_features()]
        prev = board
    assert "city-pavement-3" in pave_ids(prev)  # (1 and 2 taken by buildings)
