"""Pure zone edits the tools and panels ask for: each returns a new Zone (or raises
ValueError with the reason shown to the user).  No Qt here, so they are easy to test."""

from __future__ import annotations

from engine.zone.model import (
    RIVER_PRESETS,
    SIDES,
    Block,
    Player,
    River,
    Zone,
    ZoneBarrier,
    ZoneBlock,
    evolve,
    side_between,
)


def toggle_block(z: Zone, b: Block) -> Zone:
    """Paint the shape: a '#' square becomes '.', a '.' becomes '#' (the last block stays)."""
    cols, rows = z.grid
    shape = list(z.shape or ("#" * cols,) * rows)
    row = list(shape[b[1]])
    row[b[0]] = "." if row[b[0]] == "#" else "#"
    shape[b[1]] = "".join(row)
    if not any("#" in r for r in shape):
        raise ValueError("a zone needs at least one block")
    new_shape = None if all(set(r) == {"#"} for r in shape) else tuple(shape)
    return evolve(z, shape=new_shape)


def resize(z: Zone, cols: int, rows: int) -> Zone:
    """A new grid size; the shape is cut or extended with blocks, things off the grid dropped."""
    shape = None
    if z.shape is not None:
        shape = tuple((z.shape[r] if r < z.rows else "#" * z.cols)[:cols].ljust(cols, "#") for r in range(rows))
    z2 = evolve(z, grid=(cols, rows), shape=shape)
    keep = z2.has_block
    river = z.river
    if river is not None:
        blocks = tuple(b for b in river.blocks if keep(b))
        river = River(blocks, river.preset if blocks == river.blocks else None, river.crossing) if blocks else None
    players = tuple(evolve(p, entries=tuple(b for b in p.entries if keep(b))) if p.entries is not None else p
                    for p in z.players)
    return evolve(z2, river=river, players=players,
                  barriers=tuple(br for br in z.barriers if keep(br.between[0]) and keep(br.between[1])),
                  blocks=tuple(zb for zb in z.blocks if keep(zb.at)))


def toggle_river(z: Zone, b: Block) -> Zone:
    blocks = list(z.river.blocks) if z.river else []
    blocks = [x for x in blocks if x != b] if b in blocks else blocks + [b]
    crossing = z.river.crossing if z.river else ("vehicle", "athletics")
    return evolve(z, river=River(tuple(blocks), None, crossing) if blocks else None)


def river_preset(z: Zone, preset: int | None) -> Zone:
    if preset is None:
        return evolve(z, river=None)
    blocks = RIVER_PRESETS[preset]
    missing = [b for b in blocks if not z.has_block(b)]
    if missing:
        raise ValueError(f"preset {preset} needs blocks {missing} (the seed's 4 x 4 zone)")
    crossing = z.river.crossing if z.river else ("vehicle", "athletics")
    return evolve(z, river=River(blocks, preset, crossing))


def set_crossing(z: Zone, crossing: tuple[str, ...]) -> Zone:
    if z.river is None:
        return z
    return evolve(z, river=evolve(z.river, crossing=crossing))


def add_player(z: Zone, side: str) -> Zone:
    if len(z.players) >= 4:
        raise ValueError("a zone has at most four players")
    if any(p.safehouse == side for p in z.players):
        raise ValueError(f"a player already has the {side} edge")
    pid = next(c for c in "ABCD" if z.player(c) is None)
    return evolve(z, players=z.players + (Player(pid, side, f"Player {pid}"),))


def remove_player(z: Zone, pid: str) -> Zone:
    return evolve(z, players=tuple(p for p in z.players if p.id != pid))


def set_safehouse(z: Zone, pid: str, side: str) -> Zone:
    if side not in SIDES:
        raise ValueError(f"no side {side}")
    if any(p.safehouse == side and p.id != pid for p in z.players):
        raise ValueError(f"another player already has the {side} edge")
    return evolve(z, players=tuple(evolve(p, safehouse=side, entries=None) if p.id == pid else p
                                   for p in z.players))


def toggle_entry(z: Zone, pid: str, b: Block, current: list[Block]) -> Zone:
    """Add or remove one entry block of a player (the default entries become explicit)."""
    ents = [tuple(x) for x in current]
    ents = [x for x in ents if x != b] if b in ents else ents + [b]
    return evolve(z, players=tuple(evolve(p, entries=tuple(ents)) if p.id == pid else p for p in z.players))


def add_barrier(z: Zone, a: Block, b: Block, body: int) -> Zone:
    if side_between(a, b) is None:
        raise ValueError(f"blocks {a[0]},{a[1]} and {b[0]},{b[1]} are not orthogonal neighbours "
                         "(no diagonal barriers)")
    if not (z.has_block(a) and z.has_block(b)):
        raise ValueError("a barrier stands between two blocks of the zone")
    rest = tuple(br for br in z.barriers if not br.joins(a, b))
    return evolve(z, barriers=rest + (ZoneBarrier((a, b), body),))


def remove_barrier(z: Zone, a: Block, b: Block) -> Zone:
    return evolve(z, barriers=tuple(br for br in z.barriers if not br.joins(a, b)))


def set_block(z: Zone, b: Block, **changes) -> Zone:
    """Change (or create) the block record at ``b``; a record left empty is dropped."""
    old = z.block(b) or ZoneBlock(at=b)
    new = evolve(old, **changes)
    rest = tuple(zb for zb in z.blocks if tuple(zb.at) != tuple(b))
    if new == ZoneBlock(at=b):
        return evolve(z, blocks=rest)
    return evolve(z, blocks=tuple(sorted(rest + (new,), key=lambda x: (x.at[1], x.at[0]))))
