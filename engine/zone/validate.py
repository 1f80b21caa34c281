"""Zone findings (SPEC-zone section 3): the same ``{code, severity, message, where}`` as layouts,
with the blocks concerned in ``where.blocks`` so the editor can zoom to them."""

from __future__ import annotations

import os
from collections import deque
from typing import Any

from engine.findings import ERROR, WARNING, Finding
from engine.zone import rules
from engine.zone.linked import fits, load_linked, street_dots
from engine.zone.model import OPPOSITE, Block, Zone, evolve, side_between


def _xy(bs: Any) -> list[list[int]]:
    return [[int(b[0]), int(b[1])] for b in bs]


def _name(b: Block) -> str:
    return f"[{b[0]}, {b[1]}]"


def validate_zone(z: Zone, base_dir: str | os.PathLike[str] | None = None) -> list[Finding]:
    """Every finding of a zone; errors first.  ``base_dir`` is where linked layouts are found."""
    out: list[Finding] = []
    out += _placement(z)
    out += _barriers(z)
    out += _river(z)
    out += _players(z)
    out += _linked(z, base_dir)
    rank = {ERROR: 0, WARNING: 1}
    return sorted(out, key=lambda f: rank.get(f.severity, 2))


def _off(z: Zone, b: Block, what: str) -> Finding | None:
    if z.has_block(b):
        return None
    where = "outside the grid" if not z.on_grid(b) else "on a '.' of the shape"
    return Finding("zone-off-grid", ERROR, f"{what} {_name(b)} lies {where}", {"blocks": _xy([b])})


def _placement(z: Zone) -> list[Finding]:
    found = [_off(z, zb.at, "block") for zb in z.blocks]
    if z.river:
        found += [_off(z, b, "river block") for b in z.river.blocks]
    for br in z.barriers:
        found += [_off(z, b, "barrier end") for b in br.between]
    for p in z.players:
        found += [_off(z, b, f"entry of player {p.id}") for b in (p.entries or ())]
    return [f for f in found if f is not None]


def _barriers(z: Zone) -> list[Finding]:
    out = []
    for br in z.barriers:
        a, b = br.between
        if side_between(a, b) is None:
            out.append(Finding("barrier-not-adjacent", ERROR,
                               f"the barrier between {_name(a)} and {_name(b)} does not join orthogonal "
                               "neighbours (no diagonal barriers)", {"blocks": _xy([a, b])}))
    return out


def _river(z: Zone) -> list[Finding]:
    if z.river is None or not z.river.blocks:
        return []
    blocks = [b for b in z.river.blocks if z.has_block(b)]
    if not blocks:
        return []
    where = {"blocks": _xy(blocks)}
    # one chain, diagonal touches allowed
    left = set(blocks)
    q = deque([blocks[0]])
    seen = {blocks[0]}
    while q:
        c, r = q.popleft()
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                n = (c + dc, r + dr)
                if n in left and n not in seen:
                    seen.add(n)
                    q.append(n)
    if len(seen) != len(left):
        return [Finding("river-not-bisecting", ERROR,
                        "the River is not one chain of blocks (diagonal touches count)", where)]
    all_b = z.all_blocks()
    c0, c1 = min(b[0] for b in all_b), max(b[0] for b in all_b)
    r0, r1 = min(b[1] for b in all_b), max(b[1] for b in all_b)
    cs = {b[0] for b in blocks}
    rs = {b[1] for b in blocks}
    if not ((c0 in cs and c1 in cs) or (r0 in rs and r1 in rs)):
        return [Finding("river-not-bisecting", ERROR,
                        "the River does not run from one side of the zone to the opposite side", where)]
    regions = rules.land_regions(z)
    if len(regions) != 2:
        return [Finding("river-not-bisecting", ERROR,
                        f"the River leaves {len(regions)} land region(s), not two halves", where)]
    return []


def _players(z: Zone) -> list[Finding]:
    out = []
    owner: dict[Block, str] = {}
    river = z.river_blocks()
    if len(z.players) < 2:
        out.append(Finding("zone-few-players", WARNING,
                           f"the zone has {len(z.players)} player(s); the DMZ needs two to four", {"blocks": []}))
    for p in z.players:
        ents = rules.entries(z, p.id)
        if not ents:
            out.append(Finding("player-no-entry", ERROR, f"player {p.id} has no entry block",
                               {"blocks": [], "player": p.id}))
        for b in ents:
            if b in owner and owner[b] != p.id:
                out.append(Finding("entry-shared", ERROR,
                                   f"players {owner[b]} and {p.id} both enter on block {_name(b)}",
                                   {"blocks": _xy([b]), "players": [owner[b], p.id]}))
            owner.setdefault(b, p.id)
            if b in river:
                out.append(Finding("entry-on-river", WARNING,
                                   f"entry {_name(b)} of player {p.id} lies on the River (entering it "
                                   "needs a crossing)", {"blocks": _xy([b]), "player": p.id}))
    open_zone = evolve(z, barriers=())  # barriers come and go in play; the River stays
    for i, p in enumerate(z.players):
        for q in z.players[i + 1:]:
            res = rules.path(open_zone, p.id, q.id)
            if (not res.reachable and z.river is not None
                    and rules.path(open_zone, p.id, q.id, True, True).reachable):
                cut = _xy(b for b in z.river.blocks if z.has_block(b))
                out.append(Finding("river-separates-players", WARNING,
                                   f"the River separates players {p.id} and {q.id}: no way between "
                                   "their edges on foot", {"blocks": cut, "players": [p.id, q.id]}))
    return out


def _linked(z: Zone, base_dir: str | os.PathLike[str] | None) -> list[Finding]:
    out = []
    loaded = {}
    for zb in z.blocks:
        if not zb.layout or not z.has_block(zb.at):
            continue
        ln = load_linked(base_dir, zb.layout)
        where = {"blocks": _xy([zb.at]), "layout": zb.layout}
        if not ln.ok:
            out.append(Finding("block-layout-unloadable", ERROR,
                               f"block {_name(zb.at)}: its layout does not load: {ln.error}", where))
            continue
        if not fits(ln, z.block_size):
            x0, y0, x1, y1 = ln.board.bounds
            out.append(Finding("block-layout-too-large", ERROR,
                               f"block {_name(zb.at)}: layout {zb.layout} spans dots "
                               f"{x0 + 0.5:g},{y0 + 0.5:g} to {x1 - 0.5:g},{y1 - 0.5:g}, larger than the "
                               f"{z.block_size[0]} x {z.block_size[1]} block", where))
            continue
        loaded[tuple(zb.at)] = ln
    for a, la in loaded.items():
        for side in ("east", "south"):
            b = (a[0] + 1, a[1]) if side == "east" else (a[0], a[1] + 1)
            lb = loaded.get(b)
            if lb is None:
                continue
            if not street_dots(la, side, z.block_size) & street_dots(lb, OPPOSITE[side], z.block_size):
                out.append(Finding("no-street-crossing", WARNING,
                                   f"no street crosses the edge between linked blocks {_name(a)} and "
                                   f"{_name(b)} at map scale", {"blocks": _xy([a, b])}))
    return out
