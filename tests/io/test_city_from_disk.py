"""A city written as a designer's files reads back as the slow, checked path reads it."""

from __future__ import annotations

from pathlib import Path

from benchmarks.bench_read import _child_read, write_city
from engine import library
from engine.io import features, reader
from engine.io.files import load_document
from engine.io.resolve import resolve_sheets


def read_city(city: Path) -> tuple[object, dict]:
    library._ID_CACHE.clear()
    library._SHEET_CACHE.clear()
    scenario = load_document(city)
    return scenario, resolve_sheets(scenario.layout, city.parent)


def test_quick_paths_read_the_city_as_the_checked_ones(tmp_path, monkeypatch):
    city = write_city(2, tmp_path)
    quick = read_city(city)
    monkeypatch.setattr(reader, "quick_parse", lambda *a: None)
    monkeypatch.setattr(features, "quick_wall", lambda *a: None)
    monkeypatch.setattr(features, "quick_opening", lambda *a: None)
    checked = read_city(city)
    assert quick == checked
    sheets = quick[1]
    assert len(sheets) == len(list(tmp_path.glob("*.yaml"))) - 1
    openings = sum(len(lv.doors) + len(lv.windows) for s in sheets.values() for lv in s.levels)
    assert openings > 200


def test_bench_reads_every_sheet(tmp_path):
    city = write_city(2, tmp_path)
    library._ID_CACHE.clear()
    library._SHEET_CACHE.clear()
    figures = _child_read(str(city))
    assert figures["sheets"] == len(list(tmp_path.glob("*.yaml"))) - 1
    assert figures["read_city_ms"] >= 0
