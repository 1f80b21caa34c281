"""Checks of a layout, then the scenario checks of :mod:`engine.scenario_checks` and the balance
checks of :mod:`engine.analysis.balance` -> findings.

A finding (:mod:`engine.findings`) is what a designer must look at before printing: an error
makes ``sprawlmap validate`` exit 1 and stops an export; a warning is shown but does not.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely

from engine import scenario_checks
from engine.analysis import balance
from engine.board import Board, fmt_dot
from engine.findings import (  # noqa: F401  (the names callers import from here)
    ERROR,
    INFO,
    WARNING,
    Check,
    CheckList,
    Finding,
    has_errors,
    summary,
)

#: the layout checks, in order; the scenario checks follow them
LAYOUT_CHECKS = CheckList()
check = LAYOUT_CHECKS.register


def all_checks() -> tuple[Check, ...]:
    """Every check :func:`validate` runs, in its order (the editor runs them in two stages:
    the quick ones first, the board-wide searches after)."""
    return (*LAYOUT_CHECKS, *scenario_checks.CHECKS, *balance.CHECKS)


def severity_rank(f: Finding) -> int:
    """The sort key of :func:`validate`'s order: errors, then warnings, then the rest."""
    return {ERROR: 0, WARNING: 1, INFO: 2}.get(f.severity, 3)


def validate(board: Board, scenario: Any = None) -> list[Finding]:
    """Run every check; errors first, then warnings, each in a stable order."""
    out: list[Finding] = []
    for fn in all_checks():
        out.extend(fn(board, scenario))
    return sorted(out, key=severity_rank)


@check
def features_on_wall_dots(board: Board, scenario: Any) -> list[Finding]:
    """Stairs, elevators, climbs and standable obstacles must sit on dots one can stand on."""
    out = []
    links = [f for f in board.all_features() if f.kind in ("stair", "elevator", "climb")]
    xy = shapely.get_coordinates([f.geom for f in links]).tolist()  # one call, not two a point
    if len(xy) != len(links):  # (not all plain points: ask each)
        xy = [(f.geom.x, f.geom.y) for f in links]
    for f, (x, y) in zip(links, xy):
        dot = board.lattice.dot_at((x, y))
        if not board.standable((*dot, f.level)):
            out.append(Finding("dot-in-wall", ERROR,
                               f"{f.kind} {f.id} stands on dot {fmt_dot((*dot, f.level))}, "
                               f"which lies in a wall or outside the floor",
                               {"dots": [[*dot, f.level]], "features": [f.id]}))
    return out


@check
def loose_openings(board: Board, scenario: Any) -> list[Finding]:
    return [Finding("opening-not-on-wall", ERROR,
                    f"{f.kind} {f.id} on level {f.level} does not lie on a wall or fence",
                    {"features": [f.id], "dots": [_mid_dot(board, f, f.level)]})
            for f in board.loose_openings]


@check
def broken_level_links(board: Board, scenario: Any) -> list[Finding]:
    return [Finding("link-to-missing-level", ERROR,
                    f"{f.kind} {f.id} leads to {fmt_dot(dot)}, which is not a standable dot "
                    f"(no such level or floor there)",
                    {"features": [f.id], "dots": [list(dot)]})
            for f, dot in board.broken_links]


@check
def overlapping_placements(board: Board, scenario: Any) -> list[Finding]:
    out = []
    bs = board.buildings
    if len(bs) < 2:
        return out
    tree = shapely.STRtree([b.footprint for b in bs])
    ii, jj = tree.query([b.footprint for b in bs], predicate="intersects")
    for i, j in zip(ii, jj):
        if i >= j:
            continue
        inter = bs[i].footprint.intersection(bs[j].footprint)
        if inter.area > 1e-6:
            c = inter.representative_point()
            dot = board.lattice.dot_at((c.x, c.y))
            out.append(Finding("overlapping-placements", ERROR,
                               f"{bs[i].label} and {bs[j].label} overlap by {inter.area:.1f} dot cells",
                               {"placements": [bs[i].placement_id, bs[j].placement_id],
                                "dots": [[*dot, 0]]}))
    return out


@check
def off_pavement(board: Board, scenario: Any) -> list[Finding]:
    out = []
    pave = board.pavement_area
    bs = board.buildings
    if not bs:
        return out
    ok = np.zeros(len(bs), dtype=bool)
    if not pave.is_empty:  # one buffered sheet, asked of every footprint at once
        sheet = pave.buffer(1e-6)
        shapely.prepare(sheet)
        ok = shapely.covers(sheet, [b.footprint for b in bs])
    for b in (b for b, fine in zip(bs, ok) if not fine):
        outside = b.footprint.difference(pave)
        c = (outside if not outside.is_empty else b.footprint).representative_point()
        dot = board.lattice.dot_at((c.x, c.y))
        out.append(Finding("off-pavement", ERROR,
                           f"{b.label} is not wholly on the pavement sheets "
                           f"({outside.area:.1f} dot cells hang off)",
                           {"placements": [b.placement_id], "dots": [[*dot, 0]]}))
    return out


def _mid_dot(board: Board, f: Any, level: int) -> list[int]:
    c = f.geom.interpolate(0.5, normalized=True)
    dot = board.lattice.dot_at((c.x, c.y))
    return [int(dot[0]), int(dot[1]), int(level)]

