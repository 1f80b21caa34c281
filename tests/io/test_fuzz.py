"""Fuzzing the loaders: whatever the input, the answer is a model or a LoadError, never a crash."""

from __future__ import annotations

import copy
import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_roundtrip import SPEC_SCENARIO, SPEC_SHEET

from engine.errors import LoadError
from engine.io import parse_text, scenario_from_data, sheet_from_data

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

junk = st.recursive(
    st.one_of(
        st.none(), st.booleans(), st.integers(-5, 500), st.sampled_from([0.5, -1.5, math.nan, math.inf, 1e300]),
        st.sampled_from(["", "on", "thick", "reinforced", "door", "obstacle", "-1", "a/b", "x" * 40]),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(
        ["path", "span", "kind", "level", "id", "to", "at", "polygon", "class", "x"]), inner, max_size=3)),
    max_leaves=8,
)


def paths(data: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += paths(v, prefix + (i,))
    return out


def mutate(data: Any, path: tuple, value: Any, delete: bool) -> Any:
    data = copy.deepcopy(data)
    if not path:
        return value
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return data


def plain(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [plain(v) for v in data]
    return data


SHEET = plain(parse_text(SPEC_SHEET))
SCENARIO = plain(parse_text(SPEC_SCENARIO))


def check(load: Any, base: Any, draw: Any) -> None:
    all_paths = paths(base)
    path = draw(st.sampled_from(all_paths))
    data = mutate(base, path, draw(junk), delete=bool(path) and draw(st.booleans()))
    try:
        load(data, "fuzz.yaml")
    except LoadError as e:
        assert "\n" not in str(e) and str(e).startswith("fuzz.yaml")


@SETTINGS
@given(st.data())
def test_mutated_sheets_load_or_fail_cleanly(data):
    check(sheet_from_data, SHEET, data.draw)


@SETTINGS
@given(st.data())
def test_mutated_scenarios_load_or_fail_cleanly(data):
    check(scenario_from_data, SCENARIO, data.draw)


@SETTINGS
@given(st.text(max_size=60), st.integers(0, len(SPEC_SHEET)))
def test_corrupted_text_parses_or_fails_cleanly(noise, at):
    text = SPEC_SHEET[:at] + noise + SPEC_SHEET[at + len(noise):]
    try:
        sheet_from_data(parse_text(text, "fuzz.yaml"), "fuzz.yaml")
    except LoadError as e:
        assert "\n" not in str(e) and str(e).startswith("fuzz.yaml")
