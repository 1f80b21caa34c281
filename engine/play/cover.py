"""Characters standing in a line of fire: the one LOS fact only play knows.

The board's LOS knows walls and furniture but not where the characters are.  A human, elf or
ork on a crossed dot in the target's posture adds one level of cover; a troll there blocks
the line; a dwarf only gets in the way of a shot at another dwarf.
"""

from __future__ import annotations

from collections.abc import Iterable

from shapely.geometry import LineString, Polygon

from engine.lattice import Lattice

Dot3 = tuple[int, int, int]


def crossed_dots(lattice: Lattice, a: Dot3, b: Dot3) -> set[tuple[int, int]]:
    """Dots whose cell the open segment a..b passes through with positive length."""
    pa, pb = lattice.point(a[:2]), lattice.point(b[:2])
    if pa == pb:
        return set()
    seg = LineString([pa, pb])
    x0, y0, x1, y1 = seg.bounds
    out = set()
    for c, r in lattice.dots_in_box(x0 - 1, y0 - 1, x1 + 1, y1 + 1).tolist():
        d = (int(c), int(r))
        if d in (a[:2], b[:2]):
            continue
        if seg.intersection(Polygon(lattice.cell(d))).length > 1e-9:
            out.add(d)
    return out


def character_cover(
    lattice: Lattice, a: Dot3, b: Dot3, target_posture: str, target_metatype: str,
    others: Iterable[tuple[Dot3, str, str]],
) -> tuple[bool, int, list[str]]:
    """(blocked, cover levels, reasons) from ``others`` = (dot, posture, metatype) in the way.

    Only characters on the same level as both ends count.
    """
    if a[2] != b[2]:
        return False, 0, []
    others = [o for o in others if o[0][2] == a[2] and o[0] not in (a, b)]
    if not others:
        return False, 0, []
    crossed = crossed_dots(lattice, a, b)
    cover, why = 0, []
    for dot, posture, meta in others:
        if dot[:2] not in crossed:
            continue
        if meta == "troll" and posture == "standing":
            return True, 0, [f"troll at {dot}"]
        if posture != target_posture:
            continue
        if meta == "dwarf" and target_metatype != "dwarf":
            continue
        cover += 1
        why.append(f"{meta} at {list(dot)}")
    return False, cover, why
