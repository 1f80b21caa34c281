"""The single-line tracer gives the answers it gave before it traced lines in batches and kept
them per pair (issue 12, speed): the tracer as it was is kept here, and both are asked the same
lines on every sample, a generated city and a hex board, every posture and light, with doors
opened and shut, smoke laid and holes blasted, cold and from lines warmed together."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
import shapely

from benchmarks.neighbourhood import neighbourhood
from engine.board import Board, compile_board, fmt_dot
from engine.io.resolve import load_board
from engine.lattice import Dot3
from engine.los import (
    _IGNORE_IF_HOLDS_END,
    _SOLID,
    CANOPY,
    DARK,
    LOW,
    OBST,
    OBST_PRONE,
    OPENING,
    SMOKE,
    VISIBILITY_ORDER,
    LosFacts,
    _building_idx,
    _dot3,
    _Ends,
    _feature_dots,
    _interruption,
    _material,
    _trace,
    dead_zone_depth,
    line_of_sight,
    lines_fan,
    los_fan,
    prims,
    warm_lines,
)
from engine.play.engine_board import EngineBoard, fork_board

ROOT = Path(__file__).resolve().parents[2]
POSTURES = ("standing", "prone", "kneeling")
LIGHTS = ("day", "partial-darkness", "full-darkness")


def _count_holder(P, e: _Ends, fi: int, s0: float, contacts: dict[int, float]) -> None:
    """A polygon holding an end counts as met, as it was worked out (from the line's ends)."""
    k = P.prim_kind_of_feat[fi]
    if k not in (CANOPY, DARK, SMOKE):
        return
    f = P.feats[fi]
    bld = -1 if f.building is None else f.building
    lvl_at = e.la + (e.lb - e.la) * s0
    own = (bld >= 0 and ((bld == e.ba and f.level == e.la) or (bld == int(e.bt[0]) and f.level == e.lb)))
    if k == CANOPY:
        ok = max(e.la, e.lb) > 0 and (bld < 0 or own)
    else:
        ok = own or (bld < 0 and lvl_at < 1.0 - 1e-9)
    if ok and (fi not in contacts or contacts[fi] > s0):
        contacts[fi] = s0


def _block_reason(f, e: _Ends, s: float) -> str:
    if f.kind == "building":
        lvl = e.la + (e.lb - e.la) * s
        return (f"building {f.id} ({f.props.get('height')} stories) stands above the sight line "
                f"(level {lvl:.1f} where it crosses the footprint)")
    if f.kind in ("wall", "fence"):
        return f"{f.props.get('class')} {f.kind} {f.id} blocks the line"
    if f.kind == "trunk":
        return f"tree trunk {f.id} blocks the line"
    return f"{f.kind} {f.id}{' (' + f.props['note'] + ')' if f.props.get('note') else ''} blocks the line"


def _group_ok(f, e: _Ends, b: Dot3) -> bool:
    bidx = -1 if f.building is None else f.building
    return bidx == int(e.bt[0]) or bidx < 0


def _reference_in_dead_zone(board: Board, ground: Dot3, high: Dot3) -> bool:
    """The dead-zone test as it was (worked out on every call)."""
    if high[2] < 2 or ground[2] != 0:
        return False
    bidx = _building_idx(board, high)
    if bidx < 0:
        return False
    if _building_idx(board, ground) == bidx:
        return False
    dots = _feature_dots(board, bidx)
    if not len(dots):
        return False
    d = board.lattice.distances((ground[0], ground[1]), dots).min()
    return bool(d <= dead_zone_depth(high[2]))


def _reference_line_of_sight(
    board: Board, a: Dot3, b: Dot3, *, posture_a: str = "standing", posture_b: str = "standing",
    light: str = "day",
) -> LosFacts:
    """The single-pair tracer as it was before lines were traced in batches and kept."""
    a = _dot3(a)
    b = _dot3(b)
    levels = board.levels
    for d in (a, b):
        if not levels[0] <= d[2] <= levels[-1]:
            from engine.errors import QueryError
            raise QueryError(f"dot {fmt_dot(d)} is on level {d[2]}, but this layout has levels "
                             f"{board.levels[0]}..{board.levels[-1]}")
    P = prims(board)
    lat = board.lattice
    rng = lat.distance(a[:2], b[:2])
    oa = np.array(board.dot_point(a))
    tb = np.array(board.dot_point(b))
    e = _Ends(oa, a[2], _building_idx(board, a), tb[None, :], b[2],
              np.array([_building_idx(board, b)]), prone="prone" in (posture_a, posture_b))
    facts = LosFacts(a, b, rng, False, None, [], [], abs(a[2] - b[2]), False, 0,
                     posture_a, posture_b, light, span=round(float(np.hypot(*(tb - oa))), 6),
                     ends=((float(oa[0]), float(oa[1])), (float(tb[0]), float(tb[1]))))
    # floors between levels of one building
    if e.ba >= 0 and e.ba == e.bt[0] and a[2] != b[2]:
        gap = abs(a[2] - b[2])
        stair = board.is_stair_dot(a) or board.is_stair_dot(b)
        if gap > 1 or not stair:
            why = ("the floors between levels more than one apart block it" if gap > 1
                   else "the floor between the levels blocks it (neither end is on a stair dot)")
            facts.blocked = True
            facts.blocked_by = {"kind": "floor", "feature": board.buildings[e.ba].placement_id,
                                "point": list(board.dot_point(a)), "reason": why}
        else:
            facts.interruptions.append({"kind": "stairs", "feature": None,
                                        "reason": "target on a stair dot one level away"})
    # dead zone
    for ground, high in ((a, b), (b, a)):
        if _reference_in_dead_zone(board, ground, high):
            facts.dead_zone = True
            if not facts.blocked:
                bl = board.building_of(high)
                facts.blocked = True
                facts.blocked_by = {
                    "kind": "dead-zone", "feature": bl.placement_id if bl else None,
                    "point": list(board.dot_point(ground)),
                    "reason": f"{fmt_dot(ground)} lies within {dead_zone_depth(high[2])} dots of "
                              f"the base of the building whose level {high[2]} holds the other end "
                              f"(dead zone: half the stories, rounded down)",
                }
    # geometry
    prim = P.near_box(min(oa[0], tb[0]), min(oa[1], tb[1]), max(oa[0], tb[0]), max(oa[1], tb[1]))
    if len(prim):
        # cheap cull before the exact test: keep segments whose ends straddle (or touch) the
        # sight line's supporting line; the envelope query returns many more than meet it
        rx, ry = tb[0] - oa[0], tb[1] - oa[1]
        pp, qq = P.p[prim], P.q[prim]
        d3 = rx * (pp[:, 1] - oa[1]) - ry * (pp[:, 0] - oa[0])
        d4 = rx * (qq[:, 1] - oa[1]) - ry * (qq[:, 0] - oa[0])
        tol = 1e-9 * (abs(rx) + abs(ry) + 1.0) * (np.abs(qq - pp).sum(axis=1) + 1.0)
        prim = prim[(d3 * d4 <= 0) | (np.abs(d3) <= tol) | (np.abs(d4) <= tol)]
    tgt = np.zeros(len(prim), dtype=np.int64)
    seg = None if P.fol_tree is None else \
        shapely.LineString([oa, tb]) if rng or a[2] != b[2] else shapely.Point(oa)
    cells = (np.asarray(P.fol_tree.query(seg), dtype=np.int64) if P.fol_tree is not None
             else np.zeros(0, dtype=np.int64))
    prim, tgt, s, fol = _trace(P, e, prim, tgt, cells, np.zeros(len(cells), dtype=np.int64))
    holds_a, holds_b = P.holding(tuple(oa)), P.holding(tuple(tb))
    held = set(holds_a.tolist()) | set(holds_b.tolist())
    contacts: dict[int, float] = {}
    for pi, si in zip(prim, s):
        fi = int(P.owner[pi])
        if fi in contacts and contacts[fi] <= si:
            continue
        contacts[fi] = float(si)
    # polygons that hold an end: obstacles you stand on are ignored, canopies/dark/smoke count
    for fi in list(contacts):
        if fi in held and P.prim_kind_of_feat[fi] in _IGNORE_IF_HOLDS_END and \
                P.feats[fi].geom.geom_type in ("Polygon", "MultiPolygon"):
            contacts.pop(fi)
    for fi, s0 in ((int(f), 0.0) for f in holds_a):
        _count_holder(P, e, fi, s0, contacts)
    for fi, s0 in ((int(f), 1.0) for f in holds_b):
        _count_holder(P, e, fi, s0, contacts)

    blockers = sorted((s0, fi) for fi, s0 in contacts.items()
                      if P.prim_kind_of_feat[fi] in _SOLID)
    if blockers and not facts.blocked:
        s0, fi = blockers[0]
        f = P.feats[fi]
        pt = oa + (tb - oa) * s0
        facts.blocked = True
        facts.blocked_by = {"kind": f.kind, "feature": f.id, "point": [round(float(pt[0]), 3),
                                                                        round(float(pt[1]), 3)],
                            "reason": _block_reason(f, e, s0), **_material(f)}
    for _s0, fi in sorted((s0, fi) for fi, s0 in contacts.items()):
        f = P.feats[fi]
        if f.kind in ("wall", "fence", "door", "window"):  # along: dot spacings from a
            facts.barriers.append({"kind": f.kind, "feature": f.id, **_material(f),
                                   "along": round(float(_s0) * float(facts.span or 0.0), 4)})
    visibility = set()
    if light in ("partial-darkness", "full-darkness"):
        visibility.add(light)
    for _s0, fi in sorted((s0, fi) for fi, s0 in contacts.items()):
        f = P.feats[fi]
        k = P.prim_kind_of_feat[fi]
        if k in (OPENING, OBST, OBST_PRONE, LOW, CANOPY):
            facts.interruptions.append(_interruption(f, tb, k))
        elif k == DARK:
            visibility.add("full-darkness" if f.props.get("darkness") == "full" else "partial-darkness")
        elif k == SMOKE:
            visibility.add("smoke")
    seen_cells: set[int] = set()
    for ci, _cs in sorted(zip(fol[0].tolist(), fol[2].tolist()), key=lambda x: x[1]):
        if ci in seen_cells:
            continue
        seen_cells.add(ci)
        f = P.feats[int(P.fol_feat[ci])]
        x, y = P.fol_xy[ci]
        facts.interruptions.append({"kind": "foliage", "feature": f.id,
                                    "reason": f"foliage dot {board.lattice.dot_at((x, y))} crossed",
                                    "adjacent": False})
    facts.visibility = sorted(visibility, key=VISIBILITY_ORDER.index)
    # the target's situation
    tm = 0
    for fi in holds_b:
        f = P.feats[int(fi)]
        if f.props.get("target_modifier") and f.level == b[2] and _group_ok(f, e, b):
            tm += int(f.props["target_modifier"])
    facts.target_modifier = tm
    return facts


def _dots(board: Board) -> list[Dot3]:
    return [(int(c), int(r), lv) for lv in board.levels for c, r in board.dots(lv)]


def _pairs(board: Board, rng: random.Random, n: int) -> list[tuple[Dot3, Dot3]]:
    """Random pairs: far and near, the same dot, other levels, both ways."""
    dots = _dots(board)
    out = []
    for _ in range(n):
        a = rng.choice(dots)
        kind = rng.random()
        if kind < 0.15:  # a neighbour or the same dot, on any level
            b = (a[0] + rng.randint(-1, 1), a[1] + rng.randint(-1, 1), rng.choice(board.levels))
            if not board.standable(b):
                b = a
        else:
            b = rng.choice(dots)
        out.append((a, b))
        if rng.random() < 0.3:
            out.append((b, a))
    return out


def _agree(board: Board, rng: random.Random, n: int, warm: bool) -> int:
    pairs = _pairs(board, rng, n)
    if warm:  # traced together first, answered from what is kept
        warm_lines(board, rng.sample(pairs, len(pairs) // 2))
    checked = 0
    for a, b in pairs:
        for _ in range(2):  # the second ask with other postures comes from what is kept
            pa, pb, light = rng.choice(POSTURES), rng.choice(POSTURES), rng.choice(LIGHTS)
            got = line_of_sight(board, a, b, posture_a=pa, posture_b=pb, light=light)
            want = _reference_line_of_sight(board, a, b, posture_a=pa, posture_b=pb, light=light)
            assert got == want, (a, b, pa, pb, light)
            checked += 1
    return checked


def _blocked_some(results: list[LosFacts]) -> None:
    assert any(f.blocked for f in results) and any(not f.blocked for f in results)


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml")))
def test_single_line_as_before_on_samples(name):
    scen, board = load_board(ROOT / "scenarios" / name)
    rng = random.Random(len(name))
    assert _agree(board.fork(), rng, 150, warm=False) >= 300
    assert _agree(board.fork(), rng, 150, warm=True) >= 300


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml")))
def test_single_line_as_before_in_play(name):
    """Doors and windows opened and shut (the primitives patched in place: what a line meets
    is kept across them), smoke laid and a barrier blasted open (new primitives)."""
    scen, board = load_board(ROOT / "scenarios" / name)
    rng = random.Random(7 + len(name))
    view = EngineBoard(fork_board(board), light=scen.light, ruleset=scen.ruleset)
    b = view.board
    _agree(b, rng, 60, warm=True)
    openings = sorted(f.id for f in b.all_features() if f.kind in ("door", "window"))
    for fid in rng.sample(openings, min(6, len(openings))):
        state = b.feature(fid).props.get("state", "open")
        view.set_opening(fid, "open" if state == "closed" else "closed")
        assert _agree(b, rng, 40, warm=True) >= 80
    dots = _dots(b)
    view.add_smoke([rng.choice(dots) for _ in range(6)])
    assert _agree(b, rng, 60, warm=True) >= 120
    walls = sorted((f for f in b.all_features() if f.kind == "wall"), key=lambda f: f.id)
    wall = rng.choice(walls)
    pt = wall.geom.representative_point()
    view.open_hole(f"{wall.id}@{round(pt.x * 2) / 2:g},{round(pt.y * 2) / 2:g}")
    assert any(f.kind == "hole" for f in b.overlay.values())
    assert _agree(b, rng, 60, warm=False) >= 120


def _city():
    """A generated city with street furniture of every kind sight cares about scattered on it
    (obstacles that hide only the prone, foliage, dark, smoke, a bright-lights modifier)."""
    from dataclasses import replace

    from engine.model import Area

    lay, sheets = neighbourhood(seed=3, blocks=2)
    rng = random.Random(8)
    extra = []
    for i in range(40):
        x, y = rng.uniform(0, 40), rng.uniform(0, 40)
        box = ((x, y), (x + rng.uniform(0.6, 3), y), (x + rng.uniform(0.6, 3), y + 1.4), (x, y + 1.4))
        kind = ("obstacle", "foliage", "dark", "smoke", "modifier")[i % 5]
        extra.append(Area(kind, box, los="interrupts-prone" if kind == "obstacle" else None,
                          darkness="full" if i % 10 == 2 else None,
                          target_modifier=1 if kind == "modifier" else None, id=f"x{i}"))
    return replace(lay, extras=replace(lay.extras, areas=lay.extras.areas + tuple(extra))), sheets


def _hex_board() -> Board:
    from engine.model import Layout, Placement, Sheet
    from tests.engine.test_movement_graph_arrays import hex_hut

    pav = Sheet(id="hex-pav", title="Hex pavement", kind="pavement", lattice="hex",
                size=(30, 24), outline=((-0.5, -0.5), (30.0, -0.5), (30.0, 22.5), (-0.5, 22.5)))
    lay = Layout(lattice="hex", pavement=(Placement("hex-pav", (0, 0)),),
                 placements=(Placement("hut", (6, 4), id="h1"), Placement("hut", (16, 10), id="h2"),
                             Placement("hut", (4, 14), id="h3")))
    return compile_board(lay, {"hex-pav": pav, "hut": hex_hut()})


def test_single_line_as_before_on_a_city():
    lay, sheets = _city()
    board = compile_board(lay, sheets)
    rng = random.Random(5)
    assert _agree(board, rng, 300, warm=True) >= 600
    results = [line_of_sight(board, a, b) for a, b in _pairs(board, rng, 100)]
    _blocked_some(results)


def test_single_line_as_before_on_a_hex_board():
    assert _agree(_hex_board(), random.Random(9), 200, warm=True) >= 400


def test_warm_lines_are_kept_per_pair_and_change_nothing():
    """Lines warmed together are the ones a single query then finds kept (no second trace),
    and the same pair asked cold on a fresh board gives equal facts."""
    _scen, board = load_board(ROOT / "scenarios" / "street-ambush.yaml")
    warm, cold = board.fork(), board.fork()
    rng = random.Random(3)
    pairs = _pairs(warm, rng, 80)
    warm_lines(warm, pairs)
    kept = prims(warm).__dict__["_lines"]
    assert all(p in kept for p in pairs)
    n = len(kept)
    for a, b in pairs:
        assert line_of_sight(warm, a, b, posture_b="prone") == \
            line_of_sight(cold, a, b, posture_b="prone")
    assert len(kept) == n


def _fans_agree(board: Board, rng: random.Random, origins: int) -> int:
    """lines_fan equals los_fan to the same targets: blocked everywhere, and cover,
    visibility and closed doors where the line is not blocked."""
    dots = _dots(board)
    checked = 0
    for _ in range(origins):
        a = rng.choice(dots)
        lv = rng.choice(board.levels)
        level_dots = board.dots(lv)
        if not len(level_dots):
            continue
        pick = level_dots[rng.sample(range(len(level_dots)), min(40, len(level_dots)))]
        if rng.random() < 0.5 and lv == a[2]:  # the origin among the targets: dropped by both
            pick = np.vstack([pick, [a[:2]]])
        want = los_fan(board, a, radius=1 << 20, level=lv, targets=pick)
        got = lines_fan(board, a, lv, pick)
        assert np.array_equal(got.dots, want.dots)
        assert np.array_equal(got.blocked, want.blocked), a
        live = ~want.blocked
        for name in ("cover", "visibility", "closed_doors"):
            assert np.array_equal(getattr(got, name)[live], getattr(want, name)[live]), (a, name)
        checked += len(got.dots)
    return checked


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml")))
def test_lines_fan_equals_the_fan_on_samples(name):
    scen, board = load_board(ROOT / "scenarios" / name)
    rng = random.Random(11 + len(name))
    view = EngineBoard(fork_board(board), light=scen.light, ruleset=scen.ruleset)
    b = view.board
    assert _fans_agree(b, rng, 12) > 200
    openings = sorted(f.id for f in b.all_features() if f.kind in ("door", "window"))
    for fid in rng.sample(openings, min(4, len(openings))):
        state = b.feature(fid).props.get("state", "open")
        view.set_opening(fid, "open" if state == "closed" else "closed")
    view.add_smoke([rng.choice(_dots(b)) for _ in range(8)])
    assert _fans_agree(b, rng, 12) > 200


def test_lines_fan_equals_the_fan_on_a_city_and_a_hex_board():
    lay, sheets = _city()
    assert _fans_agree(compile_board(lay, sheets), random.Random(2), 30) > 600
    assert _fans_agree(_hex_board(), random.Random(3), 30) > 600
