"""Range as each book measures it, reported by `los --json` as range_m."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.los import LosFacts
from engine.rules import get_ruleset
from engine.rules.sr3 import range_band

ROOT = Path(__file__).resolve().parents[2]


def facts(a, b, span, stories=0):
    rng = max(abs(a[0] - b[0]), abs(a[1] - b[1]))
    return LosFacts(a, b, rng, False, None, [], [], stories, False, 0, span=span)


@pytest.mark.parametrize("ruleset,metres", [
    ("dmz1990", 22.0),  # 11 dots, two metres each (seed 000 l.376)
    ("sr3", 33.76),  # straight line: hypot(2 x 13.6 m, 4 x 5 stories) (seed 001 l.379)
    ("sr1", 33.76),
    ("darkcon", 40.0),  # 15 squares flat (3 + 8 diagonals, every other doubled) and 10 up
])
def test_los_json_reports_range_m_by_the_book(tmp_path, capsys, ruleset, metres):
    text = (ROOT / "scenarios" / "street-ambush.yaml").read_text()
    path = tmp_path / "s.yaml"
    path.write_text(text.replace("ruleset: dmz1990", f"ruleset: {ruleset}", 1))
    main(["los", str(path), "20,6,5", "31,14", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert (out["range"], out["range_m"]) == (11, metres)


def test_band_edges_are_not_rounded():
    # a heavy pistol's short band is 0-5 m (seed 001 weapon range table): 5 m is short, a
    # diagonal 2 x 2.83 = 5.66 m is already medium; the upper bound is inclusive
    sr3 = get_ruleset("sr3")
    straight = sr3.range_m(facts((0, 0, 0), (2, 0, 0), 2.0)) + 1.0
    assert straight == 5.0 and range_band("heavy-pistol", straight) == "short"
    diag = sr3.range_m(facts((0, 0, 0), (2, 2, 0), 2 * 2 ** 0.5))
    assert diag == 5.66 and range_band("heavy-pistol", diag) == "medium"
    # height counts: one story up and one dot across is hypot(2, 4) = 4.47 m
    assert sr3.range_m(facts((0, 0, 1), (1, 0, 0), 1.0, stories=1)) == 4.47


def test_darkcon_range_counts_every_other_diagonal_double():
    dc = get_ruleset("darkcon")
    assert dc.range_m(facts((0, 0, 0), (3, 3, 0), 3 * 2 ** 0.5)) == 8.0  # 1 + 2 + 1 squares
    assert dc.range_m(facts((0, 0, 0), (5, 0, 0), 5.0)) == 10.0
