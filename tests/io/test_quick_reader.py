"""The quick reader gives exactly the full reader's data and lines, or leaves the text to it.

Whatever the text: when :func:`quick_parse` answers, the full reader (PyYAML's parser under our
composer) reads the same values, with the same line for every key, value and item, and raises
no error; when the full reader raises, the quick reader does not answer.
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest

from benchmarks.neighbourhood import neighbourhood, scenario
from engine.errors import LoadError
from engine.io import scenario_to_data, sheet_to_data
from engine.io.files import schema_comment
from engine.io.located import YList, YMap
from engine.io.quick_reader import quick_parse
from engine.io.reader import full_parse, parse_text
from engine.io.writer import dump_text

ROOT = Path(__file__).resolve().parents[2]


def same(full: Any, quick: Any, where: str = "$") -> None:
    """``quick`` holds what ``full`` holds, with the same lines.  A plain list may stand for a
    flow list of numbers written on one line: every reader then falls back to the line of the
    value that holds it, which is that same line."""
    if isinstance(full, YMap):
        assert type(quick) is YMap, where
        assert list(full) == list(quick), where
        assert (full.line, full.key_lines, full.value_lines) == (
            quick.line, quick.key_lines, quick.value_lines), where
        for key in full:
            same(full[key], quick[key], f"{where}.{key}")
    elif isinstance(full, YList):
        assert isinstance(quick, list) and len(full) == len(quick), where
        if type(quick) is YList:
            assert (full.line, full.item_lines) == (quick.line, quick.item_lines), where
        else:
            numbers_on_one_line(full, full.line, where)
        for i, (a, b) in enumerate(zip(full, quick)):
            same(a, b, f"{where}[{i}]")
    else:
        assert type(full) is type(quick), (where, full, quick)
        assert full == quick or (isinstance(full, float) and math.isnan(full) and math.isnan(quick)), where


def numbers_on_one_line(full: YList, line: int | None, where: str) -> None:
    assert full.line == line and all(n == line for n in full.item_lines), where
    for x in full:
        if isinstance(x, YList):
            numbers_on_one_line(x, line, where)
        else:
            assert type(x) in (int, float), where


def agree(text: str) -> str:
    """``"quick"``, ``"full"`` (left to the full reader) or ``"error"``; fails on any mismatch."""
    quick = quick_parse(text)
    try:
        full = full_parse(text, "f.yaml")
    except LoadError:
        assert quick is None, text
        return "error"
    if quick is None:
        return "full"
    same(full, quick)
    return "quick"


def city_texts(blocks: int = 3) -> list[str]:
    """The benchmark city as a designer's files: the scenario and every sheet, as written."""
    lay, sheets = neighbourhood(blocks=blocks)
    texts = [schema_comment("mapsheet", "s.yaml") + dump_text(sheet_to_data(s)) for s in sheets.values()]
    return texts + [schema_comment("scenario", "c.yaml") + dump_text(scenario_to_data(scenario(lay)))]


def repo_texts() -> list[tuple[str, str]]:
    files = [p for folder in ("scenarios", "mapsheets", "zones", "tests", "docs")
             for p in sorted((ROOT / folder).rglob("*.yaml"))]
    return [(p.name, p.read_text(encoding="utf-8").removeprefix("\ufeff")) for p in files]


def test_written_city_is_read_quickly_and_the_same():
    texts = city_texts()
    assert len(texts) > 20
    assert [agree(t) for t in texts] == ["quick"] * len(texts)


def test_every_file_of_the_repository_agrees():
    seen = {agree(text) for _, text in repo_texts()}
    assert "quick" in seen  # most sheets; samples with wrapped flows go to the full reader


SNIPPETS = [
    "a: on\nb: 010\nc: 1e5\nd: .5\ne: -.inf\nf: .NaN\ng: ~\nh: Null\ni: yes\nj: 0x1F\nk: +3\n",
    "a: 'it''s'\nb: \"plain\"\nc: \"esc\\\"aped\"\nd: 'x' y\ne: 'open\n",
    "true: 1\n", "null: 1\n", "a: 1\na: 2\n", "a:\n", "a:\nb: 1\n", "a: b: c\n", "a: #c\n",
    "a: 1 # c\n", "a: x#y\n", "a: -\n", "a: - b\n", "a: [1, 2,]\n", "a: [1 2]\n", "a: [,]\n",
    "a: [NaN, Infinity]\n", "a: [1, [2, [3]]]\n", "a: [.5, +1, 01, 1., 1e400]\n",
    "a: {b: 1, c: [1, 2], d: {e: f}}\n", "a: {b : 1}\n", "a: {b:1}\n", "a: {b: 1, b: 2}\n",
    "a: {true: 1}\n", "a: [{b: 1}, {c: 2}]\n", "a: [1, 2\n  ]\n", "a: [a: 1]\n",
    "a:\n- 1\n- 2\nb: 3\n", "a:\n  - 1\n  b: 2\n", "a:\n  - 1\n   - 2\n", "a:\n  -1\n",
    "a:\n  - b: 1\n    c: 2\n  - d\n", "a:\n  -   b: 1\n      c: 2\n", "a:\n  - - 1\n",
    "a:\n  -\n    b: 1\n", "a: x\n  y\n", "a: 1\n b: 2\n", " a: 1\n b: 2\n", " a: 1\nb: 2\n",
    "---\na: 1\n", "a: 1\n...\n", "a: 1\n---\nb: 2\n", "%YAML 1.2\n---\na: 1\n", "- 1\n", "",
    "# only a comment\n", "a: &x 1\nb: *x\n", "a: !!str 1\n", "a: |\n  text\n", "a: >\n  t\n",
    "a: 1\t\n", "a:\t1\n", "a: 1\r\nb: 2\r\n", "a: x\u2028y\n", "a: x\x85\n", "a: \ufeffx\n",
    "a: caf\u00e9\n", "a: \x00\n", "a: \x7f\n", "a: x\n  # indented comment\nb: y\n",
    "a: '#' \n", "a: [b, 'c d', \"e\"]\n", "a: [b c, d]\n", "a: [-1, -a, -]\n", "a: {}\nb: []\n",
    "a: 12:30\n", "a: 'x' #c\n", "a: ?x\n", "a: ? x\n", "? a\n: 1\n", "a: @x\n", "a: `x\n",
    "a: %x\n", "a: ,x\n", "a: x,\n", "a: [x]y\n", "a: \"x\n", "a: 1_000\n", "a: 9" + "9" * 5000 + "\n",
    "k" * 1100 + ": 1\n", "a: {" + "k" * 1100 + ": 1}\n",
]


@pytest.mark.parametrize("text", SNIPPETS)
def test_snippets_agree(text):
    agree(text)


def test_yaml12_words_stay_words():
    data = quick_parse("standable: on\ncount: 010\nflag: True\nnothing: ~\n")
    assert data == {"standable": "on", "count": 10, "flag": True, "nothing": None}
    assert (data.line, data.key_lines["count"], data.value_lines["flag"]) == (1, 2, 3)


@pytest.mark.parametrize("depth", [55, 58, 59, 60, 61, 62, 63, 64, 65])
def test_nesting_near_the_limit_agrees(depth):
    flow = "a: " + "[" * depth + "1" + "]" * depth + "\n"
    words = "a: " + "[" * depth + "x" + "]" * depth + "\n"
    block = "".join("  " * i + f"k{i}:\n" for i in range(depth)) + "  " * depth + "z: 1\n"
    items = "".join("  " * i + "- k:\n" for i in range(depth)) + "  " * depth + "- 1\n"
    for text in (flow, words, block, items):
        agree(text)


def test_node_limit_is_the_callers(monkeypatch):
    text = "items: [" + ", ".join(str(i) for i in range(100)) + "]\n"
    assert quick_parse(text, max_nodes=50) is None
    assert quick_parse(text)["items"] == list(range(100))


def test_errors_come_from_the_full_reader():
    text = "a: 1\na: 2\n"
    assert quick_parse(text) is None
    with pytest.raises(LoadError) as e:
        parse_text(text, "f.yaml")
    assert str(e.value) == "f.yaml:2: duplicate key 'a'"


ALPHABET = list(" \n-:#[]{},'\"&*!|>?%@`~.0123456789eE+aZn\t") + [
    "  ", "- ", ": ", "\n  ", "\r\n", "\u2028", "\x85", "\ufeff", "\u00e9", "\x00", ".inf", ".nan",
    "NaN", "1e400", "True", "null", "---", "...", '"\\n"', "''", "&a ", "*a", "!!str ", "{a: 1}",
    "[1, [2]]", "0" * 1200,
]


def test_random_edits_agree():
    """Edits of written files (a city's sheets and scenario, the samples): every edit is read the
    same by both readers, refused by both, or left to the full reader."""
    rng = random.Random(11)
    texts = city_texts(2)[:12] + city_texts(2)[-1:] + [t for _, t in repo_texts()][:20]
    counts = {"quick": 0, "full": 0, "error": 0}
    for _ in range(1500):
        text = rng.choice(texts)
        if len(text) > 2500:
            start = text.rfind("\n", 0, rng.randrange(len(text) - 2500)) + 1
            text = text[start:start + 2500]
            text = text[: text.rfind("\n") + 1]
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(text) + 1)
            op = rng.random()
            if op < 0.4:
                text = text[:i] + rng.choice(ALPHABET) + text[i:]
            elif op < 0.7:
                text = text[:i] + text[i + rng.randint(1, 3):]
            else:
                text = text[:i] + rng.choice(ALPHABET) + text[i + 1:]
        counts[agree(text)] += 1
    assert min(counts.values()) > 100, counts  # each way is exercised
