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


def test_ranged_odds_summed_by_numpy_as_the_loops_sum():
    """``ranged_odds`` adds its terms with numpy's ``cumsum`` (one after the other, in the
    loops' order): bit for bit the loops' floats over big pools too (a pairwise sum, a term
    left out or out of order would differ in the last bits somewhere here)."""
    n = 0
    for dice, tn, body, pool, resist, level in itertools.product(
            (2, 5, 8, 12, 16), (2, 3, 5, 7, 10), (2, 4, 8, 12), (0, 1, 4, 9), (2, 3, 5, 9),
            C.LEVELS):
        for clean in (True, False):
            got = C.ranged_odds.__wrapped__(dice, tn, body, pool, resist, level, clean)
            assert got == _reference(dice, tn, body, pool, resist, level, clean), \
                (dice, tn, body, pool, resist, level, clean)
            assert all(type(x) is float for x in got)
            n += 1
    assert n == 5 * 5 * 4 * 4 * 4 * 4 * 2


def test_odds_terms_in_the_loops_order():
    """The kept terms are the loops' (a, then c, then b), none left out, none added."""
    a, b, c, boxes = C._odds_terms(5, 4, 3, 1, True)
    want = [(x, y, z) for x in range(1, 5) for z in range(3) if z <= x for y in range(4)
            if 1 + C.staging(x - y - z) >= 0]
    assert list(zip(a.tolist(), b.tolist(), c.tolist(), strict=True)) == want
    assert boxes.tolist() == [C.BOXES[C.stage_level("M", C.staging(x - y - z))]
                              for x, y, z in want]
    assert len(C._odds_terms(1, 3, 3, 0, True)[0]) == 0


def test_ranged_odds_book_shape():
    """More dice or a lower TN never make a hit less likely; Deadly is worth the most."""
    C.ranged_odds.cache_clear()
    assert C.ranged_odds(6, 4, 3, 0, 4, "M")[0] > C.ranged_odds(3, 4, 3, 0, 4, "M")[0]
    assert C.ranged_odds(6, 4, 3, 0, 4, "D")[1] > C.ranged_odds(6, 4, 3, 0, 4, "L")[1]
    assert C.ranged_odds(0, 4, 3, 0, 4, "D") == (0.0, 0.0)


def test_kept_situation_tns_are_ranged_tn_and_not_shared():
    """sr3_game keeps each shot situation's TN (``_ranged_tn``): the very figures of
    ``ranged_tn``, modifiers in the same order, for every mix of situation a shot meets,
    asked first and asked again from the kept answers."""
    from engine.play.sr3_game import _ranged_tn

    _ranged_tn.cache_clear()
    n = 0
    for band, cover, pace, tpace, melee, recoil, wounds, blind, called, aimed, aid, metres in \
            itertools.product(("short", "medium", "long"), (0, 4), ("still", "walk", "run"),
                              ("still", "walk", "run"), (0, 2), (0, 3), (0, 2),
                              (False, True), (False, True), (0, 1), (None, "laser"),
                              (20.0, 60.0)):
        sit = C.Situation(attacker_pace=pace, target_running=tpace == "run",
                          target_stationary=tpace == "still", melee_opponents=melee,
                          other_targets=1, aid=aid, range_m=metres, smoke=False,
                          recoil=recoil, wounds=wounds, blind_fire=blind, called=called,
                          aimed=aimed)
        want = C.ranged_tn(band, cover, sit)
        args = (band, cover, pace, tpace, melee, 1, aid, metres, False, recoil, wounds, blind,
                called, aimed)
        got = _ranged_tn(*args)
        assert got == want and list(got[1]) == list(want[1])  # (the modifiers' order too)
        assert _ranged_tn(*args) == want
        n += 1
    assert n == 3 * 2 * 3 * 3 * 2 * 2 * 2 * 2 * 2 * 2 * 2 * 2
