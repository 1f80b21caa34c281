"""From the block scale down to the dots (SPEC-zone section 4, "zone compose" / "zone block").

Composition puts every linked block layout into one layout, block (c, r) offset by
(c * block width, r * block height) dots, so the seams between blocks are ordinary dot steps:
LOS and movement cross them like any other street.  Zone features become map features:

- a River block without a layout of its own becomes one ``water`` area over the whole block (no
  walking or standing, LOS clear); a River block with a linked layout keeps that layout, which
  is expected to draw its own water and bridges;
- a barrier becomes a fence along the shared block edge whose barrier value is its Body.

Ids inside a block are prefixed ``b<c>-<r>-`` so blocks may reuse them.  Sheets a block finds
next to its own file (not in the project library) are inlined, so the composed file loads from
anywhere.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

from engine import library as sheet_library
from engine.errors import LoadError
from engine.model import (
    Area,
    Barrier,
    Deployment,
    Extras,
    Layout,
    Line,
    Piece,
    Placement,
    Scenario,
    Side,
    Tree,
)
from engine.zone import rules
from engine.zone.linked import Linked, fits, load_linked
from engine.zone.model import Block, Zone, neighbour, side_between

PathLike = str | os.PathLike[str]


def block_box(z: Zone, b: Block) -> tuple[float, float, float, float]:
    """The world box of a block in dots (x0, y0, x1, y1), cell edges included."""
    bw, bh = z.block_size
    return (b[0] * bw - 0.5, b[1] * bh - 0.5, (b[0] + 1) * bw - 0.5, (b[1] + 1) * bh - 0.5)


def shared_edge(z: Zone, a: Block, b: Block) -> tuple[tuple[float, float], tuple[float, float]]:
    """The segment between two orthogonally adjacent blocks, in world dots."""
    side = side_between(a, b)
    if side is None:
        raise ValueError(f"blocks {a} and {b} are not orthogonal neighbours")
    x0, y0, x1, y1 = block_box(z, a)
    return {"north": ((x0, y0), (x1, y0)), "south": ((x0, y1), (x1, y1)),
            "west": ((x0, y0), (x0, y1)), "east": ((x1, y0), (x1, y1))}[side]


def _shift_pts(pts: Any, dx: int, dy: int) -> tuple[tuple[float, float], ...]:
    return tuple((float(x) + dx, float(y) + dy) for x, y in pts)


def _load_block(z: Zone, b: Block, base_dir: PathLike | None, file: str | None) -> Linked:
    zb = z.block(b)
    assert zb is not None and zb.layout
    ln = load_linked(base_dir, zb.layout)
    if not ln.ok:
        raise LoadError(f"block {b[0]},{b[1]}: its layout does not load: {ln.error}", file)
    if not fits(ln, z.block_size):
        raise LoadError(f"block {b[0]},{b[1]}: layout {zb.layout} is larger than the "
                        f"{z.block_size[0]} x {z.block_size[1]} block", file)
    return ln


def _moved(pl: Placement, dx: int, dy: int, pre: str, pmap: dict[str, str]) -> Placement:
    return replace(pl, at=(pl.at[0] + dx, pl.at[1] + dy), id=pre + pl.id if pl.id else "",
                   piece=pmap.get(pl.piece) if pl.piece else None)


def _in_library(sheet_id: str) -> bool:
    """Whether the sheet is found on the library search path without any document folder."""
    return sheet_library.find(sheet_id, sheet_library.sources(None)) is not None


def compose(z: Zone, base_dir: PathLike | None = None, file: str | None = None) -> Layout:
    """One dot-scale layout of every linked block, the River's water and the barriers' fences."""
    bw, bh = z.block_size
    pavement: list[Placement] = []
    placements: list[Placement] = []
    pieces: list[Piece] = []
    areas: list[Area] = []
    lines: list[Line] = []
    trees: list[Tree] = []
    sheets: dict[str, Any] = {}
    lattice = None
    river = z.river_blocks()
    for b in z.all_blocks():
        zb = z.block(b)
        if zb is None or not zb.layout:
            if b in river:
                x0, y0, x1, y1 = block_box(z, b)
                areas.append(Area("water", ((x0, y0), (x1, y0), (x1, y1), (x0, y1)),
                                  id=f"river-{b[0]}-{b[1]}", note="the River"))
            continue
        ln = _load_block(z, b, base_dir, file)
        lay = ln.scenario.layout
        if lattice is None:
            lattice = lay.lattice
        elif lay.lattice != lattice:
            raise LoadError(f"block {b[0]},{b[1]}: layout {zb.layout} is on a {lay.lattice} lattice, "
                            f"the other blocks on {lattice}", file)
        dx, dy = b[0] * bw, b[1] * bh
        pre = f"b{b[0]}-{b[1]}-"
        pmap = {pc.id: pre + pc.id for pc in lay.pieces}
        for pc in lay.pieces:
            pieces.append(replace(pc, id=pmap[pc.id]))

        pavement += [_moved(p, dx, dy, pre, pmap) for p in lay.pavement]
        placements += [_moved(p, dx, dy, pre, pmap) for p in lay.placements]
        ex = lay.extras
        areas += [replace(a, polygon=_shift_pts(a.polygon, dx, dy), id=pre + a.id if a.id else "")
                  for a in ex.areas]
        lines += [replace(ln_, path=_shift_pts(ln_.path, dx, dy), id=pre + ln_.id if ln_.id else "")
                  for ln_ in ex.lines]
        trees += [replace(t, trunk=(t.trunk[0] + dx, t.trunk[1] + dy), canopy=_shift_pts(t.canopy, dx, dy),
                          id=pre + t.id if t.id else "") for t in ex.trees]
        for sid, sh in (ln.sheets or {}).items():
            if sid not in sheets and not _in_library(sid):
                sheets[sid] = sh
    for br in z.barriers:
        a, c = br.between
        if side_between(a, c) is None or not (z.has_block(a) and z.has_block(c)):
            raise LoadError(f"barrier between {list(a)} and {list(c)} does not join two neighbouring blocks", file)
        lines.append(Line("fence", shared_edge(z, a, c), cls=Barrier(br.body),
                          id=f"barrier-{a[0]}-{a[1]}-{c[0]}-{c[1]}",
                          note=br.note or f"zone barrier, Body {br.body}"))
    return Layout(lattice=lattice or "square", pavement=tuple(pavement), placements=tuple(placements),
                  pieces=tuple(pieces), extras=Extras(tuple(areas), tuple(lines), tuple(trees)),
                  sheets=tuple(sheets.values()))


def composed_scenario(z: Zone, base_dir: PathLike | None = None, file: str | None = None) -> Scenario:
    return Scenario(title=f"{z.title or 'Zone'} (composed)", layout=compose(z, base_dir, file),
                    notes=f"Composed from zone {os.path.basename(file) if file else z.title}: "
                          f"{z.cols} x {z.rows} blocks of {z.block_size[0]} x {z.block_size[1]} dots.")


def arrival_side(z: Zone, pid: str, b: Block) -> str:
    """The side of block ``b`` a player's Runners arrive through: the last step of the fewest
    moves from their edge (on foot if possible, else crossing the River), or their safehouse side
    when the block is one of their entries or cannot be reached at all."""
    p = z.player(pid)
    assert p is not None
    for vehicle in (False, True):
        res = rules.path(z, pid, b, vehicle=vehicle, athletics=vehicle)
        if res.reachable:
            if len(res.blocks) >= 2:
                side = side_between(b, res.blocks[-2])
                if side is not None:
                    return side
            return p.safehouse
    return p.safehouse


def block_scenario(z: Zone, b: Block, base_dir: PathLike | None = None, file: str | None = None,
                   depth: int = 3) -> Scenario:
    """A dot-scale scenario for a fight in one block, each player a side entering from the edge
    of the block they arrive through."""
    zb = z.block(b)
    if not z.has_block(b):
        raise LoadError(f"block {b[0]},{b[1]} is not a block of this zone", file)
    if zb is None or not zb.layout:
        raise LoadError(f"block {b[0]},{b[1]} has no linked layout (link one with 'layout:')", file)
    ln = _load_block(z, b, base_dir, file)
    arrivals = {p.id: arrival_side(z, p.id, b) for p in z.players}
    sides = []
    for p in z.players:
        edge = arrivals[p.id]
        share = [q for q, e in arrivals.items() if e == edge]
        came = ("the safehouse" if edge == p.safehouse and b in rules.entries(z, p.id)
                else f"block {_from(b, edge)}")
        sides.append(Side(id=p.id, name=p.name or f"Player {p.id}",
                          deployment=Deployment(polygon=_strip(z.block_size, edge, depth,
                                                               share.index(p.id), len(share))),
                          note=f"arrives through the {edge} edge of block {b[0]},{b[1]} from {came}"))
    lay = ln.scenario.layout
    if any(sh.id not in lay.sheets and not _in_library(sh.id) for sh in (ln.sheets or {}).values()):
        lay = replace(lay, sheets=tuple(ln.sheets.values()))
    label = zb.label or os.path.basename(zb.layout)
    return Scenario(title=f"{z.title or 'Zone'}: block {b[0]},{b[1]} ({label})", layout=lay,
                    sides=tuple(sides), turn_limit=ln.scenario.turn_limit,
                    ruleset=ln.scenario.ruleset, conditions=ln.scenario.conditions,
                    notes=f"A fight in block {b[0]},{b[1]} of zone {z.title}.")


def _strip(size: tuple[int, int], edge: str, depth: int, i: int, n: int) -> tuple[tuple[float, float], ...]:
    """The deployment strip along one edge of a block: ``depth`` dots deep, the corners left
    out (so players arriving through two sides never share a dot), split in ``n`` parts."""
    w, h = size
    along = w if edge in ("north", "south") else h
    lo, hi = depth - 0.5, along - depth - 0.5
    a0, a1 = lo + (hi - lo) * i / n, lo + (hi - lo) * (i + 1) / n
    a0, a1 = float(round(a0 + 0.5) - 0.5), float(round(a1 + 0.5) - 0.5)
    if edge == "north":
        box = (a0, -0.5, a1, depth - 0.5)
    elif edge == "south":
        box = (a0, h - depth - 0.5, a1, h - 0.5)
    elif edge == "west":
        box = (-0.5, a0, depth - 0.5, a1)
    else:
        box = (w - depth - 0.5, a0, w - 0.5, a1)
    x0, y0, x1, y1 = box
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def _from(b: Block, edge: str) -> str:
    n = neighbour(b, edge)
    return f"{n[0]},{n[1]}"

