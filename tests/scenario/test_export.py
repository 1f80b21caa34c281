"""Export: the bundle round trip, refusal on errors, PDF tiling, UVTT walls, PNG and SVG."""

import base64
import json
import math
import re
import xml.etree.ElementTree as ET
import zlib

import numpy as np
import pytest

import editor.render  # noqa: F401  (the Qt painter draws PNG and VTT images)
from engine import model as m
from engine.board import compile_board
from engine.cli import main
from engine.export import ExportRefused, export
from engine.export.pdf import tiling
from engine.io import load_board, save_document, save_sheet
from tests.builders import pavement
from tests.scenario.scenes import rect, scenario

OBJS = (m.Objective("data", "runners", "retrieve", at=(16, 12, 1), then="exit-east", points=10),
        m.Objective("hold", "guards", "hold", area=rect(15, 11, 17, 13), turns=2))


@pytest.fixture(scope="module")
def good():
    return scenario(OBJS, turn_limit=20)


def signature(board):
    """Everything the rules read from a compiled board, in comparable form."""
    feats = sorted((f.kind, f.id, f.level, f.geom.normalize().wkt,
                    tuple(sorted((k, str(v)) for k, v in f.props.items())))
                   for f in board.all_features())
    dots = {lv: sorted(map(tuple, board.dots(lv).tolist())) for lv in board.levels}
    links = sorted((a, b, f.id) for a, b, f in board.stair_links)
    blds = [(b.placement_id, b.height, b.footprint.normalize().wkt) for b in board.buildings]
    return feats, dots, links, blds, board.bounds


def read_png(data: bytes) -> np.ndarray:
    """RGB pixels of a PNG (read with Qt, which wrote it)."""
    from PySide6.QtGui import QImage

    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = QImage.fromData(data, "PNG").convertToFormat(QImage.Format.Format_RGB888)
    w, h, bpl = img.width(), img.height(), img.bytesPerLine()
    raw = np.frombuffer(bytes(img.constBits()), dtype=np.uint8).reshape(h, bpl)
    return raw[:, :w * 3].reshape(h, w, 3).copy()


# ------------------------------------------------------------------------------ bundle


def test_bundle_round_trip_gives_the_same_board(good, tmp_path):
    sc, _bd, sheets = good
    # the designer's files: a scenario with its mapsheets beside it
    src = tmp_path / "work"
    src.mkdir()
    for sheet in sheets.values():
        save_sheet(sheet, src / f"{sheet.id}.yaml")
    save_document(sc, src / "run.yaml")
    sc1, bd1 = load_board(src / "run.yaml")
    # the bundle goes somewhere with no mapsheets at all
    dst = tmp_path / "elsewhere"
    (out,) = export(sc1, bd1, "yaml", dst / "run-bundle.yaml", base_dir=src)
    text = out.read_text()
    assert text.count("format: sprawlmap/mapsheet@1") == 2  # both sheets inlined
    sc2, bd2 = load_board(out)
    assert [s.id for s in sc2.layout.sheets] == ["pave", "hotel"]
    assert signature(bd2) == signature(bd1)
    assert sc2.objectives == sc1.objectives and sc2.sides == sc1.sides
    # and the bundle of the bundle is the same text
    (again,) = export(sc2, bd2, "yaml", dst / "again.yaml")
    assert again.read_text() == text


# --------------------------------------------------------------------------- refusing


def test_export_refused_with_errors_unless_forced(tmp_path):
    sc, bd, _ = scenario((m.Objective("vault-cash", "runners", "reach", at=(22, 12, 0)),))
    with pytest.raises(ExportRefused) as exc:
        export(sc, bd, "svg", tmp_path / "map.svg")
    assert [f.code for f in exc.value.findings if f.severity == "error"] == [
        "objective-unreachable"]
    assert not (tmp_path / "map.svg").exists()
    written = export(sc, bd, "svg", tmp_path / "map.svg", force=True)
    assert [p.name for p in written] == ["map.svg", "map-L1.svg", "map-L2.svg"]


def test_cli_export_refuses_then_forces(good, tmp_path, capsys):
    sc, bd, sheets = scenario((m.Objective("vault-cash", "runners", "reach", at=(22, 12, 0)),))
    src = tmp_path / "bad.yaml"
    export(sc, bd, "yaml", src, sheets=sheets, force=True)
    out = tmp_path / "bad.pdf"
    assert main(["export", str(src), "--format", "pdf", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "[objective-unreachable]" in err and "vault-cash" in err and "--force" in err
    assert not out.exists()
    assert main(["export", str(src), "--format", "pdf", "-o", str(out), "--force"]) == 0
    cap = capsys.readouterr()
    assert "exported anyway" in cap.err and f"wrote {out}" in cap.out
    assert out.read_bytes().startswith(b"%PDF-1.6")


# -------------------------------------------------------------------------------- PDF


def plain(w, h):
    pave = pavement(w, h)
    lay = m.Layout(pavement=(m.Placement(pave.id, (0, 0)),))
    return m.Scenario(title="Plain", layout=lay), compile_board(lay, {pave.id: pave})


def pdf_pages(data: bytes) -> int:
    kids = len(re.findall(rb"/Type /Page ", data))
    (count,) = re.findall(rb"/Type /Pages /Kids \[[^\]]*\] /Count (\d+)", data)
    assert int(count) == kids
    return kids


@pytest.mark.parametrize("size,paper,dot_mm,tiles,landscape", [
    ((40, 30), "a4", 25.4, (6, 3), False),  # 1016 x 762 mm
    ((40, 30), "letter", 25.4, (6, 4), False),
    ((24, 16), "a4", 25.4, (4, 2), False),  # 609.6 x 406.4 mm
    ((40, 30), "a4", 10.0, (2, 2), True),  # 400 x 300 mm: landscape needs fewer pages
])
def test_pdf_page_count(size, paper, dot_mm, tiles, landscape, tmp_path):
    sc, bd = plain(*size)
    t = tiling(size[0] * dot_mm, size[1] * dot_mm, paper)
    assert (t.cols, t.rows, t.landscape) == (*tiles, landscape)
    (out,) = export(sc, bd, "pdf", tmp_path / "p.pdf", page=paper, dot_mm=dot_mm)
    data = out.read_bytes()
    # the briefing, the street's overview, and every tile (a bare pavement has no blank tile)
    assert pdf_pages(data) == 2 + tiles[0] * tiles[1]
    assert b"/ViewerPreferences << /PrintScaling /None >>" in data
    assert data.endswith(b"%%EOF\n")
    # deterministic: the same input gives the same bytes
    (again,) = export(sc, bd, "pdf", tmp_path / "q.pdf", page=paper, dot_mm=dot_mm)
    assert again.read_bytes() == data


def test_pdf_xref_offsets_point_at_objects(good, tmp_path):
    sc, bd, _ = good
    progress = []
    (out,) = export(sc, bd, "pdf", tmp_path / "m.pdf", progress=lambda d, t: progress.append((d, t)))
    data = out.read_bytes()
    # briefing + street overview and 18 tiles + level 1 and roof (12 x 10 dots): overview and
    # 2 tiles each
    assert pdf_pages(data) == 26
    assert progress[-1] == (26, 26) and len(progress) == 26
    start = int(re.search(rb"startxref\n(\d+)", data).group(1))
    table = data[start:].split(b"trailer")[0].split(b"\n")[2:-1]
    for i, row in enumerate(table[1:], 1):
        off = int(row[:10])
        assert data[off:off + 12].startswith(f"{i} 0 obj".encode())
    first = data.index(b"stream\n", data.index(b"/Subtype /Form")) + 7
    content = zlib.decompress(data[first:data.index(b"\nendstream", first)]).decode("latin-1")
    depth = 0
    for tok in content.split():
        depth += (tok == "q") - (tok == "Q")
        assert depth >= 0
    assert depth == 0 and content.split().count("q") > 10
    s = 25.4 * 72 / 25.4  # one dot is 72 pt at the default scale
    assert content.startswith(f"{s:g} 0 0 {-s:g} 36 2124 cm")


# ------------------------------------------------------------------------------- UVTT


def test_uvtt_walls_and_portals_match_the_board(good, tmp_path):
    sc, bd, _ = good
    paths = export(sc, bd, "uvtt", tmp_path / "map.dd2vtt")
    assert [p.name for p in paths] == ["map.dd2vtt", "map-L1.dd2vtt", "map-L2.dd2vtt"]
    doc = json.loads(paths[0].read_text())
    assert doc["format"] == 0.3
    res = doc["resolution"]
    assert res["map_size"] == {"x": 40, "y": 30} and res["map_origin"] == {"x": 0, "y": 0}
    walls = [f for f in bd.features(0) if f.kind in ("wall", "fence")]
    n_parts = sum(len(getattr(f.geom, "geoms", [f.geom])) for f in walls)
    assert len(doc["line_of_sight"]) == n_parts
    # every wall point, back in world dots, lies on a wall or fence of the board
    pts = np.array([(p["x"] - 0.5, p["y"] - 0.5) for w in doc["line_of_sight"] for p in w])
    from shapely import points
    from shapely.ops import unary_union
    u = unary_union([f.geom for f in walls])
    assert u.buffer(1e-6).contains(points(pts)).all()
    doors = [f for f in bd.features(0) if f.kind in ("door", "window")]
    assert len(doc["portals"]) == len(doors) == 2
    front = next(p for p in doc["portals"] if p["position"] == {"x": 14.0, "y": 14.5})
    assert front["bounds"] == [{"x": 14.0, "y": 14.0}, {"x": 14.0, "y": 15.0}]
    assert front["closed"] is True and front["freestanding"] is False
    assert math.isclose(front["rotation"], math.pi / 2, abs_tol=1e-6)
    window = next(p for p in doc["portals"] if p is not front)
    assert window["closed"] is False and window["rotation"] == 0
    # the trunk of the oak is a sight-blocking object
    assert len(doc["objects_line_of_sight"]) == 1
    img = read_png(base64.b64decode(doc["image"]))
    ppg = res["pixels_per_grid"]
    assert img.shape == (30 * ppg, 40 * ppg, 3)
    up = json.loads(paths[1].read_text())
    # a window is a see-through portal whatever its state (the importer reads closed as "door")
    assert len(up["portals"]) == 1 and up["portals"][0]["closed"] is False


# --------------------------------------------------------------------------- pictures


def test_png_is_a_clean_picture(good, tmp_path):
    sc, bd, _ = good
    paths = export(sc, bd, "png", tmp_path / "map.png")
    img = read_png(paths[0].read_bytes())
    from engine.render.display import build_scene
    x0, y0, x1, y1 = build_scene(bd, sc, 0).canvas
    assert img.shape == (math.ceil((y1 - y0) * 32 - 1e-6), math.ceil((x1 - x0) * 32 - 1e-6), 3)

    def px(x, y):
        return img[int((y - y0) * 32), int((x - x0) * 32)].astype(int)

    from engine.render import style
    assert np.abs(px(30.5, 5.5) - style.rgb(style.PAVEMENT)).max() <= 2  # pavement between dots
    assert (px(30, 5) < 170).all()  # a dot of the grid: grey
    assert (px(13.5, 12) < 60).all()  # the hotel's west wall: near black
    door = px(13.5, 14)  # the closed front door: brown
    assert door[0] > door[2] + 60


def test_svg_parses_and_draws_walls_doors_and_legend(good, tmp_path):
    sc, bd, _ = good
    paths = export(sc, bd, "svg", tmp_path / "map.svg")
    ns = {"s": "http://www.w3.org/2000/svg"}
    root = ET.parse(paths[0]).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "Test Run" in texts and "20 m" in texts
    # the legend names each side by its name, not its id
    assert "Door: closed, open" in texts and "Deployment: Runners" in texts
    # the drawing states its physical size: 1 dot = 25.4 mm
    x0, y0, w, h = (float(v) / 10 for v in root.get("viewBox").split())
    assert root.get("width") == f"{w * 25.4:.2f}".rstrip("0").rstrip(".") + "mm"
    assert root.get("height") == f"{h * 25.4:.2f}".rstrip("0").rstrip(".") + "mm"
    walls = [p for p in root.find("s:g[@id='map-items']", ns)
             if p.get("stroke") == "#1b1b1b" and float(p.get("stroke-width")) >= 1.0]
    n_parts = sum(len(getattr(f.geom, "geoms", [f.geom]))
                  for f in bd.features(0) if f.kind == "wall")
    assert len(walls) == n_parts
    up = ET.parse(paths[1]).getroot()
    assert any(t.text == "data (retrieve)" for t in up.iter("{http://www.w3.org/2000/svg}text"))


def test_cli_bad_export_input_is_one_line_exit_2(good, tmp_path, capsys):
    sc, bd, sheets = good
    src = tmp_path / "ok.yaml"
    export(sc, bd, "yaml", src, sheets=sheets)
    code = main(["export", str(src), "--format", "pdf", "-o", str(tmp_path / "x.pdf"),
                 "--dot-mm", "0"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--dot-mm must be a number of millimetres from 2 to 100" in err
    empty = m.Scenario(title="Empty", layout=m.Layout())
    with pytest.raises(ValueError, match="nothing to draw"):
        export(empty, compile_board(empty.layout, {}), "png", tmp_path / "e.png")
