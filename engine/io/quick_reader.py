"""A fast reader for the plain YAML that sprawlmap writes, with the same lines as the full one.

Why: a 16x16-block city is a scenario plus 635 sheet files (1.7 MB of YAML, 340k nodes). The
full reader (:mod:`engine.io.reader`) spends ~2 s on them, mostly in PyYAML's Python composer.
This reader takes the files line by line: block mappings and sequences (2-space or any steady
indentation, ``- key: value`` items), plain, single- and double-quoted scalars on one line, and
one-line flow collections (``[[3.5, -0.5], [4.5, -0.5]]``, ``{name: w-0, move_ratio: 2}``).

It returns exactly what :func:`engine.io.reader.parse_text` returns, lines included, or None
for anything outside that subset (comments after a value, literal blocks, wrapped flows,
anchors, tags, tabs, empty values, duplicate keys, ...): then the full reader reads the text
and reports any problem with its usual message. Flow lists that hold only numbers (points and
paths) are plain lists: all their items sit on one line, the line of the value that holds them,
which is what every reader falls back to for a plain list.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from engine.io.located import BOOL_RE, FLOAT_RE, INT_RE, MAX_DEPTH, MAX_NODES, NULL_RE, YList, YMap

#: levels of nesting kept in hand: near the depth limit the full reader decides
_MARGIN = 4

#: characters the full reader refuses or reads as line breaks (NEL, LS, PS, BOM), and tabs
_ODD = re.compile("[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")
#: ``key:`` then a space or the end of the line; the key is a plain word (YAML allows a simple
#: key at most 1024 characters: much shorter keys are left to the full reader too)
_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_.-]{0,200}):(?: +|$)")
#: a plain scalar in block context: no indicator first, no comment, no ": ", no ':' at the end
_PLAIN = re.compile(r"(?:[A-Za-z0-9_.~(/+$]|-(?=\S))(?:[^#:]|:(?=[^\s]))*")
#: one token of a one-line flow collection
_FLOW_TOKEN = re.compile(
    r" *(?:([\[\]{},])|(: )|'((?:[^']|'')*)'|\"([^\"\\]*)\""
    r"|((?:[A-Za-z0-9_.~(/+$]|-(?=[^\s,\[\]{}]))[^\s,\[\]{}:#]*(?: +[^\s,\[\]{}:#]+)*))"
)
#: a flow list of numbers only: JSON reads it as YAML would (checked by the caller)
_NUMBERS = re.compile(r"[\[\]0-9., eE+-]*")
#: JSON's value scanner (what json.loads runs, without its per-call set-up)
_scan_json = json.JSONDecoder().scan_once


class _Outside(Exception):
    """The text uses YAML this reader does not take: the full reader reads it."""


def _plain(s: str) -> Any:
    """A plain scalar resolved as :class:`engine.io.reader.Resolver12` and ``_scalar`` do."""
    c = s[0]
    if c in "tTfF" and BOOL_RE.match(s):
        return s.lower() == "true"
    if c in "-+0123456789" and INT_RE.match(s):
        try:
            return int(s)
        except ValueError:  # more digits than Python converts: the full reader says so
            raise _Outside from None
    if c in "-+0123456789." and FLOAT_RE.match(s):
        low = s.lower()
        if low.endswith(".inf"):
            return -math.inf if low.startswith("-") else math.inf
        if low == ".nan":
            return math.nan
        return float(s)
    if c in "~nN" and NULL_RE.match(s):
        return None
    return s


def _scalar(s: str) -> Any:
    """A scalar written after ``key: `` or ``- ``, up to the end of the line."""
    c = s[0]
    if c == "'":
        if len(s) < 2 or s[-1] != "'" or "'" in s[1:-1].replace("''", ""):
            raise _Outside
        return s[1:-1].replace("''", "'")
    if c == '"':
        if len(s) < 2 or s[-1] != '"' or '"' in s[1:-1] or "\\" in s:
            raise _Outside
        return s[1:-1]
    if _PLAIN.fullmatch(s) is None:
        raise _Outside
    return _plain(s)


def _flow(s: str, line: int, room: int) -> Any:
    """A flow collection that opens and closes on this line."""
    if s[0] == "[" and _NUMBERS.fullmatch(s) and s.count("[") < room:
        try:  # the pattern leaves out JSON's NaN and Infinity (plain text in YAML)
            value, end = _scan_json(s, 0)
        except (ValueError, RecursionError, StopIteration):
            value, end = None, 0
        if end == len(s) and isinstance(value, list):
            return value
    tokens = []
    pos, end = 0, len(s)
    while pos < end:
        m = _FLOW_TOKEN.match(s, pos)
        if m is None or m.end() == pos:
            raise _Outside
        tokens.append(m)
        pos = m.end()
    value, k = _flow_node(tokens, 0, line, room)
    if k != len(tokens):
        raise _Outside
    return value


def _flow_scalar(m: re.Match[str]) -> Any:
    if m.group(3) is not None:
        return m.group(3).replace("''", "'")
    if m.group(4) is not None:
        return m.group(4)
    if m.group(5) is not None:
        return _plain(m.group(5))
    raise _Outside


def _flow_node(tokens: list[re.Match[str]], k: int, line: int, room: int) -> tuple[Any, int]:
    if room <= 0 or k >= len(tokens):
        raise _Outside
    opener = tokens[k].group(1)
    if opener is None:
        return _flow_scalar(tokens[k]), k + 1
    k += 1
    if opener == "[":
        seq = YList(line)
        if k < len(tokens) and tokens[k].group(1) == "]":
            return seq, k + 1
        while True:
            item, k = _flow_node(tokens, k, line, room - 1)
            seq.append(item)
            seq.item_lines.append(line)
            sep = tokens[k].group(1) if k < len(tokens) else None
            if sep == "]":
                return seq, k + 1
            if sep != ",":
                raise _Outside
            k += 1
    if opener == "{":
        mapping = YMap(line)
        if k < len(tokens) and tokens[k].group(1) == "}":
            return mapping, k + 1
        while True:
            if k + 2 >= len(tokens):
                raise _Outside
            colon = tokens[k + 1]
            if tokens[k].group(5) is None or colon.start(2) != colon.start():
                raise _Outside  # a plain key, then ': ' right after it
            key = tokens[k].group(5)
            if len(key) > 200 or key in mapping or not isinstance(_plain(key), str):
                raise _Outside
            value, k = _flow_node(tokens, k + 2, line, room - 1)
            mapping[key] = value
            mapping.key_lines[key] = line
            mapping.value_lines[key] = line
            sep = tokens[k].group(1) if k < len(tokens) else None
            if sep == "}":
                return mapping, k + 1
            if sep != ",":
                raise _Outside
            k += 1
    raise _Outside


#: scalars already read (the same few words and numbers recur through a city's files); the
#: values are immutable, so one may serve every place it is written
_SEEN: dict[str, Any] = {}
#: keys already known to be plain words
_WORDS: set[str] = set()
_MISSING = object()
_MEMO_MAX = 4096


def _inline(s: str, line: int, room: int) -> Any:
    if s[0] in "[{":
        return _flow(s, line, room)
    value = _SEEN.get(s, _MISSING)
    if value is _MISSING:
        value = _scalar(s)
        if len(_SEEN) >= _MEMO_MAX:
            _SEEN.clear()
        _SEEN[s] = value
    return value


class _Lines:
    """The text's content lines: (line number, indent, text without indent or end spaces)."""

    __slots__ = ("nums", "indents", "texts", "count")

    def __init__(self, text: str):
        nums, indents, texts = [], [], []
        for n, raw in enumerate(text.split("\n"), 1):
            c = raw.lstrip(" ")
            if not c or c[0] == "#":
                continue
            nums.append(n)
            indents.append(len(raw) - len(c))
            texts.append(c.rstrip(" ") if c[-1] == " " else c)
        self.nums, self.indents, self.texts, self.count = nums, indents, texts, len(nums)


def _block(ls: _Lines, i: int, room: int) -> tuple[Any, int]:
    """The block collection starting at content line ``i`` (its indent is the collection's)."""
    c = ls.texts[i]
    if c[0] == "-" and (len(c) == 1 or c[1] == " "):
        return _sequence(ls, i, ls.indents[i], room, False)
    return _mapping(ls, i, ls.indents[i], c, room)


def _sequence(ls: _Lines, i: int, ind: int, room: int, indentless: bool) -> tuple[Any, int]:
    if room <= 0:
        raise _Outside
    nums, indents, texts, count = ls.nums, ls.indents, ls.texts, ls.count
    seq = YList(nums[i])
    item_lines = seq.item_lines
    while True:
        c = texts[i]
        if len(c) < 3 or c[1] != " ":  # "-" alone (a block item below) or "-x"
            raise _Outside
        rest = c[2:].lstrip(" ")
        line = nums[i]
        if rest[0] == "-" or rest[0] == "?" or rest[0] == ":":
            raise _Outside
        if _KEY.match(rest):
            item, i = _mapping(ls, i, ind + len(c) - len(rest), rest, room - 1)
        else:
            item = _inline(rest, line, room - 1)
            i += 1
        seq.append(item)
        item_lines.append(line)
        if i == count or indents[i] < ind:
            return seq, i
        if indents[i] > ind:
            raise _Outside
        c = texts[i]
        if c[0] != "-" or (len(c) > 1 and c[1] != " "):
            if indentless:
                return seq, i
            raise _Outside


def _mapping(ls: _Lines, i: int, ind: int, first: str, room: int) -> tuple[Any, int]:
    """A block mapping at indent ``ind``; ``first`` is its first line's text (after a ``- ``)."""
    if room <= 0:
        raise _Outside
    nums, indents, texts, count = ls.nums, ls.indents, ls.texts, ls.count
    line = nums[i]
    mapping = YMap(line)
    key_lines, value_lines = mapping.key_lines, mapping.value_lines
    c = first
    while True:
        m = _KEY.match(c)
        if m is None:
            raise _Outside
        key = m.group(1)
        if key in mapping:
            raise _Outside
        if key not in _WORDS:
            if not isinstance(_plain(key), str):
                raise _Outside
            if len(_WORDS) >= _MEMO_MAX:
                _WORDS.clear()
            _WORDS.add(key)
        rest = c[m.end():]
        if rest:
            value = _inline(rest, line, room - 1)
            vline = line
            i += 1
        else:
            i += 1
            if i == count:
                raise _Outside  # an empty value
            vline = nums[i]
            if indents[i] > ind:
                value, i = _block(ls, i, room - 1)
            elif indents[i] == ind and texts[i][0] == "-" and (len(texts[i]) == 1 or texts[i][1] == " "):
                value, i = _sequence(ls, i, ind, room - 1, True)
            else:
                raise _Outside  # an empty value
        mapping[key] = value
        key_lines[key] = line
        value_lines[key] = vline
        if i == count or indents[i] < ind:
            return mapping, i
        if indents[i] > ind:
            raise _Outside
        c = texts[i]
        line = nums[i]


def quick_parse(text: str, max_nodes: int = MAX_NODES, max_depth: int = MAX_DEPTH) -> Any:
    """What :func:`engine.io.reader.parse_text` makes of ``text``, or None when the text is not
    in the plain subset this reader takes (then only the full reader may read it).  Every node
    takes at least one character, so a text shorter than ``max_nodes`` has fewer nodes."""
    if len(text) >= max_nodes or _ODD.search(text):
        return None
    try:
        ls = _Lines(text)
        if ls.count == 0:
            return None
        c = ls.texts[0]
        if c[0] == "-" or _KEY.match(c) is None:
            return None  # only a block mapping at the top
        data, i = _block(ls, 0, max_depth - _MARGIN)
        return data if i == ls.count else None
    except (_Outside, IndexError):
        return None
