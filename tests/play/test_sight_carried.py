"""After a door opens or shuts, play keeps the sight answers of the map state before on the
lines that do not meet the door (issue 12, point 6): every answer must still be the one a fresh
board with the door in its new state gives, the lines through the door must change (under
Shadowrun a closed door hides the target), and most of the others must come from before."""

from __future__ import annotations

import random
from pathlib import Path

import engine.play.engine_board as eb_mod
from engine.io import load_board
from engine.play.engine_board import EngineBoard, fork_board

ROOT = Path(__file__).resolve().parents[2]
VISIONS = ("normal", "low-light", "thermographic")


def _dots(board):
    return [(int(c), int(r), lv) for lv in board.levels for c, r in board.dots(lv)]


def _pairs(board, door, rng):
    """Lines near the door (many through it) and random ones, both ways."""
    x, y = door.geom.centroid.x, door.geom.centroid.y
    dots = _dots(board)
    near = sorted((d for d in dots if d[2] == door.level),
                  key=lambda d: (d[0] - x) ** 2 + (d[1] - y) ** 2)[:40]
    out = [(a, b) for a in near[::4] for b in near if a != b]
    out += [(rng.choice(dots), rng.choice(dots)) for _ in range(150)]
    return out + [(b, a) for a, b in out[::3]]


def _carried(name: str, state: str) -> tuple[int, int, int]:
    """(answers compared, answers changed by the door, lines traced after it changed)."""
    scenario, board = load_board(ROOT / "scenarios" / name)
    doors = [f for f in board.all_features() if f.kind == "door"
             and f.props.get("state", "open") != state]
    door = doors[0]
    rng = random.Random(name)
    pairs = _pairs(board, door, rng)
    asks = [(a, b, pa, v) for a, b in pairs for pa in ("standing", "prone")
            for v in rng.sample(VISIONS, 2)]
    view = EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)
    before = [view.sight(a, b, pa, "standing", v) for a, b, pa, v in asks]
    view.set_opening(door.id, state)
    traced = []
    keep = eb_mod.line_of_sight

    def spy(*args, **kw):
        traced.append(args[1:3])
        return keep(*args, **kw)

    eb_mod.line_of_sight = spy
    try:
        after = [view.sight(a, b, pa, "standing", v) for a, b, pa, v in asks]
    finally:
        eb_mod.line_of_sight = keep
    fresh = board.fork()
    fresh.set_state(door.id, state)
    alone = EngineBoard(fresh, light=scenario.light, ruleset=scenario.ruleset)
    for (a, b, pa, v), got in zip(asks, after, strict=True):
        assert got == alone._sight_uncached(a, b, pa, "standing", v), (a, b, pa, v)
    changed = sum(x != y for x, y in zip(before, after, strict=True))
    return len(asks), changed, len(traced)


def test_sight_after_a_door_opens_under_shadowrun():
    n, changed, traced = _carried("nightclub-raid-sr3.yaml", "open")
    assert changed >= 10  # lines through the door now see through it
    assert traced < n // 4  # the others were answered from before


def test_sight_after_a_door_shuts_under_dark_conspiracy():
    n, changed, traced = _carried("club-umbra-darkcon.yaml", "closed")
    assert changed >= 10
    assert traced < n // 4


def test_sight_after_a_door_opens_under_dmz():
    """Under DMZ a door interrupts open or shut: the verdicts through it keep their cover,
    but what the facts say of the door (its state) changes, so they are traced again."""
    n, _changed, traced = _carried("police-station-extraction.yaml", "open")
    assert 0 < traced < n // 4
