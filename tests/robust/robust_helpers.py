"""Shared values and checks of the robustness tests (a named module: ``conftest`` names clash
between test folders)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = str(ROOT / "scenarios" / "street-ambush.yaml")


class Compiled(Exception):
    """The board compiler ran although the input should have been refused first."""


def one_line_refusal(code: int, err: str, *phrases: str) -> None:
    """Exit 2 and exactly one line on stderr holding every phrase."""
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for p in phrases:
        assert p in lines[0], lines[0]
