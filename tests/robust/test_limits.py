"""Stated limits are checked before the work starts; each refusal names the limit and the
environment variable that raises it (docs/limits.md)."""

from __future__ import annotations

import json
import math

import pytest
from robust_helpers import one_line_refusal

from engine import limits


def layout_text(placements: int = 0, polygon_points: int = 0, far_pavement: int = 0) -> str:
    lines = ["format: sprawlmap/layout@1", "title: big", "layout:",
             "  pavement:", "    - {sheet: pavement-downtown, at: [0, 0]}"]
    if far_pavement:
        lines.append(f"    - {{sheet: pavement-downtown, at: [{far_pavement}, {far_pavement}]}}")
    if placements:
        lines.append("  placements:")
        side = math.ceil(math.sqrt(placements))
        lines += [f"    - {{sheet: corner-store, at: [{(i % side) * 16}, {(i // side) * 12}]}}"
                  for i in range(placements)]
    if polygon_points:
        pts = [[round(20 + 10 * math.cos(2 * math.pi * k / polygon_points), 6),
                round(15 + 10 * math.sin(2 * math.pi * k / polygon_points), 6)]
               for k in range(polygon_points)]
        lines += ["  extras:", "    areas:", f"      - {{kind: rubble, polygon: {json.dumps(pts)}}}"]
    return "\n".join(lines) + "\n"


@pytest.fixture
def doc(tmp_path):
    def make(**kw) -> str:
        p = tmp_path / "big.yaml"
        p.write_text(layout_text(**kw))
        return str(p)
    return make


def test_3000_buildings_refused_by_the_buildings_limit(cli, no_compile, doc):
    f = doc(placements=3000)
    code, out, err = cli("validate", f)
    one_line_refusal(code, err, f"{f}:6: 3000 buildings placed in one layout: over the limit of 1000",
                     "SPRAWLMAP_MAX_BUILDINGS=N")


def test_100000_vertex_polygon_refused_by_the_vertices_limit(cli, no_compile, doc):
    f = doc(polygon_points=100_000)
    code, out, err = cli("los", f, "1,1", "2,2")
    one_line_refusal(code, err, f"{f}:8: 100000 points in one polygon or path: over the limit of 5000",
                     "SPRAWLMAP_MAX_VERTICES=N")


def test_sprawling_board_refused_by_the_dots_limit(cli, no_compile, doc):
    f = doc(far_pavement=3000)
    code, out, err = cli("reach", f, "1,1", "--move-ratio", "2")
    # the box from (0, 0) to (3048, 3032), one level
    one_line_refusal(code, err, f"{f}: {3048 * 3032} dots of the board", "SPRAWLMAP_MAX_DOTS=N")


def test_a_limit_is_raised_by_its_environment_variable(cli, doc, monkeypatch):
    f = doc(placements=4)
    monkeypatch.setenv("SPRAWLMAP_MAX_BUILDINGS", "3")
    code, out, err = cli("validate", f)
    one_line_refusal(code, err, "4 buildings placed in one layout: over the limit of 3")
    monkeypatch.setenv("SPRAWLMAP_MAX_BUILDINGS", "4")
    code, out, err = cli("validate", f)
    assert code == 0, err
    assert limits.limit("buildings") == 4


def test_games_limit_names_the_variable(cli, no_compile, monkeypatch):
    from robust_helpers import SAMPLE

    monkeypatch.setenv("SPRAWLMAP_MAX_GAMES", "50")
    code, out, err = cli("play", SAMPLE, "--bots", "51")
    one_line_refusal(code, err, "--bots must be a whole number from 1 to 50", "SPRAWLMAP_MAX_GAMES=N")


def test_pdf_pages_limit(cli, monkeypatch, tmp_path):
    from robust_helpers import SAMPLE

    monkeypatch.setenv("SPRAWLMAP_MAX_PAGES", "10")
    out = tmp_path / "map.pdf"
    code, _, err = cli("export", SAMPLE, "--format", "pdf", "-o", out, "--dot-mm", "100", "--force")
    one_line_refusal(code, err, "pages of one printable PDF: over the limit of 10", "SPRAWLMAP_MAX_PAGES=N")
    assert not out.exists()
