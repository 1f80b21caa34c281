"""sr3: Shadowrun 3rd-edition-era target numbers from LOS facts (sr3_combat.md tables)."""

import pytest

from engine import model as m
from engine.los import LosFacts, line_of_sight
from engine.rules import get_ruleset
from engine.rules.sr3 import barrier_rating, range_band, visibility_modifier
from tests.builders import board_of, building, outer_walls, pavement, rect

SR3 = get_ruleset("sr3")


def facts(rng=5, blocked=False, blocked_by=None, kinds=(), visibility=(), stories=0,
          target_modifier=0, posture_b="standing"):
    inter = [{"kind": k, "feature": f"f{i}", "reason": ""} for i, k in enumerate(kinds)]
    return LosFacts((0, 0, 0), (rng, 0, stories), rng, blocked, blocked_by, inter,
                    list(visibility), stories, False, target_modifier, "standing", posture_b,
                    "day")


# ------------------------------------------------------------------ visibility table (L500-511)
@pytest.mark.parametrize("cond,vision,mod", [
    ("partial-darkness", "normal", 2),  # Partial Light
    ("partial-darkness", "low-light", 1),  # +1/0: electronic
    ("partial-darkness", "low-light-natural", 0),
    ("partial-darkness", "thermographic", 2),
    ("partial-darkness", "thermographic-natural", 1),
    ("full-darkness", "normal", 8),
    ("full-darkness", "low-light", 8),
    ("full-darkness", "low-light-natural", 8),
    ("full-darkness", "thermographic", 4),
    ("full-darkness", "thermographic-natural", 2),
    ("smoke", "normal", 6),  # Heavy Smoke/Fog/Rain
    ("smoke", "low-light", 6),
    ("smoke", "low-light-natural", 4),
    ("smoke", "thermographic", 1),
    ("smoke", "thermographic-natural", 0),
])
def test_visibility_table_rows(cond, vision, mod):
    assert visibility_modifier([cond], vision)[0] == mod


def test_visibility_worst_light_plus_smoke_adds_without_a_cap():
    # the light is one condition: full darkness wins over partial light
    assert visibility_modifier(["partial-darkness", "full-darkness"], "thermographic") == (
        4, ["Full Darkness"])
    assert visibility_modifier(["full-darkness", "smoke"], "thermographic") == (
        5, ["Full Darkness", "Heavy Smoke/Fog/Rain"])
    assert visibility_modifier(["partial-darkness", "smoke"], "normal")[0] == 8  # 2 + 6
    # the book states no cap: 8 + 6 (issue 10 item 4)
    assert visibility_modifier(["full-darkness", "smoke"], "normal")[0] == 14
    with pytest.raises(ValueError, match="vision 'x-ray'"):
        visibility_modifier([], "x-ray")


# ------------------------------------------------------------------ range table (L396-432)
@pytest.mark.parametrize("weapon,meters,band", [
    ("heavy-pistol", 4, "short"), ("heavy-pistol", 6, "medium"), ("heavy-pistol", 20, "medium"),
    ("heavy-pistol", 22, "long"), ("heavy-pistol", 60, "extreme"),
    ("heavy-pistol", 62, "out-of-range"),
    ("lmg", 20, "short"),  # Wedge: "within 20 meters" is short range for the LMG (L690)
    ("sniper-rifle", 200, "long"), ("sniper-rifle", 202, "extreme"),
    ("grenade-launcher", 4, "too-close"),  # arms after 5 m (L429, L894)
    ("grenade-launcher", 6, "short"), ("missile-launcher", 18, "too-close"),
    ("missile-launcher", 20, "short"),
    # bow at Strength Minimum 5: 0-5 / 6-50 / 51-150 / 151-300 (L426)
    ("bow:5", 4, "short"), ("bow:5", 6, "medium"), ("bow:5", 50, "medium"),
    ("bow:5", 52, "long"), ("bow:5", 150, "long"), ("bow:5", 300, "extreme"),
    ("bow:5", 302, "out-of-range"),
    ("grenade:4", 12, "short"), ("grenade:4", 28, "medium"), ("grenade:4", 120, "extreme"),
    ("SMG", 40, "medium"), ("Heavy Pistol", 40, "long"),
])
def test_weapon_range_bands(weapon, meters, band):
    assert range_band(weapon, meters) == band


def test_weapons_without_a_row_or_strength_are_refused():
    with pytest.raises(ValueError, match="no row in the Weapon Range Table"):
        range_band("railgun", 10)
    with pytest.raises(ValueError, match="bow:STR"):
        range_band("bow", 10)


def test_base_target_number_by_band_and_dots_to_meters():
    for dots, band, tn in ((2, "short", 4), (10, "medium", 5), (20, "long", 6), (30, "extreme", 9)):
        r = SR3.modifiers(facts(rng=dots), weapon="heavy-pistol")
        assert (r["range_m"], r["range_band"], r["base_target_number"], r["target_number"]) == (
            dots * 2, band, tn, tn)
    out = SR3.modifiers(facts(rng=31), weapon="heavy-pistol")
    assert out["range_band"] == "out-of-range" and out["target_number"] is None


# ------------------------------------------------------------------ cover, prone, elevation
def test_partial_cover_is_plus_four_once_whatever_the_count():
    assert SR3.modifiers(facts(kinds=("window",)))["cover"] == 4
    r = SR3.modifiers(facts(kinds=("door", "foliage", "foliage", "low-wall")), weapon="smg")
    assert r["cover"] == 4 and r["total"] == 4
    assert r["target_number"] == 8  # 5 dots = 10 m: SMG short, 4 + 4
    assert SR3.modifiers(facts())["cover"] == 0


def test_prone_and_height_change_nothing_for_ranged_fire():
    r = SR3.modifiers(facts(rng=8, stories=5, posture_b="prone"), weapon="assault-rifle")
    assert (r["prone"], r["elevation"], r["total"]) == (0, 0, 0)
    assert r["target_number"] == 5  # 16 m: assault rifle medium
    near = SR3.modifiers(facts(rng=1, posture_b="prone"))
    assert near["prone"] == 0


def test_cover_and_darkness_add_up_and_tn_never_below_two():
    r = SR3.modifiers(facts(rng=12, kinds=("window",), visibility=("partial-darkness",)),
                      vision="normal", weapon="heavy-pistol")
    assert (r["cover"], r["visibility"], r["total"], r["target_number"]) == (4, 2, 6, 12)
    assert r["visibility_result"] == "impaired"
    low = SR3.modifiers(facts(rng=1, target_modifier=-5), weapon="light-pistol")
    assert low["total"] == -5 and low["target_number"] == 2
    dark = SR3.modifiers(facts(visibility=("full-darkness",)), vision="normal")
    assert dark["visibility_result"] == "blind" and dark["blocked"] is False


def test_blind_fire_through_a_wall_but_not_through_a_building():
    wall = facts(rng=7, blocked=True, blocked_by={"kind": "wall", "feature": "w"})
    r = SR3.modifiers(wall, weapon="heavy-pistol")
    assert r["blocked"] and r["target_number"] is None
    assert r["blind_fire"] == 8 and r["blind_fire_target_number"] == 13  # 14 m: 5 + 8
    bld = facts(rng=7, blocked=True, blocked_by={"kind": "building", "feature": "b"})
    r2 = SR3.modifiers(bld, weapon="heavy-pistol")
    assert r2["blind_fire"] == 0 and r2["blind_fire_target_number"] is None


# ------------------------------------------------------------------ barrier ratings (L946-992)
def test_barrier_ratings_per_class_and_kind():
    assert [SR3.barrier(c) for c in ("thin", "average", "thick")] == [(4, 4), (12, 12), (16, 16)]
    assert [SR3.barrier(c) for c in ("standard", "reinforced")] == [(2, 2), (8, 8)]
    assert [barrier_rating(c, "door") for c in ("thin", "average", "thick")] == [3, 4, 6]
    assert barrier_rating("average", "fence") == 12
    # Firing Through: armor 3 behind a Barrier 4 (a regular door) takes 7 off the Power (L967)
    assert 3 + SR3.barrier("average", kind="door")[1] == 7
    with pytest.raises(ValueError, match="barrier class 'paper'"):
        SR3.barrier("paper")


# ------------------------------------------------------------------ end to end
def test_end_to_end_door_and_hole_then_wall():
    w, h = 10, 4
    lv = m.Level(0, walls=outer_walls(w, h) + (m.Wall(path=((4.5, -0.5), (4.5, 3.5)), cls="thick"),),
                 doors=(m.Opening("door", ((4.5, 1.5), (4.5, 2.5))),),
                 holes=(m.Opening("hole", ((9.5, 1.5), (9.5, 2.5))),))
    areas = (m.Area("dark", rect(11.5, -0.5, 13.5, 5.5)),)
    bd = board_of([building("house", w, h, levels=(lv,))], [m.Placement("house", (0, 0))],
                  pave=pavement(areas=areas))
    f = line_of_sight(bd, (1, 2, 0), (12, 2, 0))
    r = get_ruleset("sr3").modifiers(f, vision="normal", weapon="heavy-pistol")
    # 11 dots = 22 m: heavy pistol long (TN 6); door + hole: partial cover +4 once;
    # the target stands in a dark area: Partial Light +2
    assert (r["range_m"], r["range_band"], r["cover"], r["visibility"]) == (22, "long", 4, 2)
    assert r["target_number"] == 12
    thermo = get_ruleset("sr3").modifiers(f, vision="thermographic-natural", weapon="heavy-pistol")
    assert thermo["target_number"] == 11
    g = line_of_sight(bd, (1, 0, 0), (8, 0, 0))
    rg = get_ruleset("sr3").modifiers(g, weapon="heavy-pistol")
    assert rg["blocked"] and rg["blind_fire_target_number"] == 13
