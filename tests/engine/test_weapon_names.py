"""One weapon name means one weapon everywhere: scenario validation (the catalogue), play, the
DMZ Elevation Table and the SR3 range table all read names through the one alias table
(``engine.catalogue.WEAPON_ALIASES`` via ``weapon_key``)."""

from __future__ import annotations

import pytest

from engine.catalogue import WEAPON_ALIASES, weapon_key, weapon_type
from engine.play.weapons import normalise, range_step
from engine.rules.dmz1990 import elevation_modifier
from engine.rules.sr3 import parse_weapon


def test_every_alias_names_the_same_type_in_validation_and_play():
    for alias, canonical in WEAPON_ALIASES.items():
        assert weapon_key(alias) == canonical
        assert normalise(alias) == canonical
        assert normalise(alias.upper().replace("-", " ")) == canonical  # "HEAVY MACHINE GUN"
        if canonical != "grenade":  # a grenade's kind is in its type name, not the catalogue
            assert weapon_type(alias) == canonical


def test_a_generic_pistol_is_a_heavy_pistol_for_validation_play_and_elevation():
    assert weapon_type("Pistol") == "heavy-pistol"  # validation accepts what play plays
    assert range_step("pistol", 10) == range_step("heavy-pistol", 10) == 1  # medium: 4-10 dots
    assert range_step("pistol", 11) == 2
    # DMZ advanced Elevated Combat: pistols +1 per 3 full stories, rifles per 10
    assert elevation_modifier(9, "pistol") == elevation_modifier(9, "Heavy Pistol") == 3
    assert elevation_modifier(20, "rifle") == elevation_modifier(20, "AR") == 2


def test_elevation_rows_by_any_spelling():
    assert elevation_modifier(12, "Submachine Gun") == elevation_modifier(12, "smg") == 2
    assert elevation_modifier(50, "medium_machine_gun") == elevation_modifier(50, "mmg") == 2
    assert elevation_modifier(50, "machine-gun") == 2  # the row's own name
    assert elevation_modifier(5, "throwing knife") == elevation_modifier(5, "thrown") == 5
    assert elevation_modifier(120, "cannon") == 2  # assault cannon: per 60 stories
    with pytest.raises(ValueError, match="no row in the Elevation Table"):
        elevation_modifier(4, "katana")


def test_sr3_range_rows_by_the_same_spellings():
    assert parse_weapon("Light Machine Gun") == ("lmg", None)
    assert parse_weapon("hp") == parse_weapon("pistol") == ("heavy-pistol", None)
    assert parse_weapon("Machine Pistol") == ("light-pistol", None)  # SR3 has no MP row
    assert parse_weapon("knife:4") == parse_weapon("thrown-knife:4") == ("throwing-knife", 4)
    with pytest.raises(ValueError, match="no row in the Weapon Range Table"):
        parse_weapon("katana")
