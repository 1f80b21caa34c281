"""The sr1 odds count the boxes of every (attack, resistance) pair of successes without making
the :class:`Staged` record (``_staged_boxes``): the same boxes as :func:`stage` for every code
level, staging, success counts and with or without staging up; and a damage code read once per
text is the same code."""

from __future__ import annotations

import engine.rules.sr1_combat as c


def test_staged_boxes_as_stage():
    seen = set()
    for level in c.LEVELS:
        for staging in (1, 2, 3, 4):
            code = c.DamageCode(6, level, staging)
            for a in range(0, 12):
                for r in range(-1, 12):
                    for up in (True, False):
                        want = c.stage(code, a, r, up).boxes
                        assert c._staged_boxes(code, a, r, up) == want, (level, staging, a, r, up)
                        seen.add(want)
    assert seen == {0, 1, 3, 6, 10}


def _expected_boxes_plain(code, attack_pool, attack_tn, resist_pool, auto=0, stage_up=True,
                          hit_needed=True):
    """``expected_boxes`` as it was before ``_staged_boxes`` was inlined in its loop."""
    resist = c.distribution(resist_pool, code.power)
    if hit_needed:
        att = c.distribution(attack_pool, attack_tn)
        p_hit = 1 - att[0]
    else:
        att, p_hit = (0.0, 1.0), 1.0
    exp = 0.0
    for a, pa in enumerate(att):
        if a == 0 and hit_needed:
            continue
        for r, pr in enumerate(resist):
            exp += pa * pr * c._staged_boxes(code, a, r + auto, stage_up)
    return p_hit, exp


def test_expected_boxes_inlined_staging_same_floats():
    """The odds with the staging inlined are the plain loop's, compared with ``==`` (a level
    staged once too often or too little, or a box count off, would differ here)."""
    n = some = 0
    for level in c.LEVELS:
        for staging in (1, 2, 3, 5):
            for power in (2, 4, 7):
                code = c.DamageCode(power, level, staging)
                for pool, tn, resist, auto in ((0, 4, 3, 0), (1, 2, 0, 0), (3, 4, 2, 1),
                                               (6, 5, 4, 0), (8, 3, 6, 2), (5, 7, 1, 9)):
                    for up in (True, False):
                        for needed in (True, False):
                            c.expected_boxes.cache_clear()
                            got = c.expected_boxes(code, pool, tn, resist, auto, up, needed)
                            want = _expected_boxes_plain(code, pool, tn, resist, auto, up,
                                                         needed)
                            assert got == want, (code, pool, tn, resist, auto, up, needed)
                            n += 1
                            some += got[1] > 0
    assert n == 4 * 4 * 3 * 6 * 2 * 2 and some > n // 2


def test_parse_code_kept_is_the_same_code():
    assert c.parse_code("(STR+2)L2", 4) == c.DamageCode(6, "L", 2, False)
    assert c.parse_code("(STR+2)L2", 5).power == 7
    assert c.parse_code("4M4 Stun") == c.DamageCode(4, "M", 4, True)
    assert c.parse_code("4M4 Stun") is c.parse_code("4M4 Stun")
