"""sr3 combat arithmetic against seed 001's worked examples (line numbers cite the seed)."""

import itertools

import pytest

from engine import model as m
from engine.rules import sr3_combat as c


def scripted(values):
    it = iter(values)
    return lambda: next(it)


# ------------------------------------------------------------------ initiative (l.37-100)
def test_longbone_initiative_and_phases():
    # l.52: Reaction 3 (5), 2D6 roll 7 -> 12; l.70: phases 12 and 2
    total = c.initiative_total(5, [3, 4])
    assert total == 12
    assert c.phases(total) == [12, 2]


def test_shark_and_the_multiple_actions_table():
    # l.70: Reaction 5 (9), 3D6 rolling 18 -> 27, phases 27, 17, 7
    assert c.initiative_total(9, [6, 6, 6]) == 27
    assert c.phases(27) == [27, 17, 7]
    # the table l.63-68
    assert c.phases(40) == [40, 30, 20, 10]
    assert c.phases(12) == [12, 2]
    assert c.phases(8) == [8]
    assert c.phases(10) == [10]  # no Combat Phase 0 (l.54)
    assert c.phases(None) == []


def test_initiative_tie_goes_to_the_higher_adjusted_reaction():
    # l.79: Frost and Seventh Son both 15; Frost's adjusted Reaction 12 beats 7
    order = c.pass_order({"seventh-son": (15, 7, 7), "frost": (15, 12, 5)})
    assert order == [(15, "frost"), (15, "seventh-son"), (5, "frost"), (5, "seventh-son")]
    # still tied: the natural Reaction decides (l.75)
    order = c.pass_order({"a": (9, 6, 3), "b": (9, 6, 4)})
    assert [w for _p, w in order] == ["b", "a"]
    # the faster character's later pass still comes after a slower first pass above it
    order = c.pass_order({"fast": (27, 9, 5), "slow": (20, 4, 4)})
    assert order == [(27, "fast"), (20, "slow"), (17, "fast"), (10, "slow"), (7, "fast")]


def test_wounds_come_off_reaction_before_the_roll():
    # l.1612: the Initiative modifier reduces Reaction; at 0 or below no actions that turn
    assert c.initiative_total(5, [4], wound_modifier=2) == 7
    assert c.initiative_total(3, [6], wound_modifier=3) is None
    assert c.phases(c.initiative_total(3, [6], wound_modifier=3)) == []


# ------------------------------------------------------------------ success tests (l.563-565)
LIAM = [3, 4, 3, 2, 5, 5, 1, 2, 6, 5]


def test_liam_success_counts():
    assert c.successes(LIAM, 4) == 5
    # the text says 3 at TN 5, but its own dice give 5, 5, 6, 5: four (digest 22.1)
    assert c.successes(LIAM, 5) == 4
    assert c.successes(LIAM, 1) == 9  # a TN below 2 counts as 2 (l.439): the 1 fails


@pytest.mark.parametrize("reroll,expected", [(2, 1), (1, 0), (6, 1)])
def test_rule_of_six_at_tn_8(reroll, expected):
    # l.565: at TN 8 only the 6 is re-rolled and needs 2 or better
    rolls = LIAM[:8] + [6, reroll] + ([3] if reroll == 6 else []) + LIAM[9:]
    dice = c.roll_pool(scripted(rolls), 10, 8)
    assert c.successes(dice, 8) == expected
    assert dice[8] == 6 + reroll + (3 if reroll == 6 else 0)


def test_rule_of_six_odds():
    assert c.p_die(4) == pytest.approx(0.5)
    assert c.p_die(6) == pytest.approx(1 / 6)
    assert c.p_die(7) == pytest.approx(1 / 6)  # a 6 and any re-roll
    assert c.p_die(8) == pytest.approx(1 / 6 * 5 / 6)  # a 6 and then 2+
    assert c.p_die(13) == pytest.approx(1 / 36)
    assert c.p_die(1) == pytest.approx(5 / 6)  # TN floor 2


def test_odds_agree_with_counting_every_fall_of_the_dice():
    # two attack dice at TN 5 against one Body die at TN 4, base M: enumerate all 6^3 falls
    hit = exp = 0.0
    for a1, a2, b in itertools.product(range(1, 7), repeat=3):
        out = c.ranged_outcome(c.successes([a1, a2], 5), c.successes([b], 4), 0, "M")
        if out.level:
            hit += 1 / 216
            exp += out.boxes / 216
    got = c.ranged_odds(2, 5, 1, 0, 4, "M")
    assert got[0] == pytest.approx(hit)
    assert got[1] == pytest.approx(exp)
    # by hand: two sure dice against nothing stage M up to S 25/36 of the time
    assert c.ranged_odds(2, 2, 0, 0, 4, "M") == pytest.approx((35 / 36, 5.0))


# ------------------------------------------------------------------ resistance, staging
def test_snot_resists_liam():
    # l.576-578: Power 9, 5 points of armour -> TN 4; 2, 3, 4, 4, 6 -> 3 successes
    tn = c.resistance_tn(9, 5)
    assert tn == 4
    assert c.successes([2, 3, 4, 4, 6], tn) == 3
    assert c.resistance_tn(6, 5) == 2  # never below 2 (l.570)


@pytest.mark.parametrize("attack,resist,level", [
    (5, 3, "S"),  # l.595: 2 net -> M to S
    (3, 5, "L"),  # l.596: the defender 2 up -> L
    (3, 7, None),  # l.596: 4 more -> no damage
    (4, 4, "M"),  # l.597: a tie is the base level
    (7, 3, "D"),  # l.598: 2 more successes -> D
    (6, 3, "S"),  # 3 net is one full pair
])
def test_staging_of_the_predator(attack, resist, level):
    code = c.parse_damage_code("9M")
    assert c.ranged_outcome(attack, resist, 0, code.level).level == level


def test_misses():
    assert c.ranged_outcome(0, 0, 0, "D").miss == "no successes"  # l.563
    out = c.ranged_outcome(2, 1, 3, "S")  # the pool alone beats the attack (l.594)
    assert out.miss == "clean miss" and out.level is None
    assert c.ranged_outcome(3, 0, 3, "S").level == "S"  # equal is not above


def test_damage_codes():
    assert str(c.parse_damage_code("9M")) == "9M"
    assert c.parse_damage_code("12M (Stun)") == c.DamageCode(12, "M", stun=True)
    assert c.parse_damage_code("(Str+3)M", strength=5).power == 8
    assert c.parse_damage_code("(Str)M Stun", strength=4) == c.DamageCode(4, "M", stun=True)
    with pytest.raises(ValueError, match="Strength"):
        c.parse_damage_code("(Str+2)M")
    with pytest.raises(ValueError, match="not Power"):
        c.parse_damage_code("nine")


def test_flechette_against_no_armour():
    # l.714: a 9M heavy pistol with flechettes is 9S against an unarmoured target
    code = c.parse_damage_code("9M(f)")
    assert str(c.flechette_code(code, 0)) == "9S(f)"
    assert c.flechette_code(code, 3) == code
    # l.716: against armour, the higher of 2 x Impact and Ballistic
    assert c.armour_against(code, 5, 3, "firearm") == 6


# ------------------------------------------------------------------ ranged TN, recoil
def test_burst_and_full_auto_recoil():
    # l.479: two bursts +3 then +6; a 7-round full-auto burst +7; two 5-round bursts +5, +10
    assert [c.recoil("BF", k, 3, 0) for k in (0, 1)] == [3, 6]
    assert c.recoil("FA", 0, 7, 0) == 7
    assert [c.recoil("FA", 0, 5, 0), c.recoil("FA", 5, 5, 0)] == [5, 10]
    assert [c.recoil("SA", k, 1, 0) for k in (0, 1)] == [0, 1]  # l.646
    assert c.recoil("BF", 0, 2, 0) == 2  # a round-short burst (l.662)
    # heavy weapons double what compensation leaves; the MMG example (l.483) says +6 for
    # "10 rounds" because it counts 9 of them (digest 22.2); by the +1-a-round rule it is 8
    assert c.recoil("FA", 0, 10, 6, heavy=True) == 8
    assert c.recoil("FA", 0, 9, 6, heavy=True) == 6


def test_wedge_full_auto_on_three_punks():
    # l.687-694: Valiant LMG 7S, recoil compensation 3, laser sight, all within 20 m
    code = c.parse_damage_code("7S")
    bursts = [(0, 3, 0), (3, 3, 1), (6, 4, 2)]  # rounds before, rounds, earlier targets
    got = []
    for before, rounds, others in bursts:
        s = c.Situation(aid="laser", range_m=15, other_targets=others,
                        recoil=c.recoil("FA", before, rounds, 3))
        tn, _mods = c.ranged_tn("short", 0, s)
        got.append((str(c.burst_code(code, "FA", rounds)), tn))
    assert got == [("10D", 3), ("10D", 8), ("11D", 14)]


def test_burst_fire_code():
    # l.670: a burst is +3 Power and one level up; a short burst +2 Power, same level
    assert str(c.burst_code(c.parse_damage_code("6M"), "BF", 3)) == "9S"
    assert str(c.burst_code(c.parse_damage_code("6M"), "BF", 2)) == "8M"
    assert str(c.burst_code(c.parse_damage_code("9M"), "SA", 1)) == "9M"


def test_ranged_tn_modifiers():
    # base TN per band (l.391) + movement (l.464-467) + wounds, never below 2
    assert c.ranged_tn("medium", 0, c.Situation())[0] == 5
    assert c.ranged_tn("short", 4, c.Situation(attacker_pace="walk"))[0] == 9
    assert c.ranged_tn("long", 0, c.Situation(attacker_pace="run", wounds=2))[0] == 12
    assert c.ranged_tn("short", 0, c.Situation(attacker_pace="run",
                                              difficult_ground=True))[0] == 10
    tn, mods = c.ranged_tn("short", 0, c.Situation(aid="smartlink", target_stationary=True,
                                                  aimed=2))
    assert tn == 2 and mods["smartlink"] == -2  # 4 - 2 - 1 - 2 = -1 -> 2
    # laser sights stop at 50 m and in smoke (l.545)
    assert "laser" not in c.ranged_tn("long", 0, c.Situation(aid="laser", range_m=60))[1]
    assert "laser" not in c.ranged_tn("short", 6, c.Situation(aid="laser", smoke=True))[1]
    assert c.ranged_tn("extreme", 0, c.Situation(target_running=True,
                                                 blind_fire=True))[0] == 19


def test_firing_through_a_barrier():
    # l.967: 3 points of armour behind Barrier 4 take 7 off the Power
    assert c.resistance_tn(12, 3, barrier=4) == 5
    assert c.through_barrier(9, 4) == {"stopped": False, "power_left": 5, "barrier_rating": 4}
    assert c.through_barrier(9, 12)["stopped"]  # the rating above the Power stops it (l.969)
    assert not c.through_barrier(12, 12)["stopped"]


# ------------------------------------------------------------------ melee (l.1046-1166)
def test_zipperhead_and_geist():
    zip_s = c.successes([1, 2, 2, 2, 3, 3, 4, 5, 6], 4)
    geist_s = c.successes([1, 1, 2, 2, 4, 4, 5, 5, 6], 4)
    assert (zip_s, geist_s) == (3, 5)
    # Geist is the attacker (a tie would have gone her way, l.1154)
    assert c.melee_outcome(geist_s, zip_s) == ("attacker", 2)
    assert c.melee_outcome(3, 3) == ("attacker", 0)
    assert c.melee_outcome(zip_s, geist_s) == ("defender", 2)
    # l.1159: her unarmed (Str)M Stun at Strength 4 is 4M Stun, 2 net -> Serious Stun
    unarmed = c.weapon_stats("unarmed", [], strength=4)
    assert str(unarmed.code) == "4M Stun"
    staged = unarmed.code.staged(c.staging(2))
    assert str(staged) == "4S Stun"
    # l.1164-1166: TN 4 - 2 impact = 2; 1, 1, 2, 4, 6 -> 3 successes -> one level: M Stun
    tn = c.resistance_tn(4, 2)
    body = c.successes([1, 1, 2, 4, 6], tn)
    assert (tn, body) == (2, 3)
    assert c.resist_melee(staged.level, body) == "M"
    assert c.resist_melee("L", 2) is None


def test_melee_tn_and_reach():
    assert c.melee_tn()[0] == 4  # l.1050
    assert c.melee_tn(reach_diff=1, opponent_prone=True)[0] == 2  # 4 - 1 - 2 = 1 -> 2
    assert c.melee_tn(reach_diff=-2, wounds=1)[0] == 7
    assert c.melee_tn(friends=6)[0] == 2  # at most -4 (l.1130)
    # visibility at half, round down, except Full Darkness (l.1116)
    assert c.melee_tn(visibility=5)[0] == 6
    assert c.melee_tn(visibility=8, full_darkness=True)[0] == 12


def test_melee_odds_tie_favours_the_attacker():
    # one die each at TN 2: the attacker hits unless he fails and the defender succeeds
    hit, _exp, back = c.melee_odds(1, 2, 1, 2, 0, 2, "M")
    assert hit == pytest.approx(1 - (1 / 6) * (5 / 6))
    assert back == pytest.approx((1 / 6) * (5 / 6))


def test_knockdown_thresholds():
    # l.610: a Moderate wound needs more than 2 successes to stay up; 1-2 stagger; 0 falls
    assert [c.knockdown("M", n) for n in (0, 1, 2, 3)] == ["falls", "staggers", "staggers",
                                                           "stands"]
    assert c.knockdown("L", 2) == "stands"
    assert c.knockdown("D", 9) == "falls"  # always (l.615)


# ------------------------------------------------------------------ Condition Monitor
def test_condition_monitor_adds_up():
    cm = c.SR3Condition(body=4)
    cm.apply("M")
    assert (cm.physical, cm.modifier) == (3, 2)
    cm.apply("M")  # l.1598: two Moderate wounds are 6 boxes, Serious
    assert (cm.physical, cm.level_of(cm.physical), cm.modifier) == (6, "S", 3)
    assert not cm.out
    cm.apply("L")
    cm.apply("S")  # 13 boxes: past 10, near death, not yet past 10 + Body 4
    assert cm.unconscious and not cm.dead
    cm.apply("L")
    cm.apply("L")  # 15 > 14: dead (l.1604)
    assert cm.dead


def test_stun_overflows_into_physical():
    cm = c.SR3Condition(body=3)
    cm.apply("S", stun=True)
    assert (cm.stun, cm.modifier, cm.unconscious) == (6, 3, False)
    res = cm.apply("S", stun=True)  # 12 stun: 2 carry into Physical, unconscious (l.1603)
    assert (cm.stun, cm.physical, res["overflow"]) == (10, 2, 2)
    assert cm.unconscious and res["unconscious"]
    assert c.SR3Condition.from_data(cm.to_data()) == cm


def test_injury_modifiers_by_level():
    # Damage Modifiers Table l.1614-1622: L +1, M +2, S +3; each column counts
    assert [c.SR3Condition(physical=b).modifier for b in (0, 1, 2, 3, 5, 6, 9)] == \
        [0, 1, 1, 2, 2, 3, 3]
    assert c.SR3Condition(physical=1, stun=3).modifier == 3
    assert c.SR3Condition(physical=3).lowest == 7
    assert c.SR3Condition().lowest is None


# ------------------------------------------------------------------ grenades, barriers
def test_grenade_blast_by_metre():
    # l.915: offensive 3 m -> 7S, 6 m -> 4S; defensive 3 m -> 4S, 6 m -> nothing
    assert str(c.blast_code("offensive", 3)) == "7S"
    assert str(c.blast_code("offensive", 6)) == "4S"
    assert str(c.blast_code("defensive", 3)) == "4S"
    assert c.blast_code("defensive", 6) is None
    assert str(c.blast_code("concussion", 2)) == "10M Stun"


def test_grenade_range_and_scatter():
    # Grenade Range Table l.870-875: Strength 4 -> 0-12 / 28 / 60 / 120 m
    assert [c.grenade_band(4, d) for d in (12, 13, 28, 60, 120, 121)] == \
        ["short", "medium", "medium", "long", "extreme", "out-of-range"]
    # l.889-891: 2 m a success (standard), 4 m (aerodynamic); 0 or less is on target
    assert c.scatter_metres(10, 3, "standard") == 4
    assert c.scatter_metres(10, 3, "aerodynamic") == 0
    assert (c.scatter_dice("standard"), c.scatter_dice("aerodynamic")) == (3, 2)
    assert c.scatter_direction(1) == 0.0


def test_breaking_a_door():
    # l.990: a firearm meets twice the rating; a 9 Power round against a BR 4 door holes it
    assert c.break_through(9, 4)["effect"] == "holed"
    assert c.break_through(3, 4)["effect"] == "holds"  # 3 < 8 / 2
    assert c.break_through(6, 4)["effect"] == "damaged"
    # blunt melee meets the rating itself (l.971)
    assert c.break_through(5, 4, kind="melee")["effect"] == "holed"
    assert c.break_through(5, 4, kind="melee", edged_melee=True)["effect"] == "damaged"
    # l.992: a regular door opens at half its rating, a security door at 0
    assert c.door_opens(2, 4) and not c.door_opens(3, 4)
    assert not c.door_opens(4, 8, security=True) and c.door_opens(0, 8, security=True)


# ------------------------------------------------------------------ sheets
def sheet(stats, weapons=(), metatype="human"):
    return m.Character(name="Ace", metatype=metatype, stats=tuple(stats),
                       weapons=tuple(weapons))


BASE = (("body", 4), ("quickness", 5), ("strength", 3), ("intelligence", 4), ("willpower", 5))


def test_character_defaults():
    st = c.character_stats(BASE)
    assert st.reaction == 4  # (4 + 5) / 2, l.44
    assert st.combat_pool == 7  # (5 + 4 + 5) / 2, l.267
    assert st.initiative_dice == 1
    assert (st.walk_m, st.run_m) == (5.0, 15.0)  # l.212, l.221-230
    dwarf = c.character_stats(BASE, "dwarf")
    assert dwarf.run_m == 10.0
    heavy = c.character_stats((*BASE, ("ballistic", 7)))
    assert heavy.combat_pool == 5  # 7 - (7 - 5), l.279
    assert c.attack_pool(5, 9, 9) == 4  # half the pool
    assert c.attack_pool(3, 12, 12) == 3  # the skill caps it (l.271)


def test_check_character_names_what_is_missing():
    pistol = m.Weapon(type="heavy-pistol", name="Predator", stats=(("damage", "9M"),))
    assert c.check_character(sheet([*BASE, ("pistols", 4)], [pistol])) == []
    got = c.check_character(sheet(BASE[:3], [pistol]))
    assert got == ["sr3 needs stats 'intelligence' (Reaction (l.44) and Combat Pool "
                   "(l.267))", "sr3 needs stats 'willpower' (Combat Pool (l.267))"]
    got = c.check_character(sheet(BASE, [pistol]))
    assert got == ["weapon Predator: sr3 needs stats 'pistols' (the skill it is fired or "
                   "thrown with, l.556)"]
    bare = m.Weapon(type="smg", name="Uzi")
    assert "weapon Uzi: missing damage" in c.check_character(sheet([*BASE, ("firearms", 3)],
                                                                  [bare]))[0]
    odd = c.check_character(sheet([*BASE, ("luck", 3), ("firearms", "x")]))
    assert odd[0].startswith("stats 'luck' is not an sr3 figure")
    assert "must be a whole number" in odd[1]
    mode = m.Weapon(type="smg", name="Uzi", stats=(("damage", "6M"), ("mode", "BF/XX")))
    assert "XX is not one of SS, SA, BF, FA" in c.check_character(
        sheet([*BASE, ("smgs", 3)], [mode]))[0]
    # a katana needs Armed Combat but no damage figure: the table has (Str+3)M
    katana = m.Weapon(type="katana")
    assert c.check_character(sheet([*BASE, ("armed_combat", 4)], [katana])) == []
    assert "armed_combat" in c.check_character(sheet(BASE, [katana]))[0]
