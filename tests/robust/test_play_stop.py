"""`play` refuses what `validate` rejects (unless --force), and SIGTERM or Ctrl-C stop every
worker process with one line and no traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from robust_helpers import ROOT, SAMPLE


def broken(tmp_path: Path) -> str:
    # the runners' case only (the escort's objective names the same dot and exit)
    text = Path(SAMPLE).read_text().replace("at: [17, 25, 0], then: exit-west",
                                            "at: [17, 25, 3], then: exit-west", 1)
    p = tmp_path / "broken.yaml"
    p.write_text(text)
    return str(p)


def test_play_refuses_a_scenario_validate_rejects(cli, tmp_path):
    f = broken(tmp_path)
    code, out, err = cli("play", f, "--bots", "1")
    assert code == 1 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"sprawlmap: {f}: play refused: validation found 1 error(s), "
                               "first [objective-not-standable]")
    assert "--force plays anyway" in lines[0]


def test_force_plays_it_anyway(cli, tmp_path, monkeypatch):
    from engine.play import headless

    played = []
    monkeypatch.setattr(headless, "run_cli", lambda sc, board, bots, seed, js, **kw: played.append(bots) or 0)
    code, out, err = cli("play", broken(tmp_path), "--bots", "3", "--force")
    assert code == 0 and played == [3]


def children(pid: int) -> set[int]:
    out = set()
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = Path(f"/proc/{d}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.add(int(d))
    return out


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def start_play() -> tuple[subprocess.Popen, set[int]]:
    proc = subprocess.Popen([sys.executable, "-m", "engine.cli", "play", SAMPLE, "--bots", "400"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    workers: set[int] = set()
    while time.monotonic() < deadline and len(workers) < 2:
        time.sleep(0.2)
        workers = children(proc.pid)
        assert proc.poll() is None, proc.communicate()
    assert len(workers) >= 2, "the worker pool did not start"
    time.sleep(1.0)  # let the workers get into their games
    return proc, workers


@pytest.mark.parametrize("how", ["SIGTERM", "Ctrl-C"])
def test_stop_signal_ends_every_worker_without_traceback(how):
    proc, workers = start_play()
    try:
        if how == "SIGTERM":
            proc.send_signal(signal.SIGTERM)
        else:  # the terminal sends SIGINT to the whole foreground process group
            os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:  # never leave a test's processes behind, whatever happened
        for w in workers | {proc.pid}:
            if alive(w):
                os.kill(w, signal.SIGKILL)
    assert proc.returncode == (143 if how == "SIGTERM" else 130), err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    last = [ln for ln in err.splitlines() if ln.strip()][-1]
    assert last.startswith("sprawlmap: play stopped by " + ("SIGTERM" if how == "SIGTERM" else "Ctrl-C"))
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(alive(w) for w in workers):
        time.sleep(0.1)
    assert not any(alive(w) for w in workers)
