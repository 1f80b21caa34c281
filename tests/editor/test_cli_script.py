"""The ``sprawlmap`` console script (editor.cli:script) prints what main prints and exits with
its code, for a one-shot command (ended by engine.cli.exit_now) and for bad input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "scenarios" / "street-ambush.yaml"


def _script(*args: str) -> subprocess.CompletedProcess:
    code = "from editor.cli import script; script()"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True,
                          text=True)


def test_script_validates_and_exits_with_main_code():
    run = _script("validate", str(SAMPLE))
    assert run.returncode == 0
    assert run.stdout.splitlines()[-1] == f"{SAMPLE}: 0 error(s), 1 warning(s)"
    again = subprocess.run([sys.executable, "-m", "engine.cli", "validate", str(SAMPLE)],
                           cwd=ROOT, capture_output=True, text=True)
    assert run.stdout == again.stdout and run.stderr == again.stderr == ""


def test_script_bad_input_is_one_line_exit_2(tmp_path):
    run = _script("validate", str(tmp_path / "missing.yaml"))
    assert run.returncode == 2
    assert run.stdout == ""
    assert len(run.stderr.strip().splitlines()) == 1 and "missing.yaml" in run.stderr
