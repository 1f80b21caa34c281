"""Exposure and tempo agree with the single questions they are built from, and the CLI's
``analyse`` keeps its contract (JSON shape, null where there is no answer, one-line errors)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from engine.analysis.exposure import enemy_sources, exposure
from engine.analysis.tempo import lead, tempo
from engine.cli import main
from engine.movement import cheapest_path
from engine.scenario_checks import deployment_dots
from engine.sight import sight
from tests.analysis.mirrored import mirrored_scenario

SAMPLE = "scenarios/street-ambush.yaml"


@pytest.fixture(scope="module")
def mirrored():
    return mirrored_scenario()


def test_exposure_counts_the_single_queries(mirrored):
    sc, board = mirrored
    ex = exposure(board, sc, "west", level=0)
    src = enemy_sources(board, sc, "west")
    for dot in [(10, 15, 0), (24, 10, 0), (2, 25, 0), (30, 27, 0), (40, 1, 0)]:
        lines = [sight(board, tuple(int(v) for v in s), dot, ruleset=sc.ruleset) for s in src
                 if tuple(int(v) for v in s) != dot]
        seeing = [v for v in lines if not v.blocked]
        expect = len(seeing) + (1 if any((s == dot).all() for s in src) else 0)
        got = ex.value_at(dot)
        assert (got or 0) == expect, dot
        if seeing:
            i = int(np.nonzero((ex.dots == dot).all(axis=1))[0][0])
            assert ex.extra["cover"][i] == min(v.mods["cover"] for v in seeing)


def test_tempo_is_the_cheapest_path_in_turns(mirrored):
    sc, board = mirrored
    tm = tempo(board, sc, "west")
    zone = deployment_dots(board, sc.sides[0].deployment)
    for dot in [(24, 25, 0), (47, 0, 0), (10, 5, 3)]:
        for mr, col in ((2, tm.values), (3, tm.extra["slowest"])):
            best = min(cheapest_path(board, tuple(int(v) for v in z), dot, mr).cost for z in zone)
            i = int(np.nonzero((tm.dots == dot).all(axis=1))[0][0])
            assert col[i] == math.ceil(best / 12), (dot, mr)
    assert tm.value_at((1, 22, 0)) == 0  # in the zone


def test_lead_is_zero_on_the_mirror_axis_and_opposite_across_it(mirrored):
    sc, board = mirrored
    lw, le = lead(board, sc, "west", 0), lead(board, sc, "east", 0)
    assert lw.value_at((23, 25, 0)) == -le.value_at((23, 25, 0))
    assert lw.value_at((2, 25, 0)) > 0 and le.value_at((2, 25, 0)) < 0


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_analyse_json_shape(capsys):
    code, out, _ = run(capsys, "analyse", SAMPLE, "--side", "runners", "--map", "tempo",
                       "--level", "5", "--json")
    d = json.loads(out)
    assert code == 0 and d["side"] == "runners" and d["map"] == "tempo" and d["level"] == 5
    assert all(len(e) == 4 and e[2] == 5 for e in d["dots"])
    assert [20, 6, 5, 0] in d["dots"]  # on the roof where they set up
    assert len(d["slowest"]) == len(d["dots"]) and d["move_ratio"] == {"fastest": 2, "slowest": 3}
    code, out, _ = run(capsys, "analyse", SAMPLE, "--side", "runners", "--map", "exposure",
                       "--level", "3", "--json")
    d = json.loads(out)
    values = [e[3] for e in d["dots"]]
    assert None in values  # unseen dots carry null
    # the escort sets up on the 12 x 4 dots of the warehouse loading bay
    assert d["sources"] == 48 and len(d["cover"]) == len(values)


def test_analyse_png_and_bad_input(capsys, tmp_path):
    out_png = tmp_path / "tempo.png"
    code, out, _ = run(capsys, "analyse", SAMPLE, "--side", "corp", "--map", "lead",
                       "--level", "0", "-o", str(out_png))
    assert code == 0 and out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, _, err = run(capsys, "analyse", SAMPLE, "--side", "nobody", "--map", "tempo")
    assert code == 2 and "no side 'nobody'" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "analyse", SAMPLE, "--side", "corp", "--map", "tempo",
                       "--level", "9")
    assert code == 2 and "no level 9" in err
    assert not list(tmp_path.glob("*.tmp"))
