"""A generated neighbourhood for benchmarks: 4x4 city blocks, about 120x120 dots.

Each block holds two or three buildings (1 to 5 stories) with rooms, doors, windows and
stairs; the streets carry cars, benches and trees.  Deterministic for a given seed.
"""

from __future__ import annotations

import random

from engine import model as m

BLOCK = 30  # dots per block, street included
STREET = 6


def _rect(x0, y0, x1, y1):
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def _building(rng: random.Random, sid: str, w: int, h: int, height: int) -> m.Sheet:
    lx, ly = w - 0.5, h - 0.5
    levels = []
    for k in range(height):
        walls = [m.Wall(path=(( -0.5, -0.5), (lx, -0.5), (lx, ly), (-0.5, ly), (-0.5, -0.5)),
                        exterior=True)]
        doors, windows = [], []
        # interior walls every ~5 dots, each with a door
        for x in range(4, w - 2, 5):
            walls.append(m.Wall(path=((x + 0.5, -0.5), (x + 0.5, ly))))
            y = rng.randrange(0, h - 1)
            doors.append(m.Opening("door", ((x + 0.5, y - 0.5), (x + 0.5, y + 0.5)),
                                   state=rng.choice(["open", "open", "closed"])))
        mid = h // 2
        walls.append(m.Wall(path=((-0.5, mid + 0.5), (lx, mid + 0.5))))
        for x0 in range(0, w, 5):
            x = min(x0 + 2, w - 1)
            doors.append(m.Opening("door", ((x - 0.5, mid + 0.5), (x + 0.5, mid + 0.5))))
        # exterior openings
        for x in range(1, w - 1, 3):
            windows.append(m.Opening("window", ((x - 0.5, -0.5), (x + 0.5, -0.5)),
                                     state=rng.choice(["open", "closed"])))
            windows.append(m.Opening("window", ((x - 0.5, ly), (x + 0.5, ly))))
        if k == 0:
            doors.append(m.Opening("door", ((w // 2 - 0.5, ly), (w // 2 + 0.5, ly))))
            doors.append(m.Opening("door", ((-0.5, 1.5), (-0.5, 2.5))))
        areas = [m.Area("obstacle", _rect(1.6, 1.6, 2.4, 2.4), cost=2, note="desk")]
        stairs = [m.Stair((1, h - 2), k + 1)] if k + 1 <= height else []
        levels.append(m.Level(k, walls=tuple(walls), doors=tuple(doors), windows=tuple(windows),
                              areas=tuple(areas), stairs=tuple(stairs)))
    levels.append(m.Level(height))  # the roof: standable, no walls
    return m.Sheet(id=sid, title=sid, kind="building", lattice="square", size=(w, h),
                   outline=_rect(-0.5, -0.5, lx, ly), height=height, levels=tuple(levels))


def neighbourhood(seed: int = 7, blocks: int = 4) -> tuple[m.Layout, dict[str, m.Sheet]]:
    rng = random.Random(seed)
    size = blocks * BLOCK
    sheets: dict[str, m.Sheet] = {}
    trees, areas = [], []
    for i in range(0, size, 9):
        trees.append(m.Tree((i + 2, 2), canopy=_rect(i + 0.6, 0.6, i + 3.4, 3.4)))
        areas.append(m.Area("obstacle", _rect(i + 5.5, BLOCK - 3.5, i + 7.5, BLOCK - 2.5),
                            cost=2, standable="on", note="car"))
    pave = m.Sheet(id="city-pavement", title="City pavement", kind="pavement", lattice="square",
                   size=(size, size), outline=_rect(-0.5, -0.5, size - 0.5, size - 0.5),
                   levels=(m.Level(0, trees=tuple(trees), areas=tuple(areas)),))
    sheets[pave.id] = pave
    placements = []
    n = 0
    for bx in range(blocks):
        for by in range(blocks):
            x0, y0 = bx * BLOCK + STREET // 2, by * BLOCK + STREET // 2
            inner = BLOCK - STREET
            parts = rng.choice([2, 3])
            wpart = inner // parts
            for p in range(parts):
                n += 1
                height = rng.randint(1, 5)
                sid = f"b{n}"
                sheets[sid] = _building(rng, sid, wpart - 1, inner - 2 * rng.randint(0, 2), height)
                placements.append(m.Placement(sid, (x0 + p * wpart, y0), id=f"p{n}"))
    lay = m.Layout(pavement=(m.Placement("city-pavement", (0, 0)),), placements=tuple(placements))
    return lay, sheets


def scenario(layout: m.Layout) -> m.Scenario:
    """Two sides deployed on opposite edges, going for objectives across the city."""
    chars = lambda side, n: tuple(  # noqa: E731
        m.Character(name=f"{side}-{i}", move_ratio=2 + i % 2, fire_ratio=3) for i in range(n))
    sides = (
        m.Side("west", "West gang", m.Deployment(edge="west", depth=3), chars("w", 4)),
        m.Side("east", "East crew", m.Deployment(edge="east", depth=3), chars("e", 4)),
    )
    objectives = (
        m.Objective("centre", "west", "reach", at=(61, 61, 0), points=5),
        m.Objective("loot", "east", "retrieve", at=(31, 31, 0), then="exit-east", points=10),
        m.Objective("square", "east", "hold", area=((56.5, 56.5), (64.5, 56.5), (64.5, 64.5),
                                                    (56.5, 64.5)), turns=2, points=5),
    )
    return m.Scenario(title="Benchmark city", layout=layout, turn_limit=12, sides=sides,
                      objectives=objectives)
