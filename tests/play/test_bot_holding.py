"""The bot's holders and fallbacks on the shipped samples: a holder keeps to the area his
side holds and watches the enemy's way into it; sr1's holders, who get no first shot, keep
out of sight deep inside; a character falling back goes away from the enemy."""

from pathlib import Path

from engine.io import load_board
from engine.play import actions as A
from engine.play import referees
from engine.play.bots import Bot
from engine.play.engine_board import EngineBoard, fork_board

ROOT = Path(__file__).resolve().parents[2] / "scenarios"
#: Sabre alone in Nightclub Hold's VIP lounge (the runners' hold-vip area), the rest of his
#: side by the north door, the gang out east: nobody sees anybody
LOUNGE = {"sabre": (10, 13, 0), "angela": (8, 2, 0), "wren": (9, 2, 0), "big-lou": (10, 2, 0),
          "crowbar": (30, 10, 0), "moth": (31, 10, 0), "shiv": (32, 10, 0)}


def _game(name, at, seed=1):
    sc, board = load_board(ROOT / name)
    view = EngineBoard(fork_board(board), light=sc.light, ruleset=sc.ruleset)
    return referees.new_game(sc, view, seed, deployment=at)


def _begin(g, who):
    g.state.order = [who] + [x for x in g.state.order if x != who]
    g.state.phase = 0
    g.act(A.begin(who))


def test_a_holder_who_sees_nobody_points_his_arc_down_the_way_in():
    g = _game("nightclub-hold.yaml", LOUNGE)
    sabre = g.char("sabre")
    bot = Bot("runners")
    hold = bot._held_area(g, sabre)
    assert hold.id == "hold-vip"
    foes = [c for c in g.state.enemies_of(sabre) if not c.out]
    # the nearest gangers' cheapest way in: along the corridor north of the lounge, in
    # through its doorway at 10,12
    way = bot._way_in(g, sabre, hold, foes)
    assert way == [(15, 11, 0), (14, 11, 0), (13, 11, 0), (12, 11, 0), (11, 11, 0),
                   (10, 11, 0), (10, 12, 0)]
    assert bot.goal(g, sabre)[0] == (10, 13, 0)  # he stays in the lounge
    _begin(g, "sabre")
    bot._set_arc(g, sabre)
    # his arc covers the doorway (due north, -90 degrees), not the nearest ganger
    # (Gravel, almost due east, behind two walls)
    assert [(a.kind, a.direction) for a in sabre.arcs] == [("wide", -90.0)]


def test_an_sr1_holder_stays_put_out_of_sight():
    # Chop Shop's office: Vex deep inside, nobody in sight; no arcs or delays under sr1, so
    # he gains nothing at the door and keeps his dot
    at = {"vex": (3, 11, 0), "razor": (26, 18, 0)}
    g = _game("chop-shop-sr1.yaml", at)
    vex = g.char("vex")
    bot = Bot("gang")
    assert not g.holders_fire_first
    assert bot._held_area(g, vex).id == "keep-the-office"
    assert bot.goal(g, vex)[0] == (3, 11, 0)


def test_falling_back_goes_away_from_the_enemy():
    # Big Lou by the north door, the gang 14 dots east of him: he falls back to the
    # north-west corner of the club's yard, 17 dots from the nearest ganger (Rook)
    g = _game("nightclub-hold.yaml", LOUNGE)
    lou = g.char("big-lou")
    _begin(g, "big-lou")
    Bot("runners")._advance(g, lou, None, None, retreat=True)
    why = [w for w in g.log.of_kind("why") if w["act"] == "move"][-1]
    assert why["retreat"] is True and why["chose"] == [7, 0, 0] and lou.pos == (7, 0, 0)
    lat = g.board.lattice
    assert min((lat.distance(lou.pos[:2], f.pos[:2]), f.id)
               for f in g.state.enemies_of(lou)) == (17, "rook")


def test_a_holder_with_no_step_left_keeps_his_dot():
    # Sabre in the lounge has spent all but 1 MP: less than the 2 MP narrow arc he keeps, so
    # his post is where he stands (a police game crashed asking reach for -1 MP)
    g = _game("nightclub-hold.yaml", LOUNGE)
    sabre = g.char("sabre")
    _begin(g, "sabre")
    sabre.mp_spent = sabre.mp - 1
    bot = Bot("runners")
    assert sabre.mp_left == 1 and g.cost("arc-narrow", sabre)[0] == 2
    assert bot._post(g, sabre, bot._held_area(g, sabre)) == (10, 13, 0)
