"""The zone@1 format: strict loading (file:line: problem), round trips, presets and defaults."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import LoadError
from engine.zone.io import load_zone, save_zone, zone_from_data, zone_to_data
from engine.zone.model import RIVER_PRESETS, Zone, ZoneBarrier, evolve
from tests.zone.helpers import RIVER1, RIVER2, write


def test_samples_load_with_the_seed_presets():
    z1, z2 = load_zone(RIVER1), load_zone(RIVER2)
    assert z1.grid == (4, 4) and z1.river.preset == 1
    assert z1.river.blocks == ((0, 2), (1, 2), (2, 1), (3, 1))
    assert z2.river.blocks == ((2, 0), (2, 1), (1, 2), (1, 3)) == RIVER_PRESETS[2]
    assert [p.safehouse for p in z1.players] == ["north", "south"]
    assert z2.block((1, 1)).layout == "blocks/office-plaza.yaml"
    assert z1.growth.side == "die" and z1.landslide.stay_damage == 1


def test_defaults_of_house_rules(tmp_path):
    z = load_zone(write(tmp_path, "grid: [3, 3]\n"))
    assert z.block_size == (96, 64)
    assert (z.growth.enabled, z.growth.trigger, z.growth.side) == (False, 5, "die")
    assert (z.landslide.enabled, z.landslide.stay_damage, z.landslide.off_edge) == (False, 1, "stay")
    assert (z.limits.runners_per_block, z.limits.events_per_block) == (6, 6)


@pytest.mark.parametrize("body, line, words", [
    ("grid: [4, 4]\ncolour: red\n", 4, "unknown key 'colour'"),
    ("grid: [4, 4]\nblocks:\n  - {at: [4, 0]}\n", 5, "outside the 4 x 4 grid"),
    ("grid: [4, 4]\nblocks:\n  - {at: [1, 1], card: sideways}\n", 5, "'card' must be one of"),
    ("grid: [2, 2]\nshape: ['#.', '##']\nblocks:\n  - {at: [1, 0]}\n", 6, "'.' of 'shape'"),
    ("grid: [4, 4]\nriver: {preset: 3}\n", 4, "'preset' must be at most 2"),
    ("grid: [3, 3]\nriver: {preset: 1}\n", 4, "river preset 1 needs block [3, 1]"),
    ("grid: [4, 4]\nbarriers:\n  - {between: [[0, 0], [0, 9]], body: 4}\n", 5, "barrier end [0, 9]"),
    ("grid: [4, 4]\nbarriers:\n  - {between: [[0, 0], [0, 1]], body: x}\n", 5, "'body' must be a whole number"),
    ("grid: [4, 4]\nplayers:\n  - {id: A, safehouse: up}\n", 5, "'safehouse' must be one of"),
    ("grid: [4, 4]\nplayers:\n  - {id: A, safehouse: east, entries: [[3, 7]]}\n", 5, "entry [3, 7]"),
    ("grid: [4, 4]\ngrowth: {side: left}\n", 4, "'side' must be one of die | west-north | east-south"),
    ("grid: [4, 'x']\n", 3, "'grid' must be a whole number"),
    ("grid: [4, 4]\nshape: ['####']\n", 4, "'shape' has 1 rows, the grid has 4"),
])
def test_bad_zone_is_one_line_with_file_and_line(tmp_path, body, line, words):
    p = write(tmp_path, body)
    with pytest.raises(LoadError) as e:
        load_zone(p)
    msg = str(e.value)
    assert msg.startswith(f"{p}:{line}: "), msg
    assert words in msg and "\n" not in msg


def test_not_a_zone_file_is_refused():
    with pytest.raises(LoadError, match="this is not a zone file"):
        load_zone("scenarios/street-ambush.yaml")


def test_round_trip_keeps_everything(tmp_path):
    src = write(tmp_path, """\
        grid: [5, 5]
        shape: ['#####', '#####', '##.##', '#####', '#####']
        block_size: [48, 32]
        players:
          - {id: A, name: Ann, safehouse: north}
          - {id: B, safehouse: south}
          - {id: C, safehouse: east, entries: [[4, 1], [4, 2], [4, 3]]}
        river: {blocks: [[0, 2], [1, 2]], crossing: [vehicle]}
        barriers:
          - {between: [[0, 0], [1, 0]], body: 7, note: rubble wall}
        blocks:
          - {at: [1, 1], layout: a.yaml, label: Warehouse row, card: face-up}
        limits: {runners_per_block: 5, events_per_block: 4}
        growth: {enabled: true, trigger: 6, side: east-south}
        landslide: {enabled: true, stay_damage: 2, off_edge: safehouse}
        notes: hello
        """)
    z = load_zone(src)
    out = tmp_path / "out.yaml"
    save_zone(z, out)
    assert load_zone(out) == z
    assert zone_from_data(zone_to_data(z)) == z


def test_save_refuses_a_zone_that_would_not_load(tmp_path):
    z = load_zone(RIVER1)
    bad = evolve(z, barriers=(ZoneBarrier(((0, 0), (9, 9)), 3),))
    out = tmp_path / "bad.yaml"
    out.write_text("keep me", encoding="utf-8")
    with pytest.raises(LoadError, match="not saved"):
        save_zone(bad, out)
    assert out.read_text(encoding="utf-8") == "keep me"
    assert isinstance(z, Zone)


_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 70) | st.text(max_size=6) | st.sampled_from(
        ["north", "west", "#.", "##", "vehicle", "face-up", "die"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["at", "between", "body", "id", "safehouse", "entries", "preset", "blocks",
                         "crossing", "enabled", "trigger", "side", "layout", "x"]), inner, max_size=4),
    max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(key=st.sampled_from(["grid", "shape", "players", "river", "barriers", "blocks", "growth",
                            "landslide", "limits", "block_size", "title"]), value=_values)
def test_any_value_loads_or_is_one_clean_load_error(key, value):
    data = {"format": "sprawlmap/zone@1", "grid": [4, 4], key: value}
    try:
        z = zone_from_data(data, "f.yaml")
    except LoadError as e:
        assert "\n" not in str(e) and str(e).startswith("f.yaml")
    else:
        assert isinstance(z, Zone) and zone_from_data(zone_to_data(z)) == z
