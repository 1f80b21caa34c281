"""darkcon: Dark Conspiracy direct fire (roll-under d20: positive helps the shooter)."""

import pytest

from engine import model as m
from engine.los import LosFacts, line_of_sight
from engine.rules import get_ruleset
from engine.rules.darkcon import range_band, visibility_modifier
from tests.builders import board_of, pavement, rect

DC = get_ruleset("darkcon")


def facts(rng=5, blocked=False, kinds=(), visibility=(), stories=0, target_modifier=0,
          posture_b="standing"):
    inter = [{"kind": k, "feature": f"f{i}", "reason": ""} for i, k in enumerate(kinds)]
    return LosFacts((0, 0, 0), (rng, 0, stories), rng, blocked,
                    {"kind": "wall", "feature": "w"} if blocked else None, inter,
                    list(visibility), stories, False, target_modifier, "standing", posture_b,
                    "day")


@pytest.mark.parametrize("meters,band", [
    (14, "short"), (16, "medium"), (30, "medium"), (32, "long"), (60, "long"),
    (62, "extreme"), (120, "extreme"), (122, "out-of-range"),
])
def test_range_bands_double_from_the_printed_range(meters, band):
    assert range_band("15", meters) == band  # printed range 15 m (L400)
    assert range_band("pistol:15", meters) == band


def test_range_modifiers_and_throws():
    mods = [DC.modifiers(facts(rng=d), weapon="20")["range_modifier"] for d in (10, 20, 40, 80)]
    assert mods == [4, 0, -4, -6]  # 20, 40, 80, 160 m (L400)
    assert DC.modifiers(facts(rng=81), weapon="20")["hit_modifier"] is None
    # throw range 4 x STR = 20 m; twice that is Difficult (L84, L507)
    assert range_band("thrown:5", 20) == "normal" and range_band("thrown:5", 40) == "long"
    assert range_band("thrown:5", 42) == "out-of-range"
    r = DC.modifiers(facts(rng=15), weapon="thrown:5")
    assert (r["range_band"], r["difficulty"], r["hit_modifier"]) == ("long", "Difficult", 0)
    with pytest.raises(ValueError, match="printed short range"):
        range_band("pistol", 10)


@pytest.mark.parametrize("cond,vision,mod", [
    ("partial-darkness", "normal", -4), ("full-darkness", "normal", -6), ("smoke", "normal", -6),
    ("partial-darkness", "low-light", 0), ("full-darkness", "low-light", -4),
    ("smoke", "low-light", -6), ("full-darkness", "thermographic", 0),
    ("smoke", "thermographic", -2),
])
def test_target_obscured_rows_by_vision(cond, vision, mod):
    assert visibility_modifier([cond], vision)[0] == mod


def test_obscured_rows_do_not_add_the_worst_counts():
    assert visibility_modifier(["partial-darkness", "smoke"], "normal")[0] == -6
    assert visibility_modifier(["full-darkness", "smoke"], "thermographic")[0] == -2


def test_prone_minus_four_cover_changes_no_roll_and_area_sign_flips():
    r = DC.modifiers(facts(rng=3, posture_b="prone", kinds=("foliage",)), weapon="10")
    assert (r["prone"], r["cover"], r["elevation"], r["total"]) == (-4, 0, 0, -4)
    assert r["covered_locations"] == []  # foliage hides, stops nothing
    assert r["hit_modifier"] == 0  # 6 m short +4, prone -4
    lw = DC.modifiers(facts(kinds=("low-wall",)))
    assert lw["covered_locations"] == ["left-leg", "right-leg"]
    lwp = DC.modifiers(facts(kinds=("low-wall",), posture_b="prone"))
    assert len(lwp["covered_locations"]) == 6
    assert DC.modifiers(facts(target_modifier=2))["target_modifier"] == -2
    assert DC.modifiers(facts(stories=6))["elevation"] == 0


def test_blocked_means_no_direct_fire_and_no_barrier_ratings():
    r = DC.modifiers(facts(blocked=True), weapon="40")
    assert r["blocked"] and r["range_band"] == "short" and r["hit_modifier"] is None
    with pytest.raises(ValueError, match="Armor Values of Cover Chart"):
        DC.barrier("average")


def test_end_to_end_smoke_and_prone_target():
    areas = (m.Area("smoke", rect(3.5, -0.5, 4.5, 5.5)), m.Area("foliage", rect(5.5, 1.5, 6.5, 2.5)))
    bd = board_of([], [], pave=pavement(areas=areas))
    f = line_of_sight(bd, (0, 2, 0), (9, 2, 0), posture_b="prone")
    dc = get_ruleset("darkcon")
    r = dc.modifiers(f, vision="normal", weapon="10")
    # 9 dots = 18 m: medium for a 10 m weapon (0); thick smoke -6; prone -4
    assert (r["range_m"], r["range_band"], r["visibility"], r["prone"]) == (18, "medium", -6, -4)
    assert r["hit_modifier"] == -10
    assert dc.modifiers(f, vision="thermographic", weapon="10")["hit_modifier"] == -6
