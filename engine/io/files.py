"""Loading and saving documents on disk.

Saving re-reads the text it is about to write with the same strict loader, so a file sprawlmap
writes is always a file sprawlmap can load; only then is the target replaced, atomically.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from engine.atomic_file import atomic_write
from engine.errors import LoadError
from engine.io.reader import parse_text, read_yaml
from engine.io.scenario import scenario_from_data, scenario_to_data
from engine.io.sheet import sheet_from_data, sheet_to_data
from engine.io.writer import dump_text
from engine.model import Scenario, Sheet

PathLike = str | os.PathLike[str]


def load_sheet(path: PathLike) -> Sheet:
    """Read a mapsheet file (``format: sprawlmap/mapsheet@1``)."""
    file = os.fspath(path)
    return sheet_from_data(read_yaml(file), file)


def load_document(path: PathLike) -> Scenario:
    """Read a scenario or a layout-only file; a layout becomes a Scenario with no sides."""
    file = os.fspath(path)
    return scenario_from_data(read_yaml(file), file)


def _checked_text(data: Any, file: str, check: Any) -> str:
    try:
        text = dump_text(data)
    except LoadError as e:
        raise LoadError(e.message, file) from None
    try:
        check(parse_text(text, file), file)
    except LoadError as e:
        line = f" (line {e.line} of the written text)" if e.line else ""
        raise LoadError(f"not saved: {e.message}{line}", file) from None
    return text


def schema_comment(kind: str, file: str) -> str:
    """``# yaml-language-server: $schema=...`` for a file about to be written at ``file``: the
    path of docs/schema/KIND.schema.json relative to the file (the language server resolves it
    from the file's folder), or the schema's URL when the docs are not on this machine."""
    from engine.io.schema import BASE_URL, SCHEMA_DIR, schema_file

    local = Path(__file__).resolve().parents[2] / SCHEMA_DIR / schema_file(kind)
    ref = BASE_URL + schema_file(kind)
    if local.is_file():
        try:
            folder = os.path.dirname(os.path.realpath(file))
            ref = Path(os.path.relpath(local, folder)).as_posix()
        except ValueError:  # another drive on Windows
            ref = local.as_uri()
    return f"# yaml-language-server: $schema={ref}\n"


def save_sheet(sheet: Sheet, path: PathLike) -> None:
    """Write a mapsheet atomically; an invalid sheet is refused and the file left as it was."""
    file = os.fspath(path)
    text = _checked_text(sheet_to_data(sheet), file, sheet_from_data)
    atomic_write(file, schema_comment("mapsheet", file) + text)


def save_document(scenario: Scenario, path: PathLike, layout_only: bool = False) -> None:
    """Write a scenario (or only its layout) atomically, refusing anything that would not load."""
    file = os.fspath(path)
    if not isinstance(scenario, Scenario):
        raise LoadError(f"not saved: not a Scenario but {type(scenario).__name__}", file)
    data = scenario_to_data(scenario, layout_only=layout_only)
    text = _checked_text(data, file, scenario_from_data)
    atomic_write(file, schema_comment("layout" if layout_only else "scenario", file) + text)
