"""Growth and landslide tables with seeded dice (seed 002 l.177-178, l.239-254)."""

from __future__ import annotations

import random

from engine.zone.dice import growth_turn, landslide_turn, roll
from engine.zone.grow import grow
from engine.zone.io import load_zone
from engine.zone.model import Growth, Player, ZoneBarrier, evolve
from engine.zone.validate import validate_zone
from tests.zone.helpers import RIVER1


class Loaded(random.Random):
    """Dice that come up with the given faces, in order."""

    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def test_same_seed_same_result_and_only_zone_blocks():
    z = load_zone(RIVER1)
    a = roll(z, "landslide", 42, turns=20, runners=3)
    b = roll(z, "landslide", 42, turns=20, runners=3)
    assert a == b
    for r in a[1]:
        assert z.has_block(tuple(r["result"]["block"]))
        for p in r["result"]["pushes"]:
            assert z.has_block(tuple(p["to"]))
    assert roll(z, "landslide", 43, turns=20)[1] != roll(z, "landslide", 42, turns=20)[1]


def test_landslide_table_directions_damage_and_barriers():
    z = evolve(load_zone(RIVER1), barriers=(ZoneBarrier(((1, 1), (1, 0)), 5), ZoneBarrier(((0, 0), (1, 0)), 2)))
    new, dice, res = landslide_turn(z, Loaded([2, 2, 1, 2, 3, 4, 5, 6]), runners=6)
    assert dice == [2, 2, 1, 2, 3, 4, 5, 6] and res["block"] == [1, 1]
    assert [p["direction"] for p in res["pushes"]] == ["west", "north", "east", "south", "stay", "stay"]
    assert [p["to"] for p in res["pushes"]] == [[0, 1], [1, 0], [2, 1], [1, 2], [1, 1], [1, 1]]
    assert [p["damage"] for p in res["pushes"]] == [0, 0, 0, 0, 1, 1]
    assert res["barriers_destroyed"] == [{"between": [[1, 1], [1, 0]], "body": 5}]
    assert new.barriers == (ZoneBarrier(((0, 0), (1, 0)), 2),)


def test_landslide_rerolls_off_grid_and_pushes_off_edge():
    z = load_zone(RIVER1)
    _new, dice, res = landslide_turn(z, Loaded([6, 5, 1, 1, 1]), runners=1)
    assert res["block"] == [0, 0] and res["rerolled"] == [6, 5] and dice == [1, 1, 1]
    assert res["pushes"][0] == {"runner": 1, "die": 1, "direction": "west", "to": [0, 0], "damage": 0,
                                "off_edge": True}


def test_growth_table_and_house_rule_side():
    z = load_zone(RIVER1)
    same, dice, res = growth_turn(z, Loaded([4]))
    assert same is z and dice == [4] and not res["grew"]
    new, dice, res = growth_turn(z, Loaded([5, 2, 6]))
    assert res == {"grew": True, "added": "column", "side": "east", "grid": [5, 4],
                   "blocks": [[4, 0], [4, 1], [4, 2], [4, 3]]}
    assert (4, 1) in new.river_blocks()  # the River continues into the new column (l.221)
    fixed = evolve(z, growth=Growth(True, 5, "west-north"))
    new, dice, res = growth_turn(fixed, Loaded([6, 5]))
    assert dice == [6, 5] and res["side"] == "north" and new.grid == (4, 5)
    assert new.river_blocks() == {(0, 3), (1, 3), (2, 2), (3, 2)}


def test_growing_west_shifts_everything_and_keeps_the_zone_valid():
    z = evolve(load_zone(RIVER1), barriers=(ZoneBarrier(((0, 0), (1, 0)), 4),),
               players=(Player("A", "north"), Player("B", "south"), Player("W", "west", entries=((0, 1),))))
    new, added = grow(z, "column", "west")
    assert added == [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert new.barriers[0].between == ((1, 0), (2, 0))
    assert new.player("W").entries == ((0, 1),)  # the western player enters on the new edge
    assert (0, 2) in new.river_blocks() and (1, 2) in new.river_blocks()
    assert [f.code for f in validate_zone(new) if f.severity == "error"] == []
