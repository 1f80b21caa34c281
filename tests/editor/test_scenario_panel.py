"""The scenario panel driven through its real widgets: sides, characters, deployment, objectives,
and scenario findings in the findings panel."""

from __future__ import annotations

from dataclasses import replace

import samples
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QPushButton

from editor.canvas.scenario_item import ScenarioItem, side_colour
from editor.edits import FeatureRef
from editor.scenario_edits import ObjectiveRef, SideRef
from editor.tools.objective_place import PlaceObjectiveTool
from engine.catalogue import archetype_character
from engine.model import (
    Deployment,
    Layout,
    Level,
    Objective,
    Placement,
    Scenario,
    Sheet,
    Side,
    Wall,
)

LEFT = Qt.MouseButton.LeftButton


def panel_of(win, tab: int):
    win.scenario_dock.raise_()
    p = win.scenario_panel
    p.tabs.setCurrentIndex(tab)
    QApplication.processEvents()
    return p


def scenario_items(win) -> list[ScenarioItem]:
    return [it for it in win.scene.items() if isinstance(it, ScenarioItem)]


def test_side_and_character_from_archetype_undo_redo(make_editor, qtbot):
    win, d = make_editor()
    original = win.doc.root
    p = panel_of(win, 1)
    qtbot.mouseClick(p.add_side_button, LEFT)
    assert win.doc.root.sides == (Side(id="side-1", name="Side 1"),)
    # rename it by typing
    p.side_name.selectAll()
    qtbot.keyClicks(p.side_name, "Runners")
    assert win.doc.root.sides[0].name == "Runners"
    # add a street samurai from the catalogue: the book's ratios, 2 and 2
    ch = p.characters
    ch.archetype.setCurrentIndex(ch.archetype.findText("street-samurai"))
    qtbot.mouseClick(ch.add_button, LEFT)
    sam = win.doc.root.sides[0].characters[0]
    assert sam == replace(archetype_character("street-samurai"), id="street-samurai")
    assert (sam.move_ratio, sam.fire_ratio, sam.vision) == (2, 2, "low-light")
    after_add = win.doc.root
    # two steps up on the move ratio are one undo step
    ch.move.setFocus()
    qtbot.keyClick(ch.move, Qt.Key.Key_Up)
    qtbot.keyClick(ch.move, Qt.Key.Key_Up)
    assert win.doc.root.sides[0].characters[0].move_ratio == 4
    assert ch.table.item(0, 2).text() == "4"
    edited = win.doc.root
    win.undo_action.trigger()
    assert win.doc.root is after_add
    assert ch.move.value() == 2 and ch.table.item(0, 2).text() == "2"
    win.redo_action.trigger()
    assert win.doc.root is edited
    assert ch.move.value() == 4
    # a second character of the same archetype gets its own name
    qtbot.mouseClick(ch.add_button, LEFT)
    assert [(c.name, c.id) for c in win.doc.root.sides[0].characters] == [
        ("Street Samurai", "street-samurai"), ("Street Samurai 2", "street-samurai-2")]
    # success values typed as text
    ch.table.setCurrentCell(0, 0)
    ch.success.setFocus()
    ch.success.selectAll()
    qtbot.keyClicks(ch.success, "firearms 14, unarmed 16")
    qtbot.keyClick(ch.success, Qt.Key.Key_Return)
    assert win.doc.root.sides[0].characters[0].success == (("firearms", 14), ("unarmed", 16))
    while win.doc.undo_stack.canUndo():
        win.undo_action.trigger()
    assert win.doc.root is original
    assert p.sides.count() == 0 and not p.characters.add_button.isEnabled()


def test_weapon_table_and_removal(make_editor, qtbot):
    win, d = make_editor()
    p = panel_of(win, 1)
    qtbot.mouseClick(p.add_side_button, LEFT)
    ch = p.characters
    ch.archetype.setCurrentIndex(ch.archetype.findText("mercenary"))
    qtbot.mouseClick(ch.add_button, LEFT)
    merc = win.doc.root.sides[0].characters[0]
    assert ch.weapons.rowCount() == len(merc.weapons)
    qtbot.mouseClick(ch.findChild(QPushButton, "add-weapon"), LEFT)
    row = len(merc.weapons)
    assert win.doc.root.sides[0].characters[0].weapons[row].type == "heavy-pistol"
    ch.weapons.item(row, 2).setText("20/18/16/14")
    assert win.doc.root.sides[0].characters[0].weapons[row].success == (20, 18, 16, 14)
    ch.weapons.item(row, 2).setText("20/x")
    assert "not" in ch.problem.text() or "write" in ch.problem.text()
    assert win.doc.root.sides[0].characters[0].weapons[row].success == (20, 18, 16, 14)
    qtbot.mouseClick(ch.remove_button, LEFT)
    assert win.doc.root.sides[0].characters == ()


def test_paint_deployment_zone_tinted_per_side(make_editor, qtbot):
    win, d = make_editor()
    p = panel_of(win, 1)
    qtbot.mouseClick(p.add_side_button, LEFT)
    qtbot.mouseClick(p.add_side_button, LEFT)
    assert p.sides.currentRow() == 1
    qtbot.mouseClick(p.draw_zone, LEFT)
    assert win.tool_key == "deploy" and win.side_box.currentText() == "side-2"
    for x, y in ((30.2, 24.9), (36.4, 25.0), (36.5, 28.6), (30.0, 28.4)):
        d.click(x, y)
    d.key(Qt.Key.Key_Return)
    sc = win.doc.root
    assert sc.sides[0].deployment is None
    assert sc.sides[1].deployment == Deployment(
        polygon=((30.0, 25.0), (36.5, 25.0), (36.5, 28.5), (30.0, 28.5)), level=0)
    assert p.dep_kind.currentText() == "polygon"
    # the first side deploys along the west edge, 4 dots deep
    p.sides.setCurrentRow(0)
    p.dep_kind.setCurrentText("edge")
    p.dep_depth.setFocus()
    qtbot.keyClick(p.dep_depth, Qt.Key.Key_Up)
    assert win.doc.root.sides[0].deployment == Deployment(edge="west", depth=4, level=0)
    (item,) = scenario_items(win)
    assert [(c.name(), n) for c, _, n in item.zones] == [
        (side_colour(0).name(), "Side 1"), (side_colour(1).name(), "Side 2")]
    assert side_colour(0) != side_colour(1)
    # the west band covers 4 dots from the board's west edge
    assert item.zones[0][1].boundingRect().width() == 4.0


def test_place_objective_with_icon(make_editor, qtbot):
    win, d = make_editor()
    p = panel_of(win, 1)
    qtbot.mouseClick(p.add_side_button, LEFT)
    p.tabs.setCurrentIndex(2)
    p.new_kind.setCurrentText("retrieve")
    qtbot.mouseClick(p.add_objective_button, LEFT)
    assert isinstance(win.tool, PlaceObjectiveTool)
    assert "needs at" in p.objectives.item(0).text()
    d.click(14.8, 20.2)
    ob = win.doc.root.objectives[0]
    assert ob == Objective(id="objective-1", side="side-1", kind="retrieve", at=(15, 20, 0))
    assert win.tool_key == "select" and win.state.selection == ObjectiveRef(0)
    assert p.ob_at.text() == "dot 15,20,0"
    p.ob_then.setCurrentText("exit-east")
    p.ob_points.setFocus()
    for _ in range(3):
        qtbot.keyClick(p.ob_points, Qt.Key.Key_Up)
    ob = win.doc.root.objectives[0]
    assert (ob.then, ob.points) == ("exit-east", 2)  # "none", then 0, 1, 2
    (item,) = scenario_items(win)
    assert item.kinds == ["retrieve"]
    # an exit objective takes an edge, not a dot: the dot goes, the edge row shows
    p.ob_kind.setCurrentText("exit")
    ob = win.doc.root.objectives[0]
    assert (ob.kind, ob.at, ob.then, ob.points) == ("exit", None, None, 2)
    assert p.ob_edge.isVisibleTo(p) and not p.place_button.isVisibleTo(p)
    p.ob_edge.setCurrentText("east")
    assert win.doc.root.objectives[0].edge == "east"
    # renaming the side's id renames the objective's side
    p.tabs.setCurrentIndex(1)
    p.side_id.setFocus()
    p.side_id.selectAll()
    qtbot.keyClicks(p.side_id, "corp")
    qtbot.keyClick(p.side_id, Qt.Key.Key_Return)
    assert win.doc.root.sides[0].id == "corp"
    assert win.doc.root.objectives[0].side == "corp"


def test_settings_and_briefing(make_editor, qtbot):
    win, d = make_editor()
    p = panel_of(win, 0)
    p.light.setCurrentText("partial-darkness")
    p.turn_limit.setFocus()
    for _ in range(8):  # from 'none' (0)
        qtbot.keyClick(p.turn_limit, Qt.Key.Key_Up)
    qtbot.mouseClick(p.most_points, LEFT)
    p.briefing.setFocus()
    qtbot.keyClicks(p.briefing, "Get in.")
    qtbot.keyClick(p.briefing, Qt.Key.Key_Return)
    qtbot.keyClicks(p.briefing, "Get out.")
    sc = win.doc.root
    assert sc.conditions == (("light", "partial-darkness"),)
    assert sc.turn_limit == 8
    assert sc.victory == (("most_points", True),)
    assert sc.notes == "Get in.\nGet out."
    win.undo_action.trigger()  # the whole briefing is one step
    assert win.doc.root.notes == "" and p.briefing.toPlainText() == ""
    assert win.doc.root.victory == (("most_points", True),)


def vault() -> Sheet:
    """A 6 x 6 one-story room with four walls and no door: nobody gets in."""
    ring = ((-0.5, -0.5), (5.5, -0.5), (5.5, 5.5), (-0.5, 5.5), (-0.5, -0.5))
    return Sheet(id="vault", title="Vault", kind="building", lattice="square", size=(6, 6),
                 outline=samples.box(-0.5, -0.5, 5.5, 5.5), height=1,
                 levels=(Level(level=0, walls=(Wall(path=ring, cls="thick", exterior=True,
                                                    id="vault-wall"),)),))


def sealed_scenario() -> tuple[Scenario, dict]:
    lib = samples.library()
    lib["vault"] = vault()
    lay = Layout(lattice="square", pavement=(Placement(sheet="pavement-test", at=(0, 0)),),
                 placements=(Placement(sheet="vault", at=(28, 18), id="vault-1"),))
    side = Side(id="runners", name="Runners",
                deployment=Deployment(polygon=samples.box(0.5, 0.5, 4.5, 4.5), level=0))
    ob = Objective(id="loot", side="runners", kind="reach", at=(30, 20, 0))
    return Scenario(title="Sealed", layout=lay, sides=(side,), objectives=(ob,)), lib


def wait_findings(win, qtbot, code: str):
    def found():
        return any(f["code"] == code for f in win.findings.findings)
    qtbot.waitUntil(found, timeout=30000)
    return next(f for f in win.findings.findings if f["code"] == code)


def test_sealed_objective_found_live_and_double_click_goes_there(make_editor, qtbot):
    sc, lib = sealed_scenario()
    win, d = make_editor(sc, lib, centre=(5.0, 5.0))
    f = wait_findings(win, qtbot, "objective-unreachable")
    assert f["severity"] == "error"
    assert f["where"]["dots"] == [[30, 20, 0]] and f["where"]["objectives"] == ["loot"]
    lst = win.findings.list
    row = next(i for i, x in enumerate(win.findings.findings)
               if x["code"] == "objective-unreachable")
    item = lst.item(row)
    assert item.text().startswith("[error] objective loot (reach) of side runners: no path")
    win.view.set_zoom(6.0, (5.0, 5.0))
    rect = lst.visualItemRect(item)
    # a real double-click: press and release, then the double-click press
    qtbot.mouseClick(lst.viewport(), LEFT, pos=rect.center())
    qtbot.mouseDClick(lst.viewport(), LEFT, pos=rect.center())
    assert win.state.selection == ObjectiveRef(0)
    assert win.view.zoom() == 18.0
    c = win.view.mapToScene(win.view.viewport().rect().center())
    assert abs(c.x() - 30) < 0.6 and abs(c.y() - 20) < 0.6
    assert win.scenario_panel.objectives.currentRow() == 0
    # an edit in the panel is checked again: moving the objective out of the vault clears it
    p = panel_of(win, 2)
    qtbot.mouseClick(p.place_button, LEFT)
    d.click(20.0, 20.0)
    assert win.doc.root.objectives[0].at == (20, 20, 0)
    qtbot.waitUntil(lambda: not any(x["code"] == "objective-unreachable"
                                    for x in win.findings.findings), timeout=30000)
    assert any(x["code"] == "objective-turns" for x in win.findings.findings)


def test_finding_on_upper_level_switches_level(make_editor, qtbot):
    sc, lib = sealed_scenario()
    # the house's first floor is reached by its stair; put the objective in the wall there
    sc = replace(sc, layout=replace(sc.layout, placements=sc.layout.placements + (
        Placement(sheet="house", at=(4, 10), id="house-1"),)),
        objectives=(Objective(id="loot", side="runners", kind="reach", at=(3, 9, 1)),))
    win, d = make_editor(sc, lib)
    f = wait_findings(win, qtbot, "objective-not-standable")
    win.findings.activated.emit(f["where"])
    assert win.state.level == 1 and win.state.selection == ObjectiveRef(0)
    # choosing it in the panel's list also shows its level
    win.state.set_level(0)
    p = panel_of(win, 2)
    assert win.state.selection is None
    qtbot.mouseClick(p.objectives.viewport(), LEFT,
                     pos=p.objectives.visualItemRect(p.objectives.item(0)).center())
    assert win.state.level == 1 and win.state.selection == ObjectiveRef(0)


def test_canvas_selection_follows_into_panel(make_editor, qtbot):
    sc, lib = sealed_scenario()
    win, d = make_editor(sc, lib)
    p = panel_of(win, 0)
    d.tool("select")
    d.click(30.0, 20.0)
    assert win.state.selection == ObjectiveRef(0)
    assert p.tabs.currentIndex() == 2 and p.objectives.currentRow() == 0
    d.click(2.5, 0.5)
    assert win.state.selection == SideRef(0)
    assert p.tabs.currentIndex() == 1 and p.sides.currentRow() == 0


def test_finding_naming_a_feature_selects_it(make_editor, qtbot):
    win, d = make_editor()
    win.findings.activated.emit({"features": ["house-1/hall"], "dots": [[8, 8, 0]]})
    assert win.state.selection == FeatureRef("house", 0, "doors", 1)
    win.findings.activated.emit({"features": ["extras/car"], "dots": [[20, 17, 0]]})
    assert win.state.selection == FeatureRef(None, 0, "areas", 0)
    # an unnamed feature goes by level, kind and index; the level switches to it
    win.findings.activated.emit({"features": ["house-1/L1-wall-0"], "dots": [[4, 4, 1]]})
    assert win.state.level == 1
    assert win.state.selection == FeatureRef("house", 1, "walls", 0)
    assert win.properties._current() == samples.house().levels[1].walls[0]


def test_panel_edits_save_and_load_back(make_editor, qtbot, tmp_path):
    from editor.document import Document

    win, d = make_editor(path=tmp_path / "s.yaml")
    p = panel_of(win, 1)
    qtbot.mouseClick(p.add_side_button, LEFT)
    for name in ("decker", "gang-member"):
        p.characters.archetype.setCurrentIndex(p.characters.archetype.findText(name))
        qtbot.mouseClick(p.characters.add_button, LEFT)
    qtbot.mouseClick(p.draw_zone, LEFT)
    for x, y in ((0.5, 22.5), (6.5, 22.5), (6.5, 28.5), (0.5, 28.5)):
        d.click(x, y)
    d.key(Qt.Key.Key_Return)
    p.tabs.setCurrentIndex(2)
    p.new_kind.setCurrentText("reach")
    qtbot.mouseClick(p.add_objective_button, LEFT)
    d.click(30.0, 25.0)
    p.new_kind.setCurrentText("exit")
    qtbot.mouseClick(p.add_objective_button, LEFT)
    p.ob_edge.setCurrentText("east")
    win.save()
    back = Document.open(tmp_path / "s.yaml").root
    # what the panel made loads back as it is (the loader only names the unnamed pavement)
    assert (back.sides, back.objectives) == (win.doc.root.sides, win.doc.root.objectives)
    assert [c.archetype for c in back.sides[0].characters] == ["decker", "gang-member"]
    assert [(o.kind, o.at, o.edge) for o in back.objectives] == [
        ("reach", (30, 25, 0), None), ("exit", None, "east")]


def test_side_without_zone_finding_shows_the_side(make_editor, qtbot):
    from engine.catalogue import archetype_character as ac

    sc, lib = sealed_scenario()
    sc = replace(sc, sides=sc.sides + (Side(id="ghouls", characters=(ac("squatter"),)),))
    win, d = make_editor(sc, lib)
    f = wait_findings(win, qtbot, "deployment-missing")
    assert f["severity"] == "warning" and f["where"] == {"sides": ["ghouls"]}
    win.findings.activated.emit(f["where"])
    p = win.scenario_panel
    assert p.tabs.currentIndex() == 1 and p.sides.currentRow() == 1
    assert p.dep_kind.currentText() == "none"
    # choosing "polygon" arms the Deploy tool for that side; the kind follows the drawing
    p.dep_kind.setCurrentText("polygon")
    assert win.tool_key == "deploy" and win.side_box.currentText() == "ghouls"
    QApplication.processEvents()
    assert p.dep_kind.currentText() == "none"
    for x, y in ((10.5, 25.5), (14.5, 25.5), (14.5, 28.5)):
        d.click(x, y)
    d.key(Qt.Key.Key_Return)
    assert win.doc.root.sides[1].deployment == Deployment(
        polygon=((10.5, 25.5), (14.5, 25.5), (14.5, 28.5)), level=0)
    assert p.dep_kind.currentText() == "polygon"


def test_scenario_panel_edits_nothing_while_playing(make_editor, qtbot):
    sc, lib = sealed_scenario()
    from engine.catalogue import archetype_character as ac

    a = replace(sc.sides[0], characters=(ac("mercenary"),))
    b = Side(id="ghouls", characters=(ac("squatter"),),
             deployment=Deployment(polygon=samples.box(34.5, 24.5, 38.5, 28.5), level=0))
    win, d = make_editor(replace(sc, sides=(a, b), objectives=()), lib)
    d.key(Qt.Key.Key_F5)  # Play
    assert win.play_mode.active
    before = win.doc.root
    p = panel_of(win, 1)
    qtbot.mouseClick(p.add_side_button, LEFT)
    assert win.doc.root is before and p.sides.count() == 2
    # while playing the scenario dock is put away and its panel disabled, like the library
    assert not win.scenario_panel.isEnabled() and not win.scenario_dock.isVisible()
    win.play_mode.leave()
    assert win.scenario_panel.isEnabled()
