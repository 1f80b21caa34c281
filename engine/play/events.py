"""The event log: every roll, modifier and state change of a game, in order.

The log is the designer's audit trail ("why did that shot miss?") and the proof that a replay
is identical: two games with the same seed and actions produce equal logs.  Events are plain
dicts so they save to JSON/YAML as they are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class EventLog:
    """An append-only list of events; each is ``{"seq", "event", ...data}``."""

    events: list[dict[str, Any]] = field(default_factory=list)

    def record(self, event: str, /, **data: Any) -> dict[str, Any]:
        """Append one event and return it."""
        ev: dict[str, Any] = {"seq": len(self.events), "event": event}
        ev.update(data)
        self.events.append(ev)
        return ev

    def of_kind(self, event: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["event"] == event]

    def __len__(self) -> int:
        return len(self.events)

    def to_data(self) -> list[dict[str, Any]]:
        return [dict(e) for e in self.events]

    @classmethod
    def from_data(cls, data: list[dict[str, Any]]) -> EventLog:
        return cls([dict(e) for e in data])

    def text(self) -> list[str]:
        """One readable line per event, for the play-log panel and the CLI."""
        out = []
        for e in self.events:
            rest = ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("seq", "event"))
            out.append(f"{e['seq']:4d} {e['event']}: {rest}")
        return out
