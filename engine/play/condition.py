"""The Condition Monitor: thirteen boxes, 12 down to 0, filled by physical and stun damage.

A hit marks ``damage`` boxes starting at the box named by a 2D6 location roll and moving right
(towards 0):

* physical damage marks an empty box, turns a stun box physical, and skips physical boxes;
* stun damage marks an empty box, turns a stun box physical (stun on stun), and skips
  physical boxes;
* past box 0: if box 0 holds stun, the rest becomes physical from box 12; if box 0 holds
  physical, the character is dead.

Only the lowest marked box matters for effects (they do not add up).  Box 4 or lower knocks
the character prone; box 0 knocks him out.  See ``docs/play.md`` for the two boxes (6 and 4)
whose values the printed monitor hides and how we filled them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

PHYSICAL = "physical"
STUN = "stun"

BOXES = tuple(range(12, -1, -1))  # 12, 11, ..., 0 in marking order
_LOW_FIRST = BOXES[::-1]

#: box -> (Target Value injury modifier, Movement Points available).  Boxes 8, 7, 5, 3, 2,
#: 1 are printed in the book; 6 and 4 are hidden under the example's X marks and are our
#: interpolation (docs/play.md).  Box 0 is unconscious.
EFFECTS: dict[int, tuple[int, int]] = {
    12: (0, 12), 11: (0, 12), 10: (0, 12), 9: (0, 12),
    8: (1, 12), 7: (1, 12), 6: (2, 11), 5: (2, 11),
    4: (2, 9), 3: (3, 7), 2: (3, 5), 1: (4, 3), 0: (4, 0),
}
FULL_MP = 12
PRONE_BOX = 4


@dataclass
class DamageResult:
    """What one hit did: the boxes it touched and the consequences."""

    marked: list[tuple[int, str]]  # (box, resulting mark) in the order touched
    knocked_prone: bool
    unconscious: bool
    dead: bool
    modifier: int
    mp: int

    def to_data(self) -> dict[str, Any]:
        return {
            "marked": [list(m) for m in self.marked], "knocked_prone": self.knocked_prone,
            "unconscious": self.unconscious, "dead": self.dead, "modifier": self.modifier,
            "mp": self.mp,
        }


class Condition(Protocol):
    """What play asks of a character's condition under any ruleset (DMZ's Condition Monitor,
    Shadowrun's physical and stun tracks, Dark Conspiracy's wounds).  ``to_data`` carries a
    ``"kind"`` tag so :func:`condition_from_data` rebuilds the right class."""

    kind: str

    @property
    def out(self) -> bool: ...  # unconscious or dead: out of the fight

    @property
    def dead(self) -> bool: ...

    @property
    def unconscious(self) -> bool: ...

    @property
    def modifier(self) -> int: ...  # injury modifier, in the ruleset's own sense

    @property
    def lowest(self) -> int | None: ...  # 12 (scratched) .. 0 (out); None unhurt (bots)

    @property
    def mp(self) -> int: ...  # DMZ's MP per turn; other rulesets: their budget or 0

    def to_data(self) -> dict[str, Any]: ...


@dataclass
class ConditionMonitor:
    """Boxes 12..0, each None, "stun" or "physical", plus the Dead box."""

    kind = "dmz"  # the tag in saved data (class attribute, not a field)

    boxes: dict[int, str | None] = field(default_factory=lambda: {b: None for b in BOXES})
    dead: bool = False

    # ------------------------------------------------------------------ queries
    def marked(self, kind: str | None = None) -> list[int]:
        """Marked boxes, highest first; ``kind`` filters by mark."""
        return [b for b in BOXES if self.boxes[b] and (kind is None or self.boxes[b] == kind)]

    @property
    def lowest(self) -> int | None:
        # the last of :meth:`marked`, without the list: asked for every shot's injury modifier
        # and every MP left
        boxes = self.boxes
        for b in _LOW_FIRST:
            if boxes[b]:
                return b
        return None

    @property
    def unconscious(self) -> bool:
        return self.boxes[0] is not None

    @property
    def out(self) -> bool:
        """Out of the fight: unconscious or dead."""
        return self.dead or self.boxes[0] is not None

    @property
    def modifier(self) -> int:
        """The attacker-injured modifier added to the Target Value of his attacks."""
        low = self.lowest
        return 0 if low is None else EFFECTS[low][0]

    @property
    def mp(self) -> int:
        """Movement Points available per turn."""
        if self.dead:
            return 0
        low = self.lowest
        return FULL_MP if low is None else EFFECTS[low][1]

    # ------------------------------------------------------------------ damage
    def apply(self, damage: int, start_box: int, kind: str = PHYSICAL) -> DamageResult:
        """Mark ``damage`` boxes of ``kind`` from ``start_box`` rightwards (the book's rule)."""
        if kind not in (PHYSICAL, STUN):
            raise ValueError(f"unknown damage kind {kind!r}")
        if not 0 <= start_box <= 12:
            raise ValueError(f"damage location must be 0..12, got {start_box}")
        was_unconscious = self.unconscious
        marked: list[tuple[int, str]] = []
        left = damage
        box = start_box
        wraps = 0
        while left > 0 and not self.dead:
            if box < 0:
                # ran off the right end of the monitor
                if self.boxes[0] == STUN and wraps == 0:
                    kind, box, wraps = PHYSICAL, 12, 1
                    continue
                self.dead = True
                break
            cur = self.boxes[box]
            if cur is None:
                self.boxes[box] = kind
                marked.append((box, kind))
                left -= 1
            elif cur == STUN:
                # physical on stun, or stun on stun: the box becomes physical
                self.boxes[box] = PHYSICAL
                marked.append((box, PHYSICAL))
                left -= 1
            box -= 1
        knocked = any(b <= PRONE_BOX for b, _ in marked)
        return DamageResult(
            marked=marked, knocked_prone=knocked,
            unconscious=self.unconscious and not was_unconscious, dead=self.dead,
            modifier=self.modifier, mp=self.mp,
        )

    # ------------------------------------------------------------------ data
    def to_data(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "boxes": {str(b): self.boxes[b] for b in BOXES if self.boxes[b]},
            "dead": self.dead,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> ConditionMonitor:
        cm = cls()
        for k, v in (data.get("boxes") or {}).items():
            cm.boxes[int(k)] = v
        cm.dead = bool(data.get("dead", False))
        return cm


#: condition classes by their data ``kind``; a ruleset's game module adds its own with
#: :func:`register_condition` (engine/play/sr3_game.py ...), which the referee factory imports
CONDITIONS: dict[str, Any] = {ConditionMonitor.kind: ConditionMonitor}


def register_condition(kind: str, cls: Any) -> None:
    """Let saved games hold ``cls`` conditions (``cls.from_data`` rebuilds one)."""
    CONDITIONS[kind] = cls


def condition_from_data(data: dict[str, Any]) -> Any:
    """The condition object saved as ``data`` (no ``kind``: a DMZ Condition Monitor)."""
    kind = (data or {}).get("kind", ConditionMonitor.kind)
    try:
        cls = CONDITIONS[kind]
    except KeyError:
        raise ValueError(f"unknown condition kind {kind!r} (known: {', '.join(CONDITIONS)}); "
                         "load the game through engine.play.referees") from None
    return cls.from_data(data or {})
