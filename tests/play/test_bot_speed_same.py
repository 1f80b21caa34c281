"""The botfast lane's shortcuts answer as the slow ways they replace (issue 12.6).

Each shortcut keeps what it worked out (sr1 sheet figures, areas, metres) or skips work that
cannot change an answer; these tests compare it with the plain computation and fail when a
kept figure goes stale."""

from __future__ import annotations

import math
import random
from pathlib import Path

from engine.board import compile_board
from engine.io import load_document, resolve_sheets
from engine.play import referees
from engine.play.bots import Bot
from engine.play.condition import BOXES, ConditionMonitor
from engine.play.engine_board import EngineBoard
from engine.play.reaction import ARCS, Arc, angle_between
from engine.play.sr1_game import SR1Game
from engine.rules import sr1_combat as c

ROOT = Path(__file__).resolve().parents[2] / "scenarios"


def _game(name: str, seed: int = 1):
    path = ROOT / name
    sc = load_document(path)
    board = compile_board(sc.layout, resolve_sheets(sc.layout, path.parent))
    view = EngineBoard(board, light=sc.light, ruleset=sc.ruleset)
    return referees.new_game(sc, view, seed)


def test_sr1_sheet_figures_follow_an_edited_sheet():
    g = _game("chop-shop-sr1.yaml")
    ch = next(x for x in g.state.characters.values() if x.ready is not None)
    raw = ch.condition.arms[ch.ready]
    first = SR1Game.arm_of(ch)
    assert SR1Game.arm_of(ch) is first  # kept
    d = dict(raw)
    wtype, name, shots = d.pop("type"), d.pop("name", ""), d.pop("shots", None)
    assert first == c.arm(wtype, d, name, shots)
    raw["damage"] = "9S2"  # the sheet edited in place: worked out afresh
    assert SR1Game.arm_of(ch).code == "9S2"
    before = SR1Game.fighter(ch)
    assert before == c.fighter(ch.condition.stats, ch.metatype)
    ch.condition.stats["body"] = int(ch.condition.stats.get("body", 3)) + 2
    after = SR1Game.fighter(ch)
    assert after.body == before.body + 2 and after == c.fighter(ch.condition.stats, ch.metatype)


def test_lowest_box_and_out_as_the_marked_list_says():
    rng = random.Random(5)
    for _ in range(300):
        cm = ConditionMonitor()
        for b in BOXES:
            cm.boxes[b] = rng.choice([None, None, "stun", "physical"])
        cm.dead = rng.random() < 0.1
        m = cm.marked()
        assert cm.lowest == (m[-1] if m else None)
        assert cm.out == (cm.dead or cm.boxes[0] is not None)


def test_arc_wedge_as_angle_between_says():
    rng = random.Random(7)
    for _ in range(3000):
        kind = rng.choice(sorted(ARCS))
        a = Arc(kind, (rng.uniform(-5, 5), rng.uniform(-5, 5)), rng.choice(
            [0.0, 45.0, 90.0, -135.0, 180.0, rng.uniform(-360, 360)]))
        p = (a.origin[0] + rng.choice([0, 1, -1, rng.uniform(-9, 9)]),
             a.origin[1] + rng.choice([0, 1, -1, rng.uniform(-9, 9)]))
        dx, dy = p[0] - a.origin[0], p[1] - a.origin[1]
        want = not (abs(dx) < 1e-9 and abs(dy) < 1e-9) and angle_between(
            math.degrees(math.atan2(dy, dx)), a.direction) <= a.width / 2.0 + 1e-9
        assert a.contains(p) == want


def test_area_memo_as_the_board_says():
    g = _game("nightclub-hold.yaml")
    hold = next(o for o in g.objectives if o.kind == "hold" and o.area is not None)
    bot = Bot(hold.side)
    dots = g.board.deploy_dots(hold.area, hold.level, None, None)
    assert dots and bot._area_dots(g, hold) == dots
    near = {(x + dx, y + dy, lv) for x, y, lv in dots for dx in (-2, 0, 2) for dy in (-2, 0, 2)}
    inside = [d for d in sorted(near) if bot._in_area(g, d, hold)]
    assert inside == [d for d in sorted(near) if g.board.in_area(d, hold.area, hold.level)]
    assert 0 < len(inside) < len(near)


def test_a_goal_on_his_dot_costs_nothing():
    g = _game("street-ambush.yaml")
    ch = next(x for x in g.state.characters.values() if x.pos is not None)
    assert Bot._cost_to(g, ch, ch.pos) == 0 == g.board.costs_to(ch.pos, ch.move_ratio,
                                                                 [ch.pos])[0]
