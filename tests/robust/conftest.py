"""Helpers for the robustness tests: run the CLI in-process and forbid the board compiler, so
a test proves a refusal came before any compile."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = str(ROOT / "scenarios" / "street-ambush.yaml")


class Compiled(Exception):
    """The board compiler ran although the input should have been refused first."""


@pytest.fixture
def no_compile(monkeypatch):
    import engine.board

    def forbid(*a, **k):
        raise Compiled("compile_board was called")

    monkeypatch.setattr(engine.board, "compile_board", forbid)


@pytest.fixture
def cli(capsys):
    def run(*args: str) -> tuple[int, str, str]:
        code = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def one_line_refusal(code: int, err: str, *phrases: str) -> None:
    """Exit 2 and exactly one line on stderr holding every phrase."""
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for p in phrases:
        assert p in lines[0], lines[0]
