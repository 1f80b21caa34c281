"""sr3's Blind Fire, fire modes, called shots, Take Aim and delayed actions, with seed 001's
numbers, on the sample's real board."""

from pathlib import Path

import pytest

from editor.play.describe import describe
from engine.io.resolve import load_board
from engine.play import actions as A
from engine.play.bots import Bot
from engine.play.errors import PlayError
from engine.rules import sr3_combat as C
from tests.play.test_sr3_game import events, game_of

SAMPLE = Path(__file__).resolve().parents[2] / "scenarios" / "nightclub-raid-sr3.yaml"
#: Sabre in the street; Rook inside the corner store behind its back door (Barrier Rating 4,
#: average material, l.946-962), Crowbar behind its structural wall (12)
HIDDEN = {"sabre": (30, 12, 0), "rook": (36, 13, 0), "crowbar": (36, 10, 0)}


@pytest.fixture(scope="module")
def loaded():
    return load_board(SAMPLE)


# ================================================================== rules layer
def test_delayed_action_phases_are_bastions():
    # delayed from 25, acting at 12: ten phases later, 2 (l.86); carried over with a total of
    # 17 and acting at 29: his own 17 (19 is higher); at 18: 8 (l.100)
    assert C.phases_after_delay(12, 5) == [2]
    assert C.phases_after_delay(29, 17) == [17, 7]
    assert C.phases_after_delay(18, 17) == [8]
    assert C.phases_after_delay(8, None) == []


def test_called_shot_and_aim_numbers():
    assert str(C.called_code(C.parse_damage_code("9M"))) == "9S"
    assert str(C.called_code(C.parse_damage_code("10D"))) == "10D"  # Deadly at most (l.620)
    assert C.aim_limit(6) == 3 and C.aim_limit(5) == 2  # half the skill, round down (l.174)
    tn, mods = C.ranged_tn("short", 0, C.Situation(called=True, aimed=2))
    assert (tn, mods) == (6, {"base": 4, "called_shot": 4, "aimed": -2})
    # armour 3 and a Barrier 4 take 7 off the Power (l.967); flechettes double it (l.716)
    assert C.through_rating([4]) == 4 and C.through_rating([4], flechette=True) == 8
    assert C.resistance_tn(9, 3, C.through_rating([4])) == 2


# ================================================================== blind fire
def test_blind_fire_through_a_door_at_a_known_enemy(loaded):
    g = game_of(loaded, at=HIDDEN)
    sabre, rook = g.char("sabre"), g.char("rook")
    assert g.line_of_fire(sabre, rook) is None
    # nobody on his side has seen or heard Rook: no shot at all
    assert g.plan_shot(sabre, rook, True) is None
    g.act(A.begin("sabre"))
    with pytest.raises(PlayError, match="fire blind"):
        g.act(A.fire("rook"))
    g._heard(rook)  # he fired a moment ago: his side's enemies know where he stands
    assert g.knows(sabre, rook)
    n = g.plan_shot(sabre, rook, True).numbers
    # 12.2 m, medium for a heavy pistol (5), Blind Fire +8 (l.486) and no sight modifiers
    # (he cannot see the light or the cover), stationary -1, smartlink -2
    assert n["modifiers"] == {"base": 5, "blind_fire": 8, "target_stationary": -1,
                              "smartlink": -2}
    assert n["target_number"] == 10
    # Rook's armour 3 and the door's 4 come off the Power 9: resistance TN 2 (l.967)
    assert (n["armour"], n["barrier"], n["resist_tn"], n["stopped"]) == (3, 4, 2, False)
    assert n["blind_fire"] == ["store/d-back"]
    g.act(A.fire("rook", mode="SA", called=False))
    shot = events(g, "test", purpose="movement fire")[-1]
    assert shot["target_number"] == 10 and shot["blind_fire"] == ["store/d-back"]
    assert shot["barrier"] == 4


def test_a_structural_wall_stops_a_pistol_cold(loaded):
    g = game_of(loaded, at=HIDDEN)
    sabre, crowbar = g.char("sabre"), g.char("crowbar")
    g._heard(crowbar)
    plan = g.plan_shot(sabre, crowbar, True)
    # Barrier Rating 12 above the Power 9: the shot cannot penetrate (l.969)
    assert (plan.numbers["barrier"], plan.numbers["stopped"]) == (12, True)
    assert (plan.p_hit, plan.expected) == (0.0, 0.0)


def test_flechettes_meet_twice_the_barrier(loaded):
    g = game_of(loaded, names=("Sabre", "Big Lou", "Rook", "Crowbar"),
                at={**HIDDEN, "big-lou": (30, 13, 0)})
    lou, rook = g.char("big-lou"), g.char("rook")
    g._heard(rook)
    n = g.plan_shot(lou, rook, True).numbers
    # the Roomsweeper's 9S(f): the door counts 8 (l.716); Rook's armour is the higher of
    # 2 x Impact 2 and Ballistic 3
    assert (n["barrier"], n["armour"], n["resist_tn"], n["stopped"]) == (8, 4, 2, False)


def test_knowing_where_he_is(loaded):
    g = game_of(loaded, at={"sabre": (30, 12, 0), "rook": (36, 13, 0), "crowbar": (30, 3, 0)})
    sabre, rook, crowbar = g.char("sabre"), g.char("rook"), g.char("crowbar")
    g.act(A.begin("sabre"))
    g.act(A.end())
    # Sabre and Crowbar see each other: at the end of his action both sides know
    assert g.knows(crowbar, sabre) and g.knows(sabre, crowbar)
    assert not g.knows(sabre, rook)
    g._heard(rook)
    assert g.knows(sabre, rook)
    rook.pos = (37, 13, 0)  # he moved: where he was is all they know
    assert not g.knows(sabre, rook)


# ================================================================== modes and called shots
def test_fire_modes_and_full_auto_rounds(loaded):
    g = game_of(loaded, names=("Angela", "Rook", "Crowbar"),
                at={"angela": (30, 12, 0), "rook": (30, 3, 0), "crowbar": (40, 12, 0)})
    ang, rook = g.char("angela"), g.char("rook")
    assert g.fire_modes(ang) == ["SA", "BF", "FA"]
    fa10 = g.plan_shot(ang, rook, True, "FA", 10).numbers
    # 7M + 10 rounds: Power 17, three levels up stops at D (l.676-680); recoil 10 less 2
    assert (fa10["damage_code"], fa10["modifiers"]["recoil"], fa10["rounds"]) == ("17D", 8, 10)
    fa3 = g.plan_shot(ang, rook, True, "FA", 3).numbers
    assert (fa3["damage_code"], fa3["modifiers"]["recoil"]) == ("10S", 1)
    bf = g.plan_shot(ang, rook, True, "BF", called=False).numbers
    assert (bf["damage_code"], bf["modifiers"]["recoil"]) == ("10S", 1)  # +3 less 2 (l.661)
    # unasked, the referee fires what is worth most a Simple Action (FA takes two)
    best = g.plan_shot(ang, rook, True)
    per_slot = [g.plan_shot(ang, rook, True, m, r, c).expected / (2 if m == "FA" else 1)
                for m, r, c in [("SA", None, False), ("SA", None, True), ("BF", None, False),
                                ("BF", None, True)] + [("FA", k, False) for k in range(3, 11)]]
    top = best.expected / (2 if best.numbers["mode"] == "FA" else 1)
    assert top == pytest.approx(max(per_slot))
    while g.state.current_team != "angela":
        g.act(A.begin(g.state.current_team))
        g.act(A.end())
    g.act(A.begin("angela"))
    with pytest.raises(PlayError, match="not SS"):
        g.act(A.fire("rook", mode="SS"))
    with pytest.raises(PlayError, match="3 to 10 rounds"):
        g.act(A.fire("rook", mode="FA", rounds=11))
    with pytest.raises(PlayError, match="l.624"):
        g.act(A.fire("rook", mode="FA", rounds=6, called=True))
    g.act(A.fire("rook", mode="FA", rounds=6))
    shot = events(g, "test", purpose="movement fire")[-1]
    assert (shot["mode"], shot["rounds"], shot["damage_code"]) == ("FA", 6, "13D")
    assert g.slots_left(ang) == 0  # full-auto is a Complex Action (l.674)
    assert ang.weapons[0].loaded == 32 - 6


def test_a_called_shot(loaded):
    g = game_of(loaded)
    sabre, rook = g.char("sabre"), g.char("rook")
    plain = g.plan_shot(sabre, rook, True, "SA", called=False).numbers
    n = g.plan_shot(sabre, rook, True, "SA", called=True).numbers
    # +4 and one Damage Level up: 9M becomes 9S (l.620)
    assert n["modifiers"]["called_shot"] == 4 and n["damage_code"] == "9S"
    assert n["target_number"] == plain["target_number"] + 4
    g.act(A.begin("sabre"))
    g.act(A.fire("rook", mode="SA", called=True))
    assert events(g, "test", purpose="movement fire")[-1]["called"] is True
    with pytest.raises(PlayError, match="Free Action"):
        g.act(A.fire("rook", mode="SA", called=True))


# ================================================================== take aim
def test_take_aim_up_to_half_the_skill(loaded):
    g = game_of(loaded)
    sabre, rook = g.char("sabre"), g.char("rook")
    base = g.plan_shot(sabre, rook, True, "SA", called=False).numbers
    g.act(A.begin("sabre"))
    g.act(A.aim("rook"))
    g.act(A.aim("rook"))
    assert g.slots_left(sabre) == 0  # each a Simple Action (l.173)
    n = g.plan_shot(sabre, rook, True, "SA", called=False).numbers
    assert n["modifiers"]["aimed"] == -2 and n["aimed"] == 2
    # the play panel's words: an aim, never DMZ's arcs
    assert g.hold_words(sabre) == "aiming at rook (2 aim(s), -2 TN)"
    assert n["pool"] == base["pool"]  # aimed within this Combat Phase: the pool is his
    g.act(A.end())
    g.act(A.begin("crowbar"))
    g.act(A.end())
    g.act(A.begin("sabre"))  # his phase 5: the aim held over (l.174)
    g.act(A.aim("rook"))
    with pytest.raises(PlayError, match="half his skill"):
        g.act(A.aim("rook"))  # Pistols 6: three at most
    n = g.plan_shot(sabre, rook, True, "SA", called=False).numbers
    # aimed over two Combat Phases: no Combat Pool dice (l.175)
    assert (n["aimed"], n["pool"], n["dice"]) == (3, 0, 6)
    g.act(A.fire("rook", mode="SA", called=False))
    shot = events(g, "test", purpose="movement fire")[-1]
    assert shot["modifiers"]["aimed"] == -3 and shot["aimed_over_phases"] is True
    assert "sabre" not in g.sr3["aim"]  # spent on the shot


def test_any_other_action_loses_the_aim(loaded):
    g = game_of(loaded)
    sabre, rook = g.char("sabre"), g.char("rook")
    g.act(A.begin("sabre"))
    g.act(A.aim("rook"))
    with pytest.raises(PlayError):
        g.act(A.open_("no-such-door"))  # refused: nothing happened, the aim holds
    assert g.sr3["aim"]["sabre"]["n"] == 1
    g.act(A.prone())  # even a Free Action (l.174)
    assert events(g, "aim-lost", who="sabre")
    assert "aimed" not in g.plan_shot(sabre, rook, True, "SA", called=False).numbers


# ================================================================== delayed actions
def test_a_delayed_action_fires_at_the_one_who_steps_into_view(loaded):
    g = game_of(loaded, at={"sabre": (30, 12, 0), "rook": (36, 13, 0), "crowbar": (30, 3, 0)})
    # Bastion's turn (l.86-100): Sabre acts at 25, 15 and 5, Rook at 12
    g.state.order = ["sabre", "sabre", "rook", "sabre", "crowbar"]
    g.sr3["passes"] = [[25, "sabre"], [15, "sabre"], [12, "rook"], [5, "sabre"],
                       [3, "crowbar"]]
    g.act(A.begin("sabre"))
    with pytest.raises(PlayError, match="no line of fire"):
        g.act(A.fire("rook"))
    assert g.hold_words(g.char("sabre")) == "no delayed action, not aiming"
    g.act(A.delay())  # a Free Action; his action waits
    assert g.hold_words(g.char("sabre")).startswith("delaying: fires when an enemy acts")
    assert g.state.phase == 1 and events(g, "delay", who="sabre")  # his action is over
    g.act(A.begin("sabre"))  # his own phase 15 comes: he waits on
    g.act(A.delay())
    g.act(A.begin("rook"))
    g.act(A.move((35, 13, 0)))  # through the back door, into Sabre's sight
    took = events(g, "intervene", who="sabre")
    assert took and took[0]["against"] == "rook" and took[0]["phase"] == 12
    assert events(g, "test", purpose="reaction fire", attacker="sabre")
    # acted at 12: his next phase is 2, not his own 5 (l.88, l.100)
    assert events(g, "initiative-after-delay")[-1]["phases"] == [2]
    assert g.sr3["passes"][3:] == [[3, "crowbar"], [2, "sabre"]]
    assert "sabre" not in g.sr3["delayed"]
    text = [describe(e) for e in g.log.events]
    assert "sabre delays his action in Combat Phase 25" in text
    assert "sabre takes his delayed action against rook in Combat Phase 12" in text
    assert "sabre acts again this turn in Combat Phase(s): 2" in text


def test_a_delay_is_declared_first_and_lost_with_the_pool(loaded):
    g = game_of(loaded)
    sabre = g.char("sabre")
    g.act(A.begin("sabre"))
    g.act(A.move((30, 11, 0)))
    with pytest.raises(PlayError, match="before the action"):
        g.act(A.delay())
    g.act(A.end())
    g.act(A.begin("crowbar"))
    g.act(A.end())
    g.act(A.begin("sabre"))
    g.act(A.delay())
    assert "sabre" in g.sr3["delayed"]
    g._spend_pool(sabre, 1)  # e.g. resisting a wound with his Combat Pool (l.96)
    assert "sabre" not in g.sr3["delayed"]
    assert events(g, "delay-broken", who="sabre")


def test_a_bot_fires_blind_when_it_beats_every_other_shot(loaded):
    # Angela at the store's back door, Rook heard behind it, Crowbar out of sight far south:
    # her full-auto burst through the door (BR 4) is the best shot she has (1.55 boxes)
    g = game_of(loaded, names=("Angela", "Rook", "Crowbar"),
                at={"angela": (35, 13, 0), "rook": (36, 13, 0), "crowbar": (46, 30, 0)})
    ang, rook = g.char("angela"), g.char("rook")
    g._heard(rook)
    value, target = Bot("runners").best_shot(g, ang)
    assert target is rook and value == pytest.approx(1.55, abs=0.01)
    while g.state.current_team != "angela":
        g.act(A.begin(g.state.current_team))
        g.act(A.end())
    g.act(A.begin("angela"))
    Bot("runners")._shoot(g, ang, keep=0)
    shot = events(g, "test", attacker="angela")[0]
    assert shot["blind_fire"] == ["store/d-back"] and shot["mode"] == "FA"
    assert shot["modifiers"]["blind_fire"] == 8 and shot["barrier"] == 4


def test_a_bot_takes_aim_when_the_aimed_shot_beats_two_shots(loaded):
    # Moth's Defiance (10S, SA) at Sabre 8.9 m off: TN 5 with 6 dice now (2.64 boxes), and a
    # second shot at recoil +1 without the 2 pool dice the first spent: 3.86 for both.  One
    # Take Aim makes it TN 4 with all 6 dice: 4.11 (l.173-176), so the bot aims, then fires
    g = game_of(loaded, names=("Moth", "Sabre", "Crowbar"),
                at={"moth": (26, 10, 0), "sabre": (30, 12, 0), "crowbar": (46, 30, 0)})
    while g.state.current_team != "moth":
        g.act(A.begin(g.state.current_team))
        g.act(A.end())
    g.act(A.begin("moth"))
    moth = g.char("moth")
    [(value, act, why)] = g.bot_options(moth)
    assert act == {"act": "aim", "target": "sabre"}
    assert (why["aimed_shot"], why["two_shots_now"]) == (4.11, 3.86)
    assert value == pytest.approx(4.11 - (3.86 - 2.64), abs=0.01)
    bot = Bot("gang")
    assert bot._aim(g, moth, moth.pos) and g.slots_left(moth) == 1
    assert events(g, "why", act="aim")[0]["best_shot_now"] == 2.64
    bot._shoot(g, moth, keep=0)
    shot = events(g, "test", attacker="moth")[0]
    assert shot["modifiers"]["aimed"] == -1 and shot["target_number"] == 4
    assert bot.errors == []


def test_two_pistol_shots_beat_an_aim(loaded):
    # Sabre's Predator at Moth from the same 8.9 m: 8.72 boxes a shot, no aim is offered
    g = game_of(loaded, names=("Moth", "Sabre", "Crowbar"),
                at={"moth": (30, 10, 0), "sabre": (26, 12, 0), "crowbar": (46, 30, 0)})
    g.act(A.begin("sabre"))
    assert g.bot_options(g.char("sabre")) == []
    assert g.plan_shot(g.char("sabre"), g.char("moth"), True).expected == \
        pytest.approx(8.72, abs=0.01)
