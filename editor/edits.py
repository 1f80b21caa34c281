"""Pure edits of the immutable model: each returns a new object, never mutates.

Commands (:mod:`editor.commands`) apply these results to the document; keeping them Qt-free
makes every edit testable on its own and undo exact (the old object is simply kept).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engine.io.fields import ID_RE
from engine.model import (
    Extras,
    Layout,
    Level,
    Piece,
    Placement,
    Scenario,
    Sheet,
)

#: feature list name -> id prefix for generated ids
PREFIX = {
    "walls": "wall", "doors": "door", "windows": "window", "holes": "hole", "areas": "area",
    "lines": "line", "trees": "tree", "stairs": "stair", "elevators": "elevator",
    "climbs": "climb",
}


@dataclass(frozen=True)
class FeatureRef:
    """Where a feature lives: a sheet's level list, or the layout extras (``sheet`` None)."""

    sheet: str | None
    level: int
    list: str
    index: int


@dataclass(frozen=True)
class PlacementRef:
    pavement: bool
    index: int


def used_ids(sheet: Sheet) -> set[str]:
    out: set[str] = set()
    for lv in sheet.levels:
        for name in PREFIX:
            out.update(f.id for f in getattr(lv, name) if f.id)
    return out


def fresh_id(prefix: str, used: set[str]) -> str:
    n = 1
    while f"{prefix}-{n}" in used:
        n += 1
    return f"{prefix}-{n}"


def add_feature(sheet: Sheet, level: int, list_name: str, feature: Any) -> tuple[Sheet, int]:
    """Append ``feature`` to ``list_name`` of ``level`` (creating the level); returns index."""
    if not feature.id:
        feature = replace(feature, id=fresh_id(PREFIX[list_name], used_ids(sheet)))
    levels = list(sheet.levels)
    for i, lv in enumerate(levels):
        if lv.level == level:
            seq = getattr(lv, list_name) + (feature,)
            levels[i] = replace(lv, **{list_name: seq})
            return replace(sheet, levels=tuple(levels)), len(seq) - 1
    levels.append(Level(level=level, **{list_name: (feature,)}))
    levels.sort(key=lambda lv: lv.level)
    return replace(sheet, levels=tuple(levels)), 0


def get_feature(sheet: Sheet, ref: FeatureRef) -> Any:
    lv = sheet.level(ref.level)
    return getattr(lv, ref.list)[ref.index]


def set_feature(sheet: Sheet, ref: FeatureRef, feature: Any | None) -> Sheet:
    """Replace (or remove, when ``feature`` is None) the feature at ``ref``."""
    levels = list(sheet.levels)
    for i, lv in enumerate(levels):
        if lv.level == ref.level:
            seq = list(getattr(lv, ref.list))
            if feature is None:
                del seq[ref.index]
            else:
                seq[ref.index] = feature
            levels[i] = replace(lv, **{ref.list: tuple(seq)})
            return replace(sheet, levels=tuple(levels))
    raise KeyError(f"level {ref.level} not on sheet {sheet.id}")


def extras_add(layout: Layout, list_name: str, feature: Any) -> tuple[Layout, int]:
    ex = layout.extras
    seq = getattr(ex, list_name)
    if not feature.id:
        used = {f.id for f in ex.areas + ex.lines + ex.trees}
        feature = replace(feature, id=fresh_id(PREFIX[list_name], used))
    seq = seq + (feature,)
    return replace(layout, extras=replace(ex, **{list_name: seq})), len(seq) - 1


def extras_set(layout: Layout, ref: FeatureRef, feature: Any | None) -> Layout:
    seq = list(getattr(layout.extras, ref.list))
    if feature is None:
        del seq[ref.index]
    else:
        seq[ref.index] = feature
    return replace(layout, extras=replace(layout.extras, **{ref.list: tuple(seq)}))


def extras_get(extras: Extras, ref: FeatureRef) -> Any:
    return getattr(extras, ref.list)[ref.index]


def set_placement(layout: Layout, ref: PlacementRef, placement: Placement | None) -> Layout:
    name = "pavement" if ref.pavement else "placements"
    seq = list(getattr(layout, name))
    if placement is None:
        del seq[ref.index]
    else:
        seq[ref.index] = placement
    return replace(layout, **{name: tuple(seq)})


def add_placement(layout: Layout, placement: Placement, pavement: bool = False
                  ) -> tuple[Layout, int]:
    name = "pavement" if pavement else "placements"
    if not placement.id:
        used = {p.id for p in layout.placements + layout.pavement}
        base = placement.piece or placement.sheet
        placement = replace(placement, id=fresh_id(base, used))
    seq = getattr(layout, name) + (placement,)
    return replace(layout, **{name: seq}), len(seq) - 1


def add_piece(layout: Layout, sheet_id: str, polygon: tuple, used: set[str]) -> tuple[Layout, Piece]:
    pid = fresh_id(f"{sheet_id}-cut", used | {p.id for p in layout.pieces})
    piece = Piece(id=pid, sheet=sheet_id, polygon=tuple(polygon))
    return replace(layout, pieces=layout.pieces + (piece,)), piece


def with_inlined_sheet(scenario: Scenario, sheet: Sheet) -> Scenario:
    """The scenario carrying its own edited copy of ``sheet`` (the library is never touched)."""
    sheets = list(scenario.layout.sheets)
    for i, s in enumerate(sheets):
        if s.id == sheet.id:
            sheets[i] = sheet
            break
    else:
        sheets.append(sheet)
    return replace(scenario, layout=replace(scenario.layout, sheets=tuple(sheets)))


def rotate(placement: Placement, step: int, clockwise: bool = True) -> Placement:
    r = (placement.rotation + (step if clockwise else -step)) % 360
    return replace(placement, rotation=r)


def mirror(placement: Placement) -> Placement:
    return replace(placement, mirror=not placement.mirror)


def nudge(placement: Placement, dc: int, dr: int) -> Placement:
    return replace(placement, at=(placement.at[0] + dc, placement.at[1] + dr))


def piece_users(layout: Layout, piece_id: str) -> list[str]:
    """Ids (or sheet names) of the placements that show the cut piece ``piece_id``."""
    return [p.id or p.sheet for p in layout.pavement + layout.placements if p.piece == piece_id]


def remove_piece(layout: Layout, piece_id: str) -> Layout:
    """The layout without the piece; ``ValueError`` naming the placements still using it."""
    users = piece_users(layout, piece_id)
    if users:
        raise ValueError(f"{piece_id} is placed as {', '.join(users)}: delete those first")
    return replace(layout, pieces=tuple(p for p in layout.pieces if p.id != piece_id))


def rename_piece(layout: Layout, old: str, new: str) -> Layout:
    """The piece ``old`` called ``new``, and every placement of it following the new name."""
    new = new.strip()
    if not new:
        raise ValueError("a piece needs a name")
    if not ID_RE.match(new):
        raise ValueError(f"{new!r} is not a valid id (letters, digits, '-', '_', '.')")
    if new != old and any(p.id == new for p in layout.pieces):
        raise ValueError(f"there is already a piece called {new}")

    def follow(seq: tuple[Placement, ...]) -> tuple[Placement, ...]:
        return tuple(replace(p, piece=new) if p.piece == old else p for p in seq)

    pieces = tuple(replace(p, id=new) if p.id == old else p for p in layout.pieces)
    return replace(layout, pieces=pieces, pavement=follow(layout.pavement),
                   placements=follow(layout.placements))


def make_unique(scenario: Scenario, sheets: dict[str, Sheet], ref: PlacementRef
                ) -> tuple[Scenario, str]:
    """The scenario with placement ``ref`` showing its own copy of its sheet (a new id,
    carried inline), so tagging it leaves the other copies alone.  A cut piece gets its own
    piece of the new sheet too.  Returns the scenario and the new sheet id."""
    layout = scenario.layout
    pl = (layout.pavement if ref.pavement else layout.placements)[ref.index]
    sheet = sheets[pl.sheet]
    used = set(sheets) | {p.id for p in layout.pieces}
    new_id = fresh_id(pl.id or sheet.id, used)
    variant = replace(sheet, id=new_id, title=f"{sheet.title} ({pl.id or new_id})")
    scenario = with_inlined_sheet(scenario, variant)
    layout = scenario.layout
    moved = replace(pl, sheet=new_id)
    if pl.piece:
        piece = next(p for p in layout.pieces if p.id == pl.piece)
        pid = fresh_id(f"{new_id}-cut", used | {new_id})
        layout = replace(layout, pieces=layout.pieces + (replace(piece, id=pid, sheet=new_id),))
        moved = replace(moved, piece=pid)
    layout = set_placement(layout, ref, moved)
    return replace(scenario, layout=layout), new_id


def sheet_users(layout: Layout, sheet_id: str) -> int:
    """How many placements show sheet ``sheet_id`` (a tag on it shows on all of them)."""
    return sum(1 for p in layout.placements + layout.pavement if p.sheet == sheet_id)
