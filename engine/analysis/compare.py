"""One line of sight under every ruleset, side by side.

The engine finds the facts once (:func:`engine.los.line_of_sight`); each ruleset
(:func:`engine.rules.get_ruleset`) turns them into its own modifiers, target numbers and range
in its own measure.  A row the ruleset does not have stays empty, so the table shows where the
books differ, not only their totals.
"""

from __future__ import annotations

from typing import Any

from engine.board import Board, Dot3
from engine.los import LosFacts, line_of_sight
from engine.rules import get_ruleset
from engine.sight import Verdict

RULESETS = ("dmz1990", "sr3", "sr1", "darkcon")

#: (key in a ruleset's modifiers, row label), in table order; other keys follow as they come
ROWS: tuple[tuple[str, str], ...] = (
    ("verdict", "sight"),
    ("range", "range"),
    ("range_band", "range band"),
    ("cover", "cover modifier"),
    ("cover_type", "cover type"),
    ("covered_locations", "covered locations"),
    ("hard_cover", "hard cover"),
    ("visibility_result", "visibility"),
    ("visibility", "visibility modifier"),
    ("elevation", "elevation modifier"),
    ("prone", "prone modifier"),
    ("target_modifier", "area modifier"),
    ("range_modifier", "range modifier"),
    ("total", "total modifier"),
    ("base_target_number", "base target number"),
    ("target_number", "target number"),
    ("blind_fire_target_number", "blind-fire target number"),
    ("difficulty", "difficulty"),
    ("hit_modifier", "hit modifier"),
)
#: keys that are bookkeeping, not a row of the table
_SKIP = {"blocked", "notes", "borrowed", "blind_fire", "range_m", "reasons", "interruptions",
         "blocked_by"}


def compare(board: Board, a: Dot3, b: Dot3, *, posture_a: str = "standing",
            posture_b: str = "standing", light: str = "day", vision: str = "normal",
            weapon: str | None = None, rulesets: tuple[str, ...] = RULESETS
            ) -> dict[str, Any]:
    """``{"facts": ..., "rulesets": {name: {row key: value}}, "rows": [(key, label)]}``.

    A weapon written for one book (``bow:4`` for sr3, a range in metres for darkcon) may mean
    nothing to another: that ruleset's column then says why in ``error`` instead of numbers.
    """
    facts = line_of_sight(board, a, b, posture_a=posture_a, posture_b=posture_b, light=light)
    cols: dict[str, dict[str, Any]] = {}
    for name in rulesets:
        cols[name] = column(facts, name, vision, weapon)
    keys = [k for k, _ in ROWS]
    extra = [k for c in cols.values() for k in c if k not in keys and k not in _SKIP
             and k not in ("ruleset",)]
    rows = list(ROWS) + [(k, k.replace("_", " ")) for k in dict.fromkeys(extra)]
    present = [(k, lab) for k, lab in rows
               if any(c.get(k) not in (None, "", []) for c in cols.values())]
    return {"a": list(facts.a), "b": list(facts.b), "range_dots": facts.range,
            "cover": facts.cover, "blocked": facts.blocked, "rows": present, "rulesets": cols}


def column(facts: LosFacts, name: str, vision: str = "normal", weapon: str | None = None
           ) -> dict[str, Any]:
    """One ruleset's verdict on the facts (:class:`engine.sight.Verdict`), with ``verdict`` and
    ``range`` in its own measure."""
    rs = get_ruleset(name)
    notes: list[str] = []
    try:
        mods = dict(rs.modifiers(facts, vision=vision, weapon=weapon))
    except (ValueError, KeyError) as exc:
        if weapon is None:
            raise
        mods = dict(rs.modifiers(facts, vision=vision, weapon=None))
        notes.append(f"weapon {weapon!r} not used: {exc}")
    v = Verdict(rs.name, facts, mods, vision)
    out: dict[str, Any] = {"ruleset": rs.name, "verdict": v.result,
                           "range": _range(facts, mods, name)}
    for k, val in mods.items():
        if k not in _SKIP:
            out[k] = val
    if v.blocked:  # no shot: the numbers of a shot do not apply
        for k in ("total", "target_number", "base_target_number", "hit_modifier"):
            if k in out:
                out[k] = None
        if v.blocked_by:
            out["blocked_by"] = v.blocked_by.get("reason")
    out["notes"] = list(mods.get("notes", [])) + notes
    out["reasons"] = v.reasons
    return out


def _range(facts: LosFacts, mods: dict[str, Any], name: str) -> str:
    """DMZ counts dots; the Shadowrun books and Dark Conspiracy measure metres."""
    if name == "dmz1990" or mods.get("range_m") is None:
        return f"{facts.range} dots"
    return f"{mods['range_m']:g} m"


def fmt(v: Any) -> str:
    """A table cell: signed modifiers, lists joined, empty for nothing."""
    if v is None or v == [] or v == "":
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return f"{v:+d}" if v else "0"
    if isinstance(v, dict):
        return " ".join(str(x) for x in v.values() if x not in (None, ""))
    if isinstance(v, list):
        return ", ".join(fmt(x) if isinstance(x, dict) else str(x) for x in v)
    return str(v)
