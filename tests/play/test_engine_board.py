"""Play's view of the real board: doors, smoke and blasted holes change movement and sight."""

import pytest

from engine import model as m
from engine.play.engine_board import EngineBoard
from tests.builders import board_of, building, outer_walls, pavement


def hut(ruleset: str = "dmz1990"):
    """A 6x4 one-story hut at (6, 4) with a closed door on its west wall, rows 4..7."""
    lv = m.Level(0, walls=outer_walls(6, 4),
                 doors=(m.Opening("door", ((-0.5, 0.5), (-0.5, 1.5)), state="closed", id="d1"),))
    sheet = building("hut", 6, 4, height=1, levels=(lv,))
    board = board_of([sheet], [m.Placement("hut", (6, 4), id="hut")], pave=pavement(24, 14))
    return EngineBoard(board.fork(), ruleset=ruleset)


def test_closed_door_costs_and_interrupts_under_dmz_until_opened():
    eb = hut()
    a, b = (5, 5, 0), (6, 5, 0)
    assert eb.step(a, b, 2).cost == 2 + 2 + 1
    # seed 000 l.796: a door interrupts whatever its state, as `sprawlmap los` says
    s = eb.sight((2, 5, 0), (8, 5, 0), "standing", "standing", "normal")
    assert not s.blocked and s.modifiers["cover"] == 1
    ops = eb.openings_on(a, b)
    assert [(o.feature, o.kind, o.state) for o in ops] == [("hut/d1", "door", "closed")]
    assert [o.feature for o in eb.openings_near(a)] == ["hut/d1"]
    eb.set_opening("hut/d1", "open")
    assert eb.step(a, b, 2).cost == 2 + 1
    s = eb.sight((2, 5, 0), (8, 5, 0), "standing", "standing", "normal")
    assert not s.blocked and s.total == 1 and s.modifiers["cover"] == 1
    # the change lives in the fork's overlay; the compiled feature is untouched
    assert eb.board.overlay["hut/d1"].props["state"] == "open"


@pytest.mark.parametrize("ruleset", ["sr3", "darkcon"])
def test_closed_door_hides_the_target_under_sr3_and_darkcon(ruleset):
    eb = hut(ruleset)
    s = eb.sight((2, 5, 0), (8, 5, 0), "standing", "standing", "normal")
    assert s.blocked and s.details["blocked_by"] == "hut/d1"
    eb.set_opening("hut/d1", "open")
    assert not eb.sight((2, 5, 0), (8, 5, 0), "standing", "standing", "normal").blocked


def test_smoke_blocks_normal_sight_and_interrupts_thermographic():
    eb = hut()
    a, b = (2, 11, 0), (20, 11, 0)
    assert eb.sight(a, b, "standing", "standing", "normal").total == 0
    eb.add_smoke([(11, 11, 0), (11, 12, 0), (11, 10, 0), (11, 11, 1)])
    assert eb.sight(a, b, "standing", "standing", "normal").blocked
    s = eb.sight(a, b, "standing", "standing", "thermographic")
    assert not s.blocked and s.visibility == 1 and s.cover_without_visibility == 0


def test_a_blasted_wall_opens_a_hole_that_moves_like_a_door():
    eb = hut()
    inside, outside = (6, 7, 0), (6, 8, 0)  # through the south wall
    assert eb.step(outside, inside, 2) is None
    near = [b for b in eb.barriers_near((6, 9, 0), 1) if b.kind == "wall"]
    assert near and near[0].barrier == 12 and near[0].armor == 1 and near[0].distance == 1
    eb.open_hole(near[0].feature)
    st = eb.step(outside, inside, 2)
    assert st is not None and st.cost == 2 + 1
    assert not eb.sight((6, 11, 0), (6, 5, 0), "standing", "standing", "normal").blocked


def test_edges_zones_and_areas():
    eb = hut()
    assert eb.edge_of((0, 5, 0)) == "west" and eb.edge_of((23, 5, 0)) == "east"
    assert eb.edge_of((5, 0, 0)) == "north" and eb.edge_of((5, 5, 0)) is None
    west = eb.deploy_dots(None, 0, "west", 2)
    assert len(west) == 2 * 14 and all(c < 2 for c, _r, _l in west)
    poly = ((0.5, 0.5), (2.5, 0.5), (2.5, 1.5), (0.5, 1.5))
    assert sorted(eb.deploy_dots(poly, 0, None, None)) == [(1, 1, 0), (2, 1, 0)]
    assert eb.in_area((1, 1, 0), poly, 0) and not eb.in_area((1, 1, 1), poly, 0)
    path = eb.path((2, 5, 0), (4, 5, 0), 2)
    assert len(path) == 3 and path[0] == (2, 5, 0) and path[-1] == (4, 5, 0)
    assert eb.reach((2, 5, 0), 2, 2)[(3, 6, 0)] == 2
    assert (3, 5, 0) in eb.neighbours((2, 5, 0))


def test_costs_to_a_goal_count_the_door():
    eb = hut()
    costs = eb.costs_to((7, 5, 0), 2, [(5, 5, 0), (4, 5, 0), (6, 5, 0), (30, 30, 0)])
    assert costs == [2 + 5, 2 + 2 + 5, 2, None]  # the closed door: 2 + open 2 + through 1


def test_forks_share_derived_tables_per_door_state():
    """Games on forks of one board share the movement graph and sight answers of each map
    state; opening a door moves one game to another state without touching the others."""
    from engine.movement import build_graph
    from engine.play.engine_board import fork_board

    base = hut().board
    g = build_graph(base)
    f1, f2 = fork_board(base), fork_board(base)
    assert f1._move_graph is g  # a fork keeps what its board had built
    e1, e2 = EngineBoard(f1), EngineBoard(f2)
    a, b = (2, 5, 0), (8, 5, 0)
    e1.sight(a, b, "standing", "standing", "normal")
    # answered once for both (every door state shares sight answers, kept with the states
    # of the doors the line meets: this one meets hut/d1)
    assert e2._common is e1._common and len(e1._common["sight"]) == 1
    door = (5, 5, 0), (6, 5, 0)
    e1.set_opening("hut/d1", "open")
    assert e1.step(*door, 2).cost == 2 + 1 and e2.step(*door, 2).cost == 2 + 2 + 1
    assert e1._to_goal is not e2._to_goal and e1._common is e2._common
    e1.sight(a, b, "standing", "standing", "normal")  # the door's other state: a new answer
    assert len(e1._common["sight"]) == 2
    e2.sight(a, b, "standing", "standing", "normal")
    assert len(e1._common["sight"]) == 2
    e2.set_opening("hut/d1", "open")
    assert e2._to_goal is e1._to_goal and e2.step(*door, 2).cost == 2 + 1
    e1.add_smoke([(4, 5, 0)])  # smoke is one game's own: no sharing from here on
    assert e1._to_goal is not e2._to_goal and e1._common is None
    assert e2.sight(a, b, "standing", "standing", "normal").visibility == 0
