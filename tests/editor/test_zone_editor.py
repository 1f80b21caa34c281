"""The zone editor driven through its real widgets (pytest-qt, off screen): the seed's River
zone, paths, barriers, dice, findings, linked blocks, Compose, undo."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from editor.app import open_window
from editor.zone.document import ZoneDocument
from editor.zone.window import ZoneWindow
from engine.io import load_board
from engine.los import line_of_sight
from engine.movement import cheapest_path
from engine.zone.dice import landslide_turn
from engine.zone.io import load_zone

ROOT = Path(__file__).resolve().parents[2]
RIVER2 = ROOT / "zones" / "river-2.yaml"


@pytest.fixture
def zone_window(qtbot):
    def make(doc=None):
        win = ZoneWindow(doc)
        win.setProperty("headless", True)
        qtbot.addWidget(win)
        win.show()
        qtbot.waitExposed(win)
        win.view.fit()
        return win
    return make


def click_block(qtbot, win, b, double=False):
    pos = win.view.mapFromScene(win.view.centre(b))
    if double:
        qtbot.mouseDClick(win.view.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    else:
        qtbot.mouseClick(win.view.viewport(), Qt.MouseButton.LeftButton, pos=pos)


def click_edge(qtbot, win, a, b):
    pa, pb = win.view.centre(a), win.view.centre(b)
    pos = win.view.mapFromScene((pa + pb) / 2)
    qtbot.mouseClick(win.view.viewport(), Qt.MouseButton.LeftButton, pos=pos)


def path_text(win):
    return win.path_label.text()


def test_build_the_seed_river_zone_layout_1_cuts_layout_2_does_not(zone_window, qtbot):
    win = zone_window()
    assert win.doc.zone.grid == (4, 4) and [p.safehouse for p in win.doc.zone.players] == ["north", "south"]
    qtbot.mouseClick(win.preset_buttons[0], Qt.MouseButton.LeftButton)
    assert win.doc.zone.river.blocks == ((0, 2), (1, 2), (2, 1), (3, 1))
    assert path_text(win).startswith("NO PATH: the River separates")
    assert any("separates players A and B" in win.findings.item(i).text() for i in range(win.findings.count()))
    win.path_vehicle.setChecked(True)
    assert "4 move(s) with a vehicle" in path_text(win)
    win.path_vehicle.setChecked(False)
    qtbot.mouseClick(win.preset_buttons[1], Qt.MouseButton.LeftButton)
    assert win.doc.zone.river.preset == 2
    assert path_text(win).startswith("4 move(s) on foot")
    assert win.view.path_blocks == [(0, 0), (0, 1), (0, 2), (0, 3)]
    win.doc.undo_stack.undo()
    assert win.doc.zone.river.preset == 1 and path_text(win).startswith("NO PATH")


def test_barrier_on_an_edge_sends_the_path_around_and_diagonals_are_refused(zone_window, qtbot):
    win = zone_window()
    qtbot.mouseClick(win.preset_buttons[1], Qt.MouseButton.LeftButton)
    win.ask_body = lambda a, b: 6
    win.set_tool("path")
    click_block(qtbot, win, (0, 1))
    click_block(qtbot, win, (1, 1))
    assert win.view.path_blocks == [(0, 1), (1, 1)]
    win.set_tool("barrier")
    click_edge(qtbot, win, (0, 1), (1, 1))
    br = win.doc.zone.barrier((0, 1), (1, 1))
    assert br is not None and br.body == 6
    assert win.view.path_blocks == [(0, 1), (0, 0), (1, 0), (1, 1)]
    assert "3 move(s)" in path_text(win)
    click_block(qtbot, win, (0, 0))
    click_block(qtbot, win, (1, 1))  # diagonal: refused
    assert "never diagonal" in win.status.text() and len(win.doc.zone.barriers) == 1
    win.doc.undo_stack.undo()
    assert win.doc.zone.barriers == () and win.view.path_blocks == [(0, 1), (1, 1)]


def test_roll_a_landslide_with_seed_log_and_arrows(zone_window, qtbot):
    win = zone_window()
    win.seed_spin.setValue(11)
    win.runners_spin.setValue(3)
    expected = landslide_turn(win.doc.zone, random.Random(11), 3)[2]
    qtbot.mouseClick(win.landslide_button, Qt.MouseButton.LeftButton)
    log = win.dice_log.item(0).text()
    blk = expected["block"]
    assert log.startswith(f"seed 11: landslide on {blk[0]},{blk[1]}")
    assert len(win.view.pushes) == 3 and all(src == tuple(blk) for src, _ in win.view.pushes)
    assert [list(dst) for _, dst in win.view.pushes] == [p["to"] for p in expected["pushes"]]
    assert win.seed_spin.value() == 12
    qtbot.mouseClick(win.growth_button, Qt.MouseButton.LeftButton)
    assert win.dice_log.item(1).text().startswith("seed 12: growth")


def test_landslide_destroys_a_barrier_undoably(zone_window, qtbot):
    win = zone_window()
    seed = next(s for s in range(200) if landslide_turn(win.doc.zone, random.Random(s))[2]["block"] == [1, 1])
    win.ask_body = lambda a, b: 4
    win.set_tool("barrier")
    click_edge(qtbot, win, (1, 1), (1, 2))
    assert len(win.doc.zone.barriers) == 1
    win.seed_spin.setValue(seed)
    qtbot.mouseClick(win.landslide_button, Qt.MouseButton.LeftButton)
    assert win.doc.zone.barriers == () and "destroyed" in win.dice_log.item(0).text()
    win.doc.undo_stack.undo()
    assert len(win.doc.zone.barriers) == 1


def test_shape_entry_card_and_link_tools_with_undo(zone_window, qtbot, tmp_path):
    win = zone_window()
    win.set_tool("shape")
    click_block(qtbot, win, (3, 3))
    assert not win.doc.zone.has_block((3, 3)) and win.doc.zone.shape[3] == "###."
    win.set_tool("entry")
    win.entry_player.setCurrentText("B")
    click_block(qtbot, win, (0, 3))
    assert win.doc.zone.player("B").entries == ((1, 3), (2, 3))
    win.set_tool("card")
    click_block(qtbot, win, (1, 1))
    click_block(qtbot, win, (1, 1))
    assert win.doc.zone.block((1, 1)).card == "face-up"
    win.doc.save(tmp_path / "z.yaml")
    (tmp_path / "b.yaml").write_text((ROOT / "zones" / "blocks" / "club-strip.yaml").read_text(), encoding="utf-8")
    win.ask_layout = lambda b: "b.yaml"
    win.set_tool("link")
    click_block(qtbot, win, (2, 2))
    assert win.doc.zone.block((2, 2)).layout == "b.yaml"
    for _ in range(5):
        win.doc.undo_stack.undo()
    assert win.doc.zone.shape is None and win.doc.zone.blocks == () and win.doc.zone.player("B").entries is None


def test_findings_zoom_to_their_blocks(zone_window, qtbot):
    win = zone_window()
    qtbot.mouseClick(win.preset_buttons[0], Qt.MouseButton.LeftButton)
    item = next(win.findings.item(i) for i in range(win.findings.count())
                if "separates" in win.findings.item(i).text())
    rect = win.findings.visualItemRect(item)
    qtbot.mouseClick(win.findings.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert win.view.highlight == [(0, 2), (1, 2), (2, 1), (3, 1)]


def test_double_click_opens_the_layout_and_compose_opens_the_neighbourhood(zone_window, qtbot, tmp_path):
    win = zone_window(ZoneDocument.open(RIVER2))
    opened = []

    def opener(path):
        w = open_window(path, show=False)
        opened.append((path, w))
        return w
    win.open_document = opener
    click_block(qtbot, win, (1, 1), double=True)
    path, layout_win = opened[-1]
    assert path.name == "office-plaza.yaml" and type(layout_win).__name__ == "MainWindow"
    assert [p.sheet for p in layout_win.doc.root.layout.placements] == ["office-tower", "police-station"]
    out = tmp_path / "west.yaml"
    win.ask_compose_path = lambda: out
    qtbot.mouseClick(win.toolbar_button("Compose"), Qt.MouseButton.LeftButton)
    assert opened[-1][0] == out and type(opened[-1][1]).__name__ == "MainWindow"
    _sc, board = load_board(out)
    assert not line_of_sight(board, (40, 1, 0), (56, 1, 0)).blocked  # across the 0,0 | 1,0 seam
    assert cheapest_path(board, (46, 1, 0), (50, 1, 0), 2).reachable
    for _p, w in opened:
        w.doc.undo_stack.setClean()
        w.close()


def test_zone_saves_and_the_app_opens_zone_files(zone_window, qtbot, tmp_path):
    from editor.app import run

    win = zone_window()
    qtbot.mouseClick(win.preset_buttons[1], Qt.MouseButton.LeftButton)
    target = tmp_path / "mine.yaml"
    win.ask_save_path = lambda: target
    assert win.save_as() and load_zone(target).river.preset == 2
    assert win.doc.undo_stack.isClean() and "mine.yaml" in win.windowTitle()
    shot = tmp_path / "shot.png"
    assert run(target, screenshot=shot) == 0 and shot.stat().st_size > 10_000


def test_zone_prints_on_one_page(qtbot, tmp_path):
    from editor.zone.printing import print_zone
    from engine.zone.model import ZoneBarrier, evolve

    z = evolve(load_zone(ROOT / "zones" / "river-1.yaml"), barriers=(ZoneBarrier(((0, 1), (1, 1)), 7),))
    pdf = print_zone(z, tmp_path / "z.pdf")
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page[^s]", data)) == 1
    svg = print_zone(z, tmp_path / "z.svg").read_text(encoding="utf-8")
    assert "Body 7" in svg and svg.count("#4a90c8") == 4  # four River blocks
    assert "Player A (A): safehouse" in svg and "Player B (B): safehouse" in svg


def test_main_window_opens_zones_beside_layouts(qtbot, tmp_path):
    from editor.main_window import MainWindow

    main = MainWindow(scan_recovery=False, recovery_dir=tmp_path)
    qtbot.addWidget(main)
    assert main.open_path(RIVER2)
    zw = main.zone_windows[-1]
    assert isinstance(zw, ZoneWindow) and zw.doc.zone.title == "Downtown, river layout 2"
    zw.open_document(RIVER2.parent / "blocks" / "club-strip.yaml")
    opened = main.recovered_windows[-1]
    assert [p.sheet for p in opened.doc.root.layout.placements] == ["nightclub", "spa-club"]
    for w in (zw, opened):
        w.close()


def test_fight_in_a_block_writes_and_opens_its_scenario(zone_window, qtbot, tmp_path):
    win = zone_window(ZoneDocument.open(RIVER2))
    opened = []
    win.open_document = lambda p: opened.append(p)
    win.ask_fight_path = lambda b: tmp_path / "fight.yaml"
    win.set_tool("path")
    click_block(qtbot, win, (1, 1))
    assert win.block_fight() == tmp_path / "fight.yaml" and opened == [tmp_path / "fight.yaml"]
    sc, _board = load_board(tmp_path / "fight.yaml")
    assert [s.id for s in sc.sides] == ["A", "B"]
    assert "north edge of block 1,1 from block 1,0" in sc.sides[0].note
    assert "west edge of block 1,1 from block 0,1" in sc.sides[1].note
