"""The editor runs the engine on its GUI thread and two workers at once (editor/background.py):
the move tool's reach on the GUI thread while the findings' searches build another board's
movement graph in a worker.  The tables the engine keeps between boards must hold when
another thread uses them meanwhile.

Each test makes the other thread's work happen at the risky point, every time: a set of live
unit ids (or a key) whose first use runs the other thread's engine work to its end while this
thread is half-way through a walk over a shared table.  The failure these stand for: the move
tool once showed "reach: dictionary changed size during iteration" and no reach
(tests/editor/test_one_verdict_editor.py, one run in a few of the editor suite under load).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from benchmarks.neighbourhood import neighbourhood
from engine import board as board_module
from engine import los, movement
from engine.board import compile_board, forget_oldest
from engine.movement import build_graph, reach


def _run_in_thread(work: Callable[[], object]) -> list[BaseException]:
    """Run ``work`` in another thread to its end; the exceptions it raised."""
    errors: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:  # handed back to the test
            errors.append(exc)
    t = threading.Thread(target=run)
    t.start()
    t.join()
    return errors


class _Meanwhile(set):
    """Live unit ids whose first membership test runs ``work`` in another thread first."""

    def __init__(self, ids: set[int], work: Callable[[], object]) -> None:
        super().__init__(ids)
        self.work: Callable[[], object] | None = work
        self.errors: list[BaseException] = []

    def __contains__(self, key: object) -> bool:
        work, self.work = self.work, None
        if work is not None:
            self.errors += _run_in_thread(work)
        return super().__contains__(key)


def test_a_graph_built_in_another_thread_meanwhile_leaves_this_threads_crossings_alone(
        monkeypatch):
    """This thread walks its crossings table to drop the units the unit cache let go while
    another thread builds a graph of other buildings (and adds their crossings): each thread
    has its own table, so the walk goes on and both graphs are those of a quiet build."""
    lay, sheets = neighbourhood(seed=7, blocks=2)
    build_graph(compile_board(lay, sheets))  # this thread's table holds these units
    lay2, sheets2 = neighbourhood(seed=8, blocks=2)
    lay3, sheets3 = neighbourhood(seed=9, blocks=2)
    quiet = {seed: reach(compile_board(*neighbourhood(seed=seed, blocks=2)), (1, 1, 0), 1)
             for seed in (8, 9)}
    other: dict[str, dict] = {}
    hooks: list[_Meanwhile] = []

    def live() -> set[int]:
        ids = board_module.cached_unit_ids()
        if hooks:  # the other thread's own walk: the real set
            return ids
        hooks.append(_Meanwhile(ids, lambda: other.update(
            got=reach(compile_board(lay3, sheets3), (1, 1, 0), 1))))
        return hooks[0]
    monkeypatch.setattr(movement, "cached_unit_ids", live)
    got = reach(compile_board(lay2, sheets2), (1, 1, 0), 1)
    assert hooks and hooks[0].work is None and hooks[0].errors == []  # it ran, and cleanly
    assert got == quiet[8] and other["got"] == quiet[9]


def test_sight_parts_of_dead_units_go_while_another_thread_adds_its_own(monkeypatch):
    """The sight primitives kept per unit are shared between threads (built whole, never
    changed): dropping those of units gone while another thread adds its own neither breaks
    the walk nor loses the other thread's."""
    for seed in range(20, 25):
        los.prims(compile_board(*neighbourhood(seed=seed, blocks=3)))
    board_module._UNITS.clear()  # the cities' units gone: their parts are dead
    dead = set(los._PARTS)
    assert len(dead) >= 100  # enough to be walked (more than twice the live ones, and 64)
    lay2, sheets2 = neighbourhood(seed=8, blocks=1)
    lay3, sheets3 = neighbourhood(seed=9, blocks=1)
    board2 = compile_board(lay2, sheets2)
    theirs: dict[str, set[int]] = {}

    def other() -> None:
        board3 = compile_board(lay3, sheets3)
        los.prims(board3)
        theirs["units"] = {id(u) for u, shared in board3.unit_features() if shared}
    hook = _Meanwhile(board_module._UNITS.ids, other)
    monkeypatch.setattr(board_module._UNITS, "ids", hook)
    los.prims(board2)
    assert hook.work is None and hook.errors == []
    assert not dead & set(los._PARTS)
    assert theirs["units"] and theirs["units"] <= set(los._PARTS)
    mine = {id(u) for u, shared in board2.unit_features() if shared}
    assert mine and mine <= set(los._PARTS)
    monkeypatch.undo()
    board_module._UNITS.clear()  # the ids the other thread's units were added to are gone


class _DroppedMeanwhile:
    """A cache key whose look-up, once armed, lets another thread drop it from ``table``
    first (its hash is asked by every look-up)."""

    def __init__(self, table: dict) -> None:
        self.table = table
        self.armed = False
        self.errors: list[BaseException] = []

    def __hash__(self) -> int:
        if self.armed:
            self.armed = False
            self.errors += _run_in_thread(lambda: self.table.pop(self))
        return 1


def test_forget_oldest_when_another_thread_dropped_the_oldest_first():
    table: dict = {}
    first = _DroppedMeanwhile(table)
    table[first] = 1
    table.update({2: 2, 3: 3})
    first.armed = True
    forget_oldest(table, 1)  # drops `first` (gone meanwhile) and 2
    assert not first.armed and first.errors == []
    assert table == {3: 3}
