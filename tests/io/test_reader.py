"""Safe YAML reading: line marks, YAML 1.2 scalars, hostile input refused quickly."""

from __future__ import annotations

import tracemalloc

import pytest
from conftest import expect_error

from engine.io import reader
from engine.io.reader import parse_text, read_yaml

PARSERS = [False, True] if reader.LIBYAML else [False]


@pytest.fixture(autouse=True, params=PARSERS, ids=lambda c: "libyaml" if c else "pure-python")
def parser(request, monkeypatch):
    """Every reader test runs on the pure-Python parser and (when built) on libyaml's."""
    monkeypatch.setattr(reader, "LIBYAML", request.param)
    return request.param


BILLION_LAUGHS = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


def test_lines_of_keys_values_and_items():
    data = parse_text("a: 1\nb:\n  - x\n  - y\nc: {d: [1, 2]}\n", "f.yaml")
    assert data == {"a": 1, "b": ["x", "y"], "c": {"d": [1, 2]}}
    assert data.key_lines == {"a": 1, "b": 2, "c": 5}
    assert data.value_lines == {"a": 1, "b": 3, "c": 5}
    assert data["b"].item_lines == [3, 4]


def test_yaml12_scalars_no_surprises():
    data = parse_text("v: [on, off, yes, no, 010, 1e5, .5, true, False, ~, 2024-01-01, 0x10]\n")
    assert data["v"] == ["on", "off", "yes", "no", 10, 100000.0, 0.5, True, False, None, "2024-01-01", "0x10"]
    assert isinstance(data["v"][4], int)


def test_billion_laughs_refused_fast_with_bounded_memory(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(BILLION_LAUGHS)
    tracemalloc.start()
    expect_error(lambda: read_yaml(path), path, 2, "aliases (*a) are not allowed")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 2_000_000  # refused before any expansion (memory, not time: the core may be shared)


def test_huge_file_refused_before_parsing(tmp_path, monkeypatch):
    path = tmp_path / "huge.yaml"
    with open(path, "wb") as fh:  # sparse: 9 MiB of nothing, cheap to make
        fh.truncate(9 * 1024 * 1024)
    tracemalloc.start()
    expect_error(lambda: read_yaml(path), path, None, "file is too large (9437184 bytes; the limit is 8 MiB)")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 1_000_000  # the 9 MiB were never read


def test_too_many_nodes_refused(monkeypatch):
    monkeypatch.setattr(reader, "MAX_NODES", 50)
    text = "items: [" + ", ".join(str(i) for i in range(100)) + "]\n"
    expect_error(lambda: parse_text(text, "f.yaml"), "f.yaml", 1, "too many YAML nodes (more than 50)")


def test_deep_nesting_refused():
    text = "a:\n  b: " + "[" * 200 + "]" * 200 + "\n"
    expect_error(lambda: parse_text(text, "f.yaml"), "f.yaml", 2, "nesting deeper than 64 levels")


def test_syntax_error_names_its_line():
    text = "a: 1\nb: [1, 2\nc: 3\n"
    err = expect_error(lambda: parse_text(text, "f.yaml"), "f.yaml", 3, "YAML syntax error")
    assert str(err).count(":") >= 3


def test_bad_indentation_line():
    expect_error(lambda: parse_text("a:\n  b: 1\n c: 2\n", "f.yaml"), "f.yaml", 3, "YAML syntax error")


def test_non_utf8_names_line(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("title: ok\nnotes: caf\xe9\n".encode("latin-1"))
    expect_error(lambda: read_yaml(path), path, 2, "not UTF-8 text (byte 0xe9)")


def test_control_character_refused():
    expect_error(lambda: parse_text("a: 1\nb: \"x\x07\"\n", "f.yaml"), "f.yaml", 2, "U+0007 is not allowed")


def test_duplicate_key_refused():
    expect_error(lambda: parse_text("a: 1\nb: 2\na: 3\n", "f.yaml"), "f.yaml", 3, "duplicate key 'a'")


def test_python_tags_never_construct():
    text = "a: !!python/object/apply:os.system ['echo hacked']\n"
    expect_error(lambda: parse_text(text, "f.yaml"), "f.yaml", 1, "unsupported YAML tag")
    expect_error(lambda: parse_text("a: !!binary aGk=\n", "f.yaml"), "f.yaml", 1, "unsupported YAML tag")
    expect_error(lambda: parse_text("a: !!set {x: null}\n", "f.yaml"), "f.yaml", 1, "unsupported YAML tag")


def test_non_word_keys_refused():
    expect_error(lambda: parse_text("a: 1\n[1, 2]: 3\n", "f.yaml"), "f.yaml", 2, "keys must be plain words")
    expect_error(lambda: parse_text("a: 1\n3: x\n", "f.yaml"), "f.yaml", 2, "keys must be plain words")


def test_empty_and_missing_files(tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text("# only a comment\n")
    expect_error(lambda: read_yaml(path), path, 1, "the file is empty")
    missing = tmp_path / "nope.yaml"
    expect_error(lambda: read_yaml(missing), missing, None, "no such file")
    expect_error(lambda: read_yaml(tmp_path), tmp_path, None, "is a folder")


def test_multiple_documents_refused():
    expect_error(lambda: parse_text("a: 1\n---\nb: 2\n", "f.yaml"), "f.yaml", 2, "YAML syntax error")


def test_bom_is_accepted(tmp_path):
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbfa: 1\n")
    assert read_yaml(path) == {"a": 1}


def test_control_character_after_non_ascii_text_names_its_line():
    text = "a: caf\u00e9 \u00e9t\u00e9\nb: ok\nc: \"x\x07\"\n"
    expect_error(lambda: parse_text(text, "f.yaml"), "f.yaml", 3, "U+0007 is not allowed")


def test_big_file_keeps_line_marks_of_every_item():
    rows = "".join(f"  - {{id: w{i}, path: [[{i}, 0.5], [{i}, 9.5]], class: thick}}\n" for i in range(2000))
    data = parse_text("walls:\n" + rows, "f.yaml")
    assert len(data["walls"]) == 2000 and data["walls"].item_lines[1999] == 2001
