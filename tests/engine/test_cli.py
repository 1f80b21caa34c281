"""The CLI contract (SPEC section 6): exit codes, JSON shapes, one-line errors."""

import json

import pytest

from engine.cli import main

SAMPLE = "scenarios/street-ambush.yaml"


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_los_json_shape_and_exit_codes(capsys):
    code, out, _ = run(capsys, "los", SAMPLE, "20,6,5", "31,14", "--json")
    d = json.loads(out)
    assert code == 0
    for key in ("range", "blocked", "blocked_by", "interruptions", "cover", "visibility",
                "elevation_stories", "dead_zone", "modifiers", "target_modifier"):
        assert key in d
    assert d["range"] == 11 and d["elevation_stories"] == 5 and d["modifiers"]["elevation"] == 1
    code, out, _ = run(capsys, "los", SAMPLE, "20,6,5", "30,9", "--json")
    d = json.loads(out)
    assert code == 1 and d["blocked"] and d["dead_zone"] and d["blocked_by"]["kind"] == "dead-zone"


def test_path_and_reach_json(capsys):
    code, out, _ = run(capsys, "path", SAMPLE, "31,14", "33,14", "--move-ratio", "2", "--json")
    d = json.loads(out)
    assert code == 0 and d["reachable"] and d["cost"] == sum(s["cost"] for s in d["steps"])
    assert d["dots"][0] == [31, 14, 0] and d["dots"][-1] == [33, 14, 0]
    code, out, _ = run(capsys, "reach", SAMPLE, "31,14", "--move-ratio", "2", "--mp", "4", "--json")
    d = json.loads(out)
    assert code == 0
    assert {"dot": [31, 14, 0], "cost": 0} in d["dots"]
    assert all(e["cost"] <= 4 for e in d["dots"])


def test_validate_sample_is_clean(capsys):
    code, out, _ = run(capsys, "validate", SAMPLE, "--json")
    d = json.loads(out)
    assert code == 0 and d["ok"] is True
    assert not [f for f in d["findings"] if f["severity"] == "error"]


@pytest.mark.parametrize("args,needle", [
    (["los", "missing.yaml", "1,1", "2,2"], "missing.yaml: no such file"),
    (["los", SAMPLE, "1,x", "2,2"], "is not c,r or c,r,l"),
    (["los", SAMPLE, "0,0,9", "2,2"], "levels 0..5"),
    (["path", SAMPLE, "0,0,4", "2,2", "--move-ratio", "2"], "is not a standable dot"),
    (["path", SAMPLE, "1,1", "2,2", "--move-ratio", "0"], "--move-ratio must be a whole number from 1 to 99"),
    (["reach", SAMPLE, "1,1"], "--move-ratio is required under dmz1990"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, args, needle):
    with pytest.raises(SystemExit) if "required" == needle else _nullctx() as exc:
        code, out, err = run(capsys, *args)
    if needle == "required":
        assert exc.value.code == 2
        err = capsys.readouterr().err
    else:
        assert code == 2
    assert needle in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


class _nullctx:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


def test_broken_file_names_file_and_line(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: sprawlmap/scenario@1\ntitle: x\nlayout:\n  lattice: square\n  pavment: []\n")
    code, _, err = run(capsys, "validate", str(bad))
    assert code == 2
    assert f"{bad}:5: unknown key 'pavment'" in err


def test_validate_names_the_line_of_a_character_missing_ruleset_stats(capsys, tmp_path):
    """Issue 13: validation names what a character lacks for the scenario's ruleset, with
    file and line, in text and JSON."""
    text = open("scenarios/nightclub-raid-sr3.yaml", encoding="utf-8").read()
    lines = text.splitlines()
    at = next(i for i, ln in enumerate(lines) if "name: Angela" in ln)
    nxt = at + 1
    assert "body: 5, " in lines[nxt]
    lines[nxt] = lines[nxt].replace("body: 5, ", "")
    bad = tmp_path / "raid.yaml"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(bad))
    errors = [ln for ln in out.splitlines() if ": error: " in ln]
    assert code == 1 and len(errors) == 1
    assert errors[0].startswith(f"{bad}:{at + 1}: error: [character-ruleset-stats] Angela")
    assert "'body'" in errors[0]
    code, out, _ = run(capsys, "validate", str(bad), "--json")
    (f,) = [f for f in json.loads(out)["findings"] if f["severity"] == "error"]
    assert f["line"] == at + 1 and f["where"]["characters"] == ["angela"]
