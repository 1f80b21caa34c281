"""sr1 combat rules (engine/rules/sr1_combat.py) against seed 004's own worked numbers."""

from itertools import cycle

import pytest

from engine import model as m
from engine.rules import sr1_combat as c


def faces(*values):
    it = iter(values)
    return lambda: next(it)


# ------------------------------------------------------------------ dice (l.160-202)

def test_threshold_example_two_and_four_successes():
    # seed 004 l.190: Computer 6 vs TN 5, threshold 3, only 2 dice beat it -> zero net
    decker = c.test(6, 5, faces(5, 6, 1, 2, 3, 4, 4))  # the 6 explodes into 6+1 = 7
    assert decker.dice == (5, 7, 2, 3, 4, 4) and decker.successes == 2
    assert c.net_successes(decker.successes, 3) == 0
    # l.192: Computer 4, all four beat TN 5, threshold 3 -> two net successes
    friend = c.test(4, 5, faces(5, 5, 5, 5))
    assert c.net_successes(friend.successes, 3) == 2


def test_rule_of_six_beats_tn_above_six_and_rule_of_one():
    assert c.die_total(faces(6, 6, 3)) == 15  # l.196: re-roll and add while a 6 comes up
    hit = c.test(1, 13, faces(6, 6, 1))  # 6 + 6 + 1 = 13 beats TN 13
    assert hit.successes == 1
    assert c.p_die(6) == c.p_die(7) == pytest.approx(1 / 6)
    assert c.p_die(8) == pytest.approx(1 / 6 * 5 / 6)
    assert c.p_die(13) == pytest.approx(1 / 36)
    # l.200: no TN of 1; all ones is a Critical Glitch (l.202)
    low = c.test(3, 1, faces(1, 1, 1))
    assert low.target_number == 2 and low.successes == 0 and low.glitch
    assert c.p_die(1) == c.p_die(2) == pytest.approx(5 / 6)


def test_success_distribution_is_the_binomial_of_one_die():
    assert sum(c.distribution(5, 7)) == pytest.approx(1.0)
    assert c.p_at_least(2, 4) == pytest.approx(0.75)
    assert c.p_at_least(3, 5, 3) == pytest.approx((2 / 6) ** 3)


# ------------------------------------------------------------------ damage (l.1138-1172, l.1372)

def test_staging_example_5m2():
    code = c.parse_code("5M2")
    s = c.stage(code, attack_successes=4, resistance_successes=4)
    # l.1158-1164: 3 extra successes stage up once to 5S2; 4 resistance successes stage
    # down twice: Light, 1 box
    assert (s.staged_up, s.level_after_attack, s.staged_down, s.level, s.boxes) == \
        (1, "S", 2, "L", 1)
    assert s.to_data()["staged_code"] == "5S2"


def test_staging_caps_at_deadly_and_resistance_reaches_nothing():
    s = c.stage(c.parse_code("6S1"), 5, 0)
    assert (s.level, s.above_deadly, s.boxes) == ("D", 3, 10)  # armor lost per stage (l.1168)
    assert c.stage(c.parse_code("6L2"), 1, 2).level is None


def test_boxes_per_wound_category():
    assert c.BOXES == {"L": 1, "M": 3, "S": 6, "D": 10}  # l.1372


def test_damage_codes_parse():
    assert c.parse_code("4M4 Stun") == c.DamageCode(4, "M", 4, True)  # stun ammo, l.1444
    assert c.parse_code("(STR)M1 Stun", strength=5) == c.unarmed_code(5)  # l.1178
    assert c.parse_code("(STR+2)L2", strength=4).power == 6
    with pytest.raises(ValueError, match="seed 004"):
        c.parse_code("9 damage")


def test_successful_dodge_needs_the_dodge_dice_alone():
    code = c.parse_code("5M2")
    assert not c.dodged(code, "S", 4)  # 2 stages off Serious leaves Light (l.1254)
    assert c.dodged(code, "S", 6)  # 3 stages: nothing left, a clean miss (l.1250)


def test_wound_modifiers_stack_across_tracks():
    cond = c.SR1Condition(body=4)
    cond.apply(1, stun=False)
    cond.apply(1, stun=True)
    # l.1172: Light injury and Light fatigue -> +2 to TNs, -2 Initiative (l.1174)
    assert (cond.modifier, cond.initiative_penalty) == (2, 2)
    cond.apply(5, stun=False)  # 6 physical boxes: Serious, +3
    assert cond.modifier == 4 and cond.lowest == 12 * 4 // 10 and not cond.out


def test_knocked_out_on_mental_deadly_then_stun_turns_physical():
    cond = c.SR1Condition(body=3)
    res = cond.apply(10, stun=True)
    assert res["unconscious"] and cond.out and not cond.dead  # l.1496
    cond.apply(3, stun=True)  # l.1498: after K.O. stun becomes physical
    assert (cond.mental, cond.physical) == (10, 3)
    again = c.SR1Condition.from_data(cond.to_data())
    assert again == cond and cond.to_data()["kind"] == "sr1"


def test_physical_overflow_past_body_kills():
    cond = c.SR1Condition(body=3)
    cond.apply(10, stun=False)
    assert cond.unconscious and not cond.dead
    cond.apply(3, stun=False)
    assert not cond.dead  # 3 boxes beyond Deadly = Body 3
    cond.apply(1, stun=False)
    assert cond.dead


def test_expected_boxes_from_exact_odds():
    # one die at TN 2 hits 5/6 of the time; staging 9 never moves a Moderate: 3 boxes
    p, e = c.expected_boxes(c.parse_code("4M9"), 1, 2, 0)
    assert (p, e) == (pytest.approx(5 / 6), pytest.approx(2.5))
    # free successes (armor, hard cover) stage it down: 9 to Light, 18 to nothing
    assert c.expected_boxes(c.parse_code("4M9"), 1, 2, 0, auto=9)[1] == pytest.approx(5 / 6)
    assert c.expected_boxes(c.parse_code("4M9"), 1, 2, 0, auto=18)[1] == 0


# ------------------------------------------------------------------ characters

def test_reaction_speed_and_run():
    f = c.fighter({"body": 4, "quickness": 5, "strength": 4, "intelligence": 4})
    assert f.reaction == 4  # (5 + 4) / 2 rounded down (l.780, l.218)
    assert (f.speed, f.run) == (5, 20)  # l.1084, x4 (l.1135)
    troll = c.fighter({"quickness": 5}, metatype="troll")
    assert troll.run == 15  # x3 (l.1136)
    assert c.fighter({"quickness": 5}, metatype="dwarf").run == 15
    assert c.fighter({"quickness": 5}, metatype="ork").run == 20


def test_armor_does_not_stack_but_helmets_do_and_dermal_adds_dice():
    f = c.fighter({"body": 4, "ballistic": 3, "impact": 1, "helmet": 1, "dermal": 2})
    assert (f.ballistic, f.impact, f.resist_dice) == (4, 2, 6)  # l.1464-1470
    assert f.dodge_pool == 3  # Quickness, default 3 (l.814)


def test_check_character_names_what_is_missing():
    ch = m.Character(name="Kay", stats=(("body", 4), ("quickness", 0), ("firearm", 5)),
                     weapons=(m.Weapon("heavy-pistol", name="Predator"),
                              m.Weapon("smg", stats=(("damage", "6X3"),)),
                              m.Weapon("offensive-grenade", stats=(("damage", "6M3"),))))
    got = c.check_character(ch)
    assert "Kay: sr1 needs stats.strength (Strength: unarmed damage (Strength)M1 Stun " \
           "(l.1178), seed 004)" in got
    assert any("stats.quickness is 0" in g for g in got)
    assert any("stats.firearm is not an sr1 figure" in g for g in got)
    assert any("Predator: sr1 needs stats.damage" in g for g in got)
    assert any("smg: damage code '6X3'" in g for g in got)
    assert "Kay: sr1 needs stats.firearms to use the Predator (seed 004 l.1346-1364)" in got
    assert "Kay: sr1 needs stats.throwing to use the offensive-grenade (seed 004 " \
           "l.1346-1364)" in got
    ok = m.Character(name="Ok", stats=(("body", 4), ("quickness", 4), ("strength", 4),
                                       ("intelligence", 4), ("firearms", 4)),
                     weapons=(m.Weapon("smg", stats=(("damage", "6M2"), ("mode", "FA"))),))
    assert c.check_character(ok) == []


def test_weapon_figures():
    a = c.arm("defensive-grenade-airfoil", {"damage": "6M3"})
    assert (a.kind, a.payload, a.scatter, a.skill) == ("grenade", "defensive", "aerodynamic",
                                                      "throwing")
    k = c.arm("katana", {"damage": "(STR+3)M3", "reach": 1})
    assert (k.kind, k.skill, k.damage(5).power) == ("melee", "armed_combat", 8)


# ------------------------------------------------------------------ initiative (l.1018-1050)

def test_initiative_22_acts_on_22_15_8():
    assert c.phases(22) == [22, 15, 8]  # l.1038-1044


@pytest.mark.parametrize("score,n", [(1, 1), (10, 1), (11, 2), (16, 2), (17, 3), (22, 3),
                                     (23, 4), (30, 4)])
def test_extra_action_phases_table(score, n):
    assert len(c.phases(score)) == n  # l.1028-1034


def test_initiative_roll_and_wounds():
    f = c.fighter({"quickness": 6, "intelligence": 4})
    assert c.initiative(f, [4], wound_modifier=2) == 7  # 1d6 + Reaction 5 - wounds (l.1174)


def test_tiebreaks_first_phase_before_second_then_reaction():
    got = c.order([("adept", 22, 6, 1), ("sam", 15, 4, 3), ("deck", 15, 5, 1)])
    # l.1048: same phase: higher Reaction first; l.1050: a first phase beats a second phase
    assert got == [("adept", 22, 1), ("deck", 15, 1), ("sam", 15, 1), ("adept", 15, 2),
                   ("deck", 8, 2), ("sam", 8, 2), ("adept", 8, 3)]


# ------------------------------------------------------------------ shooting

def test_target_number_modifiers():
    tn = c.target_number(4, 4, moved=True, rough=True, wound=2, recoil=3, laser=True)
    # +4 cover/visibility, +1 moving (l.1114), +2 rough (l.1126), +2 wounds, +3 recoil, -1 laser
    assert tn.target_number == 15
    assert c.target_number(4, laser=True, extra={"bonus": -5}).target_number == 2  # l.200
    assert c.base_tn("short") == 4  # l.1418
    assert c.range_band("heavy-pistol", 20.0) == "medium"


def test_autofire_shots_recoil_and_power():
    assert c.auto_shots(4, 30) == 5  # skill + 1 (l.1382)
    assert c.auto_shots(8, 30) == 7  # at most 7
    assert c.auto_shots(6, 3) == 3  # or the rounds in the weapon
    assert c.recoil(5) == 5 and c.recoil(5, compensation=1) == 4  # l.1378, l.1428
    assert c.recoil(1, compensation=3) == 0  # not below 0 (l.1424)
    assert c.recoil(3, machine_gun=True) == 6  # l.1446-1448
    assert str(c.autofire_code(c.parse_code("6M3"))) == "7M3"  # l.1380


def test_best_burst_prefers_a_single_shot_when_recoil_ruins_the_burst():
    code = c.parse_code("6M3")
    shots, _e = c.best_burst(code, 1, 9, 6, 0, 30)
    assert shots == 1
    shots, e = c.best_burst(code, 6, 2, 2, 0, 30)
    assert shots > 1 and e > c.expected_boxes(code, 6, 2, 2)[1]


# ------------------------------------------------------------------ melee

def test_melee_and_interception_target_numbers():
    assert c.melee_tn().target_number == 4  # l.1196
    assert c.melee_tn(reach_advantage=True, superior_position=True).target_number == 2
    assert c.interception_tn(False).target_number == 5  # l.1090
    assert c.interception_tn(True, wound=1).target_number == 7
    assert c.opposed(3, 1) == ("attacker", 2) and c.opposed(2, 2) == (None, 0)


# ------------------------------------------------------------------ grenades (l.1273-1332)

def test_offensive_grenade_two_metres_resists_5m3():
    code = c.parse_code("6M3")
    assert str(c.blast_code(code, "offensive", 2)) == "5M3"  # l.1322
    assert str(c.blast_code(code, "offensive", 0.5)) == "6M3"  # under 1 m: full (l.1315)


def test_safe_distance_is_where_power_reaches_one():
    code = c.parse_code("6M3")
    assert c.blast_code(code, "offensive", 10) is None  # 6 - 5 = 1 (l.1330-1332)
    assert str(c.blast_code(code, "offensive", 9)) == "2M3"
    assert c.blast_code(code, "defensive", 5) is None and c.blast_radius(code, "defensive") == 5
    assert c.blast_radius(code, "offensive") == 10


def test_scatter_reduced_by_successes():
    assert c.scatter_metres(12, 2, "aerodynamic") == 2  # 5 m a success (l.1308)
    assert c.scatter_metres(7, 3, "non-aerodynamic") == 0  # 3 m a success, not below 0
    assert [c.scatter_dice(k) for k in ("non-aerodynamic", "aerodynamic", "launched")] == \
        [2, 3, 4]  # l.1292-1294
    assert c.scatter_direction(1) == 0 and c.scatter_direction(4) == 180  # l.1285


def test_grenade_damage_does_not_stage_up():
    s = c.stage(c.parse_code("6M3"), 7, 0, stage_up=False)
    assert s.level == "M" and s.staged_up == 0  # l.1311


def test_barrier_shot_assumed_rule_says_so():
    r = c.barrier_hit(6, 4)
    assert (r["damaged"], r["rating_after"], r["holed"]) == (True, 3, False)
    assert c.barrier_hit(4, 4)["damaged"] is False
    assert c.barrier_hit(9, 1)["holed"] and "assumed" in r


def test_seeded_dice_never_loop_forever():
    d = cycle([6, 6, 2])
    assert c.die_total(lambda: next(d)) == 14


def test_the_run_multiplier_is_the_rulesets_movement_rate():
    """A Fighter's run multiplier comes from a table made once of engine.rules.sr1's movement
    rates: for every metatype, what that table's own lookup gives (x4, dwarf and troll x3)."""
    from engine.rules.sr1 import SR1
    from engine.rules.sr1_combat import fighter

    for meta, want in (("human", 4.0), ("elf", 4.0), ("ork", 4.0), ("dwarf", 3.0),
                       ("troll", 3.0)):
        rates = dict(SR1.movement.rates)
        f = fighter({"quickness": 5}, meta)
        assert f.run_multiplier == rates.get(f"run-{meta}", rates["run"]) == want
        assert f.run == 5 * want
