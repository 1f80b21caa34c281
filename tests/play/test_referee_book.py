"""The referee by the book (seed 000): melee reach, armed melee, move-by attacks, falls,
elevators and hold objectives, each checked with the book's own numbers."""

from engine import model as m
from engine.play import objectives as obj_rules
from engine.play.actions import begin, end, melee, move
from engine.play.events import EventLog
from engine.play.game import PlayError
from engine.play.referee_melee import melee_attack, melee_contact
from engine.play.state import PRONE, GameState
from tests.play.fakes import GridBoard
from tests.play.helpers import ScriptedDice, build, char
from tests.play.test_engine_board import hut

KATANA = m.Weapon(type="katana", success=(25,), damage=2)  # Armed 18 + Katana base 7 (l.3325)
CLUB = m.Weapon(type="club", damage=2)  # Club: base 5, Stun (seed 000 l.3333)
POLE = m.Weapon(type="pole-arm")  # Pole Arm: base 11, damage 4 (seed 000 l.3330)


def refusal(game, action) -> str:
    try:
        game.act(action)
    except PlayError as e:
        return str(e)
    raise AssertionError(f"{action} was allowed")


# ------------------------------------------------------------------ melee reach (l.1044)
def test_melee_needs_a_legal_step_no_blow_through_a_wall_or_a_closed_door():
    eb = hut()
    outside_door, inside_door = (5, 5, 0), (6, 5, 0)
    outside_wall, inside_wall = (6, 8, 0), (6, 7, 0)
    assert not melee_contact(eb, outside_wall, inside_wall)  # the hut's south wall
    assert not melee_contact(eb, outside_door, inside_door)  # its west door, closed
    eb.set_opening("hut/d1", "open")
    assert melee_contact(eb, outside_door, inside_door)
    assert not melee_contact(eb, (5, 5, 0), (7, 5, 0))  # two dots apart


def test_a_melee_attack_through_a_wall_is_refused_and_costs_nothing():
    eb = hut()
    a = char("a", "x", (6, 8, 0))
    b = char("b", "y", (6, 7, 0))
    g = build(eb, [a, b], ["x", "y"])
    g.act(begin("a"))
    assert "adjoining" in refusal(g, melee("b"))
    assert a.mp_spent == 0


def test_no_move_by_attack_through_a_wall():
    """Walking along the hut's south wall past a defender inside draws no free blow
    (l.1060 needs the defender adjoining; a wall keeps him out of reach)."""
    eb = hut()
    mover = char("m", "x", (6, 8, 0), move_ratio=2)
    guard = char("g", "y", (6, 7, 0), success={"unarmed": 30})
    g = build(eb, [mover, guard], ["x", "y"], dice=ScriptedDice([2] * 10))
    g.act(begin("m"))
    g.act(move((7, 8, 0)))
    assert g.log.of_kind("test") == [] and mover.pos == (7, 8, 0)


def test_move_by_attack_in_the_open_uses_the_defenders_melee_weapon():
    board = GridBoard(8, 8)
    mover = char("m", "x", (2, 2, 0), defense={"ballistic": 8, "impact": 10})
    guard = char("g", "y", (3, 2, 0), weapons=(POLE,), success={"armed": 9}, ready=0)
    g = build(board, [mover, guard], ["x", "y"], dice=ScriptedDice([10, 7]))
    g.act(begin("m"))
    g.act(move((1, 2, 0)))
    t = g.log.of_kind("test")[0]
    # Armed 9 + Pole Arm base 11 = 20 against Impact 10: chance 10, a roll of 10 hits
    assert (t["purpose"], t["success_value"], t["target_value"]) == ("move-by attack", 20, 10)
    dmg = g.log.of_kind("damage")[0]
    assert dmg["boxes"] == 4 and dmg["damage"] == "physical"


# ------------------------------------------------------------------ armed melee (l.1046)
def test_armed_melee_with_a_katana_does_physical_damage_from_the_sheet():
    board = GridBoard(8, 8)
    sabre = char("sabre", "x", (2, 2, 0), weapons=(KATANA,), ready=0)
    thug = char("thug", "y", (3, 2, 0), success={"unarmed": 10},
                defense={"ballistic": 8, "impact": 9})
    assert melee_attack(sabre).success == 25
    # the thug defends (his 10 - 8 is below Sabre's 25 - 9): 25 - 9 = 16, a roll of 11 hits
    g = build(board, [sabre, thug], ["x", "y"], dice=ScriptedDice([11, 7]))
    g.act(begin("sabre"))
    g.act(melee("thug"))
    t = g.log.of_kind("test")[0]
    assert (t["success_value"], t["target_value"], t["success"]) == (25, 9, True)
    dmg = g.log.of_kind("damage")[0]
    assert dmg["boxes"] == 2 and dmg["damage"] == "physical"
    assert sabre.mp_spent == 4  # Melee Attack 4 MP (l.624)


def test_a_club_does_stun_and_without_a_sheet_value_adds_its_base_to_armed():
    ch = char("b", "x", (0, 0, 0), weapons=(CLUB,), success={"armed": 14}, ready=0)
    att = melee_attack(ch)
    assert (att.success, att.damage, att.kind) == (14 + 5, 2, "stun")
    ch.ready = None
    assert melee_attack(ch).name == "unarmed"


def test_counterattack_keeps_a_ready_katana_but_drops_a_ready_firearm():
    board = GridBoard(8, 8)
    a = char("a", "x", (2, 2, 0), success={"unarmed": 12})
    d = char("d", "y", (3, 2, 0), weapons=(KATANA,), ready=0)
    g = build(board, [a, d], ["x", "y"], dice=ScriptedDice([12, 12]))
    g.act(begin("a"))
    g.act(melee("d"))
    assert g.log.of_kind("melee")[0]["choice"] == "counterattack" and d.ready == 0
    a2 = char("a2", "x", (2, 2, 0), success={"unarmed": 12})
    d2 = char("d2", "y", (3, 2, 0), success={"unarmed": 20})
    g2 = build(GridBoard(8, 8), [a2, d2], ["x", "y"], dice=ScriptedDice([12, 12]))
    g2.act(begin("a2"))
    g2.act(melee("d2"))
    assert g2.log.of_kind("melee")[0]["choice"] == "counterattack" and d2.ready is None


# ------------------------------------------------------------------ falls (l.584, l.1364)
def _roof_game(totals):
    eb = hut()
    j = char("j", "x", (6, 5, 1), defense={"ballistic": 8, "impact": 13})
    far = char("far", "y", (20, 12, 0))
    return build(eb, [j, far], ["x", "y"], dice=ScriptedDice(totals)), j


def test_a_fall_costs_no_mp_leaves_him_prone_and_a_passed_test_no_damage():
    # Impact 13 against 4 x 1 story = 4: chance 9; a roll of 9 passes
    g, j = _roof_game([9])
    g.act(begin("j"))
    g.act({"act": "jump", "to": [5, 5, 0]})
    t = g.log.of_kind("test")[0]
    assert (t["purpose"], t["success_value"], t["target_value"], t["success"]) == \
        ("fall", 13, 4, True)
    assert j.pos == (5, 5, 0) and j.posture == PRONE and j.mp_spent == 0
    assert g.log.of_kind("damage") == []


def test_a_failed_fall_test_costs_a_box_per_story():
    g, j = _roof_game([10, 7])
    g.act(begin("j"))
    g.act({"act": "jump", "to": [5, 5, 0]})
    dmg = g.log.of_kind("damage")[0]
    assert dmg["boxes"] == 1 and dmg["damage"] == "physical" and dmg["source"] == "fall"


def test_the_controlled_drop_costs_two_mp_and_no_test():
    g, j = _roof_game([])
    g.act(begin("j"))
    g.act(move((5, 5, 0)))
    assert j.mp_spent == 2 + 2 and g.log.of_kind("test") == []  # Drop +2 MP (l.535)


def test_no_fall_where_there_is_floor_at_his_level():
    g, _j = _roof_game([])
    g.act(begin("j"))
    assert "cannot fall" in refusal(g, {"act": "jump", "to": [7, 5, 0]})


# ------------------------------------------------------------------ elevators (l.606)
class LiftBoard(GridBoard):
    def elevator_dots(self):
        return [(4, 4, 0)]


def test_four_friends_share_an_elevator_and_fight_at_plus_four():
    board = LiftBoard(10, 10)
    crew = [char(f"c{i}", "x", (4, 4, 0) if i else (4, 5, 0)) for i in range(4)]
    foe = char("foe", "y", (4, 8, 0))
    g = build(board, [*crew, foe], ["x", "y"])
    g.act(begin("c0"))
    g.act(move((4, 4, 0)))
    g.act(end())
    assert crew[0].pos == (4, 4, 0) and g.log.of_kind("stacked") == []
    plan = g.plan_shot(crew[1], foe, movement_fire=True)
    assert plan[2]["elevator"] == 4


def test_a_fifth_rider_or_an_enemy_may_not_stop_in_the_elevator():
    board = LiftBoard(10, 10)
    crew = [char(f"c{i}", "x", (4, 4, 0) if i else (4, 5, 0)) for i in range(5)]
    foe = char("foe", "y", (4, 8, 0))
    g = build(board, [*crew, foe], ["x", "y"])
    g.act(begin("c0"))
    g.act(move((4, 4, 0)))
    assert "holds 4" in refusal(g, end())
    b2 = LiftBoard(10, 10)
    x = char("x1", "x", (4, 4, 0))
    y = char("y1", "y", (4, 3, 0))
    g2 = build(b2, [x, y], ["y", "x"])
    g2.act(begin("y1"))
    assert "held by" in refusal(g2, move((4, 4, 0)))
    assert "cannot end" in _stop_on_friend(GridBoard(10, 10))


def _stop_on_friend(board) -> str:
    a, b = char("a", "x", (4, 5, 0)), char("b", "x", (4, 4, 0))
    g = build(board, [a, b, char("f", "y", (9, 9, 0))], ["x", "y"])
    g.act(begin("a"))
    g.act(move((4, 4, 0)))
    return refusal(g, end())


# ------------------------------------------------------------------ hold objectives
class Area:
    def __init__(self):
        self.inside: set = set()

    def in_area(self, dot, polygon, level):
        return dot in self.inside


def _hold(consecutive: bool):
    o = m.Objective(id="h", side="x", kind="hold", area=((0, 0), (1, 0), (1, 1)), turns=3,
                    consecutive=consecutive)
    st = GameState(characters={"a": char("a", "x", (1, 1, 0))})
    return o, st


def _turns(o, st, held_pattern):
    board, log = Area(), EventLog()
    for held in held_pattern:
        board.inside = {(1, 1, 0)} if held else set()
        obj_rules.check_holds(st, [o], board, log)
    return log


def test_hold_counts_consecutive_turns_by_default():
    o, st = _hold(True)
    log = _turns(o, st, [True, True, False, True, True])
    assert "h" not in st.achieved and st.held["h"] == 2
    assert log.of_kind("hold-broken")[0]["after"] == 2
    _turns(o, st, [True])
    assert st.achieved == {"h": "x"}


def test_hold_with_consecutive_false_adds_turns_up():
    o, st = _hold(False)
    _turns(o, st, [True, True, False, True])
    assert st.achieved == {"h": "x"}
