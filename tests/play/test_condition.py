"""The Condition Monitor, asserted against the book's Wedge and Hatchetman examples."""

import pytest

from engine.play.condition import PHYSICAL, STUN, ConditionMonitor


def test_wedge_four_boxes_from_seven():
    cm = ConditionMonitor()
    res = cm.apply(4, 7, PHYSICAL)
    assert [b for b, _ in res.marked] == [7, 6, 5, 4]
    assert cm.marked(PHYSICAL) == [7, 6, 5, 4]
    assert res.knocked_prone is True  # box 4 filled


def test_wedge_then_two_from_five_skip_to_three_and_two():
    cm = ConditionMonitor()
    cm.apply(4, 7, PHYSICAL)
    res = cm.apply(2, 5, PHYSICAL)
    assert [b for b, _ in res.marked] == [3, 2]
    assert cm.marked(PHYSICAL) == [7, 6, 5, 4, 3, 2]


def test_wedge_alternative_roll_of_twelve():
    cm = ConditionMonitor()
    cm.apply(4, 7, PHYSICAL)
    cm.apply(2, 12, PHYSICAL)
    assert cm.marked(PHYSICAL) == [12, 11, 7, 6, 5, 4]


def test_hatchetman_stun_and_physical_sequence():
    cm = ConditionMonitor()
    # landlord: two-box wound, location 8
    cm.apply(2, 8, PHYSICAL)
    assert cm.marked(PHYSICAL) == [8, 7]
    # ex: four boxes stun, location 8 -> starts at 6
    res = cm.apply(4, 8, STUN)
    assert cm.marked(PHYSICAL) == [8, 7]
    assert cm.marked(STUN) == [6, 5, 4, 3]
    assert res.knocked_prone is True  # "Hatchet is knocked flat"
    # landlord again: two boxes at 4 overwrite the slashes at 4 and 3
    cm.apply(2, 4, PHYSICAL)
    assert cm.marked(PHYSICAL) == [8, 7, 4, 3]
    assert cm.marked(STUN) == [6, 5]
    # ex again: four stun at 5: 5 turns physical, skip 4 and 3, slash 2, 1, 0
    res = cm.apply(4, 5, STUN)
    assert [b for b, _ in res.marked] == [5, 2, 1, 0]
    assert cm.marked(PHYSICAL) == [8, 7, 5, 4, 3]
    assert cm.marked(STUN) == [6, 2, 1, 0]
    assert res.unconscious is True and cm.unconscious and not cm.dead
    assert cm.mp == 0


def test_effects_use_only_the_lowest_box():
    cm = ConditionMonitor()
    assert (cm.modifier, cm.mp) == (0, 12)
    cm.apply(1, 5, PHYSICAL)  # book: box 5 -> 11 MP, +2
    assert (cm.modifier, cm.mp) == (2, 11)
    cm.apply(1, 3, STUN)  # book: box 3 -> 7 MP, +3
    assert (cm.modifier, cm.mp) == (3, 7)
    cm.apply(1, 12, PHYSICAL)  # a higher box does not change the effects
    assert (cm.modifier, cm.mp) == (3, 7)


def test_printed_boxes():
    for box, expected in {8: (1, 12), 7: (1, 12), 2: (3, 5), 1: (4, 3), 10: (0, 12)}.items():
        cm = ConditionMonitor()
        cm.apply(1, box, PHYSICAL)
        assert (cm.modifier, cm.mp) == expected, box


def test_meister_box_three_cuts_mp_below_nine():
    cm = ConditionMonitor()
    res = cm.apply(4, 6, PHYSICAL)
    assert [b for b, _ in res.marked] == [6, 5, 4, 3]
    assert res.knocked_prone is True
    assert res.mp == 7 and res.mp < 9


def test_stun_overflow_past_box_zero_becomes_physical_from_twelve():
    cm = ConditionMonitor()
    res = cm.apply(4, 1, STUN)  # 1, 0 stun, then 2 physical from 12
    assert res.marked == [(1, STUN), (0, STUN), (12, PHYSICAL), (11, PHYSICAL)]
    assert cm.unconscious and not cm.dead


def test_physical_past_box_zero_kills():
    cm = ConditionMonitor()
    res = cm.apply(3, 1, PHYSICAL)
    assert res.marked == [(1, PHYSICAL), (0, PHYSICAL)]
    assert res.dead is True and cm.mp == 0


def test_round_trip_and_bad_input():
    cm = ConditionMonitor()
    cm.apply(2, 8, PHYSICAL)
    cm.apply(2, 8, STUN)
    back = ConditionMonitor.from_data(cm.to_data())
    assert back.boxes == cm.boxes
    with pytest.raises(ValueError):
        cm.apply(1, 13)
    with pytest.raises(ValueError):
        cm.apply(1, 5, "fire")
