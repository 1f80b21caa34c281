"""The first drag after a cold build reads only the near buildings' crossings.

A cold build computes the crossings of all buildings of a level together (one batch); a drag
then takes out the rows of the buildings near the window it redoes and leaves the rest in the
batch.  These tests check that the graphs it gives are, array for array, the ones a build from
scratch gives (first drag, drags in a row, undo, a fresh compile reading half-taken batches),
and that a unit's rows taken out are exactly its rows of the batch, in the batch's order.
"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from benchmarks.neighbourhood import neighbourhood
from engine import board as board_module
from engine import movement
from engine.board import compile_board
from engine.los import los_fan, prims
from engine.movement import _Batch, _LevelHits, _units_hits, build_graph
from tests.engine.test_movement_graph_arrays import _same, _same_graph


def _cold(blocks: int = 2, seed: int = 7):
    """A city compiled and given its graph with nothing cached: every unit in a batch."""
    board_module._UNITS.clear()
    movement._UNIT_HITS.table.clear()
    lay, sheets = neighbourhood(seed=seed, blocks=blocks)
    board = compile_board(lay, sheets)
    build_graph(board)
    return lay, sheets, board


def _pending(board) -> int:
    """How many of the board's units still have a level in a batch."""
    return sum(1 for uh in _units_hits(board.lattice, board.unit_features()) if uh.pending)


def _moved(lay, i: int, dc: int, dr: int = 0):
    pl = list(lay.placements)
    pl[i] = replace(pl[i], at=(pl[i].at[0] + dc, pl[i].at[1] + dr))
    return replace(lay, placements=tuple(pl))


def test_first_drag_takes_out_only_near_units_and_equals_a_fresh_build():
    lay, sheets, cold = _cold(blocks=3)
    n_units = sum(1 for u in cold.units if u)  # a unit with no level is in no batch
    assert _pending(cold) == n_units  # the cold build read its batches whole
    lay2 = _moved(lay, 5, 1)
    board = compile_board(lay2, sheets, previous=cold)
    g = build_graph(board)
    assert board._changed is not None
    left = _pending(board)
    # only the buildings near the moved one were taken out of their batches
    assert 0 < n_units - left < n_units // 3, (n_units, left)
    fresh = compile_board(lay2, sheets)  # reads the half-taken batches: the rest whole
    _same_graph(g, build_graph(fresh))
    _same(board)


def test_drags_in_a_row_and_undo_equal_fresh_builds():
    lay, sheets, cold = _cold(seed=9)
    rng = random.Random(4)
    prev, first = cold, build_graph(cold)
    layouts = [lay]
    for k in range(6):
        i = rng.randrange(len(lay.placements)) if k % 2 else 5
        lay = _moved(lay, i, rng.choice((-1, 1, 2)), rng.choice((0, 1)))
        layouts.append(lay)
        board = compile_board(lay, sheets, previous=prev)
        _same_graph(build_graph(board), build_graph(compile_board(lay, sheets)))
        prev = board
    # undo every drag, one at a time, back to the first layout
    for lay in reversed(layouts[:-1]):
        board = compile_board(lay, sheets, previous=prev)
        _same_graph(build_graph(board), build_graph(compile_board(lay, sheets)))
        prev = board
    _same_graph(build_graph(prev), first)
    _same(prev)


def test_first_drag_next_to_the_fan_gives_the_fresh_fan():
    lay, sheets, cold = _cold(seed=3)
    prims(cold)
    origin = next((int(c), int(r), 0) for c, r in cold.dots(0)[len(cold.dots(0)) // 2:])
    los_fan(cold, origin, radius=30)
    # the building whose footprint lies nearest the origin
    far = [float(np.hypot(*(np.array(b.footprint.centroid.coords[0]) - origin[:2])))
           for b in cold.buildings]
    pid = cold.buildings[int(np.argmin(far))].placement_id
    i = next(k for k, p in enumerate(lay.placements) if p.id == pid)
    prev = cold
    for dc in (1, -1, 2):
        lay = _moved(lay, i, dc)
        board = compile_board(lay, sheets, previous=prev)
        prims(board)
        g = build_graph(board)
        fresh = compile_board(lay, sheets)
        _same_graph(g, build_graph(fresh))
        got, want = los_fan(board, origin, radius=30), los_fan(fresh, origin, radius=30)
        for name in ("dots", "blocked", "cover", "visibility", "closed_doors"):
            assert np.array_equal(getattr(got, name), getattr(want, name)), name
        prev = board


@pytest.mark.parametrize("seed", [1, 2])
def test_taking_units_out_of_a_batch_gives_their_rows_in_order(seed):
    """Rows taken out for some units are the batch's rows of those units, in the batch's
    order, features counted in the unit's own list; the others stay in the batch."""
    _lay, _sheets, cold = _cold(seed=seed)
    units = cold.unit_features()
    hits = _units_hits(cold.lattice, units)
    batches = {id(b): b for uh in hits for b in uh.pending}
    rng = random.Random(seed)
    for b in batches.values():
        h = b.hits
        own, bown = b.owner[h.feat], b.owner[h.bfeat]
        want = sorted(rng.sample(range(len(b.units)), max(1, len(b.units) // 4)))
        b.take(want)
        for j, (_unit, uh) in enumerate(b.units):
            if j not in want:
                assert b in uh.pending
                continue
            assert b not in uh.pending
            got: _LevelHits = uh[b.lv]
            m, bm = own == j, bown == j
            for name in ("frm", "to", "cost", "text", "inside"):
                assert np.array_equal(getattr(got, name), getattr(h, name)[m]), name
            assert np.array_equal(got.feat, b.local[h.feat[m]])
            assert np.array_equal(got.bfrm, h.bfrm[bm])
            assert np.array_equal(got.bcode, h.bcode[bm])
            assert np.array_equal(got.bfeat, b.local[h.bfeat[bm]])
            if len(got):
                saved = got.__dict__.pop("_box")
                assert saved == got.box(cold.lattice)
        assert b.taken == len(want)
    assert isinstance(next(iter(batches.values())), _Batch)


def test_first_drag_on_a_hex_board_reads_the_hut_next_to_it():
    """Hex rows are SQRT3_2 apart: a hut's box from its features' bounds must still hold
    every step its walls touch, or a drag next to it loses them."""
    from engine.model import Layout, Placement, Sheet
    from tests.engine.test_movement_graph_arrays import hex_hut

    hut = hex_hut()
    pav = Sheet(id="hex-pav", title="Hex pavement", kind="pavement", lattice="hex",
                size=(40, 90), outline=((-0.5, -0.5), (40.0, -0.5), (40.0, 88.5), (-0.5, 88.5)))
    sheets = {"hex-pav": pav, "hut": hut}
    for above in (5, 6, 7):
        lay = Layout(lattice="hex", pavement=(Placement("hex-pav", (0, 0)),),
                     placements=(Placement("hut", (6, 60), id="a"),
                                 Placement("hut", (6, 60 - above), id="b"),
                                 Placement("hut", (20, 20), id="c")))
        cold = compile_board(lay, sheets)
        build_graph(cold)
        prev = cold
        for dc, dr in ((1, 0), (0, -1), (-1, 1)):
            lay = _moved(lay, 0, dc, dr)
            board = compile_board(lay, sheets, previous=prev)
            _same_graph(build_graph(board), build_graph(compile_board(lay, sheets)))
            prev = board


def test_a_dropped_board_is_freed_at_once_and_its_tables_still_answer():
    """A board's graph and sight primitives keep a view of it, not the board (no reference
    cycle): the editor's old board goes as soon as it is dropped, not at the next cyclic
    collection; the tables still answer from the view's facts."""
    import gc
    import weakref

    lay, sheets, cold = _cold()
    was = gc.isenabled()
    gc.disable()
    try:
        board = compile_board(_moved(lay, 3, 1), sheets, previous=cold)
        prims(board)
        g = build_graph(board)
        a = (*map(int, board.dots(0)[7]), 0)
        want = los_fan(board, a, radius=20)
        gone = weakref.ref(board)
        facts = (board._node_grid, board.node_count, len(board.stair_links))
        del board
        assert gone() is None  # freed by its reference count alone
    finally:
        if was:
            gc.enable()
    fresh = compile_board(_moved(lay, 3, 1), sheets)
    _same_graph(g, build_graph(fresh))  # laid out after its board went
    assert g._board._node_grid is facts[0] and g._board.node_count == facts[1]
    assert len(g._board.stair_links) == facts[2]
    got = los_fan(fresh, a, radius=20)
    assert np.array_equal(got.blocked, want.blocked) and np.array_equal(got.cover, want.cover)
    # a fork's tables see the fork's features, not the board's it was forked from
    play = fresh.fork()
    assert play.view() is not fresh.view() and play.view()._features is play._features


def test_unit_cache_lets_go_of_units_no_board_in_hand_uses(monkeypatch):
    """The unit cache refreshes a board's units when it must let some go, not on every
    compile: the units of the board just compiled stay, the dragged-away ones go first."""
    board_module._UNITS.clear()
    lay, sheets = neighbourhood(seed=2, blocks=2)
    n = len(compile_board(lay, sheets).units)
    monkeypatch.setattr(board_module, "_UNITS_MAX", n + 2)
    prev = compile_board(lay, sheets)
    for k in range(1, 7):  # each drag to a new place adds a unit; from the third, one goes
        board = compile_board(_moved(lay, 4, k), sheets, previous=prev)
        assert len(board_module._UNITS) == min(n + k, n + 2)
        live = board_module.cached_unit_ids()
        assert all(id(u) in live for u in board.units)  # none of this board's went
        prev = board


def test_a_dragged_board_numbers_its_nodes_on_first_use():
    """A drag's board counts its standable dots per row at once and numbers its nodes when
    first asked, from the last board that did (never from a chain of boards that did not):
    drags in a row, some numbered and some not, give a fresh compile's node ids, and the fan's
    window (grid positions, from the standable grid) lists a fresh board's dots."""
    from engine.board import _LazyGrid
    from engine.los import _level_window

    lay, sheets, cold = _cold(seed=5)
    prev, boards = cold, []
    for k, (i, dc, dr) in enumerate(((2, 1, 1), (4, -1, 0), (2, 0, 1), (7, 2, 0), (4, 1, 0))):
        lay = _moved(lay, i, dc, dr)
        board = compile_board(lay, sheets, previous=prev)
        pending = board.__dict__["_node_grid_v"]
        assert type(pending) is _LazyGrid and pending.grid is None  # nothing numbered yet
        assert type(pending.base) is np.ndarray  # from a numbered grid, not a chain
        boards.append((board, lay))
        if k == 2:
            board._node_grid  # noqa: B018 - numbered here: the next ones start from it
        prev = board
    for board, lay in reversed(boards):
        fresh = compile_board(lay, sheets)
        assert board.node_count == fresh.node_count
        assert np.array_equal(board._row_counts, fresh._row_counts)
        assert np.array_equal(board._node_grid, fresh._node_grid)
        assert board._node_grid.dtype == fresh._node_grid.dtype
        rng = random.Random(board.node_count)
        (c0, r0), (c1, r1) = board.dots(0).min(axis=0), board.dots(0).max(axis=0)
        for _ in range(300):
            d = (rng.randint(c0 - 2, c1 + 2), rng.randint(r0 - 2, r1 + 2), rng.randint(-1, 4))
            assert board.standable(d) == (board._node_of(d) >= 0), d
        for lv in range(board._stand.shape[0]):
            a = (*map(int, board.dots(0)[len(board.dots(0)) // 3]), 0)
            dots, kept = _level_window(board, lv, a, 25)
            g = fresh._node_grid[lv].ravel()
            assert np.array_equal(np.sort(kept), kept) and (g[kept] >= 0).all()
            first = int(fresh._row_counts[:lv].sum())
            assert np.array_equal(fresh.dots(lv)[g[kept] - first], dots)


@pytest.mark.parametrize("seed", [2, 6])
def test_a_units_levels_in_one_pass_cut_by_level_equal_each_level_alone(seed):
    """A drag's new unit has every level's crossings found in one pass and cut by level: per
    level the priced rows are those of the level alone, in order, the blocked ones the same
    rows (their order is free)."""
    from engine.movement import _cut_hits, _level_hits

    _lay, _sheets, cold = _cold(seed=seed)
    lat = cold.lattice
    rng = random.Random(seed)
    for unit in rng.sample([u for u in cold.units if len(u) > 1], 3):
        levels = sorted(unit)
        ends = np.cumsum([0] + [len(unit[lv]) for lv in levels])
        whole = _level_hits(lat, [f for lv in levels for f in unit[lv]])
        for lv, a, b in zip(levels, ends[:-1], ends[1:]):
            got, want = _cut_hits(whole, int(a), int(b)), _level_hits(lat, unit[lv])
            for name in ("frm", "to", "feat", "cost", "text", "inside"):
                assert np.array_equal(getattr(got, name), getattr(want, name)), name
            rows = [np.column_stack([h.bfrm, h.bcode, h.bfeat]) for h in (got, want)]
            assert len(rows[0]) == len(rows[1])
            assert np.array_equal(*(r[np.lexsort(r.T[::-1])] for r in rows))
            if len(want):
                assert got.box(lat) == want.box(lat)


def _board_facts(board) -> tuple:
    """What a compile decides per placement: buildings (index, placement, sheet, footprint),
    each placement's unit, and the units' features and dots."""
    return ([(b.index, b.placement_id, b.sheet.id, b.height, b.footprint.wkb)
             for b in board.buildings],
            list(board._placement_unit),
            [sorted((lv, [f.id for f in fs]) for lv, fs in u.items()) for u in board.units],
            board._stand.tobytes(), board._owner_grid[2].tobytes())


def test_placements_taken_over_in_runs_as_one_by_one():
    """A drag takes the placements that are the previous board's objects over in runs (their
    buildings and units as they were); inserted, removed or id-less placements, street
    furniture (a pavement sheet placed as a placement) and a sheet replaced under the same
    name are handled one by one: every board is the fresh compile's."""
    from engine import model as m
    board_module._UNITS.clear()
    lay, sheets = neighbourhood(seed=5, blocks=2)
    kiosk = m.Sheet(id="kiosk", title="kiosk", kind="pavement", lattice="square", size=(2, 2),
                    outline=((-0.5, -0.5), (1.5, -0.5), (1.5, 1.5), (-0.5, 1.5)), levels=(m.Level(0, areas=(m.Area("obstacle", ((0, 0), (1, 0), (1, 1), (0, 1)),
                                                     cost=2, note="kiosk"),)),))
    sheets = {**sheets, "kiosk": kiosk}
    pl = list(lay.placements)
    pl.insert(3, m.Placement("kiosk", (2, 2), id="k1"))
    pl.insert(7, m.Placement("kiosk", (40, 2), id="k2"))
    lay = replace(lay, placements=tuple(pl))
    prev = compile_board(lay, sheets)
    moved_at = 9
    steps = [
        ("move", lambda lay, sheets: (_moved(lay, moved_at, 1), sheets)),
        ("move kiosk", lambda lay, sheets: (_moved(lay, 3, 1), sheets)),
        ("insert", lambda lay, sheets: (replace(lay, placements=lay.placements[:2] + (
            replace(lay.placements[0], id="new", at=(1, 40)),) + lay.placements[2:]), sheets)),
        ("remove", lambda lay, sheets: (replace(lay, placements=lay.placements[:5]
                                                + lay.placements[6:]), sheets)),
        ("no id", lambda lay, sheets: (replace(lay, placements=lay.placements[:4] + (
            replace(lay.placements[4], id=None),) + lay.placements[5:]), sheets)),
        ("sheet replaced", lambda lay, sheets: (lay, {**sheets, lay.placements[1].sheet:
                                                      replace(sheets[lay.placements[1].sheet])})),
        ("move back", lambda lay, sheets: (_moved(lay, moved_at, -1), sheets)),
        ("kiosk to building", lambda lay, sheets: (replace(lay, placements=lay.placements[:3] + (
            replace(lay.placements[0], id="k1", at=(2, 40)),) + lay.placements[4:]), sheets)),
    ]
    runs_seen = {}
    kept = board_module._Compiler.kept_runs

    def spy(self, prev_board):
        got = kept(self, prev_board)
        runs_seen[name] = got
        return got
    board_module._Compiler.kept_runs = spy
    try:
        for name, edit in steps:
            lay, sheets = edit(lay, sheets)
            board = compile_board(lay, sheets, previous=prev)
            fresh = compile_board(lay, sheets)
            assert _board_facts(board) == _board_facts(fresh), name
            assert np.array_equal(board_module._placement_buildings(board),
                                  board_module._placement_buildings(fresh)), name
            assert all(b.sheet is sheets[b.placement.sheet] for b in board.buildings), name
            # the placements that are the previous board's objects keep its buildings
            old = {id(b.placement): b for b in prev.buildings}
            for b in board.buildings:
                if id(b.placement) in old and old[id(b.placement)].index == b.index \
                        and old[id(b.placement)].sheet is b.sheet:
                    assert b is old[id(b.placement)], name
            _same_graph(build_graph(board), build_graph(fresh))
            prev = board
    finally:
        board_module._Compiler.kept_runs = kept
    n = len(lay.placements)
    assert runs_seen["move"] == [(0, moved_at), (moved_at + 1, n)]
    assert runs_seen["move kiosk"] == [(0, 3), (4, n)]
    assert runs_seen["insert"][0] == (0, 2)  # the rest moved by one: one by one
    assert runs_seen["sheet replaced"] == []  # another sheet object: one by one
    assert runs_seen["no id"][:2] == [(0, 4), (5, n)]


@pytest.mark.parametrize("max_units", [16, 2])
def test_level_lists_made_on_first_use_after_drags_in_a_row(max_units, monkeypatch):
    """Drags in a row whose boards nobody asks for their feature lists keep the moved units
    over an earlier board's lists; the lists made on first use, the units end to end, the
    graph and the sight primitives are a fresh compile's (also when more units changed than
    a chain keeps and the lists are spliced on the way)."""
    from engine.los import _Prims

    monkeypatch.setattr(board_module._LevelLists, "MAX_UNITS", max_units)
    board_module._UNITS.clear()
    lay, sheets = neighbourhood(seed=4, blocks=2)
    prev = compile_board(lay, sheets)
    prims(prev)
    build_graph(prev)
    rng = random.Random(11)
    lazy = 0
    for _k in range(7):
        lay = _moved(lay, rng.randrange(len(lay.placements)), rng.choice((-1, 1)))
        board = compile_board(lay, sheets, previous=prev)
        lazy += "_features_d" not in board.__dict__
        prims(board)
        g = build_graph(board)
        assert "_features_d" not in board.__dict__ or max_units == 2
        fresh = compile_board(lay, sheets)
        assert board._feature_levels() == sorted(fresh._features)
        assert [u for u, _s in board.unit_features()] == [u for u, _s in fresh.unit_features()]
        _same_graph(g, build_graph(fresh))
        assert np.array_equal(prims(board).p, _Prims(fresh).p)
        prev = board
    assert lazy >= 4
    view = prev.view()
    assert view._features is prev._features  # one dict, made once
    assert list(prev._features) == list(fresh._features)
    for lv in fresh._features:
        assert prev._features[lv] == fresh._features[lv]
    assert prev.all_features() == fresh.all_features()
