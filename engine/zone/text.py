"""The zone as a text picture for ``sprawlmap zone show`` (and path overlays).

Each block is a 4-character cell between ``+----+`` lines:

    ~~  River block          L  linked layout        d / u  face-down / face-up card
    .   empty card slot      (blank) not a block (shape '.')
    A   entry of player A    *  block on the path
    ==== or #  a barrier on that edge (Body printed in the list below)
"""

from __future__ import annotations

from engine.zone import rules
from engine.zone.model import Block, Zone

CELL = 4


def _cell(z: Zone, b: Block, owners: dict[Block, str], marks: dict[Block, str]) -> str:
    if not z.has_block(b):
        return " " * CELL
    if b in z.river_blocks():
        kind = "~~"
    else:
        zb = z.block(b)
        kind = "L" if zb and zb.layout else ("u" if zb and zb.card == "face-up" else "d" if zb and zb.card else ".")
    s = kind + marks.get(b, "") + owners.get(b, "")
    return s[:CELL].center(CELL)


def render_zone(z: Zone, marks: dict[Block, str] | None = None) -> str:
    marks = marks or {}
    owners: dict[Block, str] = {}
    for p in z.players:
        for b in rules.entries(z, p.id):
            owners[b] = owners.get(b, "") + p.id[:1]
    cols, rows = z.grid
    by_side = {p.safehouse: p for p in z.players}
    width = 4 + cols * (CELL + 1) + 1
    out = [f"{z.title or '(untitled zone)'}: {cols} x {rows} blocks of "
           f"{z.block_size[0]} x {z.block_size[1]} dots"]
    if "north" in by_side:
        p = by_side["north"]
        out.append(f"{p.name or p.id} ({p.id}, north)".center(width))
    out.append("    " + "".join(str(c).center(CELL + 1) for c in range(cols)))
    for r in range(rows):
        line = "   +"
        for c in range(cols):
            wall = r > 0 and z.barrier((c, r - 1), (c, r)) is not None
            line += ("=" * CELL if wall else "-" * CELL) + "+"
        out.append(line)
        row = f"{r:>2} |"
        for c in range(cols):
            row += _cell(z, (c, r), owners, marks)
            row += "#" if c + 1 < cols and z.barrier((c, r), (c + 1, r)) is not None else "|"
        out.append(row)
    out.append("   +" + ("-" * CELL + "+") * cols)
    if "south" in by_side:
        p = by_side["south"]
        out.append(f"{p.name or p.id} ({p.id}, south)".center(width))
    for side in ("west", "east"):
        if side in by_side:
            p = by_side[side]
            out.append(f"{side} edge: {p.name or p.id} ({p.id})")
    if z.river:
        out.append("river: " + " ".join(f"{b[0]},{b[1]}" for b in z.river.blocks)
                   + (f" (preset {z.river.preset})" if z.river.preset else "")
                   + f"; crossing: {', '.join(z.river.crossing) or 'nobody'}")
    for br in z.barriers:
        a, b = br.between
        out.append(f"barrier {a[0]},{a[1]} | {b[0]},{b[1]}: Body {br.body}" + (f" ({br.note})" if br.note else ""))
    for zb in z.blocks:
        if zb.layout or zb.label:
            out.append(f"block {zb.at[0]},{zb.at[1]}: {zb.label or ''}"
                       + (f" -> {zb.layout}" if zb.layout else ""))
    out.append("key: ~~ River  L linked layout  d/u card face-down/up  . empty slot  "
               "letters: entries  ====/# barrier")
    return "\n".join(out)
