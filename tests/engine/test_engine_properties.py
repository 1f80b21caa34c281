"""Property tests: the answers do not depend on how a sheet is turned, nor on who looks."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import model as m
from engine.lattice import get_lattice, placement_transform
from engine.los import line_of_sight
from engine.movement import cheapest_path
from tests.builders import board_of, building, outer_walls, pavement, rect

SQ = get_lattice("square")


@st.composite
def sheets(draw):
    w = draw(st.integers(4, 9))
    h = draw(st.integers(4, 9))
    walls, doors, windows = [], [], []
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):
            x = draw(st.integers(0, w - 2)) + 0.5
            y0, y1 = sorted(draw(st.lists(st.integers(0, h), min_size=2, max_size=2, unique=True)))
            walls.append(m.Wall(path=((x, y0 - 0.5), (x, y1 - 0.5))))
            if y1 - y0 >= 2 and draw(st.booleans()):
                yd = draw(st.integers(y0, y1 - 2))
                kind = draw(st.sampled_from(["door", "window"]))
                op = m.Opening(kind, ((x, yd - 0.5 + 1), (x, yd + 0.5 + 1)),
                               state=draw(st.sampled_from(["open", "closed"])))
                (doors if kind == "door" else windows).append(op)
        else:
            y = draw(st.integers(0, h - 2)) + 0.5
            x0, x1 = sorted(draw(st.lists(st.integers(0, w), min_size=2, max_size=2, unique=True)))
            walls.append(m.Wall(path=((x0 - 0.5, y), (x1 - 0.5, y))))
    areas = []
    if draw(st.booleans()):
        cx, cy = draw(st.integers(0, w - 1)), draw(st.integers(0, h - 1))
        areas.append(m.Area("obstacle", rect(cx - 0.3, cy - 0.3, cx + 0.3, cy + 0.3),
                            cost=draw(st.integers(1, 3))))
    if draw(st.booleans()):
        cx, cy = draw(st.integers(0, w - 1)), draw(st.integers(0, h - 1))
        areas.append(m.Area("foliage", rect(cx - 0.5, cy - 0.5, cx + 1.5, cy + 0.5)))
    lv = m.Level(0, walls=outer_walls(w, h) + tuple(walls), doors=tuple(doors),
                 windows=tuple(windows), areas=tuple(areas))
    return building("house", w, h, height=1, levels=(lv,))


def _world(sheet, at, rot, mir):
    t = placement_transform(SQ, sheet.size, at, rot, mir)
    return lambda d: tuple(int(round(v)) for v in t.apply(d))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sheet=sheets(), rot=st.sampled_from([0, 90, 180, 270]), mir=st.booleans(),
       data=st.data())
def test_turning_a_sheet_turns_the_answers(sheet, rot, mir, data):
    w, h = sheet.size
    a = (data.draw(st.integers(0, w - 1)), data.draw(st.integers(0, h - 1)))
    b = (data.draw(st.integers(0, w - 1)), data.draw(st.integers(0, h - 1)))
    pave = pavement(30, 30)
    plain = board_of([sheet], [m.Placement("house", (3, 3))], pave=pave)
    turned = board_of([sheet], [m.Placement("house", (5, 4), rotation=rot, mirror=mir)], pave=pave)
    f0, f1 = _world(sheet, (3, 3), 0, False), _world(sheet, (5, 4), rot, mir)
    a0, b0, a1, b1 = (*f0(a), 0), (*f0(b), 0), (*f1(a), 0), (*f1(b), 0)
    assert plain.standable(a0) == turned.standable(a1)
    l0, l1 = line_of_sight(plain, a0, b0), line_of_sight(turned, a1, b1)
    assert (l0.blocked, l0.cover, l0.range) == (l1.blocked, l1.cover, l1.range)
    if plain.standable(a0) and plain.standable(b0):
        p0, p1 = cheapest_path(plain, a0, b0, 2), cheapest_path(turned, a1, b1, 2)
        assert (p0.reachable, p0.cost) == (p1.reachable, p1.cost)


@settings(max_examples=60, deadline=None)
@given(sheet=sheets(), data=st.data())
def test_line_of_sight_is_the_same_both_ways(sheet, data):
    w, h = sheet.size
    bd = board_of([sheet], [m.Placement("house", (2, 2))], pave=pavement(20, 20))
    a = (data.draw(st.integers(0, 19)), data.draw(st.integers(0, 19)), 0)
    b = (data.draw(st.integers(0, 19)), data.draw(st.integers(0, 19)), 0)
    ab, ba = line_of_sight(bd, a, b), line_of_sight(bd, b, a)
    assert ab.blocked == ba.blocked
    assert ab.range == ba.range
    assert sorted((i["kind"], i["feature"]) for i in ab.interruptions) == \
        sorted((i["kind"], i["feature"]) for i in ba.interruptions)
