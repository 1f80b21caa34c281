"""Scenario validation: reachability in turns, ways out, deployment zones, LOS at set-up."""

from dataclasses import replace

from engine import model as m
from engine.board import compile_board
from engine.scenario_checks import deployment_dots, edge_dots
from engine.validate import ERROR, INFO, WARNING, has_errors, validate
from tests.builders import rect
from tests.scenario.scenes import char, layout, scenario


def by_code(findings, code):
    return [f for f in findings if f.code == code]


def test_objective_sealed_in_a_room_is_an_error_naming_it():
    sc, bd, _ = scenario((m.Objective("vault-cash", "runners", "reach", at=(22, 12, 0)),))
    fs = validate(bd, sc)
    bad = by_code(fs, "objective-unreachable")
    assert len(bad) == 1 and bad[0].severity == ERROR
    assert "vault-cash" in bad[0].message
    assert bad[0].where["objectives"] == ["vault-cash"]
    assert bad[0].where["dots"] == [[22, 12, 0]]
    assert has_errors(fs)
    sealed = by_code(fs, "sealed-room")
    assert len(sealed) == 1 and sealed[0].severity == WARNING
    assert "24 dots on level 0" in sealed[0].message  # the 3x8 vault
    assert sealed[0].where["placements"] == ["hotel"]


def test_turns_needed_at_slowest_and_fastest_move_ratio():
    # west edge (columns 0-1) to the east edge (column 39): 38 clear steps
    exit_east = m.Objective("out", "runners", "exit", edge="east")
    sc, bd, _ = scenario((exit_east,), turn_limit=8)
    (f,) = [f for f in validate(bd, sc) if f.where.get("objectives") == ["out"]
            and f.code != "tempo-gap"]
    assert f.code == "objective-too-far-for-slowest" and f.severity == WARNING
    assert "76 MP = 7 turn(s) at move ratio 2" in f.message
    assert "114 MP = 10 turn(s) at move ratio 3" in f.message
    assert f.where["turns"] == {"fastest": 7, "slowest": 10, "limit": 8}

    sc, bd, _ = scenario((exit_east,), turn_limit=10)
    (f,) = [f for f in validate(bd, sc) if f.where.get("objectives") == ["out"]
            and f.code != "tempo-gap"]
    assert (f.code, f.severity) == ("objective-turns", INFO)

    sc, bd, _ = scenario((replace(exit_east, by_turn=6),), turn_limit=10)
    (f,) = [f for f in validate(bd, sc) if f.where.get("objectives") == ["out"]
            and f.code != "tempo-gap"]
    assert (f.code, f.severity) == ("objective-too-far", ERROR)
    assert "by_turn of 6" in f.message


def test_hold_adds_the_turns_held():
    hold = m.Objective("hold", "runners", "hold", area=rect(0, 10, 3, 12), turns=3)
    sc, bd, _ = scenario((hold,), turn_limit=8)
    (f,) = [f for f in validate(bd, sc) if f.where.get("objectives") == ["hold"]
            and f.code != "tempo-gap"]
    # the area touches the deployment strip: 0 MP, 0 turns to get there, 3 turns holding
    assert f.where["turns"] == {"fastest": 3, "slowest": 3, "limit": 8}
    assert f.severity == INFO
    assert "0 MP = 0 turn(s) + 3 turn(s) holding = 3 at move ratio 2" in f.message


def test_retrieve_upstairs_counts_both_legs():
    data = m.Objective("data", "runners", "retrieve", at=(16, 12, 1), then="exit-west")
    sc, bd, _ = scenario((data,), turn_limit=20)
    (f,) = [f for f in validate(bd, sc) if f.where.get("objectives") == ["data"]
            and f.code != "tempo-gap"]
    assert f.code == "objective-turns"
    assert f.where["turns"]["fastest"] == 8 and f.where["turns"]["slowest"] == 11
    # the hotel's stair is drawn at both ends (up on level 0, down on level 1): one flight,
    # +3 MP each way (SPEC), not +6 (a graph that summed the parallel edges said 96 and 135)
    assert "90 MP" in f.message and "129 MP" in f.message


def test_retrieve_without_a_way_out_is_an_error():
    lay, sheets = layout()
    fence = m.Line("fence", ((30.5, -0.5), (30.5, 29.5)), cls="thick", id="wall-of-china")
    lay = replace(lay, extras=m.Extras(lines=(fence,)))
    sides = (m.Side("runners", "Runners", m.Deployment(edge="west", depth=2), (char("A", 2),)),)
    obj = m.Objective("loot", "runners", "retrieve", at=(5, 5, 0), then="exit-east")
    sc = m.Scenario(title="t", layout=lay, sides=sides, objectives=(obj,), turn_limit=8)
    fs = validate(compile_board(lay, sheets), sc)
    (f,) = by_code(fs, "retrieve-no-way-out")
    assert f.severity == ERROR and "loot" in f.message and "east edge" in f.message
    assert not by_code(fs, "objective-unreachable")


def test_objective_on_a_level_no_stair_reaches():
    obj = m.Objective("sniper-nest", "runners", "reach", at=(31, 5, 2))
    sc, bd, _ = scenario((obj,), with_tower=True)
    fs = validate(bd, sc)
    (f,) = by_code(fs, "objective-level-unreached")
    assert f.severity == ERROR and "sniper-nest" in f.message and "level 2" in f.message
    assert f.where["placements"] == ["tower"]
    assert not by_code(fs, "objective-unreachable")  # one finding, not two
    # the stair-less floors of the tower are sealed; its roof is only an info
    assert any("level 1 of Tower" in s.message for s in by_code(fs, "sealed-room"))
    assert any("Tower" in s.message for s in by_code(fs, "roof-unreachable"))


def test_objective_in_a_wall_is_not_standable():
    obj = m.Objective("x", "runners", "reach", at=(50, 12, 0))  # off the map
    sc, bd, _ = scenario((obj,))
    (f,) = by_code(validate(bd, sc), "objective-not-standable")
    assert f.severity == ERROR and "50,12,0" in f.message


def test_sides_in_mutual_los_at_setup_warn():
    sc, bd, _ = scenario(())
    (f,) = by_code(validate(bd, sc), "deployment-mutual-los")
    assert f.severity == WARNING and set(f.where["sides"]) == {"runners", "guards"}
    a, b = f.where["dots"]
    from engine.los import line_of_sight
    assert not line_of_sight(bd, tuple(a), tuple(b)).blocked


def test_no_mutual_los_when_one_side_waits_upstairs():
    sides = (
        m.Side("runners", "Runners", m.Deployment(edge="west", depth=2), (char("A", 2),)),
        m.Side("guards", "Guards", m.Deployment(polygon=rect(15, 11, 17, 13), level=1),
               (char("G"),)),
    )
    sc, bd, _ = scenario((), sides=sides)
    fs = validate(bd, sc)
    assert not by_code(fs, "deployment-mutual-los")
    assert len(deployment_dots(bd, sides[1].deployment)) == 9


def test_deployment_zone_checks():
    sides = (
        m.Side("a", "A", m.Deployment(polygon=rect(100, 100, 104, 104)), (char("x"),)),
        m.Side("b", "B", m.Deployment(polygon=rect(5, 5, 5.2, 5.2)), (char("y"), char("z"))),
        m.Side("c", "C", m.Deployment(polygon=rect(4, 4, 8, 8)), (char("w"),)),
        m.Side("d", "D", m.Deployment(polygon=rect(14, 10, 16, 12), level=3), (char("v"),)),
        m.Side("e", "E", None, (char("u"),)),
    )
    sc, bd, _ = scenario((), sides=sides)
    fs = validate(bd, sc)
    off = by_code(fs, "deployment-not-standable")
    assert [f.where["sides"][0] for f in off] == ["a", "d"]
    assert "off the map" in off[0].message
    assert "covers 9 dot(s), none of them standable" in off[1].message  # no level 3 there
    (small,) = by_code(fs, "deployment-too-small")
    assert small.where["sides"] == ["b"] and "1 standable dot(s) for 2 characters" in small.message
    (ov,) = by_code(fs, "deployment-overlap")
    assert ov.where["sides"] == ["b", "c"] and ov.where["dots"] == [[5, 5, 0]]
    (missing,) = by_code(fs, "deployment-missing")
    assert missing.severity == WARNING and missing.where["sides"] == ["e"]


def test_edge_strips():
    sc, bd, _ = scenario(())
    assert len(edge_dots(bd, "west", 2)) == 60
    assert sorted({int(c) for c in edge_dots(bd, "east", 3)[:, 0]}) == [37, 38, 39]
    assert sorted({int(r) for r in edge_dots(bd, "north", 1)[:, 1]}) == [0]


def test_unknown_weapon_types_and_odd_ratios_warn():
    odd = m.Character("Odd", move_ratio=6, fire_ratio=2, id="odd",
                      weapons=(m.Weapon("heavy-pistol"), m.Weapon("phaser")))
    sides = (m.Side("runners", "Runners", m.Deployment(edge="west", depth=2), (odd,)),)
    sc, bd, _ = scenario((), sides=sides)
    fs = validate(bd, sc)
    (w,) = by_code(fs, "weapon-unknown-type")
    assert w.severity == WARNING and "'phaser'" in w.message
    (r,) = by_code(fs, "ratio-out-of-range")
    assert "move ratio 6" in r.message and r.where["characters"] == ["odd"]


def test_a_rulesets_character_check_reports_each_missing_key_as_an_error(monkeypatch):
    from engine.rules import combat_checks

    def needs_body(ch):
        keys = dict(ch.stats)
        return [] if "body" in keys else ["body is missing"]

    monkeypatch.setitem(combat_checks.CHECKS, "sr3", needs_body)
    sc, bd, _ = scenario(())
    sc = replace(sc, ruleset="sr3")
    bad = by_code(validate(bd, sc), "character-ruleset-stats")
    names = [c.name for s in sc.sides for c in s.characters]
    assert len(bad) == len(names) and all(f.severity == ERROR for f in bad)
    assert bad[0].message.startswith(f"{names[0]} (") and "body is missing" in bad[0].message
    assert "sr3" in bad[0].message and bad[0].where["characters"]
    # under dmz1990 the same roster needs nothing more
    assert by_code(validate(bd, replace(sc, ruleset="dmz1990")), "character-ruleset-stats") == []


def _sr3(name: str, quickness: int, reaction: int, dice: int = 1, metatype: str = "human"):
    stats = (("body", 4), ("quickness", quickness), ("strength", 4), ("intelligence", 4),
             ("willpower", 4), ("reaction", reaction), ("initiative_dice", dice))
    return m.Character(name=name, id=name.lower(), metatype=metatype, stats=stats)


def test_sr3_turn_metres_follow_the_sheet():
    from engine.rules.turn_movement import turn_metres

    # one Combat Phase (6 + 3.5 < 10): a run of Quickness x 3 (seed 001 l.221-230)
    assert turn_metres("sr3", _sr3("A", 6, 6)) == 18
    # two phases (9 + 2 x 3.5 = 16): a run and a walk of Quickness metres (l.212, l.218)
    assert turn_metres("sr3", _sr3("B", 6, 9, dice=2)) == 24
    assert turn_metres("sr3", _sr3("C", 4, 4, metatype="dwarf")) == 8  # dwarves run x 2
    assert turn_metres("dmz1990", _sr3("A", 6, 6)) is None  # DMZ walks MP


def test_sr3_timing_is_in_metres_by_each_sheet():
    # the same 38 clear steps west to east as the DMZ test above: 76 m under sr3
    exit_east = m.Objective("out", "runners", "exit", edge="east")
    sides = (
        m.Side("runners", "Runners", m.Deployment(edge="west", depth=2),
               (_sr3("Sabre", 6, 6), _sr3("Gilliam", 4, 4))),
        m.Side("guards", "Guards", m.Deployment(polygon=rect(33, 24, 38, 28), level=0),
               (_sr3("Guard", 4, 4),)),
    )
    sc, bd, _ = scenario((exit_east,), sides=sides, turn_limit=6, ruleset="sr3")
    (f,) = [f for f in validate(bd, sc) if f.where.get("objectives") == ["out"]
            and f.code != "tempo-gap"]
    assert f.code == "objective-too-far-for-slowest" and f.severity == WARNING
    assert "76 m = 5 turn(s) at 18 m a turn" in f.message  # 76 / 18 = 4.2
    assert "76 m = 7 turn(s) at 12 m a turn" in f.message  # 76 / 12 = 6.3
    assert f.where["turns"] == {"fastest": 5, "slowest": 7, "limit": 6}


def test_sr3_timing_skips_sides_without_sheets():
    """Without the figures sr3 needs, no turn count is guessed: the stats check names them."""
    exit_east = m.Objective("out", "runners", "exit", edge="east")
    sc, bd, _ = scenario((exit_east,), turn_limit=6, ruleset="sr3")
    fs = validate(bd, sc)
    assert not [f for f in fs if f.where.get("objectives") == ["out"]
                and f.code.startswith("objective-t")]
    assert by_code(fs, "character-ruleset-stats")


def test_darkcon_turn_metres_count_the_actions_of_an_average_initiative():
    from engine.rules.turn_movement import turn_metres

    dc = m.Character(name="A", stats=(("initiative", 3),))
    assert turn_metres("darkcon", dc) == 32  # 3 x 3.5 = 10: one action, a 32 m run (l.142-145)
    dc = replace(dc, stats=(("initiative", 6),))
    assert turn_metres("darkcon", dc) == 96  # 21: acts on 21, 11 and 1 (l.174)


def test_walk_field_agrees_with_the_path_command_in_every_ruleset():
    """Validation's distance field and `sprawlmap path` walk one movement graph: the metres
    from a deployment dot equal the path's length, Dark Conspiracy's diagonals included."""
    import numpy as np

    from engine.movement import cheapest_path
    from engine.pace import Pace, walk_field

    sc, bd, _ = scenario(())
    start = (1, 3, 0)
    for ruleset, pace in (("sr3", Pace("m", per_turn=12)), ("darkcon", Pace("m", per_turn=32)),
                          ("dmz1990", Pace("MP", move_ratio=2))):
        field = walk_field(bd, ruleset, np.array([bd.node(start)]), pace)
        for goal in ((9, 10, 0), (30, 20, 0), (16, 12, 1)):
            res = cheapest_path(bd, start, goal, pace.move_ratio, ruleset=ruleset)
            assert res.reachable, (ruleset, goal)
            want = res.cost if ruleset == "dmz1990" else res.length_m
            assert abs(field[bd.node(goal)] - want) < 0.01, (ruleset, goal)
