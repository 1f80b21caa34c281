"""Documents on disk: mapsheet, layout and scenario YAML (SPEC sections 3 and 4).

Strict and safe: unknown keys, wrong types, bad geometry and hostile YAML are refused with one
line ``file:line: problem`` (:class:`engine.errors.LoadError`); saving is atomic and refuses
anything it could not load again.
"""

from engine.io.files import load_document, load_sheet, save_document, save_sheet
from engine.io.reader import MAX_BYTES, parse_text
from engine.io.resolve import load_board, resolve_sheets
from engine.io.scenario import scenario_from_data, scenario_to_data
from engine.io.sheet import sheet_from_data, sheet_to_data
from engine.io.versions import CURRENT, format_string
from engine.io.writer import dump_text

__all__ = [
    "CURRENT",
    "MAX_BYTES",
    "dump_text",
    "format_string",
    "load_board",
    "load_document",
    "load_sheet",
    "parse_text",
    "resolve_sheets",
    "save_document",
    "save_sheet",
    "scenario_from_data",
    "scenario_to_data",
    "sheet_from_data",
    "sheet_to_data",
]
