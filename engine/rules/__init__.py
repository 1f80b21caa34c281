"""Rulesets: each turns the engine's LOS facts into the modifiers of its own tables."""

from __future__ import annotations

from engine.rules.base import Ruleset
from engine.rules.darkcon import DarkCon
from engine.rules.dmz1990 import DMZ1990
from engine.rules.sr1 import SR1
from engine.rules.sr3 import SR3

_RULESETS: dict[str, Ruleset] = {"dmz1990": DMZ1990(), "sr3": SR3(), "sr1": SR1(),
                                  "darkcon": DarkCon()}


def get_ruleset(name: str = "dmz1990") -> Ruleset:
    try:
        return _RULESETS[name]
    except KeyError:
        known = ", ".join(sorted(_RULESETS))
        raise ValueError(f"ruleset {name!r} is not available (known: {known})") from None


def register(ruleset: Ruleset) -> None:
    """Add a ruleset (sr3, sr1, darkcon ... reuse the same facts with their own tables)."""
    _RULESETS[ruleset.name] = ruleset


__all__ = ["Ruleset", "get_ruleset", "register"]
