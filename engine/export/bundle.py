"""The self-contained YAML bundle: the scenario with every sheet it uses inlined.

A bundle loads anywhere, with no ``mapsheets/`` folder beside it: the loader looks at inlined
sheets first.  It is written by :mod:`engine.io` (which re-reads what it writes before it
replaces the file), so a bundle is always a file sprawlmap can open again.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from engine import model as m


def used_sheet_ids(layout: m.Layout) -> list[str]:
    ids = [p.sheet for p in layout.pavement] + [p.sheet for p in layout.placements]
    ids += [pc.sheet for pc in layout.pieces]
    return list(dict.fromkeys(ids))


def bundled(scenario: m.Scenario, sheets: Mapping[str, m.Sheet]) -> m.Scenario:
    """The scenario with exactly the sheets its layout uses inlined, in first-use order."""
    have = {s.id: s for s in scenario.layout.sheets}
    have.update(sheets)
    missing = [i for i in used_sheet_ids(scenario.layout) if i not in have]
    if missing:
        raise ValueError(f"cannot bundle: sheet(s) {', '.join(missing)} not found")
    inline = tuple(have[i] for i in used_sheet_ids(scenario.layout))
    return replace(scenario, layout=replace(scenario.layout, sheets=inline))


def write_bundle(scenario: m.Scenario, sheets: Mapping[str, m.Sheet],
                 out: str | os.PathLike[str]) -> Path:
    from engine.io import save_document

    Path(out).parent.mkdir(parents=True, exist_ok=True)
    save_document(bundled(scenario, sheets), out)
    return Path(out)
