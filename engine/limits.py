"""Stated limits on input size, checked before the work starts (docs/limits.md).

Why: a layout of thousands of buildings, a polygon of a hundred thousand points or a request for
a hundred million games would otherwise run for minutes and gigabytes with no word.  Each limit
has a default sized well above every shipped file and a sample city block, and an environment
variable that raises it; a refusal is one line naming the limit and that variable.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from engine.errors import LoadError


@dataclass(frozen=True)
class Limit:
    """One bound: ``what`` is counted, at most ``default`` unless ``env`` says otherwise."""

    name: str
    default: int
    env: str
    what: str

    def value(self) -> int:
        raw = os.environ.get(self.env, "").strip()
        if raw:
            try:
                v = int(raw)
            except ValueError:
                return self.default
            if v > 0:
                return v
        return self.default


LIMITS: dict[str, Limit] = {lim.name: lim for lim in (
    Limit("buildings", 1000, "SPRAWLMAP_MAX_BUILDINGS", "buildings placed in one layout"),
    Limit("vertices", 5000, "SPRAWLMAP_MAX_VERTICES", "points in one polygon or path"),
    Limit("dots", 2_000_000, "SPRAWLMAP_MAX_DOTS", "dots of the board (columns x rows x levels)"),
    Limit("games", 10_000, "SPRAWLMAP_MAX_GAMES", "games in one `play` run (--bots)"),
    Limit("pages", 500, "SPRAWLMAP_MAX_PAGES", "pages of one printable PDF"),
)}

#: printed dot spacing accepted by exports, in mm (a DMZ dot is 25.4 mm)
DOT_MM_RANGE = (2.0, 100.0)
#: move ratio and movement points accepted by `path` and `reach`
MOVE_RATIO_RANGE = (1, 99)
MP_RANGE = (0, 10_000)
#: metres (and metres a phase) accepted by `reach` under the metric rulesets
METRES_MAX = 20_000.0


class LimitError(LoadError):
    """Input over a stated limit."""


def limit(name: str) -> int:
    """The value of limit ``name`` now (its environment variable read each time)."""
    return LIMITS[name].value()


def check(name: str, count: int, file: str | None = None, line: int | None = None) -> None:
    """Refuse ``count`` when it is over limit ``name``, in one line saying how to raise it."""
    lim = LIMITS[name]
    top = lim.value()
    if count > top:
        raise LimitError(f"{count} {lim.what}: over the limit of {top} "
                         f"(set {lim.env}=N to raise it)", file, line)


def board_dots(layout: object, sheets: Mapping[str, object]) -> int:
    """Dots the board compiler lays out for ``layout``: the box around every placed sheet times
    the levels (the compiler's dot grid has that size, however sparse the layout is)."""
    boxes = []
    top = 0
    for pl in (*layout.pavement, *layout.placements):  # type: ignore[attr-defined]
        sheet = sheets.get(pl.sheet)
        if sheet is None:
            continue  # the compiler names the missing sheet
        w, h = sheet.size
        if layout.lattice != "square":  # type: ignore[attr-defined]
            w = h = max(w, h) * 2  # a hex sheet turned by 60 degrees: a generous box
        elif pl.rotation % 180:
            w, h = h, w
        boxes.append((pl.at[0], pl.at[1], pl.at[0] + w, pl.at[1] + h))
        top = max(top, sheet.height)
    if not boxes:
        return 0
    c0 = min(b[0] for b in boxes)
    r0 = min(b[1] for b in boxes)
    c1 = max(b[2] for b in boxes)
    r1 = max(b[3] for b in boxes)
    return (c1 - c0) * (r1 - r0) * (top + 1)


def check_board(layout: object, sheets: Mapping[str, object], file: str | None = None) -> None:
    """Refuse a layout whose board would be over the dots limit, before compiling it."""
    check("dots", board_dots(layout, sheets), file)
