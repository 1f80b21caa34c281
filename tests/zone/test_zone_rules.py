"""Engine answers on the seed's zones: adjacency, River crossing, barriers, paths, findings."""

from __future__ import annotations

import pytest

from engine.errors import QueryError
from engine.zone import rules
from engine.zone.io import load_zone
from engine.zone.model import Player, ZoneBarrier, evolve
from engine.zone.validate import validate_zone
from tests.zone.helpers import RIVER1, RIVER2, write


def codes(findings):
    return sorted(f.code for f in findings)


def test_adjacency_is_orthogonal_with_river_and_barrier_flags():
    z = evolve(load_zone(RIVER1), barriers=(ZoneBarrier(((1, 1), (1, 0)), 7),))
    got = {tuple(n["block"]): n for n in rules.neighbours(z, (1, 1))}
    assert set(got) == {(1, 0), (2, 1), (1, 2), (0, 1)}  # never a diagonal
    assert got[(1, 0)]["side"] == "north" and got[(1, 0)]["barrier"] == {"body": 7}
    assert got[(2, 1)]["river"] and got[(1, 2)]["river"] and not got[(0, 1)]["river"]
    assert [n["side"] for n in rules.neighbours(z, (0, 0))] == ["east", "south"]
    with pytest.raises(QueryError):
        rules.neighbours(z, (4, 0))


def test_river_layout_1_cuts_the_players_apart_on_foot_layout_2_does_not():
    z1, z2 = load_zone(RIVER1), load_zone(RIVER2)
    foot = rules.path(z1, "A", "B")
    assert not foot.reachable and "River separates" in foot.why
    for kw in ({"vehicle": True}, {"athletics": True}):
        res = rules.path(z1, "A", "B", **kw)
        assert res.reachable and res.moves == 4 and res.blocks[0][1] == 0 and res.blocks[-1][1] == 3
    res = rules.path(z2, "A", "B")
    assert res.reachable and res.moves == 4
    assert res.blocks == [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert "river-separates-players" in codes(validate_zone(z1))
    assert "river-separates-players" not in codes(validate_zone(z2))


def test_crossing_list_decides_who_swims():
    z = load_zone(RIVER1)
    z = evolve(z, river=evolve(z.river, crossing=("vehicle",)))
    assert not rules.path(z, "A", "B", athletics=True).reachable
    assert rules.path(z, "A", "B", vehicle=True).reachable


def test_a_barrier_sends_the_path_around_it():
    z = load_zone(RIVER2)
    before = rules.path(z, (0, 1), (1, 1))
    assert before.moves == 1
    z = evolve(z, barriers=(ZoneBarrier(((0, 1), (1, 1)), 6),))
    after = rules.path(z, (0, 1), (1, 1))
    assert after.reachable and after.moves == 3
    assert after.blocks in ([(0, 1), (0, 0), (1, 0), (1, 1)],)
    assert not rules.effect_reaches(z, (0, 1), (1, 1))
    assert rules.effect_reaches(z, (0, 1), (0, 0))
    assert not rules.effect_reaches(z, (0, 0), (1, 1))  # diagonal: never adjacent
    walled = evolve(z, barriers=z.barriers + (ZoneBarrier(((0, 0), (1, 0)), 6),))
    res = rules.path(walled, (0, 1), (1, 1))
    assert not res.reachable and "barriers" in res.why


def test_entries_default_to_the_edge_and_centre_three_with_three_players(tmp_path):
    z = load_zone(write(tmp_path, """\
        grid: [5, 5]
        players:
          - {id: A, safehouse: north}
          - {id: B, safehouse: south}
          - {id: C, safehouse: east}
        """))
    assert rules.entries(z, "A") == [(1, 0), (2, 0), (3, 0)]
    assert rules.entries(z, "C") == [(4, 1), (4, 2), (4, 3)]
    assert codes(validate_zone(z)) == []
    two = evolve(z, players=z.players[:2])
    assert rules.entries(two, "A") == [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]


def test_four_players_and_shared_entries(tmp_path):
    z = load_zone(write(tmp_path, """\
        grid: [4, 4]
        players:
          - {id: A, safehouse: north}
          - {id: B, safehouse: south}
          - {id: C, safehouse: east}
          - {id: D, safehouse: west}
        """))
    assert rules.entries(z, "D") == [(0, 1), (0, 2)]
    assert codes(validate_zone(z)) == []
    clash = evolve(z, players=z.players[:3] + (Player("D", "west", entries=((1, 0), (0, 1))),))
    f = [x for x in validate_zone(clash) if x.code == "entry-shared"]
    assert len(f) == 1 and f[0].where["blocks"] == [[1, 0]] and f[0].severity == "error"


def test_findings_name_their_blocks(tmp_path):
    z = load_zone(write(tmp_path, """\
        grid: [4, 4]
        players:
          - {id: A, safehouse: north}
          - {id: B, safehouse: south, entries: []}
        river: {blocks: [[0, 1], [1, 1], [2, 1]]}
        barriers:
          - {between: [[0, 3], [1, 2]], body: 3}
        blocks:
          - {at: [3, 3], layout: nowhere.yaml}
        """))
    got = {f.code: f for f in validate_zone(z, tmp_path)}
    assert got["barrier-not-adjacent"].where["blocks"] == [[0, 3], [1, 2]]
    assert got["river-not-bisecting"].where["blocks"] == [[0, 1], [1, 1], [2, 1]]
    assert "opposite side" in got["river-not-bisecting"].message
    assert got["player-no-entry"].severity == "error"
    assert got["block-layout-unloadable"].where["blocks"] == [[3, 3]]
    assert all(isinstance(f.where.get("blocks"), list) for f in got.values())


def test_river_must_be_one_chain_leaving_two_halves(tmp_path):
    broken = load_zone(write(tmp_path, "grid: [4, 4]\nriver: {blocks: [[0, 2], [1, 2], [3, 1]]}\n"))
    f = [x for x in validate_zone(broken) if x.code == "river-not-bisecting"]
    assert len(f) == 1 and "one chain" in f[0].message
    ok = load_zone(write(tmp_path, "grid: [4, 4]\nriver: {preset: 1}\n", "ok.yaml"))
    assert [x.code for x in validate_zone(ok) if x.severity == "error"] == []
    assert len(rules.land_regions(ok)) == 2


def test_entry_on_river_is_a_warning():
    z = load_zone(RIVER2)
    f = [x for x in validate_zone(z, RIVER2.parent) if x.code == "entry-on-river"]
    assert sorted(tuple(x.where["blocks"][0]) for x in f) == [(1, 3), (2, 0)]
    assert all(x.severity == "warning" for x in f)
