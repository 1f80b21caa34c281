"""Fixtures of the robustness tests: run the CLI in-process, and forbid the board compiler so a
test proves a refusal came before any compile."""

from __future__ import annotations

import pytest
from robust_helpers import Compiled

from engine.cli import main


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
