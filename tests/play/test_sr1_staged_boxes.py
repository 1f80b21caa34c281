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


def test_parse_code_kept_is_the_same_code():
    assert c.parse_code("(STR+2)L2", 4) == c.DamageCode(6, "L", 2, False)
    assert c.parse_code("(STR+2)L2", 5).power == 7
    assert c.parse_code("4M4 Stun") == c.DamageCode(4, "M", 4, True)
    assert c.parse_code("4M4 Stun") is c.parse_code("4M4 Stun")
