"""Located YAML data and the YAML 1.2 plain-scalar rules, shared by both readers.

:mod:`engine.io.reader` (PyYAML's parser, any YAML) and :mod:`engine.io.quick_reader` (the
plain subset sprawlmap writes, fast) must give the same data with the same lines, so the data
types, the scalar patterns and the limits live here once.
"""

from __future__ import annotations

import re

#: YAML nodes per document (a big city layout has tens of thousands)
MAX_NODES = 500_000
#: nesting depth of mappings and sequences
MAX_DEPTH = 64

FLOAT_RE = re.compile(
    r"^(?:[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)
INT_RE = re.compile(r"^[-+]?[0-9]+$")
BOOL_RE = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
NULL_RE = re.compile(r"^(?:~|null|Null|NULL|)$")


class YMap(dict):
    """A mapping read from YAML: ``line`` of its start, and the lines of each key and value."""

    __slots__ = ("line", "key_lines", "value_lines")

    def __init__(self, line: int | None = None):
        super().__init__()
        self.line = line
        self.key_lines: dict[str, int] = {}
        self.value_lines: dict[str, int] = {}


class YList(list):
    """A sequence read from YAML: ``line`` of its start and ``item_lines``."""

    __slots__ = ("line", "item_lines")

    def __init__(self, line: int | None = None):
        super().__init__()
        self.line = line
        self.item_lines: list[int] = []
