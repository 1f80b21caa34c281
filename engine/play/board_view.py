"""What play asks of the map, as a small protocol.

The rules of play never touch the compiled board directly: they ask a :class:`BoardView` for
step costs, paths, sight lines and the map changes play makes (doors opened, smoke laid,
barriers holed).  :mod:`engine.play.engine_board` implements it on the engine's board, movement
and LOS API; the tests implement it on a toy grid, so every rule can be checked without a map.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.lattice import Dot3, Lattice


@dataclass(frozen=True)
class StepInfo:
    """One step between adjacent dots: its cost (MP, or metres under a metre ruleset) and why."""

    to: Dot3
    cost: float
    why: tuple[str, ...] = ()


@dataclass(frozen=True)
class OpeningInfo:
    """A door, window or hole on a step or near a dot."""

    feature: str
    kind: str  # door | window | hole
    state: str  # open | closed


@dataclass(frozen=True)
class BarrierInfo:
    """A wall, door or window a blast can reach."""

    feature: str
    kind: str
    barrier: int
    armor: int
    distance: int
    point: tuple[float, float] = (0.0, 0.0)  # where on it (nearest to the asking dot)


@dataclass
class Sight:
    """The LOS answer play needs, from the engine's facts and the ruleset's modifiers."""

    blocked: bool
    range: int
    total: int = 0  # every LOS-derived Target Value modifier (cover, prone, elevation, sight)
    visibility: int = 0  # the part of ``total`` due to darkness or smoke
    modifiers: dict[str, int] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def cover_without_visibility(self) -> int:
        """Blasts ignore smoke and darkness but not walls, doors and posture."""
        return self.total - self.visibility


class BoardView(Protocol):
    """The map as play sees it.  ``step``, ``path``, ``reach`` and ``costs_to`` answer in the
    ruleset's movement units: MP for dmz1990 (``move_ratio`` and ``crawl`` price the steps),
    metres for sr3, sr1 and darkcon (``move_ratio`` and ``crawl`` are ignored)."""

    lattice: Lattice
    light: str

    def standable(self, dot: Dot3) -> bool: ...

    def neighbours(self, dot: Dot3) -> list[Dot3]:
        """Dots one step away, including level changes (stairs, climbs)."""
        ...

    def step(self, a: Dot3, b: Dot3, move_ratio: int, crawl: bool = False) -> StepInfo | None: ...

    def path(self, a: Dot3, b: Dot3, move_ratio: int, crawl: bool = False) -> list[Dot3] | None:
        """Cheapest path a..b inclusive, or None."""
        ...

    def reach(self, a: Dot3, move_ratio: int, mp: float, crawl: bool = False
              ) -> dict[Dot3, float]:
        """Every dot within ``mp`` (MP or metres) of ``a``, with its cheapest cost."""
        ...

    def costs_to(self, goal: Dot3, move_ratio: int, dots: list[Dot3]) -> list[float | None]:
        """Cheapest cost from each of ``dots`` to ``goal`` (None where it cannot be reached)."""
        ...

    def cheapest_to(self, goal: Dot3, move_ratio: int, dots: list[Dot3]
                    ) -> tuple[float | None, list[Dot3]]:
        """The least of :meth:`costs_to` ``(goal, move_ratio, dots)`` and the dots that cost
        it, in the order of ``dots``; (None, []) when none reaches ``goal``.  A view may
        find it without pricing every dot (a carrier asks his way out from every dot of an
        edge)."""
        ...

    def cost_floor(self, a: Dot3, b: Dot3, move_ratio: int) -> float | None:
        """A cost :meth:`costs_to` never answers below between ``a`` and ``b``; None: the
        view knows none (the bots then price every objective's path)."""
        ...

    def step_floor(self, a: Dot3, move_ratio: int, mp: float) -> dict[Dot3, float] | None:
        """The dots within ``mp`` of ``a`` with a cost no path to them undercuts (its
        :meth:`step` costs summed) by more than a centimetre; a dot not listed has no such
        path within ``mp``.  None: the view cannot promise it (ask :meth:`path`)."""
        ...

    def sight(self, a: Dot3, b: Dot3, posture_a: str, posture_b: str, vision: str) -> Sight: ...

    def known_blocked(self, a: Dot3, b: Dot3, vision: str) -> bool:
        """True when the line ``a``..``b`` is known to be blocked (for any posture) without
        tracing it; False means "ask :meth:`sight`".  A view with nothing cheaper than
        :meth:`sight` answers False."""
        ...

    def walled(self, a: Dot3, b: Dot3) -> bool:
        """True when the line ``a``..``b`` is blocked for every eye and posture by what no
        smoke, darkness or spell changes (a wall, a floor, a building), found cheaper than
        :meth:`sight`; False means "ask :meth:`sight`" (a view with nothing cheaper)."""
        ...

    def warm_blocked(self, origin: Dot3, dots: list[Dot3], visions: set[str] | list[str]
                     ) -> None:
        """Prepare :meth:`known_blocked` for the lines from ``origin`` to ``dots`` in one go
        (a fan); a view without a cheaper way does nothing."""
        ...

    def openings_on(self, a: Dot3, b: Dot3) -> list[OpeningInfo]:
        """Doors/windows/holes the straight step a..b passes through."""
        ...

    def openings_near(self, dot: Dot3) -> list[OpeningInfo]:
        """Doors and windows within reach of a character on ``dot`` (touching its cell)."""
        ...

    def set_opening(self, feature: str, state: str) -> None: ...

    def add_smoke(self, dots: list[Dot3]) -> None: ...

    def barriers_near(self, dot: Dot3, radius: int) -> list[BarrierInfo]: ...

    def add_spell_feature(self, fid: str, kind: str, level: int, geom: Any,
                          props: dict[str, Any]) -> None:
        """A spell's place on the map (``obstacle`` debris, a ``force-field``), seen by
        movement and sight from now on (engine/play/referee_areas.py)."""
        ...

    def remove_spell_feature(self, fid: str) -> None:
        """The spell of ``fid`` is dropped: movement and sight no longer see it."""
        ...

    def blast_through(self, burst: Dot3, target: Dot3, grenade: str) -> dict[str, Any] | None:
        """The ruleset's blast left at ``target`` past the barriers from ``burst`` (None: the
        ruleset has no blast-against-barrier rule)."""
        ...

    def open_hole(self, feature: str) -> None:
        """A barrier took six boxes: it now counts as a door-sized hole."""
        ...

    def edge_of(self, dot: Dot3) -> str | None:
        """north/south/east/west when ``dot`` is on that edge of the map at level 0."""
        ...

    def deploy_dots(self, polygon: Any, level: int, edge: str | None,
                    depth: int | None) -> list[Dot3]:
        """Standable dots of a deployment zone."""
        ...

    def in_area(self, dot: Dot3, polygon: Any, level: int) -> bool: ...
