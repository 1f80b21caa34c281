"""Shared helpers for the YAML I/O tests: tiny fixtures written into tmp_path."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.errors import LoadError

SHEET_HEAD = """\
format: sprawlmap/mapsheet@1
id: box
title: Box
kind: building
size: [10, 8]
outline: [[-0.5, -0.5], [9.5, -0.5], [9.5, 7.5], [-0.5, 7.5]]
height: 2
"""

# a one-room building: 4 exterior walls on level 0; line 9 is the first wall
LEVEL0 = """\
levels:
  - level: 0
    walls:
      - {path: [[-0.5, -0.5], [9.5, -0.5]], exterior: true}
      - {path: [[9.5, -0.5], [9.5, 7.5]], exterior: true}
"""


def dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, str], Path]:
    def _write(text: str, name: str = "doc.yaml") -> Path:
        path = tmp_path / name
        path.write_text(dedent(text), encoding="utf-8")
        return path

    return _write


def expect_error(fn: Callable[[], object], path: Path | str | None, line: int | None, phrase: str) -> LoadError:
    """Call ``fn``; it must raise one LoadError at ``path:line`` whose text holds ``phrase``."""
    with pytest.raises(LoadError) as info:
        fn()
    err = info.value
    msg = str(err)
    assert "\n" not in msg
    assert err.line == line, msg
    if path is not None:
        assert err.file == str(path), msg
        prefix = f"{path}:{line}: " if line else f"{path}: "
        assert msg.startswith(prefix), msg
    assert phrase in msg, msg
    return err
