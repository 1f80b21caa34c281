"""Safe, bounded YAML reading that remembers the line of every key and value.

Why not ``yaml.safe_load``: error messages must name ``file:line``, hostile files (alias bombs,
deep nesting, huge files) must be refused quickly with bounded memory, and YAML 1.1 quirks must
not surprise a map designer (``standable: on`` is the word "on", not ``True``; ``010`` is ten).

The result is plain Python data in which mappings are :class:`YMap` (a ``dict`` that also knows
the line of each key and value) and sequences are :class:`YList` (a ``list`` that knows the line
of each item).  PyYAML's event parser (libyaml's when available, else the pure-Python one) feeds a
composer that refuses aliases and counts nodes; scalars are built here from their text, so no
YAML tag can ever construct an object.
"""

from __future__ import annotations

import math
import os
import stat
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import BaseResolver
from yaml.scanner import Scanner

from engine.atomic_file import regular_file_problem
from engine.errors import LoadError
from engine.io.located import (  # noqa: F401  (YList, YMap and the limits are read from here too)
    BOOL_RE,
    FLOAT_RE,
    INT_RE,
    MAX_DEPTH,
    MAX_NODES,
    NULL_RE,
    YList,
    YMap,
)
from engine.io.quick_reader import quick_parse

try:  # libyaml's event parser when PyYAML was built with it; the composer stays ours
    from yaml._yaml import CParser

    LIBYAML = True
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    CParser = None
    LIBYAML = False

#: files larger than this are refused before parsing
MAX_BYTES = 8 * 1024 * 1024
TAG_STR = "tag:yaml.org,2002:str"
TAG_INT = "tag:yaml.org,2002:int"
TAG_FLOAT = "tag:yaml.org,2002:float"
TAG_BOOL = "tag:yaml.org,2002:bool"
TAG_NULL = "tag:yaml.org,2002:null"
TAG_MAP = "tag:yaml.org,2002:map"
TAG_SEQ = "tag:yaml.org,2002:seq"

class Resolver12(BaseResolver):
    """YAML 1.2 core-schema plain scalars: only true/false are booleans, no dates, no octal."""


Resolver12.add_implicit_resolver(TAG_BOOL, BOOL_RE, list("tTfF"))
Resolver12.add_implicit_resolver(TAG_INT, INT_RE, list("-+0123456789"))
Resolver12.add_implicit_resolver(TAG_FLOAT, FLOAT_RE, list("-+0123456789."))
Resolver12.add_implicit_resolver(TAG_NULL, NULL_RE, ["~", "n", "N", ""])


class _Problem(Exception):
    def __init__(self, message: str, mark: Any):
        super().__init__(message)
        self.message = message
        self.line = mark.line + 1 if mark is not None else None


class _Guard:
    """Composer hook shared by both parsers: refuse aliases, count nodes, bound the depth."""

    _nodes = 0
    _depth = 0

    def compose_node(self, parent, index):  # noqa: ANN001 - PyYAML signature
        if self.check_event(AliasEvent):
            event = self.peek_event()
            raise _Problem(
                f"YAML aliases (*{event.anchor}) are not allowed; write the value out",
                event.start_mark,
            )
        self._nodes += 1
        if self._nodes > MAX_NODES:
            raise _Problem(f"too many YAML nodes (more than {MAX_NODES})", self.peek_event().start_mark)
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise _Problem(f"nesting deeper than {MAX_DEPTH} levels", self.peek_event().start_mark)
        try:
            return Composer.compose_node(self, parent, index)
        finally:
            self._depth -= 1


class _PyComposer(Reader, Scanner, Parser, _Guard, Composer, Resolver12):
    """PyYAML's pure-Python safe stack (no constructor: scalars are built by :func:`_scalar`)."""

    byte_positions = False

    def __init__(self, text: str):
        Reader.__init__(self, text)
        Scanner.__init__(self)
        Parser.__init__(self)
        Composer.__init__(self)
        Resolver12.__init__(self)


if LIBYAML:

    class _CComposer(CParser, _Guard, Composer, Resolver12):  # type: ignore[misc, valid-type]
        """libyaml's scanner and parser (about 25 times faster) under the same Python composer."""

        byte_positions = True
        get_single_node = Composer.get_single_node

        def __init__(self, text: str):
            CParser.__init__(self, text)
            Composer.__init__(self)
            Resolver12.__init__(self)


def _composer(text: str) -> Any:
    return _CComposer(text) if LIBYAML else _PyComposer(text)


def _line(node: Any) -> int:
    return node.start_mark.line + 1


def _scalar(node: ScalarNode) -> Any:
    tag, value = node.tag, node.value
    try:
        if tag == TAG_STR:
            return value
        if tag == TAG_NULL:
            if not NULL_RE.match(value):
                raise ValueError
            return None
        if tag == TAG_BOOL:
            low = value.lower()
            if low not in ("true", "false"):
                raise ValueError
            return low == "true"
        if tag == TAG_INT:
            if not INT_RE.match(value):
                raise ValueError
            return int(value)
        if tag == TAG_FLOAT:
            low = value.lower()
            if low.endswith(".inf"):
                return -math.inf if low.startswith("-") else math.inf
            if low == ".nan":
                return math.nan
            if not FLOAT_RE.match(value):
                raise ValueError
            return float(value)
    except ValueError:
        raise _Problem(f"{value!r} is not a valid {tag.rsplit(':', 1)[-1]}", node.start_mark) from None
    raise _Problem(f"unsupported YAML tag {tag}", node.start_mark)


def _build(node: Any) -> Any:
    if isinstance(node, ScalarNode):
        return _scalar(node)
    if isinstance(node, SequenceNode):
        if node.tag != TAG_SEQ:
            raise _Problem(f"unsupported YAML tag {node.tag}", node.start_mark)
        seq = YList(_line(node))
        for child in node.value:
            seq.append(_build(child))
            seq.item_lines.append(_line(child))
        return seq
    if isinstance(node, MappingNode):
        if node.tag != TAG_MAP:
            raise _Problem(f"unsupported YAML tag {node.tag}", node.start_mark)
        mapping = YMap(_line(node))
        for knode, vnode in node.value:
            key = _build(knode) if isinstance(knode, ScalarNode) else None
            if not isinstance(key, str):
                raise _Problem("keys must be plain words", knode.start_mark)
            if key in mapping:
                raise _Problem(f"duplicate key '{key}'", knode.start_mark)
            mapping[key] = _build(vnode)
            mapping.key_lines[key] = _line(knode)
            mapping.value_lines[key] = _line(vnode)
        return mapping
    raise _Problem("unsupported YAML node", getattr(node, "start_mark", None))  # pragma: no cover


def parse_text(text: str, file: str | None = None) -> Any:
    """Parse one YAML document into located plain data; every problem is a :class:`LoadError`.

    The plain YAML sprawlmap writes is read by :func:`engine.io.quick_reader.quick_parse` (same
    data, same lines, ~6 times faster); anything else by :func:`full_parse`."""
    quick = quick_parse(text, MAX_NODES, MAX_DEPTH)
    return quick if quick is not None else full_parse(text, file)


def full_parse(text: str, file: str | None = None) -> Any:
    """:func:`parse_text` with PyYAML's parser under our composer, for any YAML."""
    composer = None
    try:
        composer = _composer(text)
        try:
            node = composer.get_single_node()
        finally:
            composer.dispose()
        if node is None:
            raise LoadError("the file is empty", file, 1)
        return _build(node)
    except _Problem as p:
        raise LoadError(p.message, file, p.line) from None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        problem = e.problem or e.context or "bad YAML"
        raise LoadError(f"YAML syntax error: {problem}", file, mark.line + 1 if mark else None) from None
    except yaml.reader.ReaderError as e:
        if getattr(composer, "byte_positions", False):
            line = text.encode("utf-8")[: e.position].count(b"\n") + 1
        else:
            line = text.count("\n", 0, e.position) + 1
        code = e.character if isinstance(e.character, int) else ord(e.character)
        raise LoadError(f"character U+{code:04X} is not allowed in YAML", file, line) from None
    except yaml.YAMLError as e:  # pragma: no cover - every PyYAML error above is marked
        raise LoadError(f"YAML error: {e}", file, None) from None


def _read_at_most(fh: Any, limit: int) -> bytes:
    """Read up to ``limit`` bytes in chunks (no limit-sized buffer for a small file)."""
    chunks: list[bytes] = []
    left = limit
    while left > 0:
        chunk = fh.read(min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """Read a file, refusing it before reading when it is larger than :data:`MAX_BYTES`."""
    file = os.fspath(path)
    try:
        st = os.stat(file)
        if not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode):
            # never open a FIFO (it would wait for a writer) or a device (endless bytes)
            raise LoadError(f"{regular_file_problem(file)}", file)
        size = st.st_size
        if size > MAX_BYTES:
            raise LoadError(
                f"file is too large ({size} bytes; the limit is {MAX_BYTES // (1024 * 1024)} MiB)", file
            )
        with open(file, "rb") as fh:
            data = _read_at_most(fh, MAX_BYTES + 1)
    except FileNotFoundError:
        raise LoadError("no such file", file) from None
    except IsADirectoryError:
        raise LoadError("is a folder, not a file", file) from None
    except OSError as e:
        raise LoadError(f"cannot read: {e.strerror}", file) from None
    if len(data) > MAX_BYTES:
        raise LoadError(f"file is too large (the limit is {MAX_BYTES // (1024 * 1024)} MiB)", file)
    return data


def decode(data: bytes, file: str | None = None) -> str:
    """UTF-8 (an optional BOM is dropped); a bad byte is reported with its line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise LoadError(f"not UTF-8 text (byte 0x{data[e.start]:02x})", file, line) from None
    return text.removeprefix("\ufeff")


def read_yaml(path: str | os.PathLike[str]) -> Any:
    """Read, decode and parse a YAML file into located data."""
    file = os.fspath(path)
    return parse_text(decode(read_bytes(file), file), file)
