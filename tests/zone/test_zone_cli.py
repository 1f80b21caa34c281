"""``sprawlmap zone ...`` and ``validate ZONE`` per SPEC-zone section 4: JSON shapes, exit codes."""

from __future__ import annotations

import json

import pytest

from engine.cli import main
from engine.io import load_board
from engine.zone.io import load_zone
from tests.zone.helpers import RIVER1, RIVER2, write


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_show_text_and_json(capsys):
    code, out, _ = run(capsys, "zone", "show", RIVER1)
    assert code == 0
    assert " 1 | .  | .  | ~~ | ~~ |" in out and " 0 | .A | .A | .A | .A |" in out
    code, out, _ = run(capsys, "zone", "show", RIVER1, "--json")
    d = json.loads(out)
    assert d["grid"] == [4, 4] and d["river_blocks"] == [[0, 2], [1, 2], [2, 1], [3, 1]]
    assert d["entries"]["B"] == [[0, 3], [1, 3], [2, 3], [3, 3]]


def test_adjacent_json(capsys):
    code, out, _ = run(capsys, "zone", "adjacent", RIVER1, "2,2", "--json")
    d = json.loads(out)
    assert code == 0 and d["block"] == [2, 2]
    assert d["neighbours"] == [
        {"block": [2, 1], "side": "north", "river": True, "barrier": None},
        {"block": [3, 2], "side": "east", "river": False, "barrier": None},
        {"block": [2, 3], "side": "south", "river": False, "barrier": None},
        {"block": [1, 2], "side": "west", "river": True, "barrier": None},
    ]


def test_path_exit_codes_and_barrier_detour(capsys, tmp_path):
    code, out, _ = run(capsys, "zone", "path", RIVER1, "A", "B", "--json")
    d = json.loads(out)
    assert code == 1 and d["reachable"] is False and d["blocks"] == [] and "River" in d["why"]
    code, out, _ = run(capsys, "zone", "path", RIVER1, "A", "B", "--vehicle", "--json")
    assert code == 0 and json.loads(out)["moves"] == 4
    code, out, _ = run(capsys, "zone", "path", RIVER2, "A", "B", "--json")
    assert code == 0 and json.loads(out)["moves"] == 4
    zp = write(tmp_path, "grid: [4, 4]\nbarriers:\n  - {between: [[0, 1], [1, 1]], body: 6}\n")
    code, out, _ = run(capsys, "zone", "path", zp, "0,1", "1,1", "--json")
    d = json.loads(out)
    assert code == 0 and d["moves"] == 3 and d["blocks"][0] == [0, 1] and d["blocks"][-1] == [1, 1]


def test_roll_is_seeded_and_returns_the_new_zone(capsys):
    args = ("zone", "roll", RIVER1, "--landslide", "--seed", "7", "--turns", "3", "--json")
    code, out, _ = run(capsys, *args)
    again = run(capsys, *args)[1]
    d = json.loads(out)
    assert code == 0 and out == again
    assert [r["turn"] for r in d["rolls"]] == [1, 2, 3] and all(r["table"] == "landslide" for r in d["rolls"])
    assert d["zone"]["grid"] == [4, 4]
    code, out, _ = run(capsys, "zone", "roll", RIVER1, "--growth", "--seed", "1", "--turns", "12", "--json")
    d = json.loads(out)
    grew = [r for r in d["rolls"] if r["result"]["grew"]]
    assert grew and all(r["dice"][0] >= 5 for r in grew)
    assert d["zone"]["grid"] == grew[-1]["result"]["grid"]


def test_compose_and_block_write_loadable_files(capsys, tmp_path):
    out = tmp_path / "composed.yaml"
    code, text, _ = run(capsys, "zone", "compose", RIVER2, "-o", out)
    assert code == 0 and "4 River block(s) of water" in text
    _sc, board = load_board(out)
    assert board.bounds == (-0.5, -0.5, 95.5, 63.5)
    code, _, _ = run(capsys, "los", out, "40,1", "56,1", "--json")
    assert code == 0
    fight = tmp_path / "fight.yaml"
    code, text, _ = run(capsys, "zone", "block", RIVER2, "1,1", "-o", fight)
    assert code == 0 and "north" in text and "west" in text
    code, _, _ = run(capsys, "validate", fight)
    assert code == 0


def test_validate_accepts_zones(capsys, tmp_path):
    code, out, _ = run(capsys, "validate", RIVER1, "--json")
    d = json.loads(out)
    assert code == 0 and d["ok"] and [f["code"] for f in d["findings"]] == ["river-separates-players"]
    assert d["findings"][0]["where"]["blocks"] == [[0, 2], [1, 2], [2, 1], [3, 1]]
    bad = write(tmp_path, "grid: [4, 4]\nbarriers:\n  - {between: [[0, 0], [1, 1]], body: 2}\n")
    code, out, _ = run(capsys, "validate", bad)
    assert code == 1 and "[barrier-not-adjacent]" in out and "at 0,0 1,1" in out


def test_bad_input_is_one_line_exit_2(capsys, tmp_path):
    bad = write(tmp_path, "grid: [4, 4]\nriver: {preset: 9}\n")
    for args in (("zone", "show", bad), ("validate", bad)):
        code, out, err = run(capsys, *args)
        assert code == 2 and err.count("\n") == 1 and f"{bad}:4:" in err and "Traceback" not in err
    code, _, err = run(capsys, "zone", "adjacent", RIVER1, "9,9")
    assert code == 2 and "not a block of this zone" in err
    code, _, err = run(capsys, "zone", "path", RIVER1, "A", "Z")
    assert code == 2 and "neither a block" in err
    code, _, err = run(capsys, "zone", "block", RIVER1, "0,0", "-o", tmp_path / "x.yaml")
    assert code == 2 and "no linked layout" in err and not (tmp_path / "x.yaml").exists()
    with pytest.raises(SystemExit) as e:
        main(["zone", "roll", str(RIVER1), "--seed", "1"])  # argparse: neither table named
    assert e.value.code == 2 and "--landslide --growth" in capsys.readouterr().err
    assert load_zone(RIVER1).grid == (4, 4)


def test_a_copied_sample_zone_still_finds_its_bundled_blocks(capsys, tmp_path):
    out = tmp_path / "mine.yaml"
    assert run(capsys, "library", "sample", "river-2", out)[0] == 0
    code, text, _ = run(capsys, "validate", out)
    assert code == 0 and "block-layout-unloadable" not in text
    code, text, _ = run(capsys, "zone", "compose", out, "-o", tmp_path / "west.yaml")
    assert code == 0 and "4 pavement sheet(s)" in text
