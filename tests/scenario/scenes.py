"""Scenarios built in code for the scenario-check and export tests (no files needed)."""

from __future__ import annotations

from engine import model as m
from engine.board import Board, compile_board
from tests.builders import building, closed, outer_walls, pavement, rect


def char(name: str, mr: int = 3) -> m.Character:
    return m.Character(name=name, move_ratio=mr, fire_ratio=3, id=name.lower())


def hotel() -> m.Sheet:
    """A 10x8 two-story building: a door west, a window north, a sealed vault in the east,
    stairs at (2, 6) to level 1, an open room on level 1 and a couch."""
    walls0 = outer_walls(10, 8) + (
        m.Wall(path=((6.5, -0.5), (6.5, 7.5))),  # the vault's wall: no opening
    )
    lv0 = m.Level(
        0, walls=walls0,
        doors=(m.Opening("door", ((-0.5, 3.5), (-0.5, 4.5)), state="closed", id="front"),),
        windows=(m.Opening("window", ((2.5, -0.5), (3.5, -0.5)), state="open", id="w1"),),
        areas=(m.Area("obstacle", rect(3.6, 2.6, 4.4, 3.4), cost=1, note="couch", id="couch"),
               m.Area("rubble", rect(0.6, 0.6, 2.4, 1.4), id="rubble"),
               m.Area("dark", rect(7, 1, 9, 6), darkness="partial", id="dark")),
        stairs=(m.Stair((2, 6), 1, id="stairs"),),
    )
    lv1 = m.Level(1, walls=outer_walls(10, 8),
                  windows=(m.Opening("window", ((9.5, 2.5), (9.5, 3.5)), state="closed",
                                     cls="reinforced", id="w2"),),
                  stairs=(m.Stair((2, 6), 0, id="stairs-down"),))
    return building("hotel", 10, 8, height=2, levels=(lv0, lv1))


def tower() -> m.Sheet:
    """A 4x4 three-story block with no stairs at all."""
    return building("tower", 4, 4, height=3)


def layout(with_tower: bool = False, extras: m.Extras | None = None,
           pave_size: tuple[int, int] = (40, 30)) -> tuple[m.Layout, dict[str, m.Sheet]]:
    pave = pavement(*pave_size)
    sheets = {pave.id: pave, "hotel": hotel()}
    places = [m.Placement("hotel", (14, 10), id="hotel")]
    if with_tower:
        sheets["tower"] = tower()
        places.append(m.Placement("tower", (30, 4), id="tower"))
    ex = extras or m.Extras(
        areas=(m.Area("obstacle", rect(20.5, 22.5, 23.5, 23.5), cost=2, los="interrupts",
                      note="car", id="car"),),
        lines=(m.Line("low-wall", ((5.5, 20.5), (10.5, 20.5)), id="lowwall"),
               m.Line("fence", ((30.5, 18.5), (36.5, 18.5)), cls="thin", id="fence"),),
        trees=(m.Tree((8, 8), canopy=rect(6.5, 6.5, 9.5, 9.5), id="oak"),),
    )
    lay = m.Layout(pavement=(m.Placement(pave.id, (0, 0)),), placements=tuple(places),
                   extras=ex)
    return lay, sheets


def scenario(objectives: tuple = (), sides: tuple | None = None, turn_limit: int | None = 8,
             with_tower: bool = False, **kw) -> tuple[m.Scenario, Board, dict[str, m.Sheet]]:
    lay, sheets = layout(with_tower=with_tower)
    if sides is None:
        sides = (
            m.Side("runners", "Runners", m.Deployment(edge="west", depth=2),
                   (char("Sabre", 2), char("Gilliam", 3))),
            m.Side("guards", "Guards", m.Deployment(polygon=rect(33, 24, 38, 28), level=0),
                   (char("Guard", 3),)),
        )
    sc = m.Scenario(title="Test Run", layout=lay, sides=sides, objectives=objectives,
                    turn_limit=turn_limit, **kw)
    return sc, compile_board(lay, sheets), sheets


__all__ = ["char", "closed", "hotel", "layout", "scenario", "tower"]
