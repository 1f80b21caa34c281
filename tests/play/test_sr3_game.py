"""The sr3 referee on the real board: initiative passes, metres, shots, melee, grenades."""

from pathlib import Path

import pytest

from engine import model as m
from engine.io.resolve import load_board
from engine.play import actions as A
from engine.play import turn
from engine.play.headless import engine_view_factory, play_one
from engine.play.referees import game_class, load_game, new_game
from engine.play.sr3_game import SR3Game
from engine.play.state import PRONE
from engine.rules import sr3_combat as C
from engine.validate import validate

SAMPLE = Path(__file__).resolve().parents[2] / "scenarios" / "nightclub-raid-sr3.yaml"
#: open street dots (the backstreets' north-south street, columns 27-32)
AT = {"sabre": (30, 12, 0), "rook": (30, 3, 0), "crowbar": (40, 12, 0)}


@pytest.fixture(scope="module")
def loaded():
    return load_board(SAMPLE)


def game_of(loaded, names=("Sabre", "Rook", "Crowbar"), at=None, seed=1) -> SR3Game:
    sc, board = loaded
    sides = tuple(m.evolve(s, characters=tuple(c for c in s.characters if c.name in names))
                  for s in sc.sides)
    small = m.evolve(sc, sides=sides, objectives=())
    return new_game(small, engine_view_factory(small, board)(), seed, deployment=at or AT)


def script(game, values):
    """The next d6 rolls fall as listed (then the game's own dice again)."""
    left = list(values)
    own = game.dice.d6
    game.dice.d6 = lambda: left.pop(0) if left else own()
    return left


def events(game, kind, **match):
    return [e for e in game.log.events if e["event"] == kind
            and all(e.get(k) == v for k, v in match.items())]


def test_the_sample_validates_clean_and_plays_under_sr3(loaded):
    sc, board = loaded
    assert sc.ruleset == "sr3" and game_class("sr3") is SR3Game
    found = validate(board, sc)
    assert [f for f in found if f.severity in ("error", "warning")] == []


def test_initiative_passes_and_the_tie(loaded):
    g = game_of(loaded)
    # seed 1: Sabre 7 + 2D6 (2, 6) and Crowbar 5 + 2D6 (5, 5) both make 15; Sabre's higher
    # adjusted Reaction resolves first (l.75-79); everyone acts again 10 phases later (l.57)
    ini = events(g, "initiative")[-1]
    assert ini["detail"]["sabre"] == {"reaction": 7, "wounds": 0, "dice": [2, 6], "total": 15,
                                      "phases": [15, 5]}
    assert ini["rolls"]["rook"] == 3 + sum(ini["detail"]["rook"]["dice"])
    assert ini["phases"] == ["sabre@15", "crowbar@15", "sabre@5", "crowbar@5",
                             f"rook@{ini['rolls']['rook']}"]
    assert g.state.order == ["sabre", "crowbar", "sabre", "crowbar", "rook"]
    # a new Combat Turn rolls again: all sixes give Sabre 19 (19, 9), Rook 9 (9), Crowbar 17
    script(g, [6] * 5)
    assert g.new_turn_order() == ["sabre", "crowbar", "sabre", "rook", "crowbar"]


def test_a_shot_with_its_numbers_and_staging(loaded):
    g = game_of(loaded)
    sabre, rook = g.char("sabre"), g.char("rook")
    plan = g.plan_shot(sabre, rook, True)
    n = plan.numbers
    # 18 m is medium for a heavy pistol: TN 5, Partial Light +1 for electronic low-light,
    # a stationary target -1, smartlink -2 (l.391, l.461, l.468, Visibility Table)
    assert n["target_number"] == 3
    assert n["modifiers"] == {"base": 5, "sight": 1, "target_stationary": -1, "smartlink": -2}
    # Pistols 6 + half his Combat Pool 7 (3); Rook resists 9M with Body 6 + Pool 5 at 9 - 3
    assert (n["dice"], n["pool"], n["damage_code"]) == (9, 3, "9M")
    assert (n["body"], n["resist_pool"], n["resist_tn"]) == (6, 5, 6)
    assert plan.p_hit == pytest.approx(C.ranged_odds(9, 3, 6, 5, 6, "M")[0])
    # 4 successes against 1 (Body) + 0 (pool): 3 net stage M up to S; no knockdown successes
    script(g, [6, 6, 6, 6, 1, 1, 1, 1, 1] + [6, 1, 1, 1, 1, 1] + [1] * 5 + [1] * 6)
    g.resolve_shot(sabre, rook, plan, reaction=False)
    shot = events(g, "test", purpose="movement fire")[-1]
    assert (shot["target_number"], shot["successes"], shot["pool"]) == (3, 4, 3)
    hurt = events(g, "damage", target="rook")[-1]
    assert (hurt["damage_code"], hurt["staged"], hurt["resisted"], hurt["boxes"]) == \
        ("9M", "Serious", 1, 6)
    assert rook.condition.physical == 6 and rook.condition.modifier == 3
    assert rook.posture == PRONE  # no Body successes against 9 / 2: he falls (l.611)
    assert sabre.weapons[0].loaded == 14
    # pools: Sabre spent 3, Rook all 5 of his on resisting
    assert (g.pool_left(sabre), g.pool_left(rook)) == (4, 0)


def test_a_clean_miss_and_a_shot_stopped_by_nothing(loaded):
    g = game_of(loaded)
    sabre, rook = g.char("sabre"), g.char("rook")
    plan = g.plan_shot(sabre, rook, True)
    # 1 success; Rook's Pool dice alone make 2: a clean miss (l.594)
    script(g, [6] + [1] * 8 + [1] * 6 + [6, 6, 1, 1, 1])
    g.resolve_shot(sabre, rook, plan, reaction=False)
    assert events(g, "resist", target="rook")[-1]["miss"] == "clean miss"
    assert rook.condition.physical == 0


def test_running_costs_the_turn_and_the_target_number(loaded):
    g = game_of(loaded)
    sabre = g.char("sabre")
    g.act(A.begin("sabre"))
    assert sabre.mp == 18.0  # Quickness 6 x 3 (l.215, l.226)
    for y in (11, 10, 9, 8):
        g.act(A.move((30, y, 0)))
    assert sabre.mp_spent == 8.0  # past his 6 m walk: he is running
    n = g.plan_shot(sabre, g.char("rook"), True).numbers
    assert n["modifiers"]["attacker_run"] == 4 and n["range_m"] == 10.0
    g.act(A.fire("rook"))
    g.act(A.fire("rook"))
    assert g.slots_left(sabre) == 0  # two Simple Actions (l.105)
    assert not g.affords(sabre, "fire")
    g.act(A.end())
    # his second pass of the turn (phase 5): he ran this turn, so he walks 6 m
    while g.state.current_team != "sabre" or g.char("sabre").moved:
        g.act(A.begin(g.state.current_team))
        g.act(A.end())
    assert g.allowance(sabre) == 6.0
    assert g.cost("melee", sabre) == (0.0, 2) and g.cost("prone", sabre) == (0.0, 0)


def test_interception_replaces_move_by_attacks(loaded):
    g = game_of(loaded, at={"sabre": (30, 12, 0), "rook": (31, 10, 0), "crowbar": (40, 12, 0)})
    g.act(A.begin("sabre"))
    g.act(A.move((30, 11, 0)))  # within a metre of Rook...
    g.act(A.move((30, 10, 0)))  # ...and past him without attacking (l.232)
    assert events(g, "interception", interceptor="rook", mover="sabre")
    blow = events(g, "test", purpose="move-by attack")[-1]
    assert blow["target_number"] == 4 + blow["modifiers"].get("visibility", 0)
    assert events(g, "test", purpose="full defence")[-1]["pool"] == 0  # full defence (l.238)


def test_melee_is_an_opposed_test(loaded):
    g = game_of(loaded, at={"sabre": (30, 12, 0), "rook": (30, 11, 0), "crowbar": (40, 12, 0)})
    sabre, rook = g.char("sabre"), g.char("rook")
    sabre.ready = 1  # the katana in hand: (Str + 3)M = 9M at Strength 6, Reach 1
    g.act(A.begin("sabre"))
    assert g.cost("ready", sabre) == (0.0, 1)  # a Simple Action: no melee after it
    assert g.melee_value(sabre, rook) > 0
    # Sabre: Armed Combat 6 + 3 pool dice at TN 4 - 1 (longer Reach) = 3 (Partial Light's +1
    # halves to 0, l.1116): nine 4s hit. Rook: Unarmed 4 + 2 pool at 4 + 1: none.  9 net stage
    # M up to D; Rook resists with Body 6 + his 3 pool dice left at 9 - 2 impact = 7: none
    script(g, [4] * 9 + [1] * 6 + [1] * 9)
    g.act(A.melee("rook"))
    att = events(g, "test", purpose="melee")[-1]
    assert (att["target_number"], att["successes"], att["damage_code"]) == (3, 9, "9M")
    assert events(g, "test", purpose="counterattack")[-1]["successes"] == 0
    assert events(g, "resist", target="rook")[-1]["resist_tn"] == 7
    assert rook.condition.physical == 10 and rook.out  # Deadly: 10 boxes (l.1596)
    assert g.slots_left(sabre) == 0 and not g.affords(sabre, "melee")


def test_a_grenade_scatters_and_blasts_by_the_metre(loaded):
    g = game_of(loaded, at={"sabre": (30, 12, 0), "rook": (30, 3, 0), "crowbar": (28, 6, 0)})
    while g.state.current_team != "crowbar":
        g.act(A.begin(g.state.current_team))
        g.act(A.end())
    g.act(A.begin("crowbar"))
    g.act(A.ready(1))
    # throw at Sabre's dot 12.6 m away: short for Strength 5 (0-15 m); 3 skill + 2 pool dice,
    # all 6s: 5 successes take 10 m off the 3D6 scatter of 3: on target (l.889)
    script(g, [6] * 5 + [1, 1, 1] + [1] * 40)
    g.act(A.throw((30, 12, 0)))
    acc = events(g, "test", purpose="grenade accuracy")[-1]
    assert (acc["range_band"], acc["successes"], acc["scatter_m"]) == ("short", 5, 0)
    g.act(A.end())  # the grenade goes off at the end of his action
    blast = events(g, "test", purpose="grenade blast", target="sabre")[-1]
    assert blast["damage_code"] == "10S" and blast["metres"] == 0
    got = events(g, "damage", target="sabre")[-1]
    assert got["boxes"] == 10  # 5 successes against none: S staged up to D
    assert g.char("sabre").out


def test_save_and_resume_keep_the_sheets_and_the_turn(loaded, tmp_path):
    g = game_of(loaded)
    g.act(A.begin("sabre"))
    g.act(A.move((30, 11, 0)))
    path = tmp_path / "g.json"
    g.save(path)
    back = load_game(path, engine_view_factory(*_small(loaded))())
    assert isinstance(back, SR3Game)
    s2 = back.char("sabre")
    assert back.stats(s2) == g.stats(g.char("sabre"))
    assert (s2.mp_spent, back.allowance(s2), back.sr3["passes"]) == (2.0, 18.0,
                                                                     g.sr3["passes"])
    assert back.char("sabre").condition.to_data()["kind"] == "sr3"


def _small(loaded):
    sc, board = loaded
    sides = tuple(m.evolve(s, characters=tuple(c for c in s.characters
                                               if c.name in ("Sabre", "Rook", "Crowbar")))
                  for s in sc.sides)
    return m.evolve(sc, sides=sides, objectives=()), board


def test_bots_play_a_whole_game(loaded):
    sc, board = loaded
    rec = play_one(sc, engine_view_factory(sc, board), 3, turn_limit=8)
    assert rec["turns"] == 8 or rec["winner"] is not None
    assert rec["shots"] > 0 and rec["casualties"]


def test_a_broken_sheet_is_refused_with_its_name(loaded):
    sc, board = loaded
    side = sc.sides[0]
    bad = m.evolve(side.characters[0], stats=(("body", 4),))
    sides = (m.evolve(side, characters=(bad,)), sc.sides[1])
    with pytest.raises(Exception, match="Sabre: missing quickness"):
        new_game(m.evolve(sc, sides=sides), engine_view_factory(sc, board)(), 1)
    assert turn.DEFAULT_TURN_LIMIT  # the skeleton is untouched


def test_a_shot_through_glass_loses_its_barrier_rating(loaded):
    # from the pavement west of the club through its standard-glass window (BR 2, l.946):
    # partial cover +4, and the glass comes off the Power with the armour (l.967)
    g = game_of(loaded, at={"sabre": (0, 12, 0), "rook": (3, 12, 0), "crowbar": (40, 12, 0)})
    n = g.plan_shot(g.char("sabre"), g.char("rook"), True).numbers
    assert (n["barrier"], n["armour"], n["resist_tn"]) == (2, 3, 4)
    assert n["modifiers"]["sight"] >= 4
