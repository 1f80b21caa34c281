"""Readable, stable YAML output (files are replaced by :mod:`engine.atomic_file`).

Block style for records, flow style for short things (points ``[3.5, -0.5]``, paths of points,
small mappings of plain values such as ``{barrier: 12, armor: 1}``), multi-line notes as literal
blocks.  Strings that any YAML reader might take for something else are quoted, so files stay
readable by other tools too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml
from yaml.emitter import Emitter
from yaml.representer import RepresenterError, SafeRepresenter
from yaml.resolver import Resolver
from yaml.serializer import Serializer

from engine.atomic_file import atomic_write  # noqa: F401  (the one writer, re-exported)
from engine.errors import LoadError
from engine.io.reader import (
    BOOL_RE,
    FLOAT_RE,
    INT_RE,
    NULL_RE,
    TAG_BOOL,
    TAG_FLOAT,
    TAG_INT,
    TAG_MAP,
    TAG_NULL,
    TAG_SEQ,
)

_SCALARS = (str, int, float, bool, type(None))


class _QuotingResolver(Resolver):
    """YAML 1.1 resolution plus sprawlmap's own (YAML 1.2) rules: a string that either YAML 1.1
    tools or sprawlmap's reader would take for a number, boolean or null gets quoted."""


_QuotingResolver.add_implicit_resolver(TAG_BOOL, BOOL_RE, list("tTfF"))
_QuotingResolver.add_implicit_resolver(TAG_INT, INT_RE, list("-+0123456789"))
_QuotingResolver.add_implicit_resolver(TAG_FLOAT, FLOAT_RE, list("-+0123456789."))
_QuotingResolver.add_implicit_resolver(TAG_NULL, NULL_RE, ["~", "n", "N", ""])


class _Dumper(Emitter, Serializer, SafeRepresenter, _QuotingResolver):
    def __init__(self, stream: Any, **kw: Any):
        Emitter.__init__(self, stream, width=kw.get("width", 100), allow_unicode=True)
        Serializer.__init__(self)
        SafeRepresenter.__init__(self, default_flow_style=False, sort_keys=False)
        _QuotingResolver.__init__(self)

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        # indent list items under their key: easier to read and to edit by hand
        return super().increase_indent(flow, False)

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _is_flat(items: Any) -> bool:
    return all(isinstance(x, _SCALARS) and not (isinstance(x, str) and "\n" in x) for x in items)


def _represent_list(dumper: _Dumper, data: list[Any] | tuple[Any, ...]) -> yaml.Node:
    flow = _is_flat(data) or all(isinstance(x, list | tuple) and _is_flat(x) for x in data)
    return dumper.represent_sequence(TAG_SEQ, data, flow_style=bool(data) and flow)


def _represent_dict(dumper: _Dumper, data: Mapping[str, Any]) -> yaml.Node:
    values = list(data.values())
    flow = (
        0 < len(values) <= 3
        and _is_flat(values)
        and sum(len(str(k)) + len(str(v)) for k, v in data.items()) <= 60
    )
    return dumper.represent_mapping(TAG_MAP, data, flow_style=flow)


_BREAKS = frozenset("\r\x85\u2028\u2029")


def _represent_str(dumper: _Dumper, data: str) -> yaml.Node:
    # YAML reads NEL and the Unicode line/paragraph separators as line breaks, and a raw CR is
    # folded: such text must be written escaped in double quotes to come back unchanged
    if any(c in _BREAKS or (not c.isprintable() and c not in "\n\t") for c in data):
        style: str | None = '"'
    else:
        style = "|" if "\n" in data else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


def _refuse(dumper: _Dumper, data: Any) -> yaml.Node:
    raise RepresenterError(f"cannot write a value of type {type(data).__name__}")


_Dumper.add_representer(list, _represent_list)
_Dumper.add_representer(tuple, _represent_list)
_Dumper.add_representer(dict, _represent_dict)
_Dumper.add_representer(str, _represent_str)
_Dumper.add_representer(None, _refuse)


def dump_text(data: Any) -> str:
    """YAML text for plain data (dicts, lists, tuples, str, int, float, bool, None)."""
    try:
        return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    except RepresenterError as e:
        raise LoadError(f"not saved: {e}") from None
