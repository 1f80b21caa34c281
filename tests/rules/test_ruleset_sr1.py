"""sr1: ConcisionRun's cover kinds and TN floor, with sr3's numbers where it defers to SR1."""

from engine import model as m
from engine.los import LosFacts, line_of_sight
from engine.rules import get_ruleset
from engine.sight import sight
from tests.builders import board_of, pavement, rect

SR1 = get_ruleset("sr1")


def facts(rng=5, blocked=False, kinds=(), visibility=(), stories=0, target_modifier=0,
          posture_b="standing"):
    inter = [{"kind": k, "feature": f"f{i}", "reason": ""} for i, k in enumerate(kinds)]
    return LosFacts((0, 0, 0), (rng, 0, stories), rng, blocked,
                    {"kind": "wall", "feature": "w"} if blocked else None, inter,
                    list(visibility), stories, False, target_modifier, "standing", posture_b,
                    "day")


def test_short_range_base_tn_is_four_and_tn_never_one():
    r = SR1.modifiers(facts(rng=2), weapon="heavy-pistol")
    assert (r["range_m"], r["range_band"], r["base_target_number"]) == (4, "short", 4)
    low = SR1.modifiers(facts(rng=2, target_modifier=-3), weapon="heavy-pistol")
    assert low["target_number"] == 2  # 4 - 3 = 1, but a TN of 1 does not exist (L198-202)


def test_soft_cover_only_hurts_sight_hard_cover_lists_its_features():
    soft = SR1.modifiers(facts(kinds=("foliage", "window")))
    assert (soft["cover_type"], soft["cover"], soft["hard_cover"]) == ("soft", 4, [])
    hard = SR1.modifiers(facts(kinds=("door", "low-wall", "obstacle")))
    assert hard["cover_type"] == "hard" and hard["cover"] == 4
    assert hard["hard_cover"] == [{"kind": "low-wall", "feature": "f1", "hard_cover_rating": None},
                                  {"kind": "obstacle", "feature": "f2", "hard_cover_rating": None}]
    assert SR1.modifiers(facts())["cover_type"] == "none"


def test_no_prone_or_height_rule_and_blocked_is_no_shot():
    r = SR1.modifiers(facts(rng=10, stories=4, posture_b="prone"), weapon="smg")
    assert (r["prone"], r["elevation"], r["total"], r["target_number"]) == (0, 0, 0, 5)
    b = SR1.modifiers(facts(blocked=True), weapon="smg")
    assert b["blocked"] and b["target_number"] is None and b["base_target_number"] == 4


def test_borrowed_numbers_are_named_in_every_result():
    r = SR1.modifiers(facts(visibility=("smoke",)), vision="low-light")
    assert r["visibility"] == 6 and len(r["borrowed"]) == 4
    assert any("SR1 p. 66" in b for b in r["borrowed"])
    assert SR1.barrier("thick") == (16, 16) and SR1.barrier("standard") == (2, 2)


def test_end_to_end_crates_are_hard_cover():
    areas = (m.Area("obstacle", rect(2.5, -0.5, 5.5, 0.5), note="crates"),
             m.Area("dark", rect(8.5, -0.5, 9.5, 0.5), darkness="full"))
    bd = board_of([], [], pave=pavement(areas=areas))
    f = line_of_sight(bd, (0, 0, 0), (9, 0, 0))
    r = get_ruleset("sr1").modifiers(f, vision="thermographic", weapon="heavy-pistol")
    # 9 dots = 18 m: medium, base 5; crates +4; full darkness with thermographic +4
    assert (r["range_m"], r["range_band"], r["cover_type"]) == (18, "medium", "hard")
    assert [h["kind"] for h in r["hard_cover"]] == ["obstacle"]
    assert (r["cover"], r["visibility"], r["target_number"]) == (4, 4, 13)


def test_low_walls_and_obstacles_with_a_class_state_their_hard_cover_rating():
    lines = (m.Line("low-wall", ((2.5, -0.5), (2.5, 9.5)), cls="thick"),)
    areas = (m.Area("obstacle", rect(5.5, 1.5, 6.5, 2.5), cls="thin", note="car"),)
    bd = board_of([], [], pave=pavement(lines=lines, areas=areas))
    v = sight(bd, (0, 2, 0), (9, 2, 0), ruleset="sr1")
    # seed 004 l.1398: hard cover adds its rating; the ratings are sr3's Barrier Rating Table
    # (seed 001 l.946-958): a thick wall is Heavy Structural 16, a thin one Average Material 4
    assert [(h["kind"], h["hard_cover_rating"]) for h in v.mods["hard_cover"]] == [
        ("low-wall", 16), ("obstacle", 4)]
    assert v.mods["cover_type"] == "hard" and v.mods["total"] == 4
