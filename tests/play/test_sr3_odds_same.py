"""sr3 ranged odds with the staging worked out inline (issue 12, speed) are the very numbers
the loop over ``stage_level`` gave: the old loop is kept here and both are asked every pool,
TN, Body, Combat Pool and Damage Level a game meets, compared with ``==``."""

from __future__ import annotations

import itertools

from engine.rules import sr3_combat as C


def _reference(attack_dice, tn, body, pool, resist, level, clean_miss=True):
    pa, pb, pc = C.binomial(attack_dice, tn), C.binomial(body, resist), C.binomial(pool, resist)
    hit = exp = 0.0
    for a, qa in enumerate(pa):
        if a == 0 or qa == 0.0:
            continue
        for c, qc in enumerate(pc):
            if clean_miss and c > a:
                break
            for b, qb in enumerate(pb):
                lv = C.stage_level(level, C.staging(a - b - c))
                if lv is not None:
                    q = qa * qb * qc
                    hit += q
                    exp += q * C.BOXES[lv]
    return hit, exp


def test_ranged_odds_as_the_staging_loop_gave():
    n = hits = 0
    for dice, tn, body, pool, resist, level, clean in itertools.product(
            (0, 1, 3, 6, 9), (2, 4, 6, 8, 13), (1, 3, 6), (0, 2, 5), (2, 4, 7), C.LEVELS,
            (True, False)):
        C.ranged_odds.cache_clear()
        got = C.ranged_odds(dice, tn, body, pool, resist, level, clean)
        want = _reference(dice, tn, body, pool, resist, level, clean)
        assert got == want, (dice, tn, body, pool, resist, level, clean)
        n += 1
        hits += got[0] > 0
    assert n == 5 * 5 * 3 * 3 * 3 * 4 * 2 and hits > n // 2


def test_ranged_odds_book_shape():
    """More dice or a lower TN never make a hit less likely; Deadly is worth the most."""
    C.ranged_odds.cache_clear()
    assert C.ranged_odds(6, 4, 3, 0, 4, "M")[0] > C.ranged_odds(3, 4, 3, 0, 4, "M")[0]
    assert C.ranged_odds(6, 4, 3, 0, 4, "D")[1] > C.ranged_odds(6, 4, 3, 0, 4, "L")[1]
    assert C.ranged_odds(0, 4, 3, 0, 4, "D") == (0.0, 0.0)
