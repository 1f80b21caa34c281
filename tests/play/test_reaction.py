"""Fire Ratio accounting (Angela, Needle) and arc geometry."""

import pytest

from engine.play.reaction import ARCS, Arc, ReactionTally, arc_cost, arcs_allowed


def test_angela_against_a_fire_ratio_3_squatter():
    t = ReactionTally(fire_ratio=3)
    assert t.spend(2) == 0  # first dot: 2 MP, no shot yet
    assert t.unresolved == 2
    assert t.spend(2) == 1  # second dot: 4 MP -> one attack, 1 carried
    assert t.unresolved == 1
    assert t.spend(1) == 0  # drop prone: 1 + 1 = 2 < 3
    assert t.unresolved == 2
    assert t.spend(4) == 2  # crawl (2 x 2): 6 unresolved -> two attacks, 0 left
    assert t.unresolved == 0
    assert t.attacks == 3


def test_angela_against_a_fire_ratio_2_street_samurai():
    t = ReactionTally(fire_ratio=2)
    assert t.spend(2) == 1  # attacked at the first dot
    assert t.spend(2) == 1  # and again at the second, before dropping prone


def test_needle_free_shot_for_starting_in_the_arc():
    t = ReactionTally(fire_ratio=3, started_in_arc=True)
    assert t.spend(2) == 0  # 2 MP < 3
    assert t.free_shot() == 1  # but he began in the arc
    assert t.free_shot() == 0  # only once
    assert t.attacks == 1


def test_needle_spending_four_gets_one_shot_not_two():
    t = ReactionTally(fire_ratio=3, started_in_arc=True)
    assert t.spend(4) == 1  # the normal comparison gives the shot...
    assert t.free_shot() == 0  # ...and overrides the free one
    assert t.attacks == 1


def test_no_free_shot_without_starting_in_the_arc():
    t = ReactionTally(fire_ratio=3)
    t.spend(2)
    assert t.free_shot() == 0


def test_arc_costs_and_widths():
    assert {k: v for k, v in ARCS.items()} == {
        "narrow": (2, 45.0), "intermediate": (4, 90.0), "wide": (6, 180.0)}
    assert [arc_cost(k) for k in ("narrow", "intermediate", "wide")] == [2, 4, 6]
    assert [arcs_allowed(m) for m in (4, 3, 2, 1)] == [1, 1, 2, 3]


def test_point_in_arc():
    narrow = Arc("narrow", (0.0, 0.0), 0.0)  # pointing right, 22.5 degrees each side
    assert narrow.contains((10, 0))
    assert narrow.contains((10, 4))  # 21.8 degrees
    assert not narrow.contains((10, 5))  # 26.6 degrees
    assert not narrow.contains((0, 0))
    mid = Arc("intermediate", (0.0, 0.0), 90.0)  # pointing down the page
    assert mid.contains((3, 3)) and mid.contains((-3, 3))  # edges count
    assert mid.contains((3, 4))  # 53 degrees from the x axis, 37 from down
    assert not mid.contains((3, 2))  # 33.7 degrees from x axis, 56 from down
    wide = Arc("wide", (5.0, 5.0), 180.0)  # pointing left
    assert wide.contains((5, 0)) and wide.contains((5, 10)) and wide.contains((0, 5))
    assert not wide.contains((6, 5))


def test_arc_round_trip_and_bad_spend():
    a = Arc("wide", (1.0, 2.0), 45.0)
    assert Arc.from_data(a.to_data()) == a
    t = ReactionTally(3, True)
    t.spend(4)
    assert ReactionTally.from_data(t.to_data()) == t
    with pytest.raises(ValueError):
        t.spend(-1)
