"""Goal costs and reaches taken from any door state the memo keeps (issue 12, point 6).

Police opens its doors game after game in varying orders, so a new door state is often one
door away from a state met in another game, not only from the one it came from.
``EngineBoard.costs_to`` starts a goal's table from the costs another state found below the
least cost at an end of a step whose price differs between the two (``_goal_from_parent``), and
``EngineBoard.reach`` takes another state's reach when no such step touches it
(``_reach_from_parent``); the differing steps are known per door once met (``_moved``).  Here
doors are opened and shut in a shuffled order, new boards fork the same memo (as games do), and
every answer is compared with a freshly loaded board in that state; some answers must come from
a state other than the one the board came from.
"""

from __future__ import annotations

import random

import pytest

from engine.play.engine_board import EngineBoard, fork_board
from tests.play.sample_views import near_door, sample_view, some_doors
from tests.play.test_common_sight import _fresh
from tests.play.test_costs_to_cut_off import _whole


@pytest.mark.parametrize("name", ["police-station-extraction.yaml", "nightclub-hold.yaml",
                                  "club-umbra-darkcon.yaml"])
def test_answers_from_other_states_are_those_of_a_fresh_board(name, monkeypatch):
    scenario, board, view = sample_view(name)
    rng = random.Random(name)
    dots = [tuple(d) for d in view.board._node_dots.tolist()]
    doors = some_doors(view, rng, 3)
    goals = [d for d in rng.sample(dots, 12) if view.board.standable(d)][:4]
    starts = [d for d in rng.sample(dots, 12) if view.board.standable(d)][:4]
    # (and beside the doors: a reach a changed door touches must not be taken)
    starts += [d for door in doors for d in near_door(view.board, door, 3)
               if view.board.standable(d)][::2]
    ratios = (1,) if view._metric else (1, 2)
    budget = 6 if not view._metric else 12.0
    others = []  # (answers taken from a state other than the one the board came from)
    real = EngineBoard._others

    def spy(self, kind, key, pick):
        got = real(self, kind, key, pick)
        if self._entry is None:  # (the fresh board: nothing shared)
            return got
        up = self._entry.get("parent")
        parent = None if up is None else self.board.__dict__["_play_memo"].get(up[0])
        others.extend(kind for e, _g in got if e is not parent)
        return got

    monkeypatch.setattr(EngineBoard, "_others", spy)
    flip = {d.id: "open" if d.props.get("state") == "closed" else "closed" for d in doors}
    base = {d.id: d.props.get("state", "open") for d in doors}
    checked = 0
    for game in range(5):  # each "game" a new fork of the same memo, doors in another order
        view = EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)
        states: dict[str, str] = {}
        order = rng.sample(doors, len(doors))
        for k in range(len(order) + 1):
            fresh = _fresh(board, scenario, states)
            for goal in goals:
                for mr in ratios:
                    want = _whole(fresh, goal, mr)
                    ask = rng.sample(dots, 40) + starts
                    assert view.costs_to(goal, mr, ask) == [want[d] for d in ask], \
                        (game, states, goal, mr)
                    checked += 1
            for a in starts:
                for mr in ratios:
                    assert view.reach(a, mr, budget) == fresh.reach(a, mr, budget), \
                        (game, states, a, mr)
            if k < len(order):
                fid = order[k].id
                st = flip[fid] if game % 2 == 0 or k % 2 == 0 else base[fid]
                if states.get(fid, base[fid]) == st:
                    st = flip[fid] if st == base[fid] else base[fid]
                view.set_opening(fid, st)
                states[fid] = st
    assert checked >= 40
    assert others.count("goal") >= 5  # tables started from a state it did not come from
    assert others.count("reach") >= 1


@pytest.mark.parametrize("name", ["police-station-extraction.yaml", "nightclub-hold.yaml",
                                  "club-umbra-darkcon.yaml"])
def test_paths_from_other_states_are_those_of_a_fresh_board(name, monkeypatch):
    """A cheapest path another door state found is taken only when its search read the same
    numbers (no step a differing door prices in its window): every path equals a fresh
    board's in that state, paths beside the doors included, and some are taken."""
    scenario, board, view = sample_view(name)
    rng = random.Random(name + "paths")
    dots = [d for d in (tuple(d) for d in view.board._node_dots.tolist())
            if view.board.standable(d)]
    doors = some_doors(view, rng, 3)
    near = [d for door in doors for d in near_door(view.board, door, 4)
            if view.board.standable(d)]
    pairs = [(a, b) for a, b in zip(near, rng.sample(dots, len(near)))]
    pairs += [tuple(rng.sample(dots, 2)) for _ in range(6)]
    pairs += [(a, b) for a in near[:3] for b in near[-3:]]
    ratios = (1,) if view._metric else (1, 2)
    taken = []
    real = EngineBoard._path_from_parent

    def spy(self, key, move_ratio, crawl):
        got = real(self, key, move_ratio, crawl)
        if self._entry is not None and isinstance(got, tuple):
            taken.append(key)
        return got

    monkeypatch.setattr(EngineBoard, "_path_from_parent", spy)
    flip = {d.id: "open" if d.props.get("state") == "closed" else "closed" for d in doors}
    base = {d.id: d.props.get("state", "open") for d in doors}
    asked = 0
    for game in range(4):
        view = EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)
        states: dict[str, str] = {}
        order = rng.sample(doors, len(doors))
        for k in range(len(order) + 1):
            fresh = _fresh(board, scenario, states)
            for a, b in pairs:
                for mr in ratios:
                    before = len(view._paths)
                    assert view.path(a, b, mr) == fresh.path(a, b, mr), (game, states, a, b)
                    asked += len(view._paths) > before
            if k < len(order):
                fid = order[k].id
                st = flip[fid] if (game + k) % 3 else base[fid]
                if states.get(fid, base[fid]) == st:
                    st = flip[fid] if st == base[fid] else base[fid]
                view.set_opening(fid, st)
                states[fid] = st
    assert asked >= 50
    assert len(taken) >= 10  # taken from another door state, not searched again
