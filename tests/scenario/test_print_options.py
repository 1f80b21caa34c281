"""Print and VTT options: chosen levels and paper, blank tiles skipped, the briefing,
player-safe pictures, and every VTT level on one frame."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from engine import model as m
from engine.board import compile_board
from engine.cli import main
from engine.export import export
from engine.export.pdf import PAPERS, tiling
from tests.builders import building, outer_walls, pavement, rect
from tests.scenario.test_export import pdf_pages

ROOT = Path(__file__).resolve().parents[2]


def two_towers():
    """Two 3-story 6 x 6 towers in opposite corners of a 60 x 40 street, a lit bar in one,
    a door and a window each, sides deployed, an objective on the roof of one."""
    lv0 = m.Level(0, walls=outer_walls(6, 6),
                  doors=(m.Opening("door", ((-0.5, 2.5), (-0.5, 3.5)), state="open", id="d"),),
                  windows=(m.Opening("window", ((2.5, -0.5), (3.5, -0.5)), state="closed",
                                     id="w"),),
                  areas=(m.Area("modifier", rect(0.6, 0.6, 2.4, 2.4), target_modifier=1,
                                note="bright lights over the bar", id="bar"),),
                  elevators=(m.Elevator((4, 4), (0, 1, 2, 3), id="lift"),))
    tower = building("tower", 6, 6, height=3, levels=(lv0,))
    pave = pavement(60, 40)
    lay = m.Layout(pavement=(m.Placement(pave.id, (0, 0)),),
                   placements=(m.Placement("tower", (2, 2), id="nw"),
                               m.Placement("tower", (52, 32), id="se")))
    sc = m.Scenario(
        title="Two Towers", layout=lay, turn_limit=7,
        sides=(m.Side("red", "Red Team", m.Deployment(edge="west", depth=2)),
               m.Side("blue", "Blue Team", m.Deployment(edge="east", depth=2))),
        objectives=(m.Objective("flag", "red", "reach", at=(5, 5, 3), points=5),),
        notes="Take the roof of the south-east tower.")
    return sc, compile_board(lay, {"tower": tower, pave.id: pave})


@pytest.fixture(scope="module")
def towers():
    return two_towers()


def streams(data: bytes) -> str:
    out = []
    for mt in re.finditer(rb"stream\n(.*?)\nendstream", data, re.S):
        out.append(zlib.decompress(mt.group(1)).decode("latin-1"))
    return "\n".join(out)


def test_levels_and_paper_choose_what_is_printed(towers, tmp_path):
    sc, bd = towers
    # street level alone on A3: 60 x 40 dots = 1524 x 1016 mm; landscape A3 prints 400 x 277
    # mm, 390 x 267 mm apart: ceil(1514 / 390) = 4 columns, ceil(1006 / 267) = 4 rows
    # (portrait would need 6 x 3 = 18)
    (out,) = export(sc, bd, "pdf", tmp_path / "a3.pdf", page="a3", levels=[0])
    t = tiling(1524, 1016, "a3")
    assert (t.cols, t.rows, t.landscape) == (4, 4, True) and PAPERS["a3"] == (297.0, 420.0)
    assert pdf_pages(out.read_bytes()) == 1 + 1 + 16
    (tab,) = export(sc, bd, "pdf", tmp_path / "tab.pdf", page="tabloid", levels=[0])
    t = tiling(1524, 1016, "tabloid")
    assert pdf_pages(tab.read_bytes()) == 2 + t.cols * t.rows
    assert b"/MediaBox [0 0 1224 792]" in tab.read_bytes()  # 17 x 11 in, landscape tiles
    with pytest.raises(ValueError, match="level 7 is not on this map"):
        export(sc, bd, "pdf", tmp_path / "x.pdf", levels=[7])
    svgs = export(sc, bd, "svg", tmp_path / "m.svg", levels=[0, 2])
    assert [p.name for p in svgs] == ["m.svg", "m-L2.svg"]


def test_upper_levels_skip_blank_tiles(towers, tmp_path):
    sc, bd = towers
    # level 1's box spans both towers: x 0.5..58.5, y 0.5..38.5 (1473 x 965 mm), 9 x 4 A4
    # tiles 180 x 267 mm apart; the north-west tower (x, y 1.5..7.5) touches only A1, the
    # south-east one (51.5..57.5, 31.5..37.5) columns H and I of rows 3 and 4
    (out,) = export(sc, bd, "pdf", tmp_path / "l1.pdf", levels=[1])
    data = out.read_bytes()
    from engine.export.pdf import level_tiling, printed_tiles
    from engine.render.display import build_scene

    s1 = build_scene(bd, sc, 1)
    t = level_tiling(s1, "a4", 25.4)
    kept = printed_tiles(s1, t, 25.4)
    assert (t.cols, t.rows) == (9, 4) and kept == [(0, 0), (7, 2), (8, 2), (7, 3), (8, 3)]
    assert pdf_pages(data) == 1 + 1 + 5
    text = streams(data)
    assert "(31 blank tile\\(s\\) not printed\\)" in text
    assert "(L1-A1)" in text and "(L1-I4)" in text and "(L1-B1)" not in text


def test_briefing_legend_margins_and_no_scaling(towers, tmp_path):
    sc, bd = towers
    (out,) = export(sc, bd, "pdf", tmp_path / "b.pdf", levels=[0])
    data = out.read_bytes()
    assert b"/ViewerPreferences << /PrintScaling /None >>" in data
    text = streams(data)
    for needed in ("(Two Towers)", "(Red Team)", "(Blue Team)", "Turn limit: 7",
                   "(Objectives)", "flag \\(reach\\)", "(Take the roof of the south-east tower.)",
                   "(Deployment: Red Team)", "(Deployment: Blue Team)", "(Buildings: Tower",
                   "50 mm"):
        assert needed in text, needed
    # dot coordinates along the first tile's top edge: 0, 1, 2, ... at 25.4 mm per dot
    assert re.search(r"BT /F1 5\.5 Tf .*? Td \(0\) Tj ET", text)
    assert re.search(r"BT /F1 5\.5 Tf .*? Td \(7\) Tj ET", text)


def test_player_safe_leaves_the_scenario_out_of_every_picture(towers, tmp_path):
    sc, bd = towers
    (full,) = export(sc, bd, "pdf", tmp_path / "gm.pdf", levels=[0, 3])
    (safe,) = export(sc, bd, "pdf", tmp_path / "pl.pdf", levels=[0, 3], player_safe=True)
    gm, pl = streams(full.read_bytes()), streams(safe.read_bytes())
    assert "flag \\(reach\\)" in gm and "Deployment: Red Team" in gm
    assert "flag" not in pl and "Deployment:" not in pl and "Objectives" not in pl
    assert "(Red Team)" in pl  # the sides are still named in the briefing
    for fmt, ext in (("svg", "svg"), ("png", "png"), ("uvtt", "dd2vtt")):
        a = export(sc, bd, fmt, tmp_path / f"gm.{ext}", levels=[3])
        b = export(sc, bd, fmt, tmp_path / f"pl.{ext}", levels=[3], player_safe=True)
        assert a[0].read_bytes() != b[0].read_bytes(), fmt
    svg = (tmp_path / "pl-L3.svg").read_text()
    assert "flag" not in svg and "Red Team" not in svg
    assert "flag (reach)" in (tmp_path / "gm-L3.svg").read_text()


def test_uvtt_levels_share_one_frame_doors_and_windows_as_the_importer_reads(towers, tmp_path):
    sc, bd = towers
    paths = export(sc, bd, "uvtt", tmp_path / "m.dd2vtt")
    docs = [json.loads(p.read_text()) for p in paths]
    assert [p.name for p in paths] == ["m.dd2vtt", "m-L1.dd2vtt", "m-L2.dd2vtt", "m-L3.dd2vtt"]
    frames = {json.dumps(d["resolution"], sort_keys=True) for d in docs}
    assert len(frames) == 1  # same origin, size and pixels per grid on every level
    res = docs[0]["resolution"]
    assert res["map_origin"] == {"x": 0, "y": 0} and res["map_size"] == {"x": 60, "y": 40}
    # the same wall corner lands on the same grid point on the street and on level 1:
    # the north-west tower's outer corner (1.5, 1.5) is grid (2, 2) with the origin at -0.5
    for d in docs[:3]:
        pts = {(p["x"], p["y"]) for w in d["line_of_sight"] for p in w}
        assert (2.0, 2.0) in pts and (58.0, 38.0) in pts
    # the open door is still a door (closed: true); the closed window is seen through
    kinds = sorted((p["closed"], p["position"]["x"], p["position"]["y"])
                   for p in docs[0]["portals"])
    assert kinds == [(False, 5.5, 2.0), (False, 55.5, 32.0), (True, 2.0, 5.5),
                     (True, 52.0, 35.5)]
    # the lit bar of each tower: a light at its middle reaching its corners
    lights = sorted((lt["position"]["x"], lt["position"]["y"], lt["range"])
                    for lt in docs[0]["lights"])
    assert lights == [(4.0, 4.0, 1.273), (54.0, 34.0, 1.273)]  # half of a 1.8 dot diagonal
    assert docs[1]["lights"] == []


def test_cli_exports_every_format_without_a_display(tmp_path):
    """The launcher, in a fresh process with no display and no Qt platform set."""
    import os

    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["PYTHONPATH"] = str(ROOT)
    src = ROOT / "scenarios" / "nightclub-hold.yaml"
    for fmt, name in (("png", "n.png"), ("svg", "n.svg"), ("uvtt", "n.dd2vtt"),
                      ("pdf", "n.pdf")):
        r = subprocess.run([sys.executable, "-m", "editor.cli", "export", str(src), "--format",
                            fmt, "-o", str(tmp_path / name), "--levels", "0,1", "--page",
                            "letter", "--player-safe", "--force"],
                           env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert f"wrote {tmp_path / name}" in r.stdout
    assert (tmp_path / "n-L1.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = subprocess.run([sys.executable, "-m", "editor.cli", "export", str(src), "--format",
                          "pdf", "-o", str(tmp_path / "b.pdf"), "--levels", "0,9"],
                         env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "level 9 is not on this map" in bad.stderr and not (tmp_path / "b.pdf").exists()


def test_main_accepts_the_print_options(towers, tmp_path, capsys):
    sc, bd = towers
    src = tmp_path / "t.yaml"
    sheets = {"tower": bd.buildings[0].sheet, "pave": pavement(60, 40)}
    export(sc, bd, "yaml", src, sheets=sheets)
    out = tmp_path / "t.pdf"
    assert main(["export", str(src), "--format", "pdf", "-o", str(out), "--levels", "all",
                 "--page", "a3", "--player-safe"]) == 0
    # A3 landscape: the street in 4 x 4 tiles; levels 1-3 (1473 x 965 mm, 4 x 4 tiles 390 x
    # 267 mm apart) print A1 (north-west tower) and D3, D4 (south-east tower)
    assert pdf_pages(out.read_bytes()) == 1 + (1 + 16) + 3 * (1 + 3)
    assert main(["export", str(src), "--format", "pdf", "-o", str(out), "--levels", "x"]) == 2
    assert "--levels 'x' is not 'all'" in capsys.readouterr().err
