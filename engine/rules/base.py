"""What every ruleset offers: modifiers from LOS facts, barrier values per class."""

from __future__ import annotations

from typing import Any, Protocol

from engine.los import LosFacts


class Ruleset(Protocol):
    name: str

    def modifiers(self, facts: LosFacts, vision: str = "normal",
                  weapon: str | None = None) -> dict[str, Any]:
        """Target modifiers for a shot along ``facts`` (``blocked`` says no shot at all)."""
        ...

    def barrier(self, cls: str) -> tuple[int, int]:
        """(barrier value, armor) for a class name."""
        ...
