"""Dark Conspiracy actions beyond a plain shot (engine/play/darkcon_game.py): aimed fire,
opportunity fire, Suppression Fire, charges and the ambush turn, on placed characters of the
Club Umbra sample with the dice scripted where a result is asserted (seed 003 line numbers
in each test).
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from engine.errors import LoadError
from engine.io import load_board, parse_text, scenario_from_data
from engine.play import referees
from engine.play.bots import Bot, play_game
from engine.play.engine_board import EngineBoard, fork_board
from engine.play.errors import PlayError
from engine.rules import darkcon_combat as C
from tests.play.test_darkcon_game import Script

SAMPLE = "scenarios/club-umbra-darkcon.yaml"
#: Marsh (M16) and Cole 12 m apart on a diagonal of the open street; Ivy off the line of fire
#: 2 m beside Cole; Grue 12 m west of Marsh
PLACES = {"marsh": (30, 20, 0), "cole": (34, 24, 0), "ivy": (32, 24, 0), "grue": (24, 20, 0)}


@pytest.fixture(scope="module")
def loaded():
    return load_board(SAMPLE)


def no_ambush(sc):
    """The sample without its ambush (placed characters here fight a plain first turn)."""
    return dataclasses.replace(sc, conditions=tuple(kv for kv in sc.conditions
                                                    if kv[0] != "ambush"))


def _game(loaded, seed=1, scenario=None, deployment=PLACES, turn_limit=None):
    sc, board = loaded
    sc = scenario or no_ambush(sc)
    view = EngineBoard(fork_board(board), light=sc.light, ruleset=sc.ruleset)
    return referees.new_game(sc, view, seed, deployment=deployment, turn_limit=turn_limit)


def _order(g, *ids):
    """This turn's activations in the given order (scores 30, 29, ...), the first begun."""
    g.state.order = list(ids)
    g.dc["scores"] = [[30 - i, cid] for i, cid in enumerate(ids)]
    g.state.phase = 0
    g.state.active = None
    g.refresh(g.char(ids[0]))
    g.act({"act": "begin", "who": ids[0]})


def _next(g):
    """End the mover and open the next activation."""
    g.act({"act": "end"})
    who = g.state.current_team
    g.act({"act": "begin", "who": who})
    return who


def _tests(g, purpose):
    return [e for e in g.log.of_kind("test") if e["purpose"] == purpose]


# ---------------------------------------------------------------- aimed fire (l.381-385)

def test_aim_modifiers_of_the_text():
    # one aiming action: no modifier; +1 for each after the first, at most +4; quick -4
    assert [C.aim_modifier(n) for n in range(7)] == [-4, 0, 1, 2, 3, 4, 4]
    # only the first shot of an action is aimed (l.383), none while walking/trotting (l.461)
    assert C.shot_aims(3, 3) == [2, -4, -4]
    assert C.shot_aims(3, 1, moving=True) == [-4]


def test_an_aimed_burst_drops_the_quick_shot_penalty(loaded):
    g = _game(loaded)
    _order(g, "marsh", "marsh")
    marsh, cole = g.char("marsh"), g.char("cole")
    quick = g.plan_shot(marsh, cole, True).numbers
    assert quick["modifiers"] == {"range": 4, "quick_shot": -4} and quick["targets"] == [10]
    g.act({"act": "aim", "target": "cole"})
    aim = g.log.of_kind("aim")[-1]
    assert (aim["target"], aim["actions"], aim["modifier"]) == ("cole", 1, 0)
    # aiming goes with nothing else: no move, no shot in the same action (l.157)
    assert marsh.mp_left == 0 and not g.affords(marsh, "fire")
    with pytest.raises(PlayError):
        g.act({"act": "fire", "target": "cole"})
    _next(g)
    # M16: 5 + 6, short +4, aimed 0, burst recoil 7 against Strength 6: -1 -> 14
    n = g.plan_shot(marsh, cole, True).numbers
    assert n["modifiers"] == {"range": 4, "aimed": 0} and n["targets"] == [14]
    g.dice.rng = Script(g.dice.rng, [13, 5, 1, 1, 1, 1, 1])  # 13 <= 14 hits; quick 10 missed
    g.act({"act": "fire", "target": "cole"})
    shot = _tests(g, "movement fire")[-1]
    assert (shot["target_number"], shot["roll"], shot["aim"], shot["success"]) == \
        (14, 13, 0, True)
    assert "marsh" not in g.dc["aim"]  # the aim is spent with the shot


def test_a_second_aiming_action_adds_one(loaded):
    g = _game(loaded)
    _order(g, "marsh", "marsh")
    g.act({"act": "aim", "target": "cole"})
    _next(g)
    g.act({"act": "aim", "target": "cole"})
    assert g.log.of_kind("aim")[-1]["actions"] == 2
    n = g.plan_shot(g.char("marsh"), g.char("cole"), True).numbers
    assert n["modifiers"]["aimed"] == 1 and n["targets"] == [15]


def test_moving_loses_the_aim(loaded):
    g = _game(loaded)
    _order(g, "marsh", "marsh")
    g.act({"act": "aim", "target": "cole"})
    _next(g)
    g.act({"act": "move", "to": [31, 20, 0]})
    assert "marsh" not in g.dc["aim"]
    assert g.log.of_kind("aim-lost")[-1]["who"] == "marsh"
    # and a walk forbids aimed fire anyway (l.461): the shot is quick
    n = g.plan_shot(g.char("marsh"), g.char("cole"), True).numbers
    assert "quick_shot" in n["modifiers"]


# ---------------------------------------------------------------- opportunity fire (l.194-200)

def test_an_aiming_character_fires_at_the_target_who_moves(loaded):
    g = _game(loaded)
    _order(g, "marsh", "cole")
    g.act({"act": "aim", "target": "cole"})
    assert _next(g) == "cole"
    # Cole steps off the square Marsh aims at: one aimed burst at him (l.200): 11 + short 4,
    # aimed 0, recoil -1, Cole walking -2 (assumed table) -> 12
    g.dice.rng = Script(g.dice.rng, [12, 5, 1, 1, 1, 1, 1, 1, 1])
    g.act({"act": "move", "to": [35, 25, 0]})
    opp = g.log.of_kind("opportunity")[-1]
    assert (opp["attacker"], opp["target"], opp["aimed"]) == ("marsh", "cole", True)
    shot = _tests(g, "opportunity fire")[-1]
    assert shot["modifiers"] == {"range": 4, "aimed": 0, "target_moving": -2}
    assert (shot["target_number"], shot["roll"], shot["of"], shot["success"]) == (12, 12, 1, True)
    # one attack of opportunity between his actions, and the aim is gone after it
    assert "marsh" not in g.dc["aim"] and g.dc["opp"]["marsh"]
    n = len(_tests(g, "opportunity fire"))
    g.act({"act": "move", "to": [36, 26, 0]})
    assert len(_tests(g, "opportunity fire")) == n


def test_a_flat_footed_aimer_does_not_fire(loaded):
    g = _game(loaded)
    # Marsh aimed last turn and has not acted yet this turn: flat-footed (l.178)
    g.dc["aim"]["marsh"] = {"target": "cole", "at": [34, 24, 0], "actions": 1}
    _order(g, "cole", "marsh")
    g.act({"act": "move", "to": [35, 25, 0]})
    assert not g.log.of_kind("opportunity") and not _tests(g, "opportunity fire")


def test_aiming_at_a_square_threatens_the_line_to_it(loaded):
    g = _game(loaded)
    _order(g, "marsh", "ivy")
    g.act({"act": "aim", "at": [34, 20, 0]})  # along row 20, 8 m east
    assert {(31, 20, 0), (32, 20, 0), (33, 20, 0), (34, 20, 0)} <= g.threatened(g.char("marsh"))
    assert _next(g) == "ivy"
    g.act({"act": "move", "to": [32, 23, 0]})
    assert not g.log.of_kind("opportunity")
    g.act({"act": "move", "to": [32, 22, 0]})
    g.act({"act": "move", "to": [32, 21, 0]})
    g.dice.rng = Script(g.dice.rng, [20])  # 17-20 always miss (l.400)
    g.act({"act": "move", "to": [32, 20, 0]})  # onto the line: a quick burst at her
    opp = g.log.of_kind("opportunity")[-1]
    assert (opp["target"], opp["square"], opp["aimed"]) == ("ivy", "entered", False)
    assert _tests(g, "opportunity fire")[-1]["modifiers"]["quick_shot"] == -4


# ---------------------------------------------------------------- suppression fire (l.449)

def test_suppression_fire_catches_whoever_crosses_the_zone(loaded):
    g = _game(loaded)
    _order(g, "marsh", "ivy")
    # a missed burst of 3: one incidental round (half, l.436), the other 2 stay as suppression
    g.dice.rng = Script(g.dice.rng, [15])
    g.act({"act": "fire", "target": "cole"})
    sup = g.log.of_kind("suppression")[-1]
    assert (sup["shooter"], sup["rounds"], sup["band"]) == ("marsh", 2, "short")
    assert _next(g) == "ivy"
    # Ivy steps into the zone: Difficult Agility 6 -> 3, +1 for 2 m from Cole -> 4; she rolls
    # 11 (fails by 7): up to 2 dice, 5 or 6 hits; one hit, in the chest for 1+1+1
    g.dice.rng = Script(g.dice.rng, [6, 6, 5, 2, 5, 1, 1, 1])
    g.act({"act": "move", "to": [33, 23, 0]})
    check = [e for e in g.log.of_kind("check") if e["purpose"] == "suppression fire"][-1]
    assert (check["who"], check["target"], check["roll"], check["success"]) == \
        ("ivy", 4, 11, False)
    hit = g.log.of_kind("suppressed")[-1]
    assert (hit["who"], hit["hits"], hit["rounds_left"]) == ("ivy", 1, 1)
    dmg = g.log.of_kind("damage")[-1]
    assert (dmg["target"], dmg["location"], dmg["points"]) == ("ivy", "chest", 3)


def test_suppression_lasts_until_the_shooters_next_action(loaded):
    g = _game(loaded)
    _order(g, "marsh", "ivy", "marsh")
    g.dice.rng = Script(g.dice.rng, [15])
    g.act({"act": "fire", "target": "cole"})
    assert "marsh" in g.dc["suppress"]
    _next(g)
    _next(g)
    assert "marsh" not in g.dc["suppress"]


# ---------------------------------------------------------------- charges (l.256-264)

def test_charge_damage_of_the_text():
    # +1 for each 4 m run, at most twice the roll (three times on a critical success)
    assert C.charge_damage(12, 10) == 14
    assert C.charge_damage(3, 16) == 6 and C.charge_damage(3, 16, critical=True) == 7
    assert C.charge_backlash(2) == (1, 0) and C.charge_backlash(7) == (2, 2)


def test_grue_charges_marsh(loaded):
    g = _game(loaded)
    _order(g, "grue", "marsh")
    grue, marsh = g.char("grue"), g.char("marsh")
    # d20 5 under Melee (Armed) 6 + Strength 9 = 15; chest; axe 3D6 = 12, +2 for 10 m run;
    # Marsh's vest 1 stops twice its value from an armed blow (l.252): 12 through; Grue takes
    # back half of the 2 absorbed; Marsh keeps his feet (2D6-1 = 1 on the knockdown check)
    g.dice.rng = Script(g.dice.rng, [5, 5, 4, 4, 4, 1, 1, 12])
    g.act({"act": "charge", "target": "marsh"})
    assert grue.pos == (29, 20, 0) and grue.mp_spent == 10
    test = _tests(g, "charge")[-1]
    assert (test["target_number"], test["roll"], test["success"], test["metres"]) == \
        (15, 5, True, 10.0)
    hit = [e for e in g.log.of_kind("damage") if e["target"] == "marsh"][-1]
    assert (hit["location"], hit["charge_damage"], hit["armor_absorbed"], hit["points"]) == \
        ("chest", 14, 2, 12)
    back = [e for e in g.log.of_kind("damage") if e["target"] == "grue"][-1]
    assert (back["location"], back["points"], back["backlash"]) == ("left-arm", 1, True)
    assert marsh.condition.damage["chest"] == 12


def test_a_charge_needs_room_and_a_whole_action(loaded):
    g = _game(loaded, deployment={**PLACES, "grue": (28, 20, 0)})
    _order(g, "grue")
    with pytest.raises(PlayError, match="two empty squares"):
        g.act({"act": "charge", "target": "marsh"})  # 4 m: only one square between
    g2 = _game(loaded)
    _order(g2, "grue")
    g2.act({"act": "move", "to": [25, 20, 0]})
    with pytest.raises(PlayError, match="whole action"):
        g2.act({"act": "charge", "target": "marsh"})


def test_a_defender_who_has_acted_may_avoid_the_charge(loaded):
    g = _game(loaded)
    g.state.order = ["marsh", "grue", "marsh"]
    g.dc["scores"] = [[20, "marsh"], [15, "grue"], [10, "marsh"]]
    g.state.phase = 1  # Marsh acted on 20 and acts again on 10
    g.refresh(g.char("grue"))
    g.act({"act": "begin", "who": "grue"})
    # the charge hits (5 <= 15); Marsh avoids: Difficult Agility 6 -> 3, 2D6-1 = 2
    g.dice.rng = Script(g.dice.rng, [5, 1, 2])
    g.act({"act": "charge", "target": "marsh"})
    avoid = g.log.of_kind("avoid")[-1]
    assert avoid["who"] == "marsh" and avoid["action_lost"] is True
    assert g.dc["lose"]["marsh"] == 1 and g.char("marsh").pos != (30, 20, 0)
    assert not [e for e in g.log.of_kind("damage") if e["target"] == "marsh"]


# ---------------------------------------------------------------- the ambush turn (l.184-192)

def test_the_ambush_turn(loaded):
    sc, _b = loaded
    ambush = dataclasses.replace(no_ambush(sc), conditions=no_ambush(sc).conditions
                                 + (("ambush", "cult"),))
    g = _game(loaded, seed=4, scenario=ambush, deployment=None)
    ev = g.log.of_kind("initiative")[0]
    cult = {c.id for c in g.state.characters.values() if c.side == "cult"}
    amb = set(g.log.of_kind("ambush")[0]["ambushers"])
    assert amb and amb <= cult
    scores = {}
    for cid, r in ev["rolls"].items():
        rating = g.fighter(g.char(cid)).initiative
        if cid in amb:  # an unseen attacker rolls as Initiative 6 (l.184)
            assert r["ambusher"] and len(r["dice"]) == 6 and "panic" not in r
        elif g.char(cid).side == "hunters":  # the others lose what the Panic Check exceeds
            assert len(r["dice"]) == max(rating - max(r["panic"] - rating, 0), 0)
        scores[cid] = r["combat_initiative"]
    # the order is the book's schedule: nothing before the ambusher's first action
    # (ties between non-ambushers fall in the game's random order)
    assert sorted(map(tuple, g.dc["scores"]), key=lambda e: (-e[0], e[1])) == \
        sorted(C.ambush_schedule(scores, amb), key=lambda e: (-e[0], e[1]))
    assert [s for s, _c in g.dc["scores"]] == [s for s, _c in C.ambush_schedule(scores, amb)]
    assert g.state.order[0] in amb
    hunters = {c.id for c in g.state.characters.values() if c.side == "hunters"}
    assert set(g.dc["surprised"]) == hunters | (cult - amb)


def test_a_surprised_character_is_hit_where_the_attacker_likes(loaded):
    g = _game(loaded, deployment={**PLACES, "grue": (31, 20, 0)})
    g.dc["surprised"] = ["marsh"]
    _order(g, "grue", "marsh")
    g.dice.rng = Script(g.dice.rng, [1, 1, 1, 1, 1])  # no roll to hit, no hit location
    g.act({"act": "melee", "target": "marsh"})
    t = [e for e in g.log.of_kind("test") if e.get("surprised")][-1]
    assert (t["location"], t["success"]) == ("head", True)
    assert "marsh" not in g.dc["surprised"]  # damage ends the surprise


def test_ambush_must_name_a_side():
    text = re.sub(r"conditions: \{[^}]*\}", "conditions: {light: full-darkness, ambush: ghosts}",
                  open(SAMPLE, encoding="utf-8").read())
    with pytest.raises(LoadError, match=r"x\.yaml:\d+: .*ambush 'ghosts' is not a side id"):
        scenario_from_data(parse_text(text, "x.yaml"), "x.yaml")


# ---------------------------------------------------------------- the bots use them

def test_the_bots_charge_and_aim(loaded):
    sc, _b = loaded
    g = play_game(_game(loaded, seed=3, deployment=None, turn_limit=8),
                  {s.id: Bot(s.id) for s in sc.sides})
    acts = {e["act"] for e in g.log.of_kind("why")}
    assert {"charge", "aim", "fire"} <= acts
    assert _tests(g, "charge") and g.log.of_kind("aim")


def test_a_bot_opens_the_door_an_unseen_enemy_waits_behind(loaded):
    # Marsh outside the staff office's shut east door, Ivy just inside it: neither sees the
    # other; the referee offers the bots the door (so no game ends as a wait at a shut door)
    g = _game(loaded, deployment={"marsh": (23, 14, 0), "ivy": (22, 14, 0)})
    marsh, ivy = g.char("marsh"), g.char("ivy")
    assert g.plan_shot(marsh, ivy, True) is None
    value, act, why = g.bot_options(marsh)[0]
    assert act["act"] == "open" and act["state"] == "open" and why["enemy_behind"] == "ivy"
    _order(g, "marsh")
    g.act(act)
    assert g.plan_shot(marsh, ivy, True) is not None


def test_a_bot_aims_when_the_aimed_shot_beats_two_quick_ones(loaded):
    # Cole's MAC-10 at Marsh 12 m off: a quick shot (-4, l.383) is worth 0.5 wound points
    # now, the aimed one an action later 2.75, 1.375 an action: he aims, even away from his
    # goal (the aim is worth a good shot on its own), and says so in the log
    g = _game(loaded)
    _order(g, "cole")
    cole = g.char("cole")
    bot = Bot("cult")
    assert bot._aim(g, cole, None)
    why = g.log.of_kind("why")[-1]
    assert (why["act"], why["target"], why["aimed_shot"], why["best_shot_now"]) == \
        ("aim", "marsh", 2.75, 0.5)
    assert g.log.of_kind("aim")[-1]["target"] == "marsh" and g.slots_left(cole) == 0
    # Marsh's M16 at Cole: a quick burst (12.6) beats half the aimed one (18.9): he fires
    g = _game(loaded)
    _order(g, "marsh")
    marsh = g.char("marsh")
    assert g.bot_options(marsh)[0][2]["aimed_shot"] == 18.9
    assert Bot("hunters")._aim_option(g, marsh, marsh.pos) is None
