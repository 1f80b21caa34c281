"""The fan and the exact single-pair tracer agree, on the sample scenarios and on a benchmark
city, from random origins to random levels (issue 11: the fan takes its targets and sight
segments from around the origin only, and must still answer exactly as the tracer does)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from benchmarks.neighbourhood import neighbourhood
from engine.board import Board, compile_board
from engine.io.resolve import load_board
from engine.los import line_of_sight, los_fan
from tests.engine.test_movement_graph_arrays import hex_hut

ROOT = Path(__file__).resolve().parents[2]


def _origins(board: Board, rng: random.Random, k: int) -> list[tuple[int, int, int]]:
    out = []
    for _ in range(k):
        lv = rng.choice(board.levels)
        dots = board.dots(lv)
        if len(dots):
            c, r = dots[rng.randrange(len(dots))]
            out.append((int(c), int(r), lv))
    return out


def _agree(board: Board, seed: int, origins: int = 4, targets: int = 60) -> int:
    rng = random.Random(seed)
    checked = 0
    for a in _origins(board, rng, origins):
        lv = rng.choice(board.levels)
        radius = rng.choice((6, 15, 40))
        fan = los_fan(board, a, radius=radius, level=lv)
        # the same fan, its targets given: no window, no cached holders
        whole = board.dots(lv)
        tg = whole[board.lattice.distances(a[:2], whole) <= radius] if len(whole) else whole
        tg = tg[~((tg[:, 0] == a[0]) & (tg[:, 1] == a[1]) & (lv == a[2]))]
        given = los_fan(board, a, radius=radius, level=lv, targets=tg)
        assert np.array_equal(fan.dots, given.dots)
        for name in ("blocked", "cover", "visibility", "closed_doors"):
            assert np.array_equal(getattr(fan, name), getattr(given, name)), name
        half = los_fan(board, a, radius=radius, level=lv, targets=tg[::2])  # the targets asked
        assert np.array_equal(half.dots, fan.dots[::2])
        for name in ("blocked", "cover", "visibility", "closed_doors"):
            assert np.array_equal(getattr(half, name), getattr(fan, name)[::2]), name
        for i in rng.sample(range(len(fan.dots)), min(targets, len(fan.dots))):
            b = (int(fan.dots[i, 0]), int(fan.dots[i, 1]), lv)
            f = line_of_sight(board, a, b)
            assert bool(fan.blocked[i]) == f.blocked, (a, b)
            if not f.blocked:
                assert int(fan.cover[i]) == f.cover, (a, b)
            checked += 1
    return checked


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml")))
def test_fan_agrees_with_tracer_on_samples(name):
    _scen, board = load_board(ROOT / "scenarios" / name)
    _agree(board, seed=len(name))


def test_fan_agrees_with_tracer_on_benchmark_city():
    lay, sheets = neighbourhood(seed=3, blocks=2)
    board = compile_board(lay, sheets)
    assert _agree(board, seed=1, origins=8) > 200


def test_doors_patched_in_place_answer_as_a_rebuild():
    """Opening and shutting doors patches the movement graph and sight primitives of a fork
    (no rebuild): they must equal the ones built from scratch for the same state."""
    from engine.los import prims
    from engine.movement import build_graph

    lay, sheets = neighbourhood(seed=4, blocks=2)
    board = compile_board(lay, sheets)
    g0, p0 = build_graph(board), prims(board)
    play = board.fork()
    rng = random.Random(2)
    doors = [f for f in board.all_features() if f.kind in ("door", "window")]
    for f in rng.sample(doors, 30):
        play.set_state(f.id, "closed" if f.props.get("state") != "closed" else "open", patch=True)
    g1, p1 = build_graph(play), prims(play)
    # patched, not rebuilt: the core's roof drops are the parent's own arrays
    assert g1 is not g0 and p1 is not p0 and g1.core.d_key is g0.core.d_key
    fresh = play.fork()
    fresh.invalidate()
    g2, p2 = build_graph(fresh), prims(fresh)
    assert np.array_equal(g1.extra, g2.extra) and dict(g1.why) == dict(g2.why)
    assert np.array_equal(g1.core.ext, g2.core.ext)
    assert [f.props.get("state") for f in p1.feats] == [f.props.get("state") for f in p2.feats]
    assert np.array_equal(p1.feat_closed_door, p2.feat_closed_door)
    # the parent board kept its own tables
    assert build_graph(board) is g0 and prims(board) is p0
    # a fan a drag far away handed over is dropped where a door then changed
    from dataclasses import replace

    from engine.los import prims as prims_of

    tried = 0
    for f in rng.sample(doors, 12):
        a = (*board.lattice.dot_at(tuple(f.geom.centroid.coords[0])), f.level)
        if not board.standable(a):
            continue
        los_fan(board, a, radius=8)
        for b in sorted(board.buildings, key=lambda b: -b.footprint.centroid.distance(f.geom)):
            pl = [replace(p, at=(p.at[0] + 1, p.at[1])) if p.id == b.placement_id else p
                  for p in lay.placements]
            dragged = compile_board(replace(lay, placements=tuple(pl)), sheets, previous=board)
            if dragged._owner_grid[:2] == board._owner_grid[:2]:
                break  # (a move that grows the map's bounds rebuilds every cache)
        assert (a, a[2], 8) in prims_of(dragged)._fans_carried
        fork = dragged.fork()
        fork.set_state(f.id, "closed" if f.props.get("state") != "closed" else "open", patch=True)
        clean = fork.fork()
        clean.invalidate()
        got, want = los_fan(fork, a, radius=8), los_fan(clean, a, radius=8)
        for name in ("dots", "blocked", "cover", "visibility", "closed_doors"):
            assert np.array_equal(getattr(got, name), getattr(want, name)), (f.id, name)
        tried += 1
    assert tried >= 3
    assert _agree(play, seed=3, origins=4) > 100


def test_prims_patched_after_a_drag_equal_a_rebuild():
    """A board compiled from the previous one (the editor's drag) patches that one's sight
    primitives when the changed buildings keep their shape (moved): the same arrays, features
    and bucket grid as primitives built from scratch, and the same fans; a building added or
    removed rebuilds them."""
    from dataclasses import replace

    from engine.los import _Prims, prims

    lay, sheets = neighbourhood(seed=9, blocks=2)
    rng = random.Random(4)
    prev = compile_board(lay, sheets)
    p_prev = prims(prev)
    patched = 0
    for k in range(8):
        pl = list(lay.placements)
        i = rng.randrange(len(pl))
        if k == 5:
            pl.append(replace(pl[i], id="added", at=(pl[i].at[0] + 2, pl[i].at[1] + 1)))
        else:
            pl[i] = replace(pl[i], at=(pl[i].at[0] + rng.choice((-1, 1, 2)), pl[i].at[1]))
        lay = replace(lay, placements=tuple(pl))
        board = compile_board(lay, sheets, previous=prev)
        p = prims(board)
        patched += p.owner is p_prev.owner  # the arrays no move changes are shared
        fresh = compile_board(lay, sheets)
        f = _Prims(fresh)
        for name in ("p", "q", "owner", "kind", "feat_building", "feat_level", "feat_height",
                     "feat_closed_door", "poly_feats", "fol_xy", "fol_feat", "prim_kind_of_feat"):
            assert np.array_equal(getattr(p, name), getattr(f, name)), name
        assert len(p.feats) == len(f.feats) and all(a == b for a, b in zip(p.feats, f.feats))
        for name in ("seg", "start", "origin", "shape", "c0", "c1"):
            assert np.array_equal(getattr(p.grid, name), getattr(f.grid, name)), name
            assert np.array_equal(getattr(p.poly_index.grid, name),
                                  getattr(f.poly_index.grid, name)), name
        assert all(a is b.geom for a, b in zip(p.poly_index.geoms, (p.feats[i] for i in p.poly_feats)))
        for _ in range(3):
            d = board.dots(0)
            o = (*map(int, d[rng.randrange(len(d))]), 0)
            a, b = los_fan(board, o, radius=25), los_fan(fresh, o, radius=25)
            assert np.array_equal(a.dots, b.dots) and np.array_equal(a.blocked, b.blocked)
            assert np.array_equal(a.cover, b.cover)
        prev, p_prev = board, p
    assert patched == 7  # every move patched; the added building rebuilt


def _no_raster(board, a, ba, dots, bt):
    return np.zeros(len(dots), dtype=bool)


@pytest.mark.parametrize("blocks,seed", [(2, 3), (3, 8)])
def test_raster_pre_pass_changes_no_answer(blocks, seed, monkeypatch):
    """The raster pre-pass (tcod's permissive FOV over building interiors) only skips
    targets the exact tracer calls blocked: every fan equals the fan traced without it, and
    each target it proves blocked is blocked for line_of_sight too."""
    from engine import los

    lay, sheets = neighbourhood(seed=seed, blocks=blocks)
    board = compile_board(lay, sheets)
    rng = random.Random(seed)
    proved = 0
    for a in _origins(board, rng, 14):
        radius = rng.choice((20, 40, 75))
        fan = los_fan(board, a, radius=radius)
        bt = board.buildings_at(fan.dots)
        hb = np.array([b.height for b in board.buildings] + [0], dtype=np.int64)
        bt = np.where((bt >= 0) & (hb[bt] >= a[2]), bt, -1)
        ba = -1 if board.building_of(a) is None else board.building_of(a).index
        skip = los.raster_blocked(board, a, ba, fan.dots, bt)
        assert not (skip & ~fan.blocked).any(), a
        for i in rng.sample(list(np.nonzero(skip)[0]), min(25, int(skip.sum()))):
            b = (int(fan.dots[i, 0]), int(fan.dots[i, 1]), a[2])
            assert line_of_sight(board, a, b).blocked, (a, b)
        proved += int(skip.sum())
        with monkeypatch.context() as m:
            m.setattr(los, "raster_blocked", _no_raster)
            traced = los_fan(board, a, radius=radius)
        for name in ("dots", "blocked", "cover", "visibility", "closed_doors"):
            assert np.array_equal(getattr(fan, name), getattr(traced, name)), (a, name)
    assert proved > 1000  # street origins behind blocks of houses: most targets are proved


def _holder_pairs(board: Board, a: tuple[int, int, int], lv: int, radius: int) -> set:
    from engine.los import _level_window, _target_holders, prims

    dots, kept = _level_window(board, lv, a, radius)
    hf, ht = _target_holders(prims(board), board, dots, lv, kept)
    return {(int(f), int(dots[t, 0]), int(dots[t, 1])) for f, t in zip(hf, ht)}


def _fans_after_drags(lay, sheets, moves, rng: random.Random, radius: int
                     ) -> tuple[int, int, int, int]:
    """Drag buildings about (each board compiled from the previous one, whose fans filled
    their caches first) and compare every fan and its target holders on the dragged board
    with those on a board compiled from scratch, the previous board's fans included (some are
    handed over).  Returns (tiles taken over as they were, tiles dropped or patched near a
    move, fans handed over, fans asked)."""
    from dataclasses import replace

    from engine.los import prims

    prev = compile_board(lay, sheets)
    carried = dropped = fans_carried = fans_asked = 0
    for _ in range(moves):
        asked = []
        for a in _origins(prev, rng, 3):  # fill the previous board's caches
            for lv in {a[2], 0, 1}:
                los_fan(prev, a, radius=radius, level=lv)
                asked.append((a, lv))
        pl = list(lay.placements)
        k = rng.randrange(len(pl))
        pl[k] = replace(pl[k], at=(pl[k].at[0] + rng.choice((-1, 1, 2)),
                                   pl[k].at[1] + rng.choice((0, 1, -1, 2))))
        lay = replace(lay, placements=tuple(pl))
        board = compile_board(lay, sheets, previous=prev)
        fresh = compile_board(lay, sheets)
        before = prims(prev).__dict__.get("_level_holders", {})
        now = prims(board).__dict__.get("_level_holders", {})
        carried += sum(1 for k, v in now.items() if before.get(k) is v)
        dropped += sum(1 for k, v in before.items() if now.get(k) is not v)  # redone or patched
        moved = board.buildings[k].footprint.centroid
        near = (*board.lattice.dot_at((moved.x, moved.y)), 0)
        fans_carried += len(prims(board).__dict__.get("_fans_carried", {}))
        fans_asked += len(asked)
        pairs = [(a, lv) for a in [near] + _origins(fresh, rng, 4) if board.standable(a)
                 for lv in {a[2], 0, 1}]
        for a, lv in asked + pairs:
            got, want = los_fan(board, a, radius=radius, level=lv), \
                los_fan(fresh, a, radius=radius, level=lv)
            for name in ("dots", "blocked", "cover", "visibility", "closed_doors"):
                assert np.array_equal(getattr(got, name), getattr(want, name)), (a, lv, name)
            assert _holder_pairs(board, a, lv, radius) == _holder_pairs(fresh, a, lv, radius)
        prev = board
    return carried, dropped, fans_carried, fans_asked


def test_fans_on_a_dragged_city_equal_fans_on_a_fresh_board():
    """A dragged board takes over its parent's fan caches (target-holder tiles away from the
    move, rasters of the buildings that stayed): its fans, to its own level and others, equal
    those on the same layout compiled from scratch."""
    lay, sheets = neighbourhood(seed=5, blocks=3)
    carried, dropped, handed, asked = _fans_after_drags(lay, sheets, 6, random.Random(11),
                                                        radius=40)
    assert carried > 0 and dropped > 0  # tiles were taken over, and those near a move were not
    assert 0 < handed < asked  # so were the fans away from the move, not those near it


def test_fans_on_a_dragged_hex_board_equal_fans_on_a_fresh_board():
    from engine.model import Area, Layout, Level, Placement, Sheet

    hut = hex_hut()
    pav = Sheet(id="hex-pav", title="Hex pavement", kind="pavement", lattice="hex",
                size=(80, 44), outline=((-0.5, -0.5), (80.0, -0.5), (80.0, 42.5), (-0.5, 42.5)),
                levels=(Level(0, areas=tuple(
                    Area("obstacle", ((x, y), (x + 2.5, y), (x + 2.5, y + 1.5), (x, y + 1.5)),
                         cost=2, standable="on") for x in range(3, 75, 9) for y in (2, 20, 37))),))
    lay = Layout(lattice="hex", pavement=(Placement("hex-pav", (0, 0)),),
                 placements=tuple(Placement("hut", at, id=f"h{i}") for i, at in enumerate(
                     ((6, 4), (40, 10), (20, 30), (62, 26), (70, 6)))))
    carried, dropped, handed, asked = _fans_after_drags(lay, {"hex-pav": pav, "hut": hut}, 6,
                                                        random.Random(3), radius=30)
    assert carried > 0 and dropped > 0 and 0 < handed < asked


@pytest.mark.parametrize("over_max", [4096, 40])
def test_patched_feature_list_made_on_first_use_equals_a_rebuild(over_max, monkeypatch):
    """Primitives patched drag after drag without anyone reading their feature list keep the
    changed features over their parent's list; ``feat(i)`` and the list made on first use
    are a fresh build's (also when the changes kept over a list outgrow ``_FEATS_OVER_MAX``
    and a list is made on the way)."""
    from dataclasses import replace

    from engine import los
    from engine.los import _Prims, prims

    monkeypatch.setattr(los, "_FEATS_OVER_MAX", over_max)
    lay, sheets = neighbourhood(seed=2, blocks=2)
    rng = random.Random(6)
    prev = compile_board(lay, sheets)
    prims(prev)
    lazy = 0
    for _k in range(6):
        pl = list(lay.placements)
        i = rng.randrange(len(pl))
        pl[i] = replace(pl[i], at=(pl[i].at[0] + rng.choice((-1, 1)), pl[i].at[1]))
        lay = replace(lay, placements=tuple(pl))
        board = compile_board(lay, sheets, previous=prev)
        p = prims(board)
        lazy += "feats" not in p.__dict__
        want = _Prims(compile_board(lay, sheets)).feats
        assert [p.feat(k) for k in range(len(want))] == want
        assert p.feat(np.int64(len(want) - 1)) == want[-1]
        prev = board
    assert lazy == 6  # nobody read a list: none was made
    assert prims(prev).feats == want and "feats" in prims(prev).__dict__
