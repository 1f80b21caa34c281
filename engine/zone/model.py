"""The zone document as plain immutable data (SPEC-zone section 1).

Coordinates are ``(col, row)`` with col 0 west and row 0 north.  The River keeps its preset
number (so a saved file still says ``preset: 1``) next to the blocks it stands for.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

Block = tuple[int, int]

SIDES = ("north", "east", "south", "west")
#: side -> (dc, dr) of the step that leaves a block through that side
STEP: dict[str, Block] = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}
OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}
CROSSINGS = ("vehicle", "athletics")
CARDS = ("face-down", "face-up")
GROWTH_SIDES = ("die", "west-north", "east-south")
OFF_EDGE = ("stay", "safehouse")

#: the seed's two River diagrams (seed 002 l.203-219), row 0 on Player A's edge
RIVER_PRESETS: dict[int, tuple[Block, ...]] = {
    1: ((0, 2), (1, 2), (2, 1), (3, 1)),
    2: ((2, 0), (2, 1), (1, 2), (1, 3)),
}


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    safehouse: str  # north | east | south | west
    name: str = ""
    entries: tuple[Block, ...] | None = None  # None: the default edge blocks
    note: str = ""


@dataclass(frozen=True, slots=True)
class River:
    blocks: tuple[Block, ...]
    preset: int | None = None
    crossing: tuple[str, ...] = CROSSINGS


@dataclass(frozen=True, slots=True)
class ZoneBarrier:
    between: tuple[Block, Block]
    body: int
    note: str = ""

    def joins(self, a: Block, b: Block) -> bool:
        return {tuple(a), tuple(b)} == {tuple(self.between[0]), tuple(self.between[1])}


@dataclass(frozen=True, slots=True)
class ZoneBlock:
    at: Block
    layout: str | None = None  # path of a layout/scenario file, relative to the zone file
    label: str = ""
    card: str | None = None  # face-down | face-up
    note: str = ""


@dataclass(frozen=True, slots=True)
class Limits:
    runners_per_block: int = 6  # seed 002 l.97
    events_per_block: int = 6  # seed 002 l.64


@dataclass(frozen=True, slots=True)
class Growth:
    enabled: bool = False
    trigger: int = 5  # D6 >= trigger after a turn grows the zone (seed 002 l.178)
    side: str = "die"  # which side a new row/column goes on: die | west-north | east-south


@dataclass(frozen=True, slots=True)
class Landslide:
    enabled: bool = False
    stay_damage: int = 1  # seed 002 l.252
    off_edge: str = "stay"  # a push toward no block: stay (no damage) | safehouse


@dataclass(frozen=True, slots=True)
class Zone:
    title: str
    grid: tuple[int, int]  # cols, rows
    block_size: tuple[int, int] = (96, 64)
    shape: tuple[str, ...] | None = None
    players: tuple[Player, ...] = ()
    river: River | None = None
    barriers: tuple[ZoneBarrier, ...] = ()
    blocks: tuple[ZoneBlock, ...] = ()
    limits: Limits = field(default_factory=Limits)
    growth: Growth = field(default_factory=Growth)
    landslide: Landslide = field(default_factory=Landslide)
    notes: str = ""

    @property
    def cols(self) -> int:
        return self.grid[0]

    @property
    def rows(self) -> int:
        return self.grid[1]

    def on_grid(self, b: Block) -> bool:
        return 0 <= b[0] < self.cols and 0 <= b[1] < self.rows

    def has_block(self, b: Block) -> bool:
        """A square of the grid that is part of the zone (inside the grid and '#' in shape)."""
        if not self.on_grid(b):
            return False
        return self.shape is None or self.shape[b[1]][b[0]] == "#"

    def all_blocks(self) -> list[Block]:
        return [(c, r) for r in range(self.rows) for c in range(self.cols) if self.has_block((c, r))]

    def river_blocks(self) -> frozenset[Block]:
        return frozenset(self.river.blocks) if self.river else frozenset()

    def block(self, b: Block) -> ZoneBlock | None:
        for zb in self.blocks:
            if tuple(zb.at) == tuple(b):
                return zb
        return None

    def barrier(self, a: Block, b: Block) -> ZoneBarrier | None:
        for br in self.barriers:
            if br.joins(a, b):
                return br
        return None

    def player(self, pid: str) -> Player | None:
        for p in self.players:
            if p.id == pid:
                return p
        return None


def evolve(obj: Any, **changes: Any) -> Any:
    """``dataclasses.replace`` under the name the rest of the project uses."""
    return replace(obj, **changes)


def neighbour(b: Block, side: str) -> Block:
    dc, dr = STEP[side]
    return (b[0] + dc, b[1] + dr)


def side_between(a: Block, b: Block) -> str | None:
    """The side of ``a`` that ``b`` lies across, or None when they are not orthogonal neighbours."""
    for side, (dc, dr) in STEP.items():
        if (a[0] + dc, a[1] + dr) == tuple(b):
            return side
    return None
