"""Growing a zone by one row or column (seed 002 l.177-178, "The Incredible Growing Zone").

A new line copies the shape of the line it is added to (an S arm grows where it touches the
edge), the River is continued into the new line where it reaches that edge (seed 002 l.221),
and a player whose safehouse is on the grown side keeps entering on the new, outer line.  A
line added on the west or north shifts every coordinate by one.
"""

from __future__ import annotations

from engine.zone.model import Block, Player, River, Zone, ZoneBarrier, evolve

LINE_SIDES = {"column": ("west", "east"), "row": ("north", "south")}


def _shift(b: Block, dc: int, dr: int) -> Block:
    return (b[0] + dc, b[1] + dr)


def grow(z: Zone, line: str, side: str) -> tuple[Zone, list[Block]]:
    """The zone with one more ``line`` ("column"/"row") on ``side``; also the new blocks."""
    if side not in LINE_SIDES[line]:
        raise ValueError(f"a {line} cannot be added on the {side}")
    cols, rows = z.grid
    dc = 1 if side == "west" else 0
    dr = 1 if side == "north" else 0
    shape = z.shape
    if line == "column":
        grid = (cols + 1, rows)
        new_col = 0 if side == "west" else cols
        old_col = 0 if side == "west" else cols - 1
        if shape is not None:
            shape = tuple((row[0] + row) if side == "west" else (row + row[-1]) for row in shape)
        new = [(new_col, r) for r in range(rows) if shape is None or shape[r][new_col] == "#"]
        from_old = {(new_col, r): (old_col + dc, r) for r in range(rows)}
    else:
        grid = (cols, rows + 1)
        new_row = 0 if side == "north" else rows
        old_row = 0 if side == "north" else rows - 1
        if shape is not None:
            shape = ((shape[0],) + shape) if side == "north" else (shape + (shape[-1],))
        new = [(c, new_row) for c in range(cols) if shape is None or shape[new_row][c] == "#"]
        from_old = {(c, new_row): (c, old_row + dr) for c in range(cols)}

    river = z.river
    if river is not None:
        moved = [_shift(b, dc, dr) for b in river.blocks]
        moved += [b for b in new if from_old[b] in moved]
        river = River(blocks=tuple(moved), preset=None, crossing=river.crossing)

    players = []
    for p in z.players:
        ents = p.entries
        if ents is not None:
            ents = tuple(_shift(b, dc, dr) for b in ents)
            if p.safehouse == side:
                outward = {v: k for k, v in from_old.items()}
                ents = tuple(outward.get(b, b) for b in ents)
        players.append(Player(p.id, p.safehouse, p.name, ents, p.note))
    barriers = tuple(ZoneBarrier((_shift(br.between[0], dc, dr), _shift(br.between[1], dc, dr)),
                                 br.body, br.note) for br in z.barriers)
    blocks = tuple(evolve(zb, at=_shift(zb.at, dc, dr)) for zb in z.blocks)
    grown = evolve(z, grid=grid, shape=shape, river=river, players=tuple(players),
                   barriers=barriers, blocks=blocks)
    return grown, new


