"""What the engine answers about a zone (SPEC-zone section 2; seed 002).

- Adjacency is orthogonal only (seed 002 l.95 and l.126): no diagonal moves or effects.
- A River block is entered only by a Runner with one of ``river.crossing`` (vehicles,
  seed 002 l.221; Athletics, l.261).  Leaving a River block is free.
- A barrier stops movement, indirect fire and special effects between its two blocks
  (seed 002 l.224).
- A player's entries are the blocks of their edge unless listed; with three or more players
  the two end blocks of each edge are left out (the centre three of a 5 x 5 edge, l.170).

Paths count moves as the card game does: stepping from the safehouse onto an entry block is
one move, each block-to-block step is one more; reaching any block of a player's edge reaches
that player (a Runner may not enter an opponent's safehouse, l.93).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from engine.errors import QueryError
from engine.zone.model import SIDES, STEP, Block, Zone, neighbour


# ------------------------------------------------------------------------------ edges
def edge_blocks(z: Zone, side: str) -> list[Block]:
    """The blocks along one side: the outermost row/column on that side holding any block."""
    blocks = z.all_blocks()
    if not blocks:
        return []
    if side in ("north", "south"):
        row = min(b[1] for b in blocks) if side == "north" else max(b[1] for b in blocks)
        return sorted((b for b in blocks if b[1] == row), key=lambda b: b[0])
    col = min(b[0] for b in blocks) if side == "west" else max(b[0] for b in blocks)
    return sorted((b for b in blocks if b[0] == col), key=lambda b: b[1])


def entries(z: Zone, pid: str) -> list[Block]:
    """The blocks a player's Runners enter the zone on."""
    p = z.player(pid)
    if p is None:
        raise QueryError(f"no player '{pid}' in this zone (players: {', '.join(q.id for q in z.players) or 'none'})")
    if p.entries is not None:
        return [tuple(b) for b in p.entries if z.has_block(b)]
    edge = edge_blocks(z, p.safehouse)
    if len(z.players) >= 3 and len(edge) >= 3:
        edge = edge[1:-1]
    return edge


# -------------------------------------------------------------------------- adjacency
def neighbours(z: Zone, b: Block) -> list[dict[str, Any]]:
    """The orthogonal neighbours of a block with what lies between (SPEC-zone section 4)."""
    if not z.has_block(b):
        raise QueryError(f"block {b[0]},{b[1]} is not a block of this zone")
    river = z.river_blocks()
    out = []
    for side in SIDES:
        n = neighbour(b, side)
        if not z.has_block(n):
            continue
        br = z.barrier(b, n)
        out.append({"block": [n[0], n[1]], "side": side, "river": n in river,
                     "barrier": None if br is None else {"body": br.body}})
    return out


def effect_reaches(z: Zone, a: Block, b: Block) -> bool:
    """Whether indirect fire or a special effect from ``a`` reaches ``b`` (same or adjacent
    block, no barrier between; seed 002 l.106, l.126, l.224)."""
    if tuple(a) == tuple(b):
        return True
    return any(tuple(n["block"]) == tuple(b) and n["barrier"] is None for n in neighbours(z, a))


def can_cross(z: Zone, vehicle: bool, athletics: bool) -> bool:
    if z.river is None:
        return True
    return (vehicle and "vehicle" in z.river.crossing) or (athletics and "athletics" in z.river.crossing)


def step_allowed(z: Zone, a: Block, b: Block, cross: bool, barriers: bool = True) -> bool:
    """A Runner may step from ``a`` to the orthogonal neighbour ``b``."""
    if not z.has_block(b):
        return False
    if barriers and z.barrier(a, b) is not None:
        return False
    return cross or b not in z.river_blocks()


# ------------------------------------------------------------------------------ paths
@dataclass
class ZonePath:
    reachable: bool
    moves: int = 0
    blocks: list[Block] = field(default_factory=list)
    why: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"reachable": self.reachable, "moves": self.moves,
                "blocks": [[b[0], b[1]] for b in self.blocks], "why": self.why}


def parse_end(z: Zone, text: str) -> Block | str:
    """A path end: ``C,R`` (a block) or a player id."""
    if z.player(text) is not None:
        return text
    parts = text.replace(" ", "").split(",")
    try:
        c, r = (int(p) for p in parts)
    except ValueError:
        ids = ", ".join(p.id for p in z.players) or "none"
        raise QueryError(f"{text!r} is neither a block C,R nor a player id (players: {ids})") from None
    if not z.has_block((c, r)):
        raise QueryError(f"block {c},{r} is not a block of this zone")
    return (c, r)


def _bfs(z: Zone, starts: list[Block], goals: set[Block], cross: bool, barriers: bool = True
         ) -> list[Block] | None:
    prev: dict[Block, Block | None] = {}
    q: deque[Block] = deque()
    for s in starts:
        if s not in prev:
            prev[s] = None
            q.append(s)
    while q:
        b = q.popleft()
        if b in goals:
            out = [b]
            while prev[out[-1]] is not None:
                out.append(prev[out[-1]])  # type: ignore[arg-type]
            return out[::-1]
        for dc, dr in STEP.values():
            n = (b[0] + dc, b[1] + dr)
            if n not in prev and step_allowed(z, b, n, cross, barriers):
                prev[n] = b
                q.append(n)
    return None


def _ends(z: Zone, end: Block | str, cross: bool, start: bool) -> tuple[list[Block], str]:
    if isinstance(end, str):
        blocks = entries(z, end)
        if start and not cross:
            blocks = [b for b in blocks if b not in z.river_blocks()]
        return blocks, f"player {end}'s edge"
    return [end], f"block {end[0]},{end[1]}"


def path(z: Zone, a: Block | str, b: Block | str, vehicle: bool = False, athletics: bool = False) -> ZonePath:
    """Fewest moves from ``a`` to ``b`` (blocks or player ids) for a Runner on foot, with a
    vehicle or with Athletics."""
    cross = can_cross(z, vehicle, athletics)
    starts, a_name = _ends(z, a, cross, True)
    goals, b_name = _ends(z, b, cross, False)
    if not starts:
        return ZonePath(False, why=f"{a_name} has no block a Runner can enter")
    route = _bfs(z, starts, set(goals), cross)
    if route is not None:
        moves = len(route) - 1 + (1 if isinstance(a, str) else 0)
        how = "with a vehicle" if vehicle and cross else "with Athletics" if athletics and cross else "on foot"
        river = sum(1 for x in route if x in z.river_blocks())
        extra = f", swimming/driving through {river} River block(s)" if river else ""
        return ZonePath(True, moves, route, f"{moves} move(s) {how} from {a_name} to {b_name}{extra}")
    if z.barriers and _bfs(z, starts, set(goals), cross, barriers=False) is not None:
        return ZonePath(False, why=f"barriers close every way from {a_name} to {b_name}")
    if not cross and _bfs(z, starts, set(goals), True) is not None:
        need = " or ".join(z.river.crossing) if z.river and z.river.crossing else "a crossing nobody has"
        return ZonePath(False, why=f"the River separates {a_name} from {b_name}: crossing needs {need}")
    return ZonePath(False, why=f"no chain of orthogonally adjacent blocks joins {a_name} and {b_name}")


def land_regions(z: Zone) -> list[set[Block]]:
    """Orthogonally connected regions of non-River blocks (barriers ignored)."""
    river = z.river_blocks()
    left = [b for b in z.all_blocks() if b not in river]
    seen: set[Block] = set()
    out = []
    for s in left:
        if s in seen:
            continue
        region = {s}
        q = deque([s])
        seen.add(s)
        while q:
            b = q.popleft()
            for dc, dr in STEP.values():
                n = (b[0] + dc, b[1] + dr)
                if n not in seen and z.has_block(n) and n not in river:
                    seen.add(n)
                    region.add(n)
                    q.append(n)
        out.append(region)
    return out
