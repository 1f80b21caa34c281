"""The one-shot command's process: what `_load` freezes for the collector is let go when `main`
ends, and `python -m engine.cli` ends without a teardown but with every byte of its output and
its exit handlers run."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

from engine import cli

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "scenarios" / "street-ambush.yaml"


def test_load_freezes_and_main_lets_go(capsys):
    assert gc.get_freeze_count() == 0
    try:
        cli._load(str(SAMPLE))
        assert gc.get_freeze_count() > 1000  # the imports' and the board's objects
    finally:
        gc.unfreeze()
    assert cli.main(["validate", str(SAMPLE)]) == 0
    assert gc.get_freeze_count() == 0
    capsys.readouterr()


def test_main_lets_go_after_bad_input(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("layout: [\n")
    assert cli.main(["validate", str(bad)]) == 2
    assert gc.get_freeze_count() == 0
    assert "bad.yaml" in capsys.readouterr().err


def test_module_run_prints_what_main_prints(capsys):
    rc = cli.main(["validate", "--json", str(SAMPLE)])
    here = capsys.readouterr().out
    run = subprocess.run([sys.executable, "-m", "engine.cli", "validate", "--json", str(SAMPLE)],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == rc == 0
    assert run.stdout == here and json.loads(run.stdout)["ok"] is True
    assert run.stderr == ""


def test_exit_now_flushes_and_runs_exit_handlers():
    code = ("import atexit, sys\n"
            "from engine.cli import exit_now\n"
            "atexit.register(lambda: print('handler ran'))\n"
            "sys.stdout.write('x' * 100000)\n"  # more than a pipe holds, unflushed
            "sys.stderr.write('no newline')\n"
            "exit_now(3)\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 3
    assert run.stdout == "x" * 100000 + "handler ran\n"
    assert run.stderr == "no newline"


def test_exit_now_leaves_a_qt_process_to_its_usual_end():
    code = ("import atexit, sys, types\n"
            "sys.modules['PySide6'] = types.ModuleType('PySide6')\n"  # as if Qt were loaded
            "from engine.cli import exit_now\n"
            "atexit.register(lambda: print('handler ran'))\n"
            "try:\n"
            "    exit_now(4)\n"
            "except SystemExit as done:\n"
            "    print('usual end', done.code)\n"
            "    raise\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 4
    assert run.stdout == "usual end 4\nhandler ran\n"


def test_play_leaves_the_heap_to_its_games(monkeypatch, capsys):
    """``play`` loads without freezing: its serial games settle the heap themselves
    (engine.play.heap.games_heap skips that under a caller's freeze)."""
    from engine.play import heap

    settled = []
    real = heap.settle
    monkeypatch.setattr(heap, "settle", lambda: (settled.append(gc.get_freeze_count()), real()))
    assert cli.main(["play", str(SAMPLE), "--bots", "1", "--seed", "1"]) == 0
    assert settled == [0]
    assert gc.get_freeze_count() == 0
    capsys.readouterr()
