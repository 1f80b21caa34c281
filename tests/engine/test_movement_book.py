"""DMZ Movement examples, built as small layouts; numbers straight from the book."""

from engine import model as m
from engine.movement import cheapest_path, reach, step
from tests.builders import board_of, building, outer_walls, rect


def wedge_room(window_state: str = "closed"):
    """A walled room; Wedge at (2,2), a couch between him and (3,2), a window at x=3.5."""
    w, h = 4, 5
    couch = m.Area("obstacle", rect(2.3, 1.6, 2.7, 2.4), cost=1, note="couch")
    lv = m.Level(0, walls=outer_walls(w, h),
                 windows=(m.Opening("window", ((3.5, 1.5), (3.5, 2.5)), state=window_state),),
                 areas=(couch,))
    room = building("room", w, h, levels=(lv,))
    return board_of([room], [m.Placement("room", (0, 0))])


def test_wedge_window_and_couch_costs_11_mp():
    b = wedge_room()
    res = cheapest_path(b, (2, 2, 0), (4, 2, 0), move_ratio=2)
    assert res.reachable
    assert res.cost == 11
    assert [s.cost for s in res.steps] == [3, 8]  # dot+couch, then dot+open 4+through 2
    assert any("couch" in w for w in res.steps[0].why)
    assert any("closed window" in w for w in res.steps[1].why)


def test_wedge_at_move_ratio_3_cannot_get_through_this_turn():
    b = wedge_room()
    assert cheapest_path(b, (2, 2, 0), (4, 2, 0), move_ratio=3).cost == 13
    assert (3, 2, 0) in reach(b, (2, 2, 0), 3, mp=12)
    assert (4, 2, 0) not in reach(b, (2, 2, 0), 3, mp=12)
    assert (4, 2, 0) in reach(b, (2, 2, 0), 2, mp=12)


def test_open_window_costs_two_extra():
    b = wedge_room("open")
    assert step(b, (3, 2, 0), (4, 2, 0), 2).cost == 4


def test_street_crossing_five_dots_ratio_2_vs_3():
    b = board_of([], [])
    sabre = cheapest_path(b, (0, 5, 0), (5, 5, 0), move_ratio=2)
    gilliam = cheapest_path(b, (0, 5, 0), (5, 5, 0), move_ratio=3)
    assert sabre.cost == 10 and len(sabre.steps) == 5
    assert gilliam.cost == 15
    r2 = reach(b, (0, 5, 0), 2, mp=12)
    r3 = reach(b, (0, 5, 0), 3, mp=12)
    assert max(abs(c - 0) for c, r, lv in r2 if r == 5) == 6  # six dots a turn
    assert max(abs(c - 0) for c, r, lv in r3 if r == 5) == 4  # four dots a turn
    assert (5, 5, 0) in r2 and (5, 5, 0) not in r3


def test_terrain_costs_table():
    lines = (m.Line("step", ((1.5, -0.5), (1.5, 9.5))), m.Line("contour", ((3.5, -0.5), (3.5, 9.5))),
             m.Line("low-wall", ((5.5, -0.5), (5.5, 9.5)), cost=2))
    areas = (m.Area("rubble", rect(6.5, -0.5, 7.5, 9.5)),)
    from tests.builders import pavement
    pave = pavement(**{"lines": lines, "areas": areas})
    b = board_of([], [], pave=pave)
    assert step(b, (1, 0, 0), (2, 0, 0), 2).cost == 3
    assert step(b, (3, 0, 0), (4, 0, 0), 2).cost == 4
    assert step(b, (5, 0, 0), (6, 0, 0), 2).cost == 4
    assert step(b, (6, 0, 0), (7, 0, 0), 2).cost == 3
    assert step(b, (0, 0, 0), (1, 0, 0), 2, crawl=True).cost == 4  # crawl: twice the cost
    assert step(b, (1, 0, 0), (2, 0, 0), 2, crawl=True).cost == 6


def test_doors_open_and_closed():
    w, h = 6, 4
    lv = m.Level(0, walls=outer_walls(w, h) + (m.Wall(path=((2.5, -0.5), (2.5, 3.5))),),
                 doors=(m.Opening("door", ((2.5, 0.5), (2.5, 1.5)), state="open"),
                        m.Opening("door", ((2.5, 1.5), (2.5, 2.5)), state="closed")))
    b = board_of([building("house", w, h, levels=(lv,))], [m.Placement("house", (0, 0))])
    assert step(b, (2, 1, 0), (3, 1, 0), 3).cost == 4  # open door +1
    assert step(b, (2, 2, 0), (3, 2, 0), 3).cost == 6  # open it +2, through +1
    assert step(b, (2, 0, 0), (3, 0, 0), 3) is None  # wall
    # a wall is impassable, and a diagonal squeezing past a door jamb touches the wall
    assert step(b, (2, 0, 0), (3, 1, 0), 3) is None


def test_stairs_elevator_climb_drop():
    w, h = 6, 6
    lv0 = m.Level(0, walls=outer_walls(w, h), doors=(m.Opening("door", ((2.5, 5.5), (3.5, 5.5))),),
                  stairs=(m.Stair((1, 1), 1),), elevators=(m.Elevator((4, 4), (0, 1, 2)),))
    lv1 = m.Level(1, walls=outer_walls(w, h), stairs=(m.Stair((1, 1), 2),))
    tower = building("tower", w, h, height=2, levels=(lv0, lv1))
    shed = building("shed", 3, 3, height=1, levels=(m.Level(0, walls=outer_walls(3, 3),
                                                            climbs=(m.Climb((1, 1), 1),)),))
    b = board_of([tower, shed], [m.Placement("tower", (0, 0)), m.Placement("shed", (10, 0))])
    assert step(b, (1, 1, 0), (1, 1, 1), 2).cost == 3  # a flight: +3, no base cost
    assert cheapest_path(b, (1, 1, 0), (1, 1, 2), 2).cost == 6
    assert step(b, (4, 4, 0), (4, 4, 2), 2).cost == 3  # any number of floors
    assert step(b, (11, 1, 0), (11, 1, 1), 2).cost == 6  # climb up unassisted
    assert step(b, (11, 1, 1), (11, 1, 0), 2).cost == 4  # climb down
    assert step(b, (12, 1, 1), (13, 1, 0), 2).cost == 4  # drop one story: dot 2 + 2
    assert step(b, (13, 1, 0), (12, 1, 1), 2) is None  # no dropping upwards


def test_opening_reasons_name_every_step_through_a_window_and_no_other():
    """``OPENING_REASONS`` is how play tells a step a door state prices from one every door
    state shares (engine_board.step): every reason of a step through the window, closed or
    open, in MP or metres, starts with one of them; the couch's does not."""
    from engine.movement import OPENING_REASONS

    for state, head in (("closed", "closed window "), ("open", "open window ")):
        b = wedge_room(state)
        for ruleset in ("dmz1990", "sr3"):
            through = step(b, (3, 2, 0), (4, 2, 0), 2, ruleset=ruleset)
            couch = step(b, (2, 2, 0), (3, 2, 0), 2, ruleset=ruleset)
            assert [w for w in through.why if w.startswith(OPENING_REASONS)] == \
                [w for w in through.why if w.startswith(head)] != []
            assert couch.why and not any(w.startswith(OPENING_REASONS) for w in couch.why)
