"""Copy, paste and duplicate buildings and features (Ctrl+C, Ctrl+V, Ctrl+D).

Pure functions of the model: the clipboard holds immutable model objects (placements, or one
feature with the sheet and level it came from), and a paste is one new layout or sheet, so
it is one undo step like every other edit.  Pasted placements get fresh ids; pasted
features get fresh ids on their sheet.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from editor import edits, feature_move
from editor.edits import FeatureRef, PlacementRef
from engine.model import Extras, Layout, Level, Placement, Sheet


@dataclass(frozen=True)
class Copied:
    """What Ctrl+C took: placements, or a feature (``ref`` says where it lay)."""

    placements: tuple[Placement, ...] = ()
    feature: Any = None
    ref: FeatureRef | None = None


def copy_placements(layout: Layout, refs) -> Copied:
    return Copied(placements=tuple(
        (layout.pavement if r.pavement else layout.placements)[r.index] for r in refs
        if not r.pavement))


def paste_placements(layout: Layout, copied: Copied, offset: tuple[int, int]
                     ) -> tuple[Layout, list[PlacementRef]]:
    """The layout with the copied placements added ``offset`` dots away, with fresh ids."""
    refs = []
    for pl in copied.placements:
        new = replace(edits.nudge(pl, *offset), id="")
        layout, idx = edits.add_placement(layout, new)
        refs.append(PlacementRef(False, idx))
    return layout, refs


def _level_of(sheet: Sheet | None, ref: FeatureRef, layout: Layout) -> Level:
    if sheet is None:
        ex = layout.extras
        return Level(level=0, areas=ex.areas, lines=ex.lines, trees=ex.trees)
    return sheet.level(ref.level)


def _shifted(feat: Any, list_name: str, d: tuple[float, float], walls: tuple) -> Any:
    """``feat`` moved by ``d`` on its own (a wall leaves the openings of the original)."""
    extra = {"walls": walls} if list_name in feature_move.OPENINGS else {}
    tmp = Level(level=0, **extra, **{list_name: (feat,)})
    try:
        tmp = feature_move.move_in_level(tmp, list_name, 0, d)
    except ValueError:
        return feat  # an opening on no wall stays where the original is
    return getattr(tmp, list_name)[0]


def paste_feature(layout: Layout, sheets: dict[str, Sheet], copied: Copied,
                  offset: tuple[float, float] = (1.0, 1.0)):
    """Add a copy of the copied feature next to it (``offset`` in the sheet's frame; a door
    or window slides along its wall).  Returns ("layout", layout, ref) for the pavement's
    extras or ("sheet", sheet, ref) for a sheet."""
    ref = copied.ref
    if ref.sheet is None:
        feat = _shifted(replace(copied.feature, id=""), ref.list, offset, ())
        layout, idx = edits.extras_add(layout, ref.list, feat)
        return "layout", layout, FeatureRef(None, 0, ref.list, idx)
    sheet = sheets[ref.sheet]
    feat = _shifted(replace(copied.feature, id=""), ref.list, offset,
                    sheet.level(ref.level).walls)
    sheet, idx = edits.add_feature(sheet, ref.level, ref.list, feat)
    return "sheet", sheet, FeatureRef(sheet.id, ref.level, ref.list, idx)


def nudge_feature(layout: Layout, sheets: dict[str, Sheet], ref: FeatureRef,
                  d: tuple[float, float]):
    """Move a feature by ``d`` (in its sheet's frame); same return as :func:`paste_feature`."""
    if ref.sheet is None:
        lv = feature_move.move_in_level(_level_of(None, ref, layout), ref.list, ref.index, d)
        ex = Extras(areas=lv.areas, lines=lv.lines, trees=lv.trees)
        return "layout", replace(layout, extras=ex), ref
    sheet = sheets[ref.sheet]
    lv = sheet.level(ref.level)
    walls = tuple(w.path for w in lv.walls)
    if sheet.kind == "building" and not lv.walls:
        ol = list(sheet.outline)
        walls = (tuple(ol + ol[:1]),)
    lv = feature_move.move_in_level(lv, ref.list, ref.index, d, walls)
    levels = tuple(lv if x.level == ref.level else x for x in sheet.levels)
    return "sheet", replace(sheet, levels=levels), ref
