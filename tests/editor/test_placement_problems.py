"""Overlap findings of the drag preview found through an envelope tree equal the pairwise
test they replace (same placements, same reasons, same order)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from benchmarks.neighbourhood import neighbourhood
from editor.geometry import label, placement_problems, resolve_placements


def _pairwise(resolved) -> dict[int, str]:
    """The former all-pairs test, as the reference."""
    from shapely.ops import unary_union
    pav = [r.footprint for r in resolved if r.pavement]
    ground = unary_union(pav) if pav else None
    bld = [r for r in resolved if not r.pavement]
    hits: dict[int, list[str]] = {}
    for i, a in enumerate(bld):
        for b in bld[i + 1:]:
            if a.footprint.intersection(b.footprint).area > 1e-6:
                hits.setdefault(a.index, []).append(label(b))
                hits.setdefault(b.index, []).append(label(a))
    out = {k: "overlaps " + ", ".join(v) for k, v in hits.items()}
    for a in bld:
        if ground is not None and a.footprint.difference(ground).area > 1e-6:
            out[a.index] = (out[a.index] + "; " if a.index in out else "") + "off the pavement"
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_overlaps_from_the_tree_equal_every_pair_tested(seed):
    lay, sheets = neighbourhood(seed=seed, blocks=2)
    rng = random.Random(seed)
    pl = list(lay.placements)
    for _ in range(6):  # shove a few onto their neighbours, one off the pavement
        i = rng.randrange(len(pl))
        pl[i] = replace(pl[i], at=(pl[i].at[0] + rng.choice((2, 5, 9, -4)), pl[i].at[1]
                                   + rng.choice((0, 1, -3))))
    pl[0] = replace(pl[0], at=(-3, pl[0].at[1]))
    # pairs whose order tells the two ways of listing apart: (1, 6) before (2, 3), and a
    # placement with partners on both sides
    pl[6] = replace(pl[6], at=pl[1].at)
    pl[3] = replace(pl[3], at=(pl[2].at[0] + 1, pl[2].at[1]))
    pl[5] = replace(pl[5], at=(pl[1].at[0] + 1, pl[1].at[1]))
    lay = replace(lay, placements=tuple(pl))
    resolved = resolve_placements(lay, sheets)
    got, want = placement_problems(resolved), _pairwise(resolved)
    assert got == want and list(got) == list(want)
    assert sum("overlaps" in v for v in got.values()) >= 2 and any(
        "off the pavement" in v for v in got.values())
    # touching edges only: no finding
    assert placement_problems(resolve_placements(neighbourhood(seed=seed, blocks=2)[0],
                                                 sheets)) == {}
