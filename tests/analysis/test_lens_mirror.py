"""On a scenario that is its own mirror image, each side's lens is the other side's, mirrored."""

from __future__ import annotations

import numpy as np
import pytest

from engine.analysis.exposure import exposure
from engine.analysis.tempo import tempo
from tests.analysis.mirrored import mirror_dots, mirrored_scenario


@pytest.fixture(scope="module")
def mirrored():
    return mirrored_scenario()


def _as_dict(lens, column=None):
    vals = lens.values if column is None else lens.extra[column]
    return {tuple(d): (None if np.isnan(v) else float(v)) for d, v in zip(lens.dots.tolist(), vals)}


def _mirrored(lens, column=None):
    d = mirror_dots(lens.dots)
    vals = lens.values if column is None else lens.extra[column]
    return {tuple(x): (None if np.isnan(v) else float(v)) for x, v in zip(d.tolist(), vals)}


def test_the_board_itself_is_symmetric(mirrored):
    _sc, board = mirrored
    for lv in board.levels:
        d = {tuple(x) for x in board.dots(lv).tolist()}
        assert {(47 - c, r) for c, r in d} == d


@pytest.mark.parametrize("column", [None, "slowest", "mp"])
def test_tempo_maps_are_mirror_images(mirrored, column):
    sc, board = mirrored
    west, east = tempo(board, sc, "west"), tempo(board, sc, "east")
    assert _as_dict(east, column) == _mirrored(west, column)
    # and the maps say something: the far corner takes turns, the zone is turn 0
    assert west.value_at((0, 25, 0)) == 0
    assert west.value_at((47, 25, 0)) == east.value_at((0, 25, 0))
    assert west.value_at((47, 25, 0)) >= 4


@pytest.mark.parametrize("column", [None, "cover", "open"])
def test_exposure_maps_are_mirror_images(mirrored, column):
    sc, board = mirrored
    west, east = exposure(board, sc, "west"), exposure(board, sc, "east")
    assert west.info["sources"] == east.info["sources"] == 27
    assert _as_dict(east, column) == _mirrored(west, column)
    seen = ~np.isnan(west.values)
    assert 0 < seen.sum() < len(seen)  # some dots are hidden, some seen
