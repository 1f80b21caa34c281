"""A scenario that is its own mirror image (west <-> east), built in code for the lens tests."""

from __future__ import annotations

from pathlib import Path

from engine import model as m
from engine.board import Board, compile_board
from engine.io import load_sheet
from tests.builders import pavement, rect

W, H = 48, 30  # pavement columns 0..47: the mirror takes column c to 47 - c
SHEETS = Path(__file__).resolve().parents[2] / "mapsheets"


def mirror_dots(dots):
    """Column c -> W-1-c, row and level kept."""
    out = dots.copy()
    out[:, 0] = W - 1 - out[:, 0]
    return out


def _pair(sheet: m.Sheet, at: tuple[int, int], pid: str) -> list[m.Placement]:
    w, _h = sheet.size
    return [m.Placement(sheet.id, at, id=f"{pid}-w"),
            m.Placement(sheet.id, (W - at[0] - w, at[1]), mirror=True, id=f"{pid}-e")]


def _canopy(c: int, r: int) -> tuple:
    return rect(c - 1.5, r - 1.5, c + 1.5, r + 1.5)


def mirrored_scenario() -> tuple[m.Scenario, Board]:
    pave = pavement(W, H)
    tower = load_sheet(SHEETS / "office-tower.yaml")
    store = load_sheet(SHEETS / "corner-store.yaml")
    places = _pair(tower, (4, 2), "tower") + _pair(store, (3, 17), "store")
    car = rect(20.5, 12.5, 22.5, 15.5)
    car_e = rect(W - 1 - 22.5, 12.5, W - 1 - 20.5, 15.5)
    extras = m.Extras(
        areas=(m.Area(kind="obstacle", polygon=car, los="interrupts", cost=2, id="car-w"),
               m.Area(kind="obstacle", polygon=car_e, los="interrupts", cost=2, id="car-e"),
               m.Area(kind="rubble", polygon=rect(21.5, 20.5, 25.5, 24.5), id="rubble")),
        trees=(m.Tree((16, 25), _canopy(16, 25), id="tree-w"),
               m.Tree((W - 1 - 16, 25), _canopy(W - 1 - 16, 25), id="tree-e")))
    layout = m.Layout(pavement=(m.Placement(pave.id, (0, 0), id="pave"),),
                      placements=tuple(places), extras=extras)
    board = compile_board(layout, {s.id: s for s in (pave, tower, store)})
    chars = (m.Character("Quick", move_ratio=2), m.Character("Slow", move_ratio=3))
    west = m.Side("west", deployment=m.Deployment(polygon=rect(-0.5, 20.5, 2.5, 29.5)),
                  characters=chars)
    east = m.Side("east", deployment=m.Deployment(polygon=rect(W - 3.5, 20.5, W - 0.5, 29.5)),
                  characters=chars)
    scenario = m.Scenario("Mirror", layout, sides=(west, east), turn_limit=8)
    return scenario, board
