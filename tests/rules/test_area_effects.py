"""Area effects by each book's numbers: grenade blast and scatter, darkcon's incidental fire
zone, falls."""

from __future__ import annotations

import pytest

from engine.rules import get_ruleset
from engine.rules.darkcon import incidental_fire_zone


def test_dmz_liam_defensive_ipe_grenade():
    # seed 000 l.1181: IPE Defensive, SV 24; a guard one dot away is at +8, two dots +16
    dmz = get_ruleset("dmz1990")
    assert [dmz.blast("defensive", d, ipe=True)["range_modifier"] for d in (0, 1, 2)] == [0, 8, 16]
    assert dmz.blast("defensive", 0, ipe=True)["success_value"] == 24
    assert dmz.scatter(thrown_dots=5)["distance_m"] == 4  # 5 / 2 = 2 dots (l.1183)
    assert dmz.fall(3) == {"target_value": 12, "damage": "3 boxes",
                           "rule": "Damage From Falling, seed 000 l.1364"}


def test_sr3_offensive_and_defensive_power_by_distance():
    # seed 001 l.915: offensive 7S at 3 m, 4S at 6 m; defensive 4S at 3 m, nothing at 6 m
    sr3 = get_ruleset("sr3")
    assert [sr3.blast("offensive", m)["damage"] for m in (3, 6)] == ["7S", "4S"]
    assert sr3.blast("defensive", 3)["damage"] == "4S"
    assert not sr3.blast("defensive", 6)["reaches"] and sr3.blast("defensive", 0)["radius_m"] == 5
    assert (sr3.scatter("standard")["distance_dice"], sr3.scatter("aerodynamic")["metres_per_success"]
            ) == ("3D6", 4)


def test_sr1_scatter_and_falloff_differ_from_sr3():
    # seed 004 l.1291-1320: 2d6/3d6/4d6, 3 m / 5 m per success; offensive -1 per 2 m
    sr1 = get_ruleset("sr1")
    assert sr1.scatter("launched") == {"distance_dice": "4D6", "metres_per_success": 5,
                                       "direction_dice": "1D6",
                                       "rule": "Grenade Throwing Procedure, seed 004 l.1279-1309"}
    assert sr1.blast("offensive", 6)["damage"] == "7S" and sr1.blast("offensive", 20)["reaches"] is False


def test_darkcon_incidental_fire_zone_and_falls():
    # seed 003 l.434: 2 m wide at short range (one dot), running on behind the target as far
    assert incidental_fire_zone((0, 0), (10, 0), "short") == [
        (0.0, 0.5), (11.0, 0.5), (11.0, -0.5), (0.0, -0.5)]
    assert incidental_fire_zone((0, 0), (0, 10), "extreme")[1] == (-2.0, 14.0)
    # seed 003 l.668: Joe falls six metres with Agility 6: 12D6 - 6D6
    assert get_ruleset("darkcon").fall(0, agility=6, metres=6)["damage"] == "6D6"
    with pytest.raises(ValueError, match="band"):
        incidental_fire_zone((0, 0), (1, 0), "point-blank")


def test_sr3_blast_against_barriers_by_the_barrier_effect_table():
    """seed 001 l.920-924 and l.982-986: the Power left at the barrier against twice its rating.
    An offensive grenade is 7 at 3 m (l.915): against Average Material 4 (doubled 8) that is at
    least half of 8, not above it: damaged (rating 3), it holds.  Against Cheap Material 3
    (doubled 6) 7 is above: a hole, and the blast goes on at 7 - 3 = 4."""
    from engine.rules.sr3 import blast_against_barrier

    held = blast_against_barrier(7, 4)
    assert (held["adjusted_rating"], held["effect"], held["rating_after"], held["falls"]) == \
        (8, "damaged", 3, False)
    fell = blast_against_barrier(7, 3)
    assert (fell["adjusted_rating"], fell["effect"], fell["holes_half_m"], fell["rating_after"],
            fell["power_beyond"]) == (6, "holed", 1, 2, 4)
    # below half the doubled rating: no effect (3 < 4); exactly half: damaged (4 = 4)
    assert blast_against_barrier(3, 4)["effect"] == "holds"
    assert blast_against_barrier(4, 4)["effect"] == "damaged"
    # each full increment of half the doubled rating above it is one more half-metre hole
    assert blast_against_barrier(16, 2)["holes_half_m"] == 6  # (16 - 4) // 2
    sr3 = get_ruleset("sr3")
    # a target 6 m from an offensive burst (4S in the open, l.915) behind a wall 3 m away
    assert sr3.blast_through("offensive", 6, [])["damage"] == "4S"
    assert sr3.blast_through("offensive", 6, [(3, 3)])["damage"] == "1S"  # 10 - 6 - 3
    stopped = sr3.blast_through("offensive", 6, [(3, 4)])
    assert stopped["stopped"] and not stopped["reaches"] and stopped["damage"] == "0S"
    # a defensive grenade has 4 left at 3 m: the same wall holds it too (4 = half of 8)
    assert sr3.blast_through("defensive", 4, [(3, 4)])["barriers"][0]["effect"] == "damaged"
