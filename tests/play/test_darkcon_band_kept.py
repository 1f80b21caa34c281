"""The range band a Dark Conspiracy shot is priced at, kept per (short range, metres), is the
rules' own ``range_band`` of the weapon's figure."""

from __future__ import annotations

import pytest

from engine.play.darkcon_game import _band
from engine.rules import darkcon as R


def test_kept_bands_are_the_rules_bands():
    _band.cache_clear()
    asked = 0
    for _round in range(2):  # the second round answers from what the first kept
        for short in (1, 3, 5, 10, 15, 40, 75):
            for tenth in range(0, 3300, 7):
                metres = tenth / 10
                assert _band(short, metres) == R.range_band(str(short), metres)
                asked += 1
    assert _band.cache_info().hits >= asked // 2
    bands = {_band(10, m / 2) for m in range(200)}
    assert bands == {"short", "medium", "long", "extreme", "out-of-range"}
    with pytest.raises(ValueError):
        _band(0, 5.0)  # no printed range: the rules' own error, every time
