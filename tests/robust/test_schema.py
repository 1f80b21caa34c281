"""The JSON Schemas in docs/schema are generated from the loader's definitions, accept every
shipped file, and reject broken files the loader rejects."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from robust_helpers import ROOT

from engine.errors import LoadError
from engine.io import load_document, load_sheet
from engine.io.reader import read_yaml
from engine.io.schema import SCHEMA_DIR, schema_file, schema_text, schemas
from engine.zone.io import load_zone

SHIPPED = (sorted((ROOT / "mapsheets").glob("*.yaml")) + sorted((ROOT / "scenarios").glob("*.yaml"))
           + sorted((ROOT / "zones").glob("*.yaml")))


def kind_of(data) -> str:
    return data["format"].split("/")[1].split("@")[0]


def validator(kind: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schemas()[kind])


def test_committed_schemas_equal_the_generated_ones():
    for kind, s in schemas().items():
        jsonschema.Draft202012Validator.check_schema(s)
        committed = (ROOT / SCHEMA_DIR / schema_file(kind)).read_text()
        assert committed == schema_text(s), f"run: python -m engine.io.schema ({kind})"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_schema_accepts_every_shipped_file(path: Path):
    data = json.loads(json.dumps(read_yaml(path)))
    errors = list(validator(kind_of(data)).iter_errors(data))
    assert not errors, [e.message for e in errors[:3]]


SCENARIO = ROOT / "scenarios" / "street-ambush.yaml"
SHEET = ROOT / "mapsheets" / "corner-store.yaml"
ZONE = ROOT / "zones" / "river-1.yaml"


def _set(d, path, value):
    *head, last = path
    for k in head:
        d = d[k]
    if value is _DROP:
        del d[last]
    else:
        d[last] = value


_DROP = object()

BROKEN = [
    (SCENARIO, ("zzz",), 1, "unknown top-level key"),
    (SCENARIO, ("ruleset",), "dmz2099", "unknown ruleset"),
    (SCENARIO, ("turn_limit",), 0, "turn limit below 1"),
    (SCENARIO, ("turn_limit",), "ten", "turn limit as text"),
    (SCENARIO, ("layout", "placements", 0, "zzz"), 1, "unknown placement key"),
    (SCENARIO, ("layout", "placements", 0, "sheet"), _DROP, "placement without sheet"),
    (SCENARIO, ("layout", "lattice"), "octagon", "unknown lattice"),
    (SCENARIO, ("sides", 0, "characters", 0, "vision"), "x-ray", "unknown vision"),
    (SCENARIO, ("sides", 0, "characters", 0, "move_ratio"), 0, "move ratio 0"),
    (SCENARIO, ("objectives", 0, "kind"), "steal", "unknown objective kind"),
    (SCENARIO, ("objectives", 0, "then"), "exit-up", "unknown exit"),
    (SCENARIO, ("conditions", "light"), "dusk", "unknown light"),
    (SCENARIO, ("format",), "sprawlmap/scenario@one", "bad format"),
    (SHEET, ("kind",), "castle", "unknown sheet kind"),
    (SHEET, ("id",), "Corner Store", "bad sheet id"),
    (SHEET, ("levels", 0, "walls", 0, "class"), "paper", "unknown wall class"),
    (SHEET, ("levels", 0, "walls", 0, "zzz"), 1, "unknown wall key"),
    (SHEET, ("outline",), [[0, 0], [1, 1]], "outline of two points"),
    (SHEET, ("size",), [10], "size of one number"),
    (ZONE, ("zzz",), 1, "unknown zone key"),
    (ZONE, ("players", 0, "safehouse"), "up", "unknown safehouse edge"),
    (ZONE, ("river", "preset"), 3, "unknown river preset"),
    (ZONE, ("growth", "side"), "sideways", "unknown growth side"),
    (ZONE, ("barriers",), [{"between": [[0, 0], [0, 1]]}], "barrier without body"),
]


@pytest.mark.parametrize("src, path, value, why", BROKEN, ids=[b[3] for b in BROKEN])
def test_schema_rejects_what_the_loader_rejects(tmp_path, src, path, value, why):
    data = json.loads(json.dumps(read_yaml(src)))
    _set(data, path, value)
    f = tmp_path / "broken.yaml"
    f.write_text(json.dumps(data))  # JSON is YAML
    kind = kind_of(read_yaml(src))
    load = {"mapsheet": load_sheet, "zone": load_zone}.get(kind, load_document)
    with pytest.raises(LoadError):
        load(f)
    assert list(validator(kind).iter_errors(data)), why


def test_saved_files_name_their_schema(tmp_path):
    from engine.io import save_document, save_sheet

    out = tmp_path / "s.yaml"
    save_document(load_document(SCENARIO), out)
    first = out.read_text().splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    target = (out.parent / first.split("=", 1)[1]).resolve()
    assert target == (ROOT / SCHEMA_DIR / "scenario.schema.json").resolve()
    sheet_out = tmp_path / "sheet.yaml"
    save_sheet(load_sheet(SHEET), sheet_out)
    assert sheet_out.read_text().splitlines()[0].endswith("mapsheet.schema.json")
    assert load_sheet(sheet_out) == load_sheet(SHEET)
