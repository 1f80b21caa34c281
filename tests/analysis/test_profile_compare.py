"""The side view puts the engine's facts where they are along the line; the ruleset table reads
the same facts under every book."""

from __future__ import annotations

import json

import pytest

from engine.analysis.compare import RULESETS, compare
from engine.analysis.profile import profile
from engine.cli import main
from engine.io import load_board
from engine.sight import sight

SAMPLE = "scenarios/street-ambush.yaml"


@pytest.fixture(scope="module")
def sample():
    return load_board(SAMPLE)


def test_profile_of_a_line_through_the_store(sample):
    _sc, board = sample
    p = profile(board, (5, 20, 0), (40, 14, 0))
    assert not p.facts.blocked and p.range == 35
    assert [m.kind for m in p.marks] == ["low-wall", "door", "door"]
    assert [m.s for m in p.marks] == sorted(m.s for m in p.marks)  # in order along the line
    assert [(k.placement, k.height, k.end) for k in p.blocks] == [("store", 1, "B")]
    assert p.blocks[0].s1 == 1.0 and p.marks[1].s == pytest.approx(p.blocks[0].s0)


def test_profile_marks_the_blocking_point_under_the_roof_line(sample):
    _sc, board = sample
    p = profile(board, (40, 20, 0), (5, 3, 1))
    assert p.facts.blocked and p.blocked_at.kind == "building"
    office = [k for k in p.blocks if k.placement == "office"][0]
    assert p.blocked_at.s == pytest.approx(office.s0, abs=1e-3)  # where the line meets the footprint
    assert p.level_at(p.blocked_at.s) < office.height
    dz = profile(board, (20, 6, 5), (30, 9, 0))
    assert dz.blocked_at.kind == "dead-zone" and dz.blocked_at.s == 1.0


def test_every_ruleset_reads_the_same_line(sample):
    _sc, board = sample
    t = compare(board, (5, 20, 0), (40, 14, 0))
    cols = t["rulesets"]
    assert list(cols) == list(RULESETS)
    assert cols["dmz1990"]["range"] == "35 dots" and cols["dmz1990"]["cover"] == 3  # seed 000
    for name in RULESETS:  # each column is that ruleset's one sight verdict
        v = sight(board, (5, 20, 0), (40, 14, 0), ruleset=name)
        assert cols[name]["verdict"] == v.result
        if name != "dmz1990":
            assert cols[name]["range"] == f"{v.range_m:g} m"
    blocked = compare(board, (20, 6, 5), (30, 9, 0))
    assert all(c["verdict"] == "blocked" and c.get("total") is None
               for c in blocked["rulesets"].values())


def test_los_cli_profile_and_all_rulesets(capsys, tmp_path):
    png = tmp_path / "side.png"
    code = main(["los", SAMPLE, "40,20", "5,3,1", "--profile", str(png)])
    out, _ = capsys.readouterr()
    assert code == 1 and "BLOCKED" in out and png.read_bytes()[:4] == b"\x89PNG"
    code = main(["los", SAMPLE, "5,20", "40,14", "--all-rulesets", "--json"])
    d = json.loads(capsys.readouterr()[0])
    assert code == 0 and set(d["rulesets"]) == set(RULESETS) and d["cover"] == 3
    code = main(["los", SAMPLE, "5,20", "40,14", "--all-rulesets"])
    out = capsys.readouterr()[0]
    assert code == 0 and out.splitlines()[1].split() == list(RULESETS)
