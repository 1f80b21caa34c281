"""CLI arguments are checked before any compile; every refusal is one line, exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from robust_helpers import ROOT, SAMPLE, one_line_refusal


@pytest.mark.parametrize("args, phrase", [
    (("los", SAMPLE, "3,x", "5,6"), "A '3,x' is not c,r or c,r,l"),
    (("los", SAMPLE, "3,4", "5,6,7,8"), "B '5,6,7,8' is not c,r or c,r,l"),
    (("path", SAMPLE, "3,4", "", "--move-ratio", "2"), "B '' is not c,r or c,r,l"),
    (("reach", SAMPLE, "3;4", "--move-ratio", "2"), "A '3;4' is not c,r or c,r,l"),
    (("path", SAMPLE, "3,4", "5,6", "--move-ratio", "1e30"), "--move-ratio must be a whole number from 1 to"),
    (("path", SAMPLE, "3,4", "5,6", "--move-ratio", "1" + "0" * 30), "--move-ratio must be a whole number from 1 to"),
    (("path", SAMPLE, "3,4", "5,6", "--move-ratio", "nan"), "--move-ratio must be a whole number"),
    (("reach", SAMPLE, "3,4", "--move-ratio", "2", "--mp", "1e30"), "--mp must be a whole number from 0 to"),
    (("reach", SAMPLE, "3,4", "--move-ratio", "2", "--mp", "-1"), "--mp must be a whole number from 0 to"),
    (("reach", SAMPLE, "3,4", "--metres", "nan"), "--metres must be a number from 0 to"),
    (("reach", SAMPLE, "3,4", "--rate", "1e300"), "--rate must be a number from 0 to"),
    (("play", SAMPLE, "--bots", "1e30"), "--bots must be a whole number from 1 to"),
    (("play", SAMPLE, "--bots", "100000000"), "SPRAWLMAP_MAX_GAMES"),
    (("play", SAMPLE, "--bots", "0"), "--bots must be a whole number from 1 to"),
    (("play", SAMPLE, "--seed", "1e99"), "--seed must be a whole number"),
    (("export", SAMPLE, "--format", "png", "-o", "x.png", "--dot-mm", "1e-6"), "--dot-mm must be"),
    (("export", SAMPLE, "--format", "pdf", "-o", "x.pdf", "--dot-mm", "1000000"), "--dot-mm must be"),
    (("export", SAMPLE, "--format", "pdf", "-o", "x.pdf", "--dot-mm", "nan"), "--dot-mm must be"),
    (("export", SAMPLE, "--format", "pdf", "-o", "x.pdf", "--dot-mm", "inf"), "--dot-mm must be"),
    (("los", SAMPLE, "3,4", "5,6", "--weapon", ""), "--weapon must name a weapon"),
    (("los", SAMPLE, "3,4", "5,6", "--weapon", "  "), "--weapon must name a weapon"),
])
def test_bad_arguments_refused_before_compile(cli, no_compile, args, phrase):
    code, out, err = cli(*args)
    one_line_refusal(code, err, phrase)
    assert out == ""


@pytest.mark.parametrize("dots, phrase", [
    (("-3,4", "5,6"), "A -3,4 is off the board"),
    (("5,6", "-3,-4"), "B -3,-4 is off the board"),
    (("1000000,1000000", "5,6"), "A 1000000,1000000 is off the board"),
    (("5,6,99", "5,7"), "A 5,6,99 is off the board"),
])
def test_dots_off_the_board_are_refused(cli, dots, phrase):
    code, out, err = cli("los", SAMPLE, *dots)
    one_line_refusal(code, err, phrase, "columns 0..47, rows 0..63, levels 0..5")


def test_negative_dot_is_a_dot_not_an_option(cli, tmp_path):
    """A layout whose pavement starts at column -10: `los FILE -3,4 5,6` answers."""
    doc = tmp_path / "west.yaml"
    doc.write_text("format: sprawlmap/layout@1\ntitle: west\nlayout:\n"
                   "  pavement: [{sheet: pavement-downtown, at: [-10, 0]}]\n")
    code, out, err = cli("los", doc, "-3,4", "5,6", "--json")
    assert code == 0, err
    assert '"range": 8' in out
    code, out, err = cli("path", doc, "-3,4", "-5,6", "--move-ratio", "2", "--json")
    assert code == 0, err
    assert '"cost": 4' in out


def test_fifo_as_file_is_refused_without_hanging(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    run = subprocess.run([sys.executable, "-m", "engine.cli", "validate", str(fifo)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    one_line_refusal(run.returncode, run.stderr, f"{fifo}: is a FIFO (named pipe), not a regular file")


def test_device_as_file_is_refused(cli):
    code, out, err = cli("validate", "/dev/zero")
    one_line_refusal(code, err, "/dev/zero: is a device node, not a regular file")


def test_fifo_beside_the_document_is_passed_over_without_hanging(tmp_path):
    """The library scans the document's folder for sheets: a FIFO named like one is not a
    mapsheet (reading it would wait for a writer for ever)."""
    scenario = tmp_path / "street.yaml"
    scenario.write_text(Path(SAMPLE).read_text(encoding="utf-8"), encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.yaml")
    run = subprocess.run([sys.executable, "-m", "engine.cli", "validate", str(scenario)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == f"{scenario}: 0 error(s), 1 warning(s)"


def test_oversized_sheet_in_the_folder_is_named_too_large(tmp_path, monkeypatch):
    """A mapsheet too large to read is still known by its format line: asking for its id says
    why it cannot be used, rather than that no such sheet exists."""
    from engine import library
    from engine.errors import LoadError
    from engine.io import reader

    monkeypatch.setattr(reader, "MAX_BYTES", 200)
    big = tmp_path / "big.yaml"
    big.write_text("format: sprawlmap/mapsheet@1\nid: big\n" + "# padding\n" * 40, encoding="utf-8")
    source = library.Source("document", tmp_path)
    entries = library._scan(source)
    assert [(e.path, e.id) for e in entries] == [(big, "")]
    with pytest.raises(LoadError, match="file is too large"):
        library.sheet_at(big)
