"""The document model: mapsheets, layouts and scenarios as plain immutable data.

These classes mirror the YAML formats of SPEC sections 3 and 4 one to one, so that a load/save
round trip keeps every id, note and the order of every list.  They hold no geometry engine and
no Qt; :mod:`engine.board` compiles them into world geometry, and the editor changes them only
by replacing objects (``dataclasses.replace``) inside undoable commands.

Coordinates are in dots of the owning frame (sheet frame for sheet features, world frame for
layout extras).  Sequences are tuples so that instances are hashable and safe to share.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal

from engine.lattice import Point

Path = tuple[Point, ...]

LatticeName = Literal["square", "hex"]
SheetKind = Literal["building", "pavement"]

#: wall/door/fence classes and window classes understood by every ruleset
WALL_CLASSES = ("thin", "average", "thick")
WINDOW_CLASSES = ("standard", "reinforced")

AREA_KINDS = (
    "rubble", "undergrowth", "obstacle", "foliage", "dark", "smoke", "modifier", "hazard",
    "water",  # a River block composed from a zone: nobody walks or stands there, sight is clear
)
LINE_KINDS = ("step", "incline", "contour", "low-wall", "fence")
LOS_EFFECTS = ("none", "interrupts", "blocks", "interrupts-prone")
STANDABLE = ("none", "on", "on-or-under")
DARKNESS = ("partial", "full")
OPENING_STATES = ("open", "closed")
LIGHT = ("day", "partial-darkness", "full-darkness")
RULESETS = ("dmz1990", "sr3", "sr1", "darkcon")


@dataclass(frozen=True, slots=True)
class Barrier:
    """An explicit barrier rating instead of a named class."""

    barrier: int
    armor: int = 0


#: a class name ("thin", "reinforced", ...), an explicit Barrier, or None for the sheet default
BarrierClass = str | Barrier | None


@dataclass(frozen=True, slots=True)
class Wall:
    path: Path
    cls: BarrierClass = None
    exterior: bool = False
    id: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class Opening:
    """A door, window or hole: a span lying on a wall."""

    kind: Literal["door", "window", "hole"]
    span: tuple[Point, Point]
    state: str = "open"  # open | closed (holes are always open)
    cls: BarrierClass = None
    id: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class Area:
    kind: str  # one of AREA_KINDS
    polygon: Path
    cost: int | None = None  # obstacle MP cost (default 1)
    los: str | None = None  # obstacle LOS effect (default interrupts)
    standable: str | None = None  # obstacle: none | on | on-or-under (default on)
    darkness: str | None = None  # dark: partial | full (default partial)
    target_modifier: int | None = None  # modifier areas (and dark rooms with a modifier)
    effect: str | None = None  # hazard text
    id: str = ""
    note: str = ""
    cls: BarrierClass = None  # obstacle: what it is made of (a ruleset may rate it as hard cover)


@dataclass(frozen=True, slots=True)
class Line:
    kind: str  # one of LINE_KINDS
    path: Path
    cost: int | None = None  # low-wall MP cost (default 1)
    los: str | None = None  # low-wall LOS effect (default interrupts)
    cls: BarrierClass = None  # fence class (default the sheet's wall default)
    id: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class Tree:
    trunk: Point
    canopy: Path = ()
    id: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class Stair:
    at: Point
    to: int
    id: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class Elevator:
    at: Point
    levels: tuple[int, ...]
    id: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class Climb:
    at: Point
    to: int
    assisted: bool = False
    id: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class Level:
    level: int
    walls: tuple[Wall, ...] = ()
    doors: tuple[Opening, ...] = ()
    windows: tuple[Opening, ...] = ()
    holes: tuple[Opening, ...] = ()
    areas: tuple[Area, ...] = ()
    lines: tuple[Line, ...] = ()
    trees: tuple[Tree, ...] = ()
    stairs: tuple[Stair, ...] = ()
    elevators: tuple[Elevator, ...] = ()
    climbs: tuple[Climb, ...] = ()
    note: str = ""

    @property
    def openings(self) -> tuple[Opening, ...]:
        return self.doors + self.windows + self.holes


#: the feature lists of a Level, in file order
LEVEL_LISTS = (
    "walls", "doors", "windows", "holes", "areas", "lines", "trees", "stairs", "elevators",
    "climbs",
)


@dataclass(frozen=True, slots=True)
class Defaults:
    wall: str | Barrier = "average"
    door: str | Barrier = "average"
    window: str | Barrier = "standard"


@dataclass(frozen=True, slots=True)
class Sheet:
    id: str
    title: str
    kind: str  # building | pavement
    lattice: str
    size: tuple[int, int]
    outline: Path
    height: int = 0  # stories; 0 for pavement
    defaults: Defaults = field(default_factory=Defaults)
    levels: tuple[Level, ...] = ()
    notes: str = ""

    def level(self, k: int) -> Level | None:
        for lv in self.levels:
            if lv.level == k:
                return lv
        return None


@dataclass(frozen=True, slots=True)
class Placement:
    sheet: str
    at: tuple[int, int]
    piece: str | None = None
    rotation: int = 0
    mirror: bool = False
    id: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class Piece:
    """A cut: ``sheet`` clipped by ``polygon`` (in the sheet's frame)."""

    id: str
    sheet: str
    polygon: Path
    note: str = ""


@dataclass(frozen=True, slots=True)
class Extras:
    """Street furniture on the pavement, in world coordinates at level 0."""

    areas: tuple[Area, ...] = ()
    lines: tuple[Line, ...] = ()
    trees: tuple[Tree, ...] = ()


@dataclass(frozen=True, slots=True)
class Layout:
    lattice: str = "square"
    pavement: tuple[Placement, ...] = ()
    placements: tuple[Placement, ...] = ()
    pieces: tuple[Piece, ...] = ()
    extras: Extras = field(default_factory=Extras)
    #: sheets inlined in a self-contained bundle (id -> Sheet); looked up before mapsheets/
    sheets: tuple[Sheet, ...] = ()


# --------------------------------------------------------------------------- scenario


@dataclass(frozen=True, slots=True)
class Weapon:
    type: str
    success: tuple[int, ...] = ()  # success values at short, medium, long, extreme
    shots: int | None = None
    clips: int | None = None
    damage: int | None = None
    name: str = ""
    note: str = ""
    #: figures another ruleset needs (sr3 ``damage: 9M``, darkcon ``dice: 2d6``...), in file
    #: order; each ruleset reads and checks its own keys (see docs/rulesets-play.md)
    stats: tuple[tuple[str, int | str], ...] = ()


@dataclass(frozen=True, slots=True)
class Character:
    name: str
    archetype: str = ""
    move_ratio: int = 3
    fire_ratio: int = 3
    vision: str = "normal"  # normal | low-light | thermographic
    metatype: str = "human"  # human | elf | dwarf | ork | troll
    success: tuple[tuple[str, int], ...] = ()  # (skill, value) pairs in file order
    defense: tuple[tuple[str, int], ...] = ()
    weapons: tuple[Weapon, ...] = ()
    id: str = ""
    note: str = ""
    #: attributes and skills another ruleset needs (sr3 ``body: 4``, ``firearms: 5``...),
    #: in file order; each ruleset reads and checks its own keys
    stats: tuple[tuple[str, int | str], ...] = ()
    #: the DMZ spells a mage knows, (spell, Maximum Force) pairs in file order
    #: (``spells: {mana-bolt: 6}``; engine.rules.dmz1990_spells)
    spells: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Deployment:
    polygon: Path | None = None
    level: int = 0
    edge: str | None = None  # north | south | east | west
    depth: int | None = None


@dataclass(frozen=True, slots=True)
class Side:
    id: str
    name: str = ""
    deployment: Deployment | None = None
    characters: tuple[Character, ...] = ()
    note: str = ""


@dataclass(frozen=True, slots=True)
class Objective:
    id: str
    side: str
    kind: str  # reach | hold | retrieve | eliminate | exit | protect
    at: tuple[int, ...] | None = None  # (c, r) or (c, r, l)
    area: Path | None = None  # hold
    level: int = 0  # level of the hold area
    turns: int | None = None  # hold
    consecutive: bool = True  # hold: the turns must run unbroken (False: any turns add up)
    then: str | None = None  # retrieve: e.g. exit-west
    target: str | None = None  # eliminate/protect: side or character
    edge: str | None = None  # exit
    by_turn: int | None = None
    points: int | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class Scenario:
    title: str
    layout: Layout
    ruleset: str = "dmz1990"
    conditions: tuple[tuple[str, Any], ...] = (("light", "day"),)
    turn_limit: int | None = None
    initiative: str = "team"
    sides: tuple[Side, ...] = ()
    objectives: tuple[Objective, ...] = ()
    victory: tuple[tuple[str, Any], ...] = ()
    notes: str = ""

    @property
    def light(self) -> str:
        return dict(self.conditions).get("light", "day")


def evolve(obj: Any, **changes: Any) -> Any:
    """``dataclasses.replace`` under a name that reads well in commands."""
    return replace(obj, **changes)


def field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))
