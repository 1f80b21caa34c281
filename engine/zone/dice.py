"""The growth and landslide tables with seeded dice (seed 002 l.177-178 and l.239-254).

Growth, after each turn: D6 >= ``growth.trigger`` grows the zone; a second D6 picks a column
(1-3) or a row (4-6); ``growth.side`` says which side: ``die`` (the default: a third D6, 1-3
west/north, 4-6 east/south), ``west-north`` or ``east-south``.

Landslide, each turn: one die per axis picks the block (a D6 while the axis has at most six
blocks, re-rolled when it falls off the grid or on a gap of ``shape``; a die with as many faces
as the axis beyond that); barriers on that block are destroyed; then one D6 per Runner there:
1 west, 2 north, 3 east, 4 south, 5-6 stay and take ``stay_damage``.  A push toward no block
follows ``landslide.off_edge``: ``stay`` (no damage) or ``safehouse``.

Every roll comes from one :class:`random.Random` seeded by the caller, so the same seed gives
the same result; results only name blocks of the zone as it is after that turn.
"""

from __future__ import annotations

import random
from typing import Any

from engine.zone.grow import grow
from engine.zone.io import MAX_SIDE
from engine.zone.model import Block, Zone, evolve, neighbour

LANDSLIDE_DIRECTIONS = {1: "west", 2: "north", 3: "east", 4: "south", 5: "stay", 6: "stay"}


def _axis_die(rng: random.Random, n: int, rolled: list[int]) -> int:
    faces = 6 if n <= 6 else n
    while True:
        d = rng.randint(1, faces)
        rolled.append(d)
        if d <= n:
            return d


def landslide_turn(z: Zone, rng: random.Random, runners: int = 1) -> tuple[Zone, list[int], dict[str, Any]]:
    """One landslide: the new zone (barriers on the block gone), the dice used, the result."""
    rerolled: list[int] = []
    while True:
        cols: list[int] = []
        rows: list[int] = []
        c = _axis_die(rng, z.cols, cols) - 1
        r = _axis_die(rng, z.rows, rows) - 1
        rerolled += cols[:-1] + rows[:-1]
        if z.has_block((c, r)):
            break
        rerolled += [c + 1, r + 1]
    block: Block = (c, r)
    dice = [c + 1, r + 1]
    gone = [br for br in z.barriers if block in (tuple(br.between[0]), tuple(br.between[1]))]
    pushes = []
    for i in range(runners):
        d = rng.randint(1, 6)
        dice.append(d)
        direction = LANDSLIDE_DIRECTIONS[d]
        push: dict[str, Any] = {"runner": i + 1, "die": d, "direction": direction}
        if direction == "stay":
            push.update(to=[c, r], damage=z.landslide.stay_damage)
        else:
            to = neighbour(block, direction)
            if z.has_block(to):
                push.update(to=[to[0], to[1]], damage=0)
            elif z.landslide.off_edge == "safehouse":
                push.update(to=None, damage=0, safehouse=True)
            else:
                push.update(to=[c, r], damage=0, off_edge=True)
        pushes.append(push)
    new = evolve(z, barriers=tuple(br for br in z.barriers if br not in gone))
    result = {"block": [c, r], "pushes": pushes,
              "barriers_destroyed": [{"between": [list(br.between[0]), list(br.between[1])], "body": br.body}
                                     for br in gone]}
    if rerolled:
        result["rerolled"] = rerolled
    return new, dice, result


def growth_turn(z: Zone, rng: random.Random) -> tuple[Zone, list[int], dict[str, Any]]:
    """One end-of-turn growth roll: the new zone, the dice, the result."""
    d = rng.randint(1, 6)
    dice = [d]
    if d < z.growth.trigger:
        return z, dice, {"grew": False, "why": f"rolled {d}, needs {z.growth.trigger}+"}
    k = rng.randint(1, 6)
    dice.append(k)
    line = "column" if k <= 3 else "row"
    if z.growth.side == "die":
        s = rng.randint(1, 6)
        dice.append(s)
        low = s <= 3
    else:
        low = z.growth.side == "west-north"
    side = ("west" if low else "east") if line == "column" else ("north" if low else "south")
    size = z.cols if line == "column" else z.rows
    if size >= MAX_SIDE:
        return z, dice, {"grew": False, "why": f"the zone already has {MAX_SIDE} {line}s"}
    new, added = grow(z, line, side)
    return new, dice, {"grew": True, "added": line, "side": side, "grid": list(new.grid),
                       "blocks": [[b[0], b[1]] for b in added]}


def roll(z: Zone, table: str, seed: int, turns: int = 1, runners: int = 1) -> tuple[Zone, list[dict[str, Any]]]:
    """Roll ``table`` ("landslide" or "growth") for ``turns`` turns from one seeded generator."""
    rng = random.Random(seed)
    rolls = []
    for t in range(1, turns + 1):
        if table == "landslide":
            z, dice, result = landslide_turn(z, rng, runners)
        elif table == "growth":
            z, dice, result = growth_turn(z, rng)
        else:
            raise ValueError(f"no table {table!r}")
        rolls.append({"turn": t, "table": table, "dice": dice, "result": result})
    return z, rolls
