"""Catalogue numbers straight from the DMZ rule book's tables."""

import pytest

from engine import catalogue as cat


@pytest.mark.parametrize("dots,band", [
    (0, None), (1, "short"), (3, "short"), (4, "medium"), (10, "medium"), (11, "long"),
    (20, "long"), (21, "extreme"), (30, "extreme"), (31, None),
])
def test_heavy_pistol_range_steps(dots, band):
    assert cat.range_band("heavy-pistol", dots) == band


def test_weapon_ranges_rows_from_the_book():
    assert cat.WEAPON_RANGES["shotgun"] == ((1, 5), (6, 10), (11, 25), (26, 50))
    assert cat.WEAPON_RANGES["sniper-rifle"] == ((1, 20), (21, 40), (41, 100), (101, 200))
    assert cat.WEAPON_RANGES["hmg"] == ((1, 20), (21, 75), (76, 200), (201, 400))
    assert cat.WEAPON_RANGES["heavy-crossbow"] == ((1, 15), (16, 40), (41, 100), (101, 150))
    assert len(cat.WEAPON_RANGES) == 19


def test_launchers_have_a_minimum_range_and_aliases_resolve():
    assert cat.range_band("Grenade Launcher", 9) is None
    assert cat.range_band("grenade-launcher", 10) == "short"
    assert cat.range_band("missile launcher", 750) == "extreme"
    assert cat.range_band("SMG", 21) == "long"
    assert cat.range_band("Light Pistol (MP)".replace(" (MP)", "-mp"), 16) == "extreme"
    assert cat.max_range("assault-cannon") == 650
    with pytest.raises(KeyError, match="unknown weapon type 'ray gun'"):
        cat.range_band("ray gun", 3)


def test_move_fire_conversion_matches_the_worked_example():
    # Reaction 3, no cyberware: 3/3; Reaction 8: 2/3; Reaction 8 with Wired Reflexes 1: 2/2
    assert cat.move_fire_ratio(3) == (3, 3)
    assert cat.move_fire_ratio(8) == (2, 3)
    assert cat.move_fire_ratio(8, wired=1) == (2, 2)
    assert cat.move_fire_ratio(1) == (4, 3)
    assert cat.move_fire_ratio(9) == (2, 2)
    assert cat.move_fire_ratio(2, boosted=3) == (1, 2)
    assert cat.move_fire_ratio(2, wired=2) == (1, 2)
    assert cat.move_fire_ratio(2, wired=3) == (1, 1)
    assert cat.move_fire_ratio(12, boosted=1) == (2, 3)  # cyberware overrides Reaction


def test_weapons_table_and_success_values_per_range_step():
    pred = cat.WEAPONS["Ares Predator"]
    assert (pred.type, pred.base, pred.damage, pred.shots) == ("heavy-pistol", 8, 3, 15)
    assert cat.WEAPONS["Panther Assault Cannon"].base == 18
    # Firearms skill 4 -> Base Firearms Value 10; medium -2, long -4, extreme -6; smartlink +2
    assert cat.weapon_success(10, "Ares Predator") == (18, 16, 14, 12)
    assert cat.weapon_success(10, "Ares Predator", ("smartlink",)) == (20, 18, 16, 14)
    assert cat.weapon_success(3, cat.WeaponModel("GL", "grenade-launcher", "", 0, 0)) == (
        20, 18, 16, 14)


def test_street_samurai_archetype_exact_values():
    s = cat.archetype("Street Samurai")
    assert (s["move_ratio"], s["fire_ratio"]) == (2, 2)  # the book: moves at 2, fires at 2
    # firearms 6+6; armed 5+6+7; unarmed 4+6+11
    assert s["success"] == {"armed": 18, "unarmed": 21, "firearms": 12}
    # body 6 + quickness 5 + armour jacket (impact 1, ballistic 2); willpower 3
    assert s["defense"] == {"ballistic": 13, "impact": 12, "physical_spell": 6, "mana_spell": 3}
    assert s["weapons"][0] == {"type": "heavy-pistol", "name": "Ares Predator",
                               "success": [22, 20, 18, 16], "shots": 15, "damage": 3}


def test_archetypes_agree_with_the_book_examples():
    assert cat.archetype("mercenary")["move_ratio"] == 3  # Gilliam
    assert cat.archetype("bodyguard")["move_ratio"] == 2  # Angela
    assert cat.archetype("squatter")["fire_ratio"] == 3
    shaman = cat.archetype("shaman")
    # sorcery: round(avg(5, 6)) = 6 + magic 6 // 2 = 9; mana: willpower 6 + 3 + 5 // 2 = 11
    assert shaman["success"]["sorcery"] == 9
    assert shaman["defense"]["mana_spell"] == 11
    assert cat.archetype("street-mage")["vision"] == "low-light"  # an elf
    assert len(cat.archetype_names()) == 14
    ch = cat.archetype_character("street-samurai", "Sabre")
    assert ch.name == "Sabre" and ch.weapons[0].success == (22, 20, 18, 16)
    with pytest.raises(KeyError):
        cat.archetype("accountant")


def test_melee_and_throwing_weapons():
    assert cat.MELEE_WEAPONS["katana"] == ("Katana", 7, 2, False)
    assert cat.MELEE_WEAPONS["pole-arm"][1:3] == (11, 4)
    assert cat.MELEE_WEAPONS["club"] == ("Club", 5, 2, True)  # stun damage
    assert cat.range_band("Katana", 1) == "melee"
    assert cat.range_band("katana", 2) is None
    assert cat.range_band("Pole Arm", 1) == "melee"
    assert cat.range_band("throwing knife", 12) == "thrown"
    assert cat.range_band("throwing-knife", 13) is None
    assert cat.max_range("shuriken") == 24  # 1 MP per 2 dots, 12 MP
