"""The shipped sheet library and sample scenarios load, compile, validate and mean what they say.

Every sheet in ``mapsheets/`` and every scenario in ``scenarios/`` goes through the same public
API the CLI uses (``engine.io`` to load, ``engine.board.compile_board`` to compile,
``engine.validate`` to check), and each sheet's signature features are asked of the engine:
the coffin capsules cost +2 MP to enter, the jacuzzi hides only prone targets, the office's
roof is level 5 and sees into the alley of the README demo.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import io as docio
from engine import model as m
from engine.board import Board, compile_board
from engine.los import line_of_sight
from engine.movement import cheapest_path, reach, step
from engine.validate import validate

ROOT = Path(__file__).resolve().parents[2]
SHEET_FILES = sorted((ROOT / "mapsheets").glob("*.yaml"))
#: the DMZ samples; the ruleset samples (*-sr3, *-sr1, *-darkcon; issue 13) have their own tests
SCENARIO_FILES = sorted(p for p in (ROOT / "scenarios").glob("*.yaml")
                        if not p.stem.endswith(("-sr3", "-sr1", "-darkcon")))

#: id -> (kind, size, height)
EXPECTED = {
    "coffin-hotel": ("building", (20, 14), 2),
    "chop-shop": ("building", (22, 14), 1),
    "corner-store": ("building", (14, 10), 1),
    "police-station": ("building", (24, 16), 3),
    "office-tower": ("building", (16, 12), 5),
    "nightclub": ("building", (22, 16), 1),
    "spa-club": ("building", (20, 14), 2),
    "warehouse": ("building", (24, 16), 1),
    "mall-section": ("building", (24, 16), 2),
    "pavement-downtown": ("pavement", (48, 32), 0),
    "pavement-backstreets": ("pavement", (48, 32), 0),
}
BUILDINGS = sorted(k for k, v in EXPECTED.items() if v[0] == "building")
AT = (1, 1)  # where a building goes on the downtown pavement when tested alone


@pytest.fixture(scope="module")
def library() -> dict[str, m.Sheet]:
    return {p.stem: docio.load_sheet(p) for p in SHEET_FILES}


_BOARDS: dict[tuple[str, int], Board] = {}


def alone(library: dict[str, m.Sheet], sid: str, rotation: int = 0) -> Board:
    """One building on the downtown pavement, its top-left dot at world (1, 1) (compiled once)."""
    if (sid, rotation) not in _BOARDS:
        lay = m.Layout(pavement=(m.Placement("pavement-downtown", (0, 0), id="street"),),
                       placements=(m.Placement(sid, AT, rotation=rotation, id="b"),))
        _BOARDS[(sid, rotation)] = compile_board(lay, library)
    return _BOARDS[(sid, rotation)]


def w(c: int, r: int, lv: int = 0) -> tuple[int, int, int]:
    """Sheet dot -> world dot of a building placed by :func:`alone` without rotation."""
    return (c + AT[0], r + AT[1], lv)


def errors(board: Board, scenario: m.Scenario | None = None) -> list[str]:
    return [f"{f.code}: {f.message}" for f in validate(board, scenario) if f.severity == "error"]


def feature(board: Board, fid: str):
    f = board.feature(fid)
    assert f is not None, f"no feature {fid}"
    return f


# ------------------------------------------------------------------------------ sheets


def test_library_holds_nine_buildings_and_two_pavements(library):
    assert {p.stem for p in SHEET_FILES} == set(EXPECTED)
    for sid, (kind, size, height) in EXPECTED.items():
        s = library[sid]
        assert (s.id, s.kind, s.lattice, s.size, s.height) == (sid, kind, "square", size, height)
        w_, h_ = size
        assert s.outline == ((-0.5, -0.5), (w_ - 0.5, -0.5), (w_ - 0.5, h_ - 0.5), (-0.5, h_ - 0.5))


def test_every_feature_has_an_id_and_ids_are_unique_per_sheet(library):
    for s in library.values():
        ids = [f.id for lv in s.levels for key in m.LEVEL_LISTS for f in getattr(lv, key)]
        assert all(ids), s.id
        assert len(ids) == len(set(ids)), s.id


@pytest.mark.parametrize("sid", BUILDINGS)
def test_building_compiles_clean_and_every_dot_can_be_reached(library, sid):
    board = alone(library, sid)
    assert errors(board) == []
    assert board.levels == list(range(EXPECTED[sid][2] + 1))
    got = reach(board, (0, 31, 0), move_ratio=1, mp=100_000)
    for lv in board.levels:
        missing = [tuple(d) for d in board.dots(lv) if (int(d[0]), int(d[1]), lv) not in got]
        assert missing == [], f"{sid} level {lv}: unreachable dots {missing[:5]}"
    # the roof is a floor one can stand on
    assert board.standable(w(0, 0, EXPECTED[sid][2]))


@pytest.mark.parametrize("sid", ["pavement-downtown", "pavement-backstreets"])
def test_pavement_compiles_clean(library, sid):
    lay = m.Layout(pavement=(m.Placement(sid, (0, 0)),))
    board = compile_board(lay, library)
    assert errors(board) == []
    assert board.levels == [0]
    kinds = {f.kind for f in board.features(0)}
    assert {"step", "fence", "low-wall", "obstacle", "trunk", "canopy"} <= kinds


def test_coffin_capsule_costs_two_extra_to_enter_and_nothing_to_leave(library):
    b = alone(library, "coffin-hotel")
    aisle, capsule = w(10, 1), w(10, 0)
    s = step(b, aisle, capsule, 2)
    assert s is not None and s.cost == 4
    assert any("capsule-0-10-0" in why for why in s.why)
    assert step(b, capsule, aisle, 2).cost == 2
    # the upper tier is stacked over the lower one, same rule
    assert step(b, w(12, 3, 1), w(12, 4, 1), 3).cost == 5
    assert len([f for f in b.features(0) if f.id.startswith("b/capsule-0-")]) == 32
    assert len([f for f in b.features(1) if f.id.startswith("b/capsule-1-")]) == 32


def test_coffin_lounge_lights_and_thick_front_door(library):
    b = alone(library, "coffin-hotel")
    assert feature(b, "b/d-front").props["class"] == "thick"
    assert feature(b, "b/d-lobby-hall").props["class"] == "average"
    assert feature(b, "b/lounge-lights").props["target_modifier"] == 1
    assert not line_of_sight(b, w(7, 7), w(4, 10)).blocked


def test_chop_shop_walls_are_thin_and_cars_are_stood_on(library):
    b = alone(library, "chop-shop")
    walls = [f for f in b.features(0) if f.kind == "wall" and f.building == 0]
    assert walls and {f.props["class"] for f in walls} == {"thin"}
    assert b.standable(w(3, 4))  # on car-a
    assert step(b, w(1, 4), w(2, 4), 3).cost == 5  # +2 to get on the car
    assert step(b, w(2, 4), w(3, 4), 3).cost == 3  # moving about on it


def test_corner_store_back_room_is_dark_and_plus_one(library):
    b = alone(library, "corner-store")
    facts = line_of_sight(b, w(11, 5), w(11, 8))
    assert not facts.blocked
    assert facts.visibility == ["partial-darkness"]
    assert [i["feature"] for i in facts.interruptions] == ["b/d-stock"]
    # the book's "dark: +1 target" is the Visibility Table: +1 for normal vision, once
    from engine.rules import get_ruleset
    assert get_ruleset().modifiers(facts, vision="normal")["visibility"] == 1
    assert get_ruleset().modifiers(facts, vision="low-light")["visibility"] == 0
    assert facts.target_modifier == 0  # no second +1 on top of the darkness
    assert step(b, w(6, 2), w(6, 3), 2).cost == 5  # over a shelf: +3


def test_police_station_thick_walls_cells_and_lift(library):
    b = alone(library, "police-station")
    walls = [f for f in b.features(0) if f.kind == "wall" and f.building == 0]
    assert {f.props["class"] for f in walls} == {"thick"}
    assert feature(b, "b/evidence-cage").props["class"] == "average"
    assert {(a[2], c[2]) for a, c, _f in b.elevator_links} == {(0, 1), (0, 2), (1, 2)}
    assert {(a[2], c[2]) for a, c, _f in b.stair_links} == {(0, 1), (1, 2), (2, 3)}
    facts = line_of_sight(b, w(13, 6), w(13, 2))  # corridor of the cells -> cell 1
    assert facts.visibility == ["partial-darkness"]
    # a pile of clubs blocks sight but can be crossed for +3
    assert line_of_sight(b, w(12, 10), w(15, 10)).blocked
    assert step(b, w(12, 10), w(13, 10), 3).cost == 6


def test_office_tower_has_five_stories_and_a_roof_by_ladder(library):
    b = alone(library, "office-tower")
    assert b.buildings[0].height == 5
    assert b.levels == [0, 1, 2, 3, 4, 5]
    climbs = [(a, c) for a, c, _f in b.climb_links]
    assert (w(6, 10, 4), w(6, 10, 5)) in climbs
    assert {lv for _a, c, _f in b.elevator_links for lv in (_a[2], c[2])} == {0, 1, 2, 3, 4}
    assert feature(b, "b/ext").props["class"] == "thick"  # exterior thick
    assert feature(b, "b/l4-w-boardroom").props["class"] == "average"  # interior average
    res = cheapest_path(b, w(7, 0), w(7, 4, 5), 2)
    assert res.reachable


def test_nightclub_show_floor_dark_and_lightshow_distracts(library):
    b = alone(library, "nightclub")
    facts = line_of_sight(b, w(7, 5), w(11, 5))  # into the lightshow
    assert facts.visibility == ["partial-darkness"]
    assert feature(b, "b/lightshow").props["target_modifier"] == 1


def test_modifier_areas_raise_the_target_number_of_who_stands_in_them(library):
    # (sheet, shooter, target inside the area, a dot outside it, expected modifier)
    cases = [("coffin-hotel", (7, 7), (4, 10), (8, 12), 1),  # bright lights over the tables
             ("nightclub", (7, 5), (11, 5), (16, 5), 1),  # lightshow
             ("spa-club", (9, 6), (9, 11), (9, 7), 1)]  # the steam room reeks
    got = []
    for sid, a, inside, outside, _tm in cases:
        b = alone(library, sid)
        got.append((sid, line_of_sight(b, w(*a), w(*inside)).target_modifier,
                    line_of_sight(b, w(*a), w(*outside)).target_modifier))
    assert got == [(sid, tm, 0) for sid, _a, _i, _o, tm in cases]


def test_spa_jacuzzi_hides_only_prone_targets_and_deck_is_slippery(library):
    b = alone(library, "spa-club")
    a, t = w(12, 3), w(19, 3)
    standing = line_of_sight(b, a, t)
    assert "b/jacuzzi" not in [i["feature"] for i in standing.interruptions]
    prone = line_of_sight(b, a, t, posture_b="prone")
    assert "b/jacuzzi" in [i["feature"] for i in prone.interruptions]
    assert step(b, w(12, 1), w(13, 1), 2).cost == 5  # onto the wet tiles: +3


def test_warehouse_slime_truck_and_thick_sewer_wall(library):
    b = alone(library, "warehouse")
    slime = feature(b, "b/slime")
    assert slime.kind == "hazard" and slime.props["effect"] == "prone on 1 in d6"
    assert b.standable(w(5, 3))  # on the truck
    assert step(b, w(2, 3), w(3, 3), 3).cost == 6  # +3 to climb on
    assert feature(b, "b/w-sewer-west").props["class"] == "thick"
    assert feature(b, "b/w-bay-storage").props["class"] == "thin"
    assert step(b, w(17, 10), w(18, 10), 3).cost == 5  # step down +1, wade +1


def test_mall_walkway_is_tagged_and_upstairs_is_reached(library):
    b = alone(library, "mall-section")
    walkway = feature(b, "b/walkway")
    assert walkway.kind == "modifier" and walkway.props["target_modifier"] == 0
    assert "extra dot of movement" in walkway.props["note"]
    assert step(b, w(11, 6), w(11, 6, 1), 3).cost == 3  # stairs: +3 per flight, no base cost


def test_kerbs_are_step_lines(library):
    lay = m.Layout(pavement=(m.Placement("pavement-downtown", (0, 0)),))
    b = compile_board(lay, library)
    assert step(b, (20, 23, 0), (20, 22, 0), 2).cost == 3


def test_rotated_building_keeps_its_rules(library):
    b = alone(library, "coffin-hotel", rotation=90)
    # (c, r) of the 20 x 14 sheet lands on (13 - r, c) + (1, 1) after a quarter turn
    aisle, capsule = (13 - 1 + 1, 10 + 1, 0), (13 - 0 + 1, 10 + 1, 0)
    assert step(b, aisle, capsule, 2).cost == 4


# --------------------------------------------------------------------------- scenarios


def _loaded(path: Path) -> tuple[m.Scenario, Board]:
    sc = docio.load_document(path)
    sheets = docio.resolve_sheets(sc.layout, path.parent)
    return sc, compile_board(sc.layout, sheets)


def _deploy_dots(board: Board, dep: m.Deployment) -> list[tuple[int, int, int]]:
    from shapely.geometry import Point, Polygon

    dots = [(int(c), int(r), dep.level) for c, r in board.dots(dep.level)]
    if dep.polygon:
        poly = Polygon(dep.polygon)
        return [d for d in dots if poly.contains(Point(d[0], d[1]))]
    x0, y0, x1, y1 = board.bounds
    k = dep.depth or 1
    test = {"west": lambda d: d[0] < x0 + k, "east": lambda d: d[0] > x1 - k,
            "north": lambda d: d[1] < y0 + k, "south": lambda d: d[1] > y1 - k}[dep.edge]
    return [d for d in dots if test(d)]


@pytest.fixture(scope="module")
def scenarios() -> dict[str, tuple[m.Scenario, Board]]:
    return {p.stem: _loaded(p) for p in SCENARIO_FILES}


def test_three_sample_scenarios(scenarios):
    assert set(scenarios) == {"street-ambush", "police-station-extraction", "nightclub-hold"}
    # turn limits sized so the fastest side can finish a retrieve-and-exit (validate checks it)
    expect = {"street-ambush": ("day", 13, "team"),  # 13: session 7
              "police-station-extraction": ("partial-darkness", 18, "team"),
              "nightclub-hold": ("partial-darkness", 14, "character")}  # 14: session 6
    for name, (sc, board) in scenarios.items():
        assert (sc.light, sc.turn_limit, sc.initiative) == expect[name]
        assert sc.ruleset == "dmz1990"
        assert errors(board, sc) == [], name
        assert len(sc.sides) == 2 and sc.notes.startswith("Briefing.")
        assert {o.side for o in sc.objectives} == {s.id for s in sc.sides}


def test_scenario_deployments_fit_their_teams_and_objectives_stand(scenarios):
    for name, (sc, board) in scenarios.items():
        for side in sc.sides:
            assert side.deployment is not None
            room = _deploy_dots(board, side.deployment)
            assert len(room) >= 2 * len(side.characters), (name, side.id, len(room))
            for ch in side.characters:
                assert ch.move_ratio in (1, 2, 3, 4) and ch.fire_ratio in (1, 2, 3)
                assert all(len(wp.success) in (1, 4) for wp in ch.weapons), ch.name
        for o in sc.objectives:
            if o.at is not None:
                at = tuple(o.at) + (0,) * (3 - len(o.at))
                assert board.standable(at), (name, o.id, at)


def test_street_ambush_readme_demo(scenarios):
    sc, board = scenarios["street-ambush"]
    office = next(bl for bl in board.buildings if bl.sheet.id == "office-tower")
    assert office.height == 5 and office.placement.rotation == 180
    sniper, alley, under = (20, 6, 5), (31, 14, 0), (30, 9, 0)
    assert board.building_of(sniper) is office
    assert board.standable(sniper) and board.standable(alley) and board.standable(under)
    seen = line_of_sight(board, sniper, alley, light=sc.light)
    assert (seen.blocked, seen.range, seen.dead_zone, seen.elevation_stories) == (False, 11, False, 5)
    hidden = line_of_sight(board, sniper, under, light=sc.light)
    assert hidden.blocked and hidden.dead_zone
    assert hidden.blocked_by["kind"] == "dead-zone"
    down = cheapest_path(board, sniper, alley, 3)
    assert down.reachable and down.cost == 75
    assert any("climb" in why for s in down.steps for why in s.why)


def test_police_extraction_troll_cell_is_dark_and_behind_thick_doors(scenarios):
    sc, board = scenarios["police-station-extraction"]
    cell = (23, 3, 0)
    assert board.building_at(cell).sheet.id == "police-station"
    door = board.feature("precinct/d-cell-troll")
    assert door.props["class"] == "thick" and door.props["state"] == "closed"
    res = cheapest_path(board, (30, 30, 0), cell, 2)
    assert res.reachable


def test_nightclub_hold_vip_lounge_reachable_from_the_gang_edge(scenarios):
    sc, board = scenarios["nightclub-hold"]
    res = cheapest_path(board, (45, 10, 0), (10, 13, 0), 3)
    assert res.reachable
    hold = next(o for o in sc.objectives if o.kind == "hold")
    assert hold.turns == 3 and hold.side == "runners"


# ------------------------------------------------------------------- the README commands


def _cli(capsys, *args: str) -> tuple[int, dict]:
    import json

    from engine.cli import main

    code = main([*args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_readme_los_command(capsys):
    f = str(ROOT / "scenarios" / "street-ambush.yaml")
    code, out = _cli(capsys, "los", f, "20,6,5", "31,14")
    assert code == 0
    assert (out["range"], out["blocked"], out["elevation_stories"], out["dead_zone"]) == \
        (11, False, 5, False)
    assert out["modifiers"]["elevation"] == 1 and out["target_modifier"] == 1
    code, out = _cli(capsys, "los", f, "20,6,5", "30,9")
    assert code == 1 and out["blocked"] and out["blocked_by"]["kind"] == "dead-zone"


def test_readme_path_command(capsys):
    f = str(ROOT / "scenarios" / "street-ambush.yaml")
    code, out = _cli(capsys, "path", f, "20,6,5", "31,14", "--move-ratio", "3")
    assert code == 0 and out["reachable"] and out["cost"] == 75
    assert out["dots"][0] == [20, 6, 5] and out["dots"][-1] == [31, 14, 0]


@pytest.mark.parametrize("name", ["street-ambush", "police-station-extraction", "nightclub-hold"])
def test_sample_scenarios_validate_from_the_command_line(capsys, name):
    code, out = _cli(capsys, "validate", str(ROOT / "scenarios" / f"{name}.yaml"))
    assert code == 0 and out["ok"] is True


def test_every_sheet_has_its_picture_in_the_docs():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    ids = sorted(p.stem for p in (root / "mapsheets").glob("*.yaml"))
    assert len(ids) == 11
    text = (root / "docs" / "sheets.md").read_text()
    for sid in ids:
        png = root / "docs" / "sheets" / f"{sid}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", sid
        assert f"(sheets/{sid}.png)" in text, sid
