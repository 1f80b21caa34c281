"""Small documents built in code, so editor tests do not depend on files on disk."""

from __future__ import annotations

from engine.model import (
    Area,
    Defaults,
    Extras,
    Layout,
    Level,
    Line,
    Opening,
    Placement,
    Scenario,
    Sheet,
    Stair,
    Tree,
    Wall,
)


def box(x0: float, y0: float, x1: float, y1: float) -> tuple:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def pavement(w: int = 40, h: int = 30) -> Sheet:
    return Sheet(id="pavement-test", title="Test pavement", kind="pavement", lattice="square",
                 size=(w, h), outline=box(-0.5, -0.5, w - 0.5, h - 0.5))


def house() -> Sheet:
    """A 10 x 8 two-story house: exterior walls with a door and a window, a room wall,
    rubble, a stair up."""
    ring = ((-0.5, -0.5), (9.5, -0.5), (9.5, 7.5), (-0.5, 7.5), (-0.5, -0.5))
    g = Level(
        level=0,
        walls=(Wall(path=ring, cls="thick", exterior=True, id="outer"),
               Wall(path=((4.5, -0.5), (4.5, 7.5)), id="inner")),
        doors=(Opening(kind="door", span=((1.5, 7.5), (2.5, 7.5)), state="closed", id="front"),
               Opening(kind="door", span=((4.5, 3.5), (4.5, 4.5)), id="hall")),
        windows=(Opening(kind="window", span=((9.5, 2.5), (9.5, 3.5)), state="closed",
                         id="east-window"),),
        areas=(Area(kind="rubble", polygon=box(5.5, 4.5, 8.5, 6.5), id="debris"),),
        stairs=(Stair(at=(1.0, 1.0), to=1, id="stair-up"),),
    )
    up = Level(level=1, walls=(Wall(path=ring, exterior=True, id="outer-1"),),
               stairs=(Stair(at=(1.0, 1.0), to=0, id="stair-down"),))
    return Sheet(id="house", title="House", kind="building", lattice="square", size=(10, 8),
                 outline=box(-0.5, -0.5, 9.5, 7.5), height=2,
                 defaults=Defaults(wall="average"), levels=(g, up))


def shed() -> Sheet:
    return Sheet(id="shed", title="Shed", kind="building", lattice="square", size=(6, 4),
                 outline=box(-0.5, -0.5, 5.5, 3.5), height=1)


def scenario() -> Scenario:
    lay = Layout(
        lattice="square",
        pavement=(Placement(sheet="pavement-test", at=(0, 0)),),
        placements=(Placement(sheet="house", at=(4, 4), id="house-1"),
                    Placement(sheet="shed", at=(24, 6), id="shed-1")),
        extras=Extras(
            areas=(Area(kind="obstacle", polygon=box(18.5, 16.5, 21.5, 17.5), id="car",
                        note="wrecked car"),),
            lines=(Line(kind="low-wall", path=((2.5, 20.5), (12.5, 20.5)), id="kerb"),),
            trees=(Tree(trunk=(30.0, 20.0), canopy=box(28.5, 18.5, 31.5, 21.5), id="oak"),),
        ),
    )
    return Scenario(title="Test block", layout=lay)


def library() -> dict[str, Sheet]:
    return {s.id: s for s in (pavement(), house(), shed())}
