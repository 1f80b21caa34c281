"""Dark Conspiracy play (engine/play/darkcon_game.py) on the Club Umbra sample.

The shots are placed on known dots of the backstreets so the numbers are the book's: skill +
Strength, the range band's modifier (seed 003 l.400), a quick shot -4 (l.383), target obscured
(l.406-409), recoil against Strength (l.417-419); the dice are scripted where a result is
asserted.
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.io import load_board
from engine.model import Character
from engine.play import referees
from engine.play.bots import Bot, play_game
from engine.play.darkcon_game import DarkConGame
from engine.play.engine_board import EngineBoard, fork_board
from engine.play.errors import PlayError
from engine.rules import darkcon_combat as C
from engine.rules.combat_checks import character_problems

SAMPLE = "scenarios/club-umbra-darkcon.yaml"


@pytest.fixture(scope="module")
def loaded():
    return load_board(SAMPLE)


def _game(loaded, seed=1, deployment=None, turn_limit=None):
    sc, board = loaded
    # the sample starts in ambush (tests/play/test_darkcon_actions.py); here a plain turn one
    sc = dataclasses.replace(sc, conditions=tuple(kv for kv in sc.conditions
                                                  if kv[0] != "ambush"))
    view = EngineBoard(fork_board(board), light=sc.light, ruleset=sc.ruleset)
    return referees.new_game(sc, view, seed, deployment=deployment, turn_limit=turn_limit)


#: Marsh and Cole 4 diagonal dots apart in the open street: 6 squares = 12 m (l.128)
FACE_OFF = {"marsh": (30, 20, 0), "cole": (34, 24, 0)}


class Script:
    """Stands in for the game's RNG: hands out the given rolls in order."""

    def __init__(self, rng, rolls):
        self.rng, self.rolls = rng, list(rolls)

    def randint(self, a, b):
        r = self.rolls.pop(0)
        assert a <= r <= b, (a, b, r)
        return r

    def __getattr__(self, name):
        return getattr(self.rng, name)


def test_the_factory_referees_darkcon(loaded):
    g = _game(loaded)
    assert type(g) is DarkConGame and g.units == "m" and not g.can_hold_arcs
    assert g.to_data()["ruleset"] == "darkcon"
    assert all(isinstance(c.condition, C.Wounds) for c in g.state.characters.values())


def test_initiative_acts_at_the_score_and_every_ten_below(loaded):
    g = _game(loaded)
    ev = g.log.of_kind("initiative")[0]
    order = ev["order"]
    for cid, r in ev["rolls"].items():
        f = g.fighter(g.char(cid))
        assert len(r["dice"]) == f.initiative   # Initiative D6 (l.174)
        ci = sum(r["dice"])
        assert [int(o.split("@")[1]) for o in order if o.split("@")[0] == cid] == \
            C.action_scores(ci)
    scores = [int(o.split("@")[1]) for o in order]
    assert scores == sorted(scores, reverse=True)
    assert g.state.order == [o.split("@")[0] for o in order]


def test_shot_numbers_are_seed_003s(loaded):
    g = _game(loaded, deployment=FACE_OFF)
    marsh, cole = g.char("marsh"), g.char("cole")
    plan = g.plan_shot(marsh, cole, movement_fire=True)
    n = plan.numbers
    # M16: Small Arms (Rifle) 5 + Strength 6; 12 m is short range for 60 m (+4); a quick
    # shot -4; low-light goggles see in partial darkness; burst recoil 7 against Strength 6
    assert (n["skill"], n["attribute"], n["range_m"], n["band"]) == (5, 6, 12.0, "short")
    assert n["modifiers"] == {"range": 4, "quick_shot": -4}
    assert n["targets"] == [10] and n["burst"] == 3 and n["recoil"] == [-1]
    assert plan.p_hit == pytest.approx(10 / 20)
    # MAC-10 back: Small Arms (Pistol) 4 + Strength 6; 12 m is medium for 10 m (0); quick -4;
    # moonlit night -4 for normal eyes (l.408); burst recoil 7 against Strength 6: -1
    back = g.plan_shot(cole, marsh, movement_fire=True).numbers
    assert back["band"] == "medium"
    assert back["modifiers"] == {"range": 0, "quick_shot": -4, "visibility": -4}
    assert back["targets"] == [1] and back["recoil"] == [-1]
    assert g.plan_shot(cole, marsh, True).p_hit == pytest.approx(2 / 20)  # a 1 or 2 (l.400)
    # the bots' value of the same shot is the plan's expected damage
    assert g.shot_value(marsh, marsh.pos, cole, cole.pos, True) == pytest.approx(plan.expected)


def test_no_direct_fire_at_what_the_firer_cannot_see(loaded):
    g = _game(loaded, deployment={"marsh": (30, 20, 0), "cole": (10, 5, 0)})
    assert g.plan_shot(g.char("marsh"), g.char("cole"), True) is None   # l.346


def _to_front(g, cid):
    while g.state.current_team != cid:
        g.state.phase += 1
    g.refresh(g.char(cid))


def test_a_burst_hits_by_the_margin_and_strikes_a_body_part(loaded):
    g = _game(loaded, deployment=FACE_OFF)
    _to_front(g, "marsh")
    g.act({"act": "begin", "who": "marsh"})
    # d20 2 against 10: beaten by 8, 1 + 4 rounds, capped at the burst of 3 (l.430); the
    # first round strikes the head (d20 1) for 6 + 6 + 6: 18 > 11, a serious head wound
    g.dice.rng = Script(g.dice.rng, [2, 1, 6, 6, 6])
    g.act({"act": "fire", "target": "cole"})
    shot = [e for e in g.log.of_kind("test") if e["purpose"] == "movement fire"][-1]
    assert (shot["target_number"], shot["roll"], shot["hits"]) == (10, 2, 3)
    dmg = g.log.of_kind("damage")[-1]
    assert (dmg["location"], dmg["points"], dmg["wound"]) == ("head", 18, "serious")
    assert dmg["dice_rolled"] == [6, 6, 6] and dmg["capacity"] == 11
    cole = g.char("cole")
    assert cole.out and cole.condition.unconscious and not cole.condition.dead   # l.760
    assert g.char("marsh").weapons[0].loaded == 27


def test_armour_and_blunt_trauma(loaded):
    g = _game(loaded, deployment={"cole": (30, 20, 0), "marsh": (34, 24, 0)})
    _to_front(g, "cole")
    g.act({"act": "begin", "who": "cole"})
    # Cole's MAC-10 (DAM 2, PEN Nil) on Marsh's kevlar chest (armour 1): a hit on a 2, the
    # chest (d20 5): Nil does not penetrate, 2 dice absorbed, 2 points of blunt trauma (l.642)
    g.dice.rng = Script(g.dice.rng, [2, 5])
    g.act({"act": "fire", "target": "marsh"})
    dmg = g.log.of_kind("damage")[-1]
    assert (dmg["location"], dmg["points"], dmg["blunt_trauma"], dmg["dice_rolled"]) == \
        ("chest", 2, 2, [])


def test_one_combat_action_an_activation(loaded):
    g = _game(loaded, deployment=FACE_OFF)
    _to_front(g, "marsh")
    g.act({"act": "begin", "who": "marsh"})
    m = g.char("marsh")
    assert m.mp == 32.0 and g.slots_left(m) == 1                     # a run (l.145)
    assert g.affords(m, "fire") and g.affords(m, "throw", 3)
    g.act({"act": "move", "to": [31, 20, 0]})
    assert not g.affords(m, "throw", 3) and not g.affords(m, "stand")  # alone only (l.159)
    m.ready = 1  # the grenade in hand
    with pytest.raises(PlayError, match="l.155-159"):
        g.act({"act": "throw", "at": [34, 20, 0]})
    m.ready = 0
    g.act({"act": "fire", "target": "cole"})
    assert m.mp == 8.0 and m.mp_left == 6.0                           # half a trot (l.155)
    assert not g.affords(m, "reload")                                 # one action (l.132)


def test_no_action_after_moving_more_than_half_a_trot(loaded):
    g = _game(loaded, deployment=FACE_OFF)
    _to_front(g, "marsh")
    g.act({"act": "begin", "who": "marsh"})
    m = g.char("marsh")
    for c in range(31, 36):
        g.act({"act": "move", "to": [c, 20, 0]})
    assert m.mp_spent == 10.0 and not g.affords(m, "fire")
    with pytest.raises(PlayError, match="half a walk or trot"):
        g.act({"act": "fire", "target": "cole"})


def test_bots_play_a_darkcon_game_through(loaded):
    sc, _b = loaded
    g = play_game(_game(loaded, seed=3, turn_limit=4),
                  {s.id: Bot(s.id) for s in sc.sides})
    assert g.state.finished
    kinds = {e["event"] for e in g.log.events}
    assert "initiative" in kinds and "arc" not in kinds
    shots = [e for e in g.log.of_kind("test") if e["purpose"] == "movement fire"]
    assert shots and all({"target_number", "roll", "band"} <= set(e) for e in shots)
    assert all(e["units"] == "m" for e in g.log.of_kind("spend"))
    for e in g.log.of_kind("damage"):
        assert e["location"] in C.LOCATIONS and e["wound"] in C.SEVERITY


def test_a_darkcon_game_saves_and_resumes(loaded, tmp_path):
    sc, board = loaded
    full = play_game(_game(loaded, seed=5, turn_limit=3), {s.id: Bot(s.id) for s in sc.sides})
    g = _game(loaded, seed=5, turn_limit=3)
    half = len(full.actions) // 2
    for act in full.actions[:half]:
        g.act(act)
    path = tmp_path / "dc.json"
    g.save(path)
    back = referees.load_game(path, EngineBoard(fork_board(board), light=sc.light,
                                                   ruleset=sc.ruleset))
    assert type(back) is DarkConGame and back.state.to_data() == g.state.to_data()
    for act in full.actions[half:]:
        back.act(act)
    assert back.log.events == full.log.events


def test_validation_names_missing_darkcon_figures():
    ch = Character("Nobody", stats=(("strength", 5),))
    assert character_problems("darkcon", ch) == [
        "'constitution' is missing from stats", "'agility' is missing from stats",
        "'initiative' is missing from stats"]
    assert character_problems("dmz1990", ch) == []


def test_drawing_and_throwing_a_grenade_take_two_combat_actions(loaded):
    """One Combat Action an activation and a throw takes a whole one (seed 003 l.155-159):
    the referee plans the draw now and the throw in his next action."""
    g = _game(loaded, deployment=FACE_OFF)
    _to_front(g, "marsh")
    g.act({"act": "begin", "who": "marsh"})
    m = g.char("marsh")
    nade = m.weapons[1]
    assert g.plan_actions(m, ("ready", "throw"), distance=4, weapon=nade) == \
        [("ready",), ("throw",)]
    m.ready = 1
    assert g.plan_actions(m, ("throw",), distance=4, weapon=nade) == [("throw",)]
    m.ready = 0
    # 4 x Strength metres, Difficult to twice that, never beyond (l.84, l.507)
    far = int(2 * C.throw_range(g.strength(m)) // 2) + 1
    assert g.plan_actions(m, ("ready", "throw"), distance=far, weapon=nade) is None
    g.act({"act": "move", "to": [31, 20, 0]})
    # 2 m: the draw goes with half a walk or trot, the throw waits (l.155-159)
    assert g.plan_actions(m, ("ready", "throw"), distance=4, weapon=nade) == \
        [("ready",), ("throw",)]
    for c in range(30, 25, -1):
        g.act({"act": "move", "to": [c, 20, 0]})
    # 12 m in all, beyond half a trot: neither in this action; both wait for his next ones
    assert g.plan_actions(m, ("ready", "throw"), distance=4, weapon=nade) == \
        [(), ("ready",), ("throw",)]
    # the M67's primary fragment radius is 8 m: 4 dots (l.529)
    assert g.grenade_reach(m, nade) == 4


def test_a_bot_draws_his_grenade_in_one_action_and_throws_it_in_the_next(loaded):
    """Two cultists side by side in the open street, 20 m from Marsh (beyond a 16 m charge,
    l.532), his rifle dry: he draws the M67 in one activation and throws it in his next."""
    g = _game(loaded, deployment={"marsh": (30, 20, 0), "cole": (40, 20, 0),
                                  "ivy": (41, 20, 0)})
    marsh = g.char("marsh")
    marsh.weapons[0].loaded = marsh.weapons[0].clips = 0  # no rifle shot to take instead
    bot = Bot("hunters")
    acts = []
    while not g.state.finished and g.state.turn <= 2 and not g.log.of_kind("blast"):
        who = g.movable()[0]
        if who == "marsh":
            bot.play_character(g, marsh)
            acts.append(g.state.turn)
        else:
            g.act({"act": "begin", "who": who})
            g.act({"act": "end", "force": True})
    why = [e for e in g.log.of_kind("why") if "grenade_next_phase" in e]
    assert why and why[0]["act"] == "ready"
    blast = g.log.of_kind("blast")
    assert blast and blast[0]["thrower"] == "marsh"
    landed = g.log.of_kind("grenade-lands")[0]
    assert max(abs(landed["at"][0] - 40), abs(landed["at"][1] - 20)) <= 10  # aimed at Cole
    assert len(acts) >= 2 and not bot.errors


def test_a_move_is_charged_as_reach_counts_it(loaded):
    """Every other diagonal of an action's move counts double (l.128): the referee charges the
    first 2 m and the second 4 m, the count reach and paths search with, so a bot that walks
    to a dot reach put within his budget is never refused a step on the way."""
    sc, _board = loaded
    g = _game(loaded, deployment=FACE_OFF)
    _to_front(g, "marsh")
    g.act({"act": "begin", "who": "marsh"})
    m = g.char("marsh")
    for to in ((31, 21, 0), (32, 22, 0), (33, 22, 0), (34, 23, 0)):
        g.act({"act": "move", "to": list(to)})
    assert [e["cost"] for e in g.log.of_kind("move")] == [2.0, 4.0, 2.0, 2.0]
    assert m.mp_spent == 10.0  # 1 straight + 3 diagonals = 5 squares of 2 m
    bots = {s.id: Bot(s.id) for s in sc.sides}
    play_game(_game(loaded, seed=2, turn_limit=5), bots)
    refused = [e for b in bots.values() for e in b.errors if "moving costs" in e]
    assert refused == []
