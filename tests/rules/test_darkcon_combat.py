"""Dark Conspiracy combat numbers (engine/rules/darkcon_combat.py) against seed 003.

Worked numbers are cited by seed line; the rest are the text's formulas on symmetric cases.
"""

from __future__ import annotations

import itertools

import pytest

from engine.model import Character, Weapon
from engine.rules import darkcon_combat as dc


def _d6(seq):
    it = iter(seq)
    return lambda: next(it)


# ------------------------------------------------------------------ initiative (l.174-192)

@pytest.mark.parametrize(("score", "acts"), [
    (11, [11, 1]),        # l.176: Initiative 2 rolls 5 + 6 = 11, acts at 11 and 1
    (22, [22, 12, 2]),    # l.176: a 22 acts on 22, 12 and 2
    (10, [10]),           # l.174: a 10 does not also act on 0
    (20, [20, 10]),       # l.174: nor a 20
    (0, [0]),             # l.174: a 0 still acts on 0
    (9, [9]),
])
def test_action_scores(score, acts):
    assert dc.action_scores(score) == acts


def test_panic_checks_of_the_ambush_example():
    # l.188: Init 4 rolls 5 -> 3; Init 4 rolls 3 -> 4; Init 2 rolls 5 -> 0
    assert dc.panic_initiative(4, 5) == 3
    assert dc.panic_initiative(4, 3) == 4
    assert dc.panic_initiative(2, 5) == 0
    assert dc.panic_initiative(1, 6) == 0  # never below 0 (l.184)


def test_ambush_schedule_of_the_worked_example():
    # l.186-192: Joe (ambusher, 19), victims rolled 12, 21, 0; V2 follows Joe at 18 and 8
    order = dc.ambush_schedule({"joe": 19, "v1": 12, "v2": 21, "v3": 0}, "joe")
    assert order == [(19, "joe"), (18, "v2"), (12, "v1"), (9, "joe"), (8, "v2"), (2, "v1"),
                     (0, "v3")]


def test_initiative_dice_lose_the_wound_penalty():
    assert dc.initiative_dice(3) == 3
    assert dc.initiative_dice(3, -1) == 2   # slight wound (l.759)
    assert dc.initiative_dice(2, -3) == 0   # serious: never below 0 dice


# ------------------------------------------------------------------ task rolls (l.112-120, l.400)

def test_skill_target_difficulties():
    # l.116: skill + attribute, doubled / halved / quartered, then modifiers
    assert dc.skill_target(5, 6) == 11
    assert dc.skill_target(5, 6, "Easy") == 22
    assert dc.skill_target(5, 6, "Difficult") == 5
    assert dc.skill_target(5, 6, "Formidable") == 2
    assert dc.skill_target(5, 6, "Average", -4) == 7


def test_ability_target_and_fixed_results():
    assert dc.ability_target(6, "Difficult") == 3
    assert dc.ability_target(6, "Easy") == 12
    # l.112: 11 always fails, 1 always succeeds
    assert not dc.judge_ability(12, 11).success
    assert dc.judge_ability(0, 1).success
    assert dc.judge_ability(3, 3).success and not dc.judge_ability(3, 4).success


def test_marksmanship_fixed_results():
    # l.116: 17-20 always fail for Small Arms; l.400: a natural 2 hits, a natural 1 is critical
    assert not dc.judge_skill(30, 17, marksmanship=True).success
    assert dc.judge_skill(30, 16, marksmanship=True).success
    assert not dc.judge_skill(30, 19).success and dc.judge_skill(30, 18).success
    two = dc.judge_skill(-5, 2, marksmanship=True, band="long")
    assert two.success and not two.critical
    one = dc.judge_skill(-5, 1, marksmanship=True, band="short")
    assert one.success and one.critical
    # extreme range: only a 1 hits, and it is critical only if a 2 would have hit
    assert not dc.judge_skill(1, 2, True, "extreme").success
    assert dc.judge_skill(1, 1, True, "extreme").success
    assert not dc.judge_skill(1, 1, True, "extreme").critical
    assert dc.judge_skill(2, 1, True, "extreme").critical


def test_hit_probability_is_exact():
    assert dc.p_skill(10, True) == 10 / 20
    assert dc.p_skill(25, True) == 16 / 20    # 17-20 miss
    assert dc.p_skill(-3, True) == 2 / 20     # 1 and 2 hit
    assert dc.p_skill(-3, True, "extreme") == 1 / 20
    assert dc.p_skill(25) == 18 / 20          # other skills: 19-20 miss


# ------------------------------------------------------------------ fire

def test_aim_and_quick_shots():
    assert dc.aim_modifier(0) == -4   # l.383
    assert dc.aim_modifier(1) == 0
    assert dc.aim_modifier(3) == 2    # l.381: +1 each aiming action after the first
    assert dc.aim_modifier(9) == 4    # at most +4


def test_recoil_by_strength():
    # l.417-419: recoil 2 x 3 shots = 6 against Strength 5: later shots -1, the first none
    assert dc.recoil_modifiers(2, 3, 5) == [0, -1, -1]
    assert dc.recoil_modifiers(2, 3, 6) == [0, 0, 0]
    assert dc.recoil_modifiers(7, 2, 5) == [-2, -9]
    assert dc.steady_shots(2, 6, 5) == 3
    assert dc.steady_shots(4, 3, 5) == 1
    # l.461 walking -1, trotting halved; l.760 a serious wound halves Strength; l.423 two guns -1
    assert dc.effective_strength(7, "walk") == 6
    assert dc.effective_strength(7, "trot") == 3
    assert dc.effective_strength(7, wounded=True) == 3
    assert dc.effective_strength(7, two_weapons=True) == 6


def test_burst_hits():
    # l.430: one more round per 2 points beaten; l.431: a natural 1, one per point
    assert dc.burst_hits(12, 7, 5) == 3      # beat by 5: 1 + 2
    assert dc.burst_hits(12, 12, 5) == 1
    assert dc.burst_hits(12, 13, 5) == 0
    assert dc.burst_hits(12, 1, 5) == 5      # 1 + 11, capped at the burst
    assert dc.burst_hits(4, 1, 10) == 4      # 1 + 3
    assert dc.burst_hits(4, 1, 10, "extreme") == 2   # no critical bonus at extreme: 1 + 3 // 2
    assert dc.burst_hits(20, 17, 5) == 0     # 17 always misses
    assert dc.expected_burst_hits(12, 1) == dc.p_skill(12, True)


def test_incidental_fire():
    # l.436: half the missed rounds; Difficult Agility +1 per 2 m, +1/2/3 by range, +1 prone
    assert dc.incidental_rounds(7) == 3
    assert dc.incidental_target(6, 0, "short") == 3
    assert dc.incidental_target(6, 4, "long") == 3 + 2 + 2
    assert dc.incidental_target(6, 5, "extreme", prone=True) == 3 + 2 + 3 + 1
    # l.445: rounds go one at a time, worst failure first; nobody past his failure
    # b (failed by 4) rolls first, then a, then b again
    hits = dc.allocate_incidental(3, [("a", 1), ("b", 4)], _d6([6, 2, 5]))
    assert hits == {"b": 2, "a": 0}
    hits = dc.allocate_incidental(3, [("a", 1), ("b", 4)], _d6([1, 5, 6]))
    assert hits == {"b": 1, "a": 1}
    hits = dc.allocate_incidental(5, [("a", 1)], _d6([6]))
    assert hits == {"a": 1}   # leftover rounds ignored (l.447)


def test_penetration_and_blunt_trauma():
    # l.638: armour x PEN dice lost; l.642: a point per die absorbed
    assert dc.penetrate(3, 1, 2) == (1, 2)
    assert dc.penetrate(3, 2, 2) == (0, 3)
    assert dc.penetrate(3, 0, None) == (3, 0)
    assert dc.penetrate(3, 1, None) == (0, 3)
    assert dc.blunt_trauma(2) == 2


def test_pen_by_band():
    pen = dc.parse_pen("1-2-Nil")
    assert (dc.pen_at(pen, "short"), dc.pen_at(pen, "medium"), dc.pen_at(pen, "long"),
            dc.pen_at(pen, "extreme")) == (1, 1, 2, None)
    assert dc.pen_at(dc.parse_pen("2-Nil"), "extreme") is None
    assert dc.pen_at(dc.parse_pen("Nil"), "short") is None
    assert dc.pen_at(dc.parse_pen("1"), "extreme") == 1


def test_ammunition_examples():
    # l.477: .44 Desert Eagle 3 DAM, PEN 2-Nil; AP: 2 DAM, PEN 1-Nil
    assert dc.armor_piercing(3, (2, None)) == (2, (1, None))
    # l.479-483 table rows
    assert dc.armor_piercing(3, (None,))[1] == (2, None)
    assert dc.armor_piercing(3, (1, None))[1] == (1, 2, None)
    assert dc.armor_piercing(3, (1, 2, None))[1] == (1, 1, None)
    # l.485: .357 2 DAM, PEN 1-Nil; hollow point: 2d6+2, PEN Nil
    assert dc.hollow_point(2) == ("2d6+2", (None,))


def test_dice_codes():
    assert dc.parse_dice(3) == dc.Dice(3)
    assert dc.parse_dice(-1) == dc.Dice(1, -1)    # l.632: roll the die, subtract 1
    assert dc.parse_dice("2D6+2") == dc.Dice(2, 2)
    assert dc.parse_dice("D-3") == dc.Dice(1, -3)
    assert dc.Dice(2).mean == 7.0
    with pytest.raises(ValueError):
        dc.parse_dice("lots")


# ------------------------------------------------------------------ wounds (l.72-80, l.741-761)

def test_hit_capacity():
    # l.74-80: head, arms, legs Strength + Constitution; chest twice
    assert dc.hit_capacity(6, 5) == {"head": 11, "chest": 22, "left-arm": 11, "right-arm": 11,
                                     "left-leg": 11, "right-leg": 11}


@pytest.mark.parametrize(("dmg", "level"), [
    (0, "none"), (5, "scratch"), (6, "slight"), (11, "slight"), (12, "serious"), (22, "serious"),
    (23, "critical"),
])
def test_wound_levels(dmg, level):
    # l.758-761 with Hit Capacity 11
    assert dc.wound_level(dmg, 11) == level


def test_wounds_condition():
    w = dc.Wounds.for_fighter(dc.fighter({"strength": 6, "constitution": 5}))
    assert not w.out and w.lowest is None and w.modifier == 0
    w.wound("left-arm", 6)
    assert w.modifier == 1 and not w.out and w.lowest == 6
    w.wound("left-leg", 12)
    assert w.modifier == 3 and w.lowest == 3 and w.legs_lost == 1 and w.strength_halved and not w.out
    r = w.wound("head", 12)
    assert r["unconscious"] and w.unconscious and not w.dead   # serious head (l.760)
    r = w.wound("head", 11)
    assert w.dead and r["dead"] and not w.unconscious          # critical head (l.761)
    other = dc.Wounds.for_fighter(dc.fighter({"strength": 6, "constitution": 5}))
    other.wound("chest", 45)                                    # over twice 22: critical
    assert other.unconscious and not other.dead and other.modifier == 5 and other.lowest == 0
    assert sum(1 for v in w.boxes.values() if v) == 13 and len(w.boxes) == 13   # dead: all
    assert [b for b, v in other.boxes.items() if v] == list(range(12, 0, -1))   # critical: 12
    back = dc.Wounds.from_data(w.to_data())
    assert back.to_data() == w.to_data() and back.to_data()["kind"] == "darkcon"


def test_stun_example():
    # l.749: Constitution 6, head wound 11, needs a 6, rolls 8: stunned 2 rounds
    assert dc.stun_rounds(6, 8) == 2
    assert dc.stun_rounds(6, 5) == 0


def test_fall_example():
    # l.668: 6 m, Agility 6: 12D6 - 6D6 = 6D6, totals 19: chest 10, left arm 5, left leg 4
    assert dc.fall_split(19, ("chest", "left-arm", "left-leg")) == \
        {"chest": 10, "left-arm": 5, "left-leg": 4}
    assert dc.fall_split(8, ("chest", "chest", "head")) == {"chest": 6, "head": 2}


def test_hit_location_covers_the_d20():
    locs = [dc.hit_location(r) for r in range(1, 21)]
    assert set(locs) == set(dc.LOCATIONS)
    assert abs(sum(dc.LOCATION_WEIGHT.values()) - 1) < 1e-12
    assert dc.LOCATION_WEIGHT["left-arm"] == dc.LOCATION_WEIGHT["right-arm"]
    assert dc.LOCATION_WEIGHT["left-leg"] == dc.LOCATION_WEIGHT["right-leg"]


def test_expected_wound():
    no_armor = dc.expected_wound(dc.Dice(2), 1, {})
    assert no_armor == pytest.approx(7.0)
    vest = dc.expected_wound(dc.Dice(2), 1, {"chest": 2})
    # chest (40%): both dice absorbed -> 2 points blunt trauma
    assert vest == pytest.approx(0.6 * 7.0 + 0.4 * 2)
    legs_hidden = dc.expected_wound(dc.Dice(2), 1, {}, covered=("left-leg", "right-leg"))
    assert legs_hidden == pytest.approx(0.7 * 7.0)


# ------------------------------------------------------------------ melee (l.86-101, l.224-252)

@pytest.mark.parametrize(("strength", "skill", "code"), [
    (1, 1, "D-3"),     # base 2.1
    (5, 5, "D"),       # 2.5 + 10 = 12.5 -> < 15
    (6, 6, "2D-3"),    # 3.6 + 12 = 15.6 -> < 18
    (8, 8, "2D-1"),    # 6.4 + 16 = 22.4 -> < 24
    (10, 10, "2D+3"),  # 30: the last row
    (9, 10, "2D+2"),   # 9 + 19 = 28 -> < 30
])
def test_unarmed_damage_rating(strength, skill, code):
    assert str(dc.unarmed_rating(strength, skill)) == code.replace("D", "D", 1)


def test_unarmed_minimum_is_one():
    d = dc.unarmed_rating(1, 1)
    assert d.roll(_d6([2]))[1] == 1


def test_melee_armor():
    # l.236: armour absorbs its value from a strike; l.252: twice it from an armed blow
    assert dc.melee_damage(7, 2, armed=False) == (5, 2)
    assert dc.melee_damage(7, 2, armed=True) == (3, 4)
    assert dc.melee_damage(4, 0, armed=True, critical=True) == (8, 0)   # l.226 doubled


# ------------------------------------------------------------------ thrown, blast (l.84, l.507-535)

def test_throw_range_and_difficulty():
    assert dc.throw_range(5) == 20.0   # l.84: 4 x Strength
    assert dc.throw_range(5, 2.0) == 10.0
    assert dc.throw_difficulty(20, 5) == "Average"
    assert dc.throw_difficulty(40, 5) == "Difficult"
    assert dc.throw_difficulty(41, 5) is None


def test_grenade_deviation():
    # l.495 / l.513: exceeded by x 1 m (x 2 m at long), never more than half the distance
    assert dc.grenade_deviation(10, 14, "Average", 20) == 4
    assert dc.grenade_deviation(10, 14, "Difficult", 30) == 8
    assert dc.grenade_deviation(2, 20, "Average", 10) == 5


def test_concussion_radius_example():
    # l.614: Concussion 30 reaches three 8 m squares: 15 in its own, 7, 3, 1, then 0 (l.525)
    assert dc.concussion_at(30, 0, contact=True) == 30
    assert [dc.concussion_at(30, m) for m in (2, 10, 18, 26, 34)] == [15, 7, 3, 1, 0]


def test_concussion_split():
    # l.521: total / 7 to each part, chest double; remainder to the chest (assumed)
    assert dc.concussion_split(17) == {"head": 2, "chest": 7, "left-arm": 2, "right-arm": 2,
                                       "left-leg": 2, "right-leg": 2}
    # l.527: prone halves; covered parts take nothing
    assert dc.concussion_split(14, prone=True)["chest"] == 2
    assert "left-leg" not in dc.concussion_split(14, covered=("left-leg",))


def test_fragments_table():
    # l.531-535
    assert [dc.fragments(r, True, 4) for r in (1, 3, 4, 6, 7, 0)] == [4, 4, 1, 1, 0, 0]
    assert [dc.fragments(r, False, 4) for r in (1, 2, 3, 5, 6, 10)] == [4, 4, 1, 1, 0, 0]
    assert dc.burst_zone(5, 5) == "primary" and dc.burst_zone(10, 5) == "secondary"
    assert dc.burst_zone(11, 5) is None


# ------------------------------------------------------------------ sheets

def _sabre(**stats):
    base = {"strength": 6, "constitution": 5, "agility": 6, "initiative": 3,
            "small_arms_pistol": 5}
    base.update(stats)
    gun = Weapon("heavy-pistol", name="Colt", stats=tuple({
        "skill": "pistol", "damage": 2, "pen": "1-Nil", "range": 20, "rof": "SA", "mag": 7,
        "recoil": 3}.items()))
    return Character("Sabre", weapons=(gun,), stats=tuple((k, v) for k, v in base.items()
                                                         if v is not None))


def test_check_character_clean_and_missing():
    assert dc.check_character(_sabre()) == []
    msgs = dc.check_character(_sabre(constitution=None, small_arms_pistol=None))
    assert msgs == ["'constitution' is missing from stats",
                    "'small_arms_pistol' is missing from stats (to use the Colt)"]


def test_check_character_weapon_keys():
    w = Weapon("smg", name="Uzi", stats=(("skill", "pistol"), ("damage", 2), ("rof", 5)))
    ch = Character("Moth", weapons=(w,), stats=(("strength", 4), ("constitution", 4),
                                               ("agility", 5), ("initiative", 2),
                                               ("small_arms_pistol", 4)))
    msgs = dc.check_character(ch)
    assert [m.split("'")[1] for m in msgs] == ["pen", "range", "mag", "recoil", "burst_recoil"]
    bad = Weapon("knife", stats=(("skill", "stab"),))
    ch2 = Character("Shiv", weapons=(bad,), stats=ch.stats)
    assert "skill 'stab' is not one of" in dc.check_character(ch2)[0]


def test_profiles():
    p = dc.weapon_profile({"skill": "rifle", "damage": 3, "pen": "1-2-Nil", "range": 50,
                           "rof": 5, "mag": 30, "recoil": 3, "burst_recoil": 6})
    assert p.burst == 5 and p.max_shots == 5 and p.is_firearm
    assert dc.weapon_profile({"skill": "pistol", "rof": "DAR"}).max_shots == 3
    g = dc.weapon_profile({"skill": "thrown", "concussion": 3, "burst": 5})
    assert g.is_grenade
    f = dc.fighter({"strength": 6, "constitution": 5, "agility": 7, "initiative": 3,
                    "armor_chest": 2, "thrown_weapons": 4})
    assert f.armor_at("chest") == 2 and f.armor_at("head") == 0
    assert f.attribute("thrown") == 7 and f.attribute("pistol", strength=3) == 3
    assert f.skill("unarmed") == 0


def test_assumed_list_is_documented():
    text = open("docs/rulesets.md", encoding="utf-8").read()
    for key in dc.ASSUMED:
        assert f"`{key}`" in text, key


def test_combinations_symmetric():
    # every d20 roll a success at target t is a success at target t + 1
    for t, r in itertools.product(range(-3, 22), range(1, 21)):
        if dc.judge_skill(t, r, True).success:
            assert dc.judge_skill(t + 1, r, True).success


def test_sample_scenario_sheets_are_complete():
    from engine.io.files import load_document

    sc = load_document("scenarios/club-umbra-darkcon.yaml")
    assert sc.ruleset == "darkcon"
    people = [c for s in sc.sides for c in s.characters]
    assert len(people) == 9
    for c in people:
        assert dc.check_character(c) == [], c.name
        for w in c.weapons:
            dc.weapon_profile(w.stats)
