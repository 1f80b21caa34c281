"""The main window: canvas, tool bar, panels, status bar and the care of the open file.

Document care: every edit is undoable (Ctrl+Z, Ctrl+Shift+Z); save and save-as write atomically
through ``engine.io``; closing with unsaved changes asks first; a timer autosaves a dirty
document to a recovery file (``.NAME.autosave`` next to it) that a clean save or close removes,
and opening a file whose recovery file is newer offers to recover it.  On its first show the
window looks in its recovery folder for files no running editor owns (untitled documents, and
titled ones whose file is gone; see :mod:`editor.recovery`) and offers each back.  Recent files
are kept in the settings.  The prompts are methods (``ask_save``, ``ask_recover``,
``ask_recover_orphan``) so tests can replace them.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QPointF, QSettings, QStandardPaths, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QCursor, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QScrollArea,
    QTabWidget,
    QToolBar,
)

from editor import clipboard, edits, recovery
from editor.background import Background
from editor.canvas.scene import BoardScene
from editor.canvas.view import CanvasView
from editor.context import EditorContext
from editor.delete import delete_selection
from editor.document import SAMPLE, Document, load_library
from editor.edits import FeatureRef, PlacementRef
from editor.export_dialog import install_export_menu
from editor.findings_live import refresh_findings, select_named
from editor.panels.findings import FindingsPanel
from editor.panels.layers import LayersPanel
from editor.panels.legend import LegendWidget
from editor.panels.lenses import LensPanel
from editor.panels.library import LibraryPanel
from editor.panels.los_panel import LosPanel
from editor.panels.overview import OverviewView
from editor.panels.properties import PropertiesPanel
from editor.panels.scenario import ScenarioPanel
from editor.picking import placement_at
from editor.play import mode as play_mode
from editor.state import GRID, EditorState
from editor.tool_options import ToolOptions
from editor.tools.draw import AreaTool, CutTool, LineTool, WallTool
from editor.tools.features import MarkerTool, OpeningTool
from editor.tools.los import LosTool
from editor.tools.movement import MoveTool
from editor.tools.pinned_fan import PinnedFan
from editor.tools.place import PlaceTool, drop
from editor.tools.scenario import DeployTool, ObjectiveTool
from editor.tools.select import SelectTool
from editor.zone.document import ZoneDocument
from editor.zone.window import ZoneWindow
from engine import library as sheet_library
from engine.atomic_file import regular_file_problem
from engine.errors import LoadError
from engine.lattice import get_lattice
from engine.model import Layout, Placement, Scenario, Sheet
from engine.zone.io import is_zone_file

AUTOSAVE_MS = 60_000
MAX_RECENT = 8

#: tool key -> (label, shortcut)
TOOLS = {
    "select": ("Select", "V"), "wall": ("Wall", "W"), "door": ("Door", "D"),
    "window": ("Window", "N"), "hole": ("Hole", "H"), "area": ("Area", "A"),
    "line": ("Line", "I"), "stairs": ("Stairs", "S"), "elevators": ("Elevator", "E"),
    "climbs": ("Climb", "K"), "trees": ("Tree", "T"), "cut": ("Cut", "C"),
    "deploy": ("Deploy", "Y"), "objective": ("Objective", "O"),
    "los": ("LOS", "L"), "move": ("Move", "P"),
}


def blank_scenario(library: dict[str, Sheet]) -> Scenario:
    """A new scenario on the first pavement sheet of the library (if there is one)."""
    pav = sorted((s for s in library.values() if s.kind == "pavement"), key=lambda s: s.id)
    pavement = (Placement(sheet=pav[0].id, at=(0, 0)),) if pav else ()
    lattice = pav[0].lattice if pav else "square"
    return Scenario(title="Untitled", layout=Layout(lattice=lattice, pavement=pavement))


def blank_sheet(kind: str = "building") -> Sheet:
    w, h = (16, 12) if kind == "building" else (32, 24)
    outline = ((-0.5, -0.5), (w - 0.5, -0.5), (w - 0.5, h - 0.5), (-0.5, h - 0.5))
    return Sheet(id="new-sheet", title="New sheet", kind=kind, lattice="square", size=(w, h),
                 outline=outline, height=1 if kind == "building" else 0)


class MainWindow(QMainWindow):
    """The assembly: builds the canvas, panels, tool bars and menus and hands tools, panels
    and play mode an :class:`~editor.context.EditorContext` rather than itself."""

    def __init__(self, doc: Document | None = None, settings: QSettings | None = None,
                 recovery_dir: Path | None = None, scan_recovery: bool = True):
        super().__init__()
        self._scan_recovery = scan_recovery
        #: windows opened for recovered documents beyond the first (kept alive here)
        self.recovered_windows: list[MainWindow] = []
        #: zone windows opened from this one (kept alive here)
        self.zone_windows: list[ZoneWindow] = []
        self.settings = settings or QSettings("sprawlmap", "editor")
        self.recovery_dir = Path(recovery_dir or QStandardPaths.writableLocation(
            QStandardPaths.StandardLocation.AppLocalDataLocation) or Path.home())
        self.state = EditorState(self)
        self.background = Background(self)
        if doc is None:
            doc = Document(blank_scenario({}))
        self.doc = doc
        self.scene = BoardScene(doc, self.state, self)
        self.view = CanvasView(self.scene, self)
        self.setCentralWidget(self.view)
        self.tool = None
        self._build_status()
        self._build_tool_options()
        self.ctx = EditorContext(
            document=lambda: self.doc, state=self.state, scene=self.scene, view=self.view,
            background=self.background, options=self.options, show_hint=self.show_hint,
            error=self.error, set_tool=self.set_tool, current_tool=lambda: self.tool,
            ask_tag_scope=lambda title, n: self.ask_tag_scope(title, n),
            make_unique=lambda ref: self._make_unique_ref(ref),
            ask_edit_scope=lambda title, n: self.ask_edit_scope(title, n))
        self.pinned_fan = PinnedFan(self.ctx)
        self._build_panels()
        self._build_actions()
        self._install_scenario_panel()
        #: recovery files of the open file left by another session and not offered yet:
        #: never deleted until the user has been asked about them
        self._foreign_recovery: set[Path] = set()
        #: the bytes' hash of the open file as this window last read or wrote it
        self._disk_hash: str | None = None
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(self._file_changed)
        self._note_foreign(doc)
        self._watch(doc.path)
        self.autosave_timer = QTimer(self)
        self.autosave_timer.setInterval(AUTOSAVE_MS)
        self.autosave_timer.timeout.connect(self.autosave)
        self.autosave_timer.start()
        self._findings_timer = QTimer(self)
        self._findings_timer.setSingleShot(True)
        # a short pause: a burst of edits (a drag, typing) asks for one validation
        self._findings_timer.setInterval(60)
        self._findings_timer.timeout.connect(lambda: refresh_findings(self))
        self.view.hovered.connect(self._hovered)
        self.view.contextMenuAsked.connect(self._canvas_menu)
        self._last_hover: tuple[float, float] | None = None
        self.clipboard = None
        self.view.zoomChanged.connect(lambda z: self.zoom_label.setText(f"{z:.0f} px/dot"))
        self.view.dropped.connect(lambda key, p: drop(self.doc, self.state, key, (p.x(), p.y())))
        self.state.selectionChanged.connect(self.properties.refresh)
        self.state.levelChanged.connect(self._level_changed)
        self.resize(1400, 900)
        self.set_document(doc)
        self.set_tool("select")
        self._install_play_mode()
        self._install_panels_menu()

    # ------------------------------------------------------------------ play mode
    def _install_play_mode(self) -> None:
        """Test-play (editor/play): the Play menu and tool bar (F5), its docks.  While a game
        is on, every editing tool and action and the editing docks are switched off."""
        edit_menu = next(a.menu() for a in self.menuBar().actions() if a.text() == "&Edit")
        editing = [*self.tool_actions.values(), self.undo_action, self.redo_action,
                   *edit_menu.actions(), self.library, self.properties, self.scenario_panel]
        docks = [self.library_dock, self.properties_dock, self.findings_dock, self.scenario_dock]
        self.play_mode = play_mode.install(self.ctx, self, editing, docks)

    def _install_panels_menu(self) -> None:
        """View > Panels: every dock and tool bar, so a closed one can be brought back."""
        pm = self.view_menu.addMenu("Panels")
        docks = [self.library_dock, self.layers_dock, self.overview_dock, self.properties_dock,
                 self.findings_dock, self.scenario_dock, *self.findChildren(QDockWidget)]
        for dock in dict.fromkeys(docks):
            pm.addAction(dock.toggleViewAction())
        pm.addSeparator()
        for bar in self.findChildren(QToolBar):
            pm.addAction(bar.toggleViewAction())
        self.panels_menu = pm

    def save_layout(self) -> None:
        """Remember the docks and tool bars (and the window's size) for the next start."""
        if not self.ctx.playing:  # play mode's docks replace the editing ones meanwhile
            self.settings.setValue("window/state", self.saveState())
            self.settings.setValue("window/geometry", self.saveGeometry())

    def restore_layout(self) -> bool:
        """Put the docks and tool bars back as they were when the editor was last closed."""
        state = self.settings.value("window/state")
        return state is not None and bool(self.restoreState(state))

    def restore_geometry(self) -> bool:
        """The window's size and place at the last close (``app.run`` asks for it; a window
        made by a script or a test keeps the size it is given)."""
        geometry = self.settings.value("window/geometry")
        return geometry is not None and bool(self.restoreGeometry(geometry))

    # ------------------------------------------------------------------ building the window
    def _build_status(self) -> None:
        sb = self.statusBar()
        self.dot_label = QLabel("dot –")
        self.dot_label.setMinimumWidth(170)
        self.zoom_label = QLabel("")
        self.hint_label = QLabel("")
        #: how far the picture of the board for far zoom is drawn (shown only meanwhile)
        self.picture_label = QLabel("")
        self.picture_label.hide()
        sb.addWidget(self.hint_label, 1)
        sb.addPermanentWidget(self.picture_label)
        sb.addPermanentWidget(self.dot_label)
        sb.addPermanentWidget(self.zoom_label)
        self.scene.pictureProgress.connect(self._picture_progress)

    def _picture_progress(self, done: int, total: int) -> None:
        """Zoomed out, the board is drawn into its picture a few tiles at a time."""
        if done >= total:
            self.picture_label.hide()
        else:
            self.picture_label.setText(f"drawing the board {100 * done // max(total, 1)}%")
            self.picture_label.show()

    def _dock(self, title: str, widget, area) -> QDockWidget:
        d = QDockWidget(title, self)
        d.setObjectName(title)
        d.setWidget(widget)
        self.addDockWidget(area, d)
        return d

    def _build_panels(self) -> None:
        self.library = LibraryPanel()
        self.library.chosen.connect(self.arm_place)
        self.library.renamePiece.connect(self.rename_piece)
        self.library.deletePiece.connect(self.delete_piece)
        self.layers = LayersPanel(self.state)
        self.properties = PropertiesPanel(self.ctx)
        self.properties.setMinimumHeight(330)  # a feature's form and its sheet's defaults
        self.findings = FindingsPanel()
        self.findings.activated.connect(self._finding_activated)
        self.legend = LegendWidget()
        left = Qt.DockWidgetArea.LeftDockWidgetArea
        right = Qt.DockWidgetArea.RightDockWidgetArea
        self.library_dock = self._dock("Library", self.library, left)
        self.layers_dock = self._dock("Levels and layers", self.layers, left)
        self.properties_dock = self._dock("Properties", self.properties, right)
        tabs = QTabWidget()
        tabs.addTab(self.findings, "Findings")
        legend_scroll = QScrollArea()
        legend_scroll.setWidget(self.legend)
        tabs.addTab(legend_scroll, "Legend")
        self.findings_dock = self._dock("Findings", tabs, right)
        self.overview = OverviewView(self.view)
        self.overview_dock = self._dock("Overview", self.overview, left)
        # designer's lenses: exposure/tempo/lead shading, and the LOS tool's side view + rulesets
        self.lens_panel = LensPanel(self.ctx)
        tabs.addTab(self.lens_panel, "Lenses")
        self.los_panel = self.ctx.los_panel = LosPanel()
        self.los_dock = self._dock("LOS side view", self.los_panel,
                                   Qt.DockWidgetArea.BottomDockWidgetArea)
        self.los_dock.hide()  # comes up with the first line the LOS tool shows
        self._docks_sized = False

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        if not self._docks_sized and self.restore_layout():
            self._docks_sized = True
            QTimer.singleShot(0, self.view.fit)
        if not self._docks_sized:  # dock sizes only stick once the window has its size
            self._docks_sized = True
            v, h = Qt.Orientation.Vertical, Qt.Orientation.Horizontal
            self.resizeDocks([self.library_dock, self.layers_dock, self.overview_dock],
                             [440, 240, 160], v)
            self.resizeDocks([self.library_dock, self.properties_dock], [290, 330], h)
            self.resizeDocks([self.properties_dock, self.findings_dock], [520, 280], v)
            QTimer.singleShot(0, self.view.fit)  # the viewport has its real size only now
        if self._scan_recovery:
            self._scan_recovery = False
            QTimer.singleShot(0, self.offer_recovery)  # prompt over the shown window

    def _build_tool_options(self) -> None:
        self.options = bar = ToolOptions(self)
        # the window's names for the option widgets (menus, tests)
        self.area_kind, self.line_kind, self.side_box = bar.area_kind, bar.line_kind, bar.side_box
        self.move_ratio, self.mp_box, self.fan_box = bar.move_ratio, bar.mp_box, bar.fan_box
        self.area_kind.currentTextChanged.connect(lambda _: self._retool("area"))
        self.line_kind.currentTextChanged.connect(lambda _: self._retool("line"))
        self.move_ratio.valueChanged.connect(lambda _: self._tool_refresh())
        self.mp_box.valueChanged.connect(lambda _: self._tool_refresh())
        self.fan_box.toggled.connect(lambda _: self._tool_refresh())
        self.fan_box.toggled.connect(lambda _: self.pinned_fan.refresh())
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)

    def _build_actions(self) -> None:
        mb = self.menuBar()
        fm = mb.addMenu("&File")

        def act(menu, text, slot, shortcut=None) -> QAction:
            a = QAction(text, self)
            if shortcut is not None:
                a.setShortcut(shortcut)
            a.triggered.connect(slot)
            menu.addAction(a)
            return a

        act(fm, "New scenario", self.new_scenario, QKeySequence.StandardKey.New)
        act(fm, "New building sheet", lambda: self.new_sheet("building"))
        act(fm, "New pavement sheet", lambda: self.new_sheet("pavement"))
        act(fm, "New zone (block scale)", lambda: self.open_zone(None))
        act(fm, "Open…", self.open_dialog, QKeySequence.StandardKey.Open)
        self.recent_menu = fm.addMenu("Open recent")
        self.save_action = act(fm, "Save", self.save, QKeySequence.StandardKey.Save)
        act(fm, "Save as…", self.save_as, QKeySequence.StandardKey.SaveAs)
        fm.addSeparator()
        act(fm, "Quit", self.close, QKeySequence.StandardKey.Quit)
        em = mb.addMenu("&Edit")
        self.undo_action = act(em, "Undo", lambda: self.doc.undo_stack.undo(),
                               QKeySequence.StandardKey.Undo)
        self.redo_action = act(em, "Redo", lambda: self.doc.undo_stack.redo(),
                               QKeySequence("Ctrl+Shift+Z"))
        # Ctrl+Y too, as in the editors on Windows and in Tiled
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        em.addSeparator()
        self.copy_action = act(em, "Copy", self.copy_selection, QKeySequence.StandardKey.Copy)
        self.paste_action = act(em, "Paste", lambda: self.paste(), QKeySequence.StandardKey.Paste)
        self.duplicate_action = act(em, "Duplicate", self.duplicate, QKeySequence("Ctrl+D"))
        self.select_all_action = act(em, "Select all buildings", self.select_all,
                                     QKeySequence.StandardKey.SelectAll)
        self.delete_action = act(em, "Delete", self.delete_selection)
        vm = self.view_menu = mb.addMenu("&View")
        act(vm, "Fit board", self.view.fit, QKeySequence("Ctrl+0"))
        self.grid_action = act(vm, "Dot grid", self._set_grid, QKeySequence("Ctrl+G"))
        self.grid_action.setCheckable(True)
        self.grid_action.setChecked(True)
        act(vm, "Level up", lambda: self.layers.step(1), QKeySequence("PgUp"))
        act(vm, "Level down", lambda: self.layers.step(-1), QKeySequence("PgDown"))
        tm = mb.addMenu("&Tools")
        bar = QToolBar("Tools", self)
        bar.setObjectName("tools")
        self.tool_actions: dict[str, QAction] = {}
        group = QActionGroup(self)
        for key, (label, sc) in TOOLS.items():
            a = QAction(label, self)
            a.setCheckable(True)
            a.setShortcut(QKeySequence(sc))
            a.setToolTip(f"{label} ({sc})")
            a.triggered.connect(lambda _=False, k=key: self.set_tool(k))
            group.addAction(a)
            bar.addAction(a)
            tm.addAction(a)
            self.tool_actions[key] = a
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        self.insertToolBarBreak(bar)
        self._refresh_recent()

    # ------------------------------------------------------------------ scenario and export
    def _install_scenario_panel(self) -> None:
        """The Scenario dock (tabbed with Properties), File > Export, and findings that name
        an objective or a side select it."""
        self.scenario_panel = ScenarioPanel(self.ctx)
        self.scenario_dock = self._dock("Scenario", self.scenario_panel,
                                        Qt.DockWidgetArea.RightDockWidgetArea)
        self.tabifyDockWidget(self.properties_dock, self.scenario_dock)
        self.properties_dock.raise_()
        self.findings.activated.connect(lambda where: select_named(self, where))
        fm = next(a.menu() for a in self.menuBar().actions() if a.text() == "&File")
        self.export_actions = install_export_menu(self, fm)

    # ------------------------------------------------------------------ document
    def _let_go_of_document(self) -> None:
        """Stop following the document's signals (another document comes, or the window
        closed: the document's undo stack, cleared when it is destroyed, would otherwise call
        into a window whose widgets are gone and print a traceback as the editor quits)."""
        old = getattr(self, "_connected_doc", None)
        if old is not None:
            old.changed.disconnect(self._doc_changed)
            old.undo_stack.cleanChanged.disconnect(self._update_title)
            old.pathChanged.disconnect(self._update_title)
            old.undo_stack.indexChanged.disconnect(self._name_undo_steps)
        self._connected_doc = None

    def set_document(self, doc: Document) -> None:
        self._let_go_of_document()
        self.doc = doc
        self._connected_doc = doc
        self._watch(doc.path)
        doc.changed.connect(self._doc_changed)
        doc.undo_stack.cleanChanged.connect(self._update_title)
        doc.pathChanged.connect(self._update_title)
        doc.undo_stack.indexChanged.connect(self._name_undo_steps)
        self._name_undo_steps()
        self.state.select(None)
        self.pinned_fan.clear()  # another document: the fan's dot means nothing there
        self.view.lattice_name = doc.layout.lattice
        self.scene.set_document(doc)
        self._doc_changed()
        self.set_tool("select")
        self.view.fit()
        if doc.path is not None and doc.path != SAMPLE and Path(doc.path).is_file():
            self._add_recent(doc.path)  # also a file given on the command line

    def _doc_changed(self) -> None:
        doc = self.doc
        sel = self.state.selection
        if sel is not None and self.properties._current() is None and not (
                isinstance(sel, PlacementRef) and not sel.pavement
                and sel.index < len(doc.layout.placements)):
            self.state.selection = None
        self.scene.rebuild()
        self.layers.set_levels(doc.levels())
        pieces = doc.layout.pieces if doc.mode == "scenario" else ()
        # the scenario's own edited copies of sheets are what it places: show those
        self.library.refresh(doc.sheets() if doc.mode == "scenario" else {}, pieces,
                             doc.sheet_origins())
        self.properties.refresh()
        self._refresh_sides()
        self.scenario_panel.sync()
        self._findings_timer.start()
        if self.doc.mode == "scenario":
            self.findings.set_updating(True)
        self._update_title()
        self.lens_panel.document_changed()
        if self.tool is not None:
            self.tool.document_changed()
        self.pinned_fan.document_changed()

    def _set_grid(self, on: bool) -> None:
        self.view.set_grid(on)
        self.state.set_layer(GRID, on)  # the dots printed on the sheets

    def _name_undo_steps(self, *_) -> None:
        """Edit > Undo / Redo name the step they undo or redo ("Undo Move shed-1")."""
        st = self.doc.undo_stack
        try:
            undo = f"Undo {st.undoText()}" if st.canUndo() else "Undo"
            redo = f"Redo {st.redoText()}" if st.canRedo() else "Redo"
        except RuntimeError:  # the stack is being destroyed with its document
            return
        self.undo_action.setText(undo)
        self.redo_action.setText(redo)

    def _refresh_sides(self) -> None:
        self.options.set_sides([s.id for s in self.doc.root.sides]
                               if self.doc.mode == "scenario" else [])

    def _update_title(self, *_) -> None:
        name = self.doc.path.name if self.doc.path else "untitled"
        kind = "sheet" if self.doc.mode == "sheet" else "scenario"
        self.setWindowTitle(f"{name}{' *' if self.doc.is_dirty() else ''} — {kind} — sprawlmap")

    def _level_changed(self, level: int) -> None:
        self._tool_refresh()
        self.pinned_fan.refresh()
        self.lens_panel.refresh()

    # ------------------------------------------------------------------ tools
    def make_tool(self, key: str):
        if key == "select":
            return SelectTool(self.ctx)
        if key == "wall":
            return WallTool(self.ctx)
        if key in ("door", "window", "hole"):
            return OpeningTool(self.ctx, key)
        if key == "area":
            return AreaTool(self.ctx, self.area_kind.currentText())
        if key == "line":
            return LineTool(self.ctx, self.line_kind.currentText())
        if key in ("stairs", "elevators", "climbs", "trees"):
            return MarkerTool(self.ctx, key)
        if key == "cut":
            return CutTool(self.ctx)
        if key == "deploy":
            return DeployTool(self.ctx)
        if key == "objective":
            return ObjectiveTool(self.ctx)
        if key == "los":
            return LosTool(self.ctx)
        if key == "move":
            return MoveTool(self.ctx)
        raise KeyError(key)

    def set_tool(self, key: str, tool=None) -> None:
        old = self.tool
        if isinstance(old, LosTool) and old.origin is not None and self.options.fan():
            # the fan stays on the canvas (and follows edits) while another tool is used
            self.pinned_fan.pin(old.origin, old.hand_over_fan())
        if old is not None:
            old.deactivate()
        self.tool = tool or self.make_tool(key)
        took = isinstance(self.tool, LosTool) and self.pinned_fan.origin is not None
        if took:
            self.tool.origin = self.pinned_fan.take()
        self.tool_key = key
        self.view.tool = self.tool
        if key in self.tool_actions:
            self.tool_actions[key].setChecked(True)
        self.tool.activate()
        if took:
            self.tool.document_changed()  # its fan, computed in the background
        self.view.setFocus()  # R, M, arrows and Enter belong to the canvas tool

    def _retool(self, key: str) -> None:
        if getattr(self, "tool_key", None) == key:
            self.set_tool(key)

    def _tool_refresh(self) -> None:
        if self.tool is not None:
            self.tool.refresh()

    def arm_place(self, key: str) -> None:
        """Library click: the next canvas click places this sheet or piece."""
        if self.doc.mode != "scenario":
            self.show_hint("Sheet mode: open a scenario to place sheets")
            return
        self.set_tool("place", PlaceTool(self.ctx, key))

    def show_hint(self, text: str) -> None:
        self.hint_label.setText(text)

    def _hovered(self, p: QPointF) -> None:
        self._last_hover = (p.x(), p.y())
        c, r = get_lattice(self.doc.layout.lattice).dot_at((p.x(), p.y()))
        self.dot_label.setText(f"dot {c},{r} · level {self.state.level}")

    def _finding_activated(self, where) -> None:
        """Select the building a finding is about and centre the view on its first dot."""
        if isinstance(where, dict):
            dots = where.get("dots") or []
            if dots and len(dots[0]) > 2 and dots[0][2] in self.doc.levels():
                self.state.set_level(dots[0][2])  # first: switching levels clears selection
            ids = [p.id for p in self.doc.layout.placements]
            named = [p for p in where.get("placements") or [] if p in ids]
            if named:
                self.state.select(PlacementRef(False, ids.index(named[0])))
            if dots:
                x, y = get_lattice(self.doc.layout.lattice).point(tuple(dots[0][:2]))
                self.view.centerOn(x, y)
            return
        if isinstance(where, PlacementRef):
            self.state.select(where)
            r = next((x for x in self.doc.resolved()
                      if x.pavement == where.pavement and x.index == where.index), None)
            if r is not None:
                c = r.footprint.centroid
                self.view.centerOn(c.x, c.y)

    def delete_selection(self) -> None:
        delete_selection(self.doc, self.state, self.ask_edit_scope, self._make_unique_ref)

    # ------------------------------------------------------------------ clipboard
    def copy_selection(self) -> bool:
        """Ctrl+C: the selected buildings, or the selected feature."""
        sel = self.state.selection
        refs = self.state.placements()
        if refs and self.doc.mode == "scenario":
            self.clipboard = clipboard.copy_placements(self.doc.layout, refs)
            self.show_hint(f"Copied {len(self.clipboard.placements)} building(s)")
            return True
        if isinstance(sel, FeatureRef):
            feat = self.properties._current()
            if feat is None:
                return False
            self.clipboard = clipboard.Copied(feature=feat, ref=sel)
            self.show_hint(f"Copied {sel.list[:-1]} {feat.id}")
            return True
        return False

    def paste(self, offset: tuple[int, int] | None = None) -> bool:
        """Ctrl+V: the copied buildings with their middle on the dot under the mouse (2 dots
        down and right of the originals when the mouse is not on the board); a copied
        feature beside the original.  One undo step; the pasted things are selected."""
        cb = getattr(self, "clipboard", None)
        if cb is None or self.ctx.playing:
            return False
        if cb.placements and self.doc.mode == "scenario":
            if offset is None:
                offset = self._paste_offset(cb)
            layout, refs = clipboard.paste_placements(self.doc.layout, cb, offset)
            self.doc.edit_layout(layout, f"Paste {len(refs)} building(s)")
            self.set_tool("select")
            self.state.select_group(refs)
            return True
        if cb.feature is not None:
            try:
                where, new, ref = clipboard.paste_feature(self.doc.layout, self.doc.sheets(), cb)
            except (KeyError, IndexError, ValueError) as exc:
                self.error(f"Cannot paste: {exc}")
                return False
            text = f"Paste {cb.ref.list[:-1]}"
            if where == "layout":
                self.doc.edit_layout(new, text)
            else:
                self.doc.edit_sheet(new, text)
            self.state.select(ref)
            return True
        return False

    def _paste_offset(self, cb) -> tuple[int, int]:
        lat = get_lattice(self.doc.layout.lattice)
        mouse = self.view.viewport().mapFromGlobal(QCursor.pos())
        if self._last_hover is None or not self.view.viewport().rect().contains(mouse):
            return (2, 2)
        cs = [p.at[0] for p in cb.placements]
        rs = [p.at[1] for p in cb.placements]
        here = lat.dot_at(self._last_hover)
        return (here[0] - (min(cs) + max(cs)) // 2, here[1] - (min(rs) + max(rs)) // 2)

    def duplicate(self) -> bool:
        """Ctrl+D: copy and paste in one go, 2 dots down and right."""
        return self.copy_selection() and self.paste((2, 2))

    def select_all(self) -> None:
        """Ctrl+A: every building of the scenario."""
        if self.doc.mode == "scenario":
            self.set_tool("select")
            self.state.select_group([PlacementRef(False, i)
                                     for i in range(len(self.doc.layout.placements))])

    def _canvas_menu(self, global_pos, scene_pos) -> None:
        """Right-click with the Select tool: what can be done to what is under the mouse."""
        if self.tool_key != "select" or self.ctx.playing:
            return
        pt = (scene_pos.x(), scene_pos.y())
        r = placement_at(self.doc.resolved(), pt, buildings_only=True)
        if r is not None and not r.pavement and self.doc.mode == "scenario":
            ref = PlacementRef(False, r.index)
            if ref not in self.state.placements():
                self.state.select(ref)
        self._last_hover = pt
        menu = self.canvas_menu = QMenu(self)
        has = self.state.selection is not None
        for a, ok in ((self.copy_action, has), (self.paste_action,
                                                getattr(self, "clipboard", None) is not None),
                      (self.duplicate_action, has), (self.delete_action, has)):
            menu.addAction(a)
            a.setEnabled(ok)
        one = isinstance(self.state.selection, PlacementRef) and not self.state.group
        menu.addSeparator()
        for text, fn in (("Rotate clockwise", lambda: self.tool.rotate(True)),
                         ("Rotate anticlockwise", lambda: self.tool.rotate(False)),
                         ("Mirror", self.tool.mirror),
                         ("Make unique", self.make_unique)):
            a = menu.addAction(text)
            a.triggered.connect(fn)
            a.setEnabled(one)
        menu.addSeparator()
        menu.addAction(self.select_all_action)
        menu.aboutToHide.connect(lambda: QTimer.singleShot(0, self._after_menu))
        menu.popup(global_pos)

    def make_unique(self) -> bool:
        """Give the selected building its own copy of its sheet (one undo step), so what is
        tagged on it no longer shows on the other copies."""
        sel = self.state.selection
        if not isinstance(sel, PlacementRef) or self.doc.mode != "scenario":
            return False
        sc, new_id = edits.make_unique(self.doc.root, self.doc.sheets(), sel)
        self.doc.push(sc, f"Make {new_id} unique")
        self.state.select(sel)
        self.show_hint(f"This copy now shows its own sheet {new_id}")
        return True

    def _make_unique_ref(self, ref: PlacementRef) -> str:
        sc, new_id = edits.make_unique(self.doc.root, self.doc.sheets(), ref)
        self.doc.push(sc, f"Make {new_id} unique")
        return new_id

    def ask_tag_scope(self, sheet_title: str, copies: int) -> str | None:
        """A feature drawn on a sheet placed several times: "copy" (this copy only: it is
        made unique first), "sheet" (every copy) or None (cancel).  Tests replace this."""
        return self._ask_scope("Tag this copy or the sheet?",
                               f"{sheet_title} is placed {copies} times. Tag only this copy (it "
                               "becomes a sheet of its own), or the sheet, which every copy "
                               "shows?", "This copy")

    def ask_edit_scope(self, sheet_title: str, copies: int) -> str | None:
        """A property of a sheet placed several times changed on one copy: "copy" (make
        this copy unique first), "sheet" (every copy) or None (cancel).  Tests replace it."""
        return self._ask_scope("Change this copy or the sheet?",
                               f"{sheet_title} is placed {copies} times. Change only this copy "
                               "(it becomes a sheet of its own: make unique), or the sheet, "
                               "which every copy shows?", "This copy (make unique)")

    def _ask_scope(self, title: str, text: str, copy_label: str) -> str | None:
        """The one "this copy / every copy / cancel" question both scopes ask."""
        box = QMessageBox(QMessageBox.Icon.Question, title, text, parent=self)
        one = box.addButton(copy_label, QMessageBox.ButtonRole.AcceptRole)
        every = box.addButton("Every copy", QMessageBox.ButtonRole.ActionRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return "copy" if box.clickedButton() is one else (
            "sheet" if box.clickedButton() is every else None)

    def _after_menu(self) -> None:
        for a in (self.copy_action, self.paste_action, self.duplicate_action,
                  self.delete_action):
            a.setEnabled(True)

    def delete_piece(self, piece_id: str) -> bool:
        """Remove a cut piece from the layout (one undo step); refused while it is placed."""
        try:
            layout = edits.remove_piece(self.doc.layout, piece_id)
        except ValueError as exc:
            self.error(f"Cannot delete the piece: {exc}")
            return False
        self.doc.edit_layout(layout, f"Delete piece {piece_id}")
        self.show_hint(f"Deleted piece {piece_id}")
        return True

    def rename_piece(self, piece_id: str, new: str | None = None) -> bool:
        """Rename a cut piece and the placements showing it (one undo step)."""
        if new is None:
            new = self.ask_piece_name(piece_id)
            if new is None:
                return False
        try:
            layout = edits.rename_piece(self.doc.layout, piece_id, new)
        except ValueError as exc:
            self.error(f"Cannot rename the piece: {exc}")
            return False
        self.doc.edit_layout(layout, f"Rename piece {piece_id}")
        return True

    def ask_piece_name(self, old: str) -> str | None:
        """A new name for a piece (tests replace this method)."""
        name, ok = QInputDialog.getText(self, "Rename piece", "New name:", text=old)
        return name if ok else None

    # ------------------------------------------------------------------ files
    def ask_save(self) -> QMessageBox.StandardButton:
        """Unsaved changes: Save, Discard or Cancel (tests replace this method)."""
        return QMessageBox.question(
            self, "Unsaved changes", f"Save the changes to {self.doc.path or 'untitled'}?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)

    def ask_recover(self, recovery: Path) -> bool:
        """A newer autosave exists: recover it? (tests replace this method)."""
        return QMessageBox.question(
            self, "Recover unsaved work",
            f"{recovery.name} is newer than the file: the editor may have stopped without "
            "saving. Recover it?") == QMessageBox.StandardButton.Yes

    def ask_recover_orphan(self, orphan: recovery.Orphan, n: int, total: int) -> bool | None:
        """Recover a left-behind recovery file? True recover, False discard, None ask again
        next time (tests replace this method)."""
        box = QMessageBox(QMessageBox.Icon.Question, "Recover unsaved work",
                          f"The editor stopped without saving {orphan.label()}"
                          + (f" ({n} of {total})" if total > 1 else "") + ". Recover it?",
                          parent=self)
        rec = box.addButton("Recover", QMessageBox.ButtonRole.AcceptRole)
        dis = box.addButton("Discard", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton("Later", QMessageBox.ButtonRole.RejectRole)
        box.exec()
        return True if box.clickedButton() is rec else (
            False if box.clickedButton() is dis else None)

    def offer_recovery(self) -> list[Document]:
        """Offer back every recovery file no running editor owns; returns the recovered
        documents.  The first opens here if this window shows nothing the user chose (an
        untitled or the sample document, unchanged), the others in windows of their own."""
        if self.doc.path is not None:
            self.offer_autosave(self.doc)
        own = {self.doc.recovery_path(self.recovery_dir).resolve()}
        if self.doc.path is not None:
            own |= {p.resolve() for p in recovery.candidates(self.recovery_dir, self.doc.path)}
        found = recovery.orphans(self.recovery_dir, own)
        out: list[Document] = []
        for n, orphan in enumerate(found, 1):
            ans = self.ask_recover_orphan(orphan, n, len(found))
            if ans is None:
                continue
            if not ans:
                orphan.discard()
                continue
            doc = self._recovered(orphan)
            if doc is None:
                continue
            out.append(doc)
            if not self.doc.is_dirty() and self.doc.path in (None, SAMPLE):
                self.set_document(doc)
            else:
                win = MainWindow(doc, self.settings, self.recovery_dir, scan_recovery=False)
                for name in ("ask_save", "ask_recover", "ask_path", "warn"):
                    if name in self.__dict__:  # replaced prompts (tests) carry over
                        setattr(win, name, self.__dict__[name])
                win.show()
                self.recovered_windows.append(win)
        return out

    def _recovered(self, orphan: recovery.Orphan) -> Document | None:
        """The document in a recovery file: untitled (or at its vanished path) and dirty; its
        autosaves keep going to the same recovery file until it is saved or closed."""
        try:
            doc = Document.open(orphan.recovery)
        except LoadError as exc:
            self.error(f"cannot recover {orphan.recovery.name}: {exc}")
            return None
        for k, sheet in self.doc.library.items():
            doc.library.setdefault(k, sheet)
        for k, entry in self.doc.library_origins.items():
            doc.library_origins.setdefault(k, entry)
        doc.path = orphan.original
        if orphan.original is None:
            doc.recovery_file = orphan.recovery
        doc.undo_stack.resetClean()
        return doc

    def ask_path(self, save: bool) -> Path | None:
        """A file name from a dialog (tests replace this method).  A new mapsheet is offered
        ``<library>/<id>.yaml``, where scenarios look for sheets by id: ``mapsheets/`` in a
        checkout, the user library in an installed copy."""
        if self.doc.path is not None and sheet_library.is_installed_file(self.doc.path):
            start = str(Path.cwd() / self.doc.path.name)
        elif self.doc.path is not None:
            start = str(self.doc.path)
        elif self.doc.mode == "sheet":
            start = str(sheet_library.new_sheet_folder() / f"{self.doc.root.id}.yaml")
        else:
            start = str(Path.cwd() / "untitled.yaml")
        if save:
            name, _ = QFileDialog.getSaveFileName(self, "Save as", start, "YAML (*.yaml)")
        else:
            name, _ = QFileDialog.getOpenFileName(self, "Open", start, "YAML (*.yaml)")
        return Path(name) if name else None

    def error(self, text: str) -> None:
        self.show_hint(text)
        if not QApplication.instance().property("sprawlmap_headless"):
            self.warn(text)

    def warn(self, text: str) -> None:
        """Show an error in a dialog (tests replace this method)."""
        QMessageBox.warning(self, "sprawlmap", text)

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current document."""
        if not self.doc.is_dirty():
            return True
        ans = self.ask_save()
        if ans == QMessageBox.StandardButton.Save:
            return self.save()
        return ans == QMessageBox.StandardButton.Discard

    def open_zone(self, path: Path | str | None) -> ZoneWindow | None:
        """A zone (docs/zone.md) opens in a zone window of its own, beside this one."""
        try:
            doc = ZoneDocument.open(path) if path is not None else None
        except LoadError as exc:
            self.error(str(exc))
            return None
        win = ZoneWindow(doc, open_document=self._open_from_zone)
        self.zone_windows.append(win)
        win.show()
        return win

    def _open_from_zone(self, path: Path) -> QMainWindow | None:
        if is_zone_file(path):
            return self.open_zone(path)
        win = MainWindow(Document.open(path), settings=self.settings, recovery_dir=self.recovery_dir,
                         scan_recovery=False)
        self.recovered_windows.append(win)
        win.show()
        return win

    def open_path(self, path: Path | str) -> bool:
        """Open ``path`` (offering a newer autosave) after the unsaved-changes prompt; a zone
        file opens in a zone window instead."""
        if is_zone_file(path):
            return self.open_zone(path) is not None
        if not self.maybe_save():
            return False
        try:
            doc = Document.open(path)
        except LoadError as exc:
            self.error(str(exc))
            return False
        self._remove_recovery()
        self._note_foreign(doc)
        self.offer_autosave(doc)
        self.set_document(doc)
        self._add_recent(Path(path))
        return True

    def _note_foreign(self, doc: Document) -> None:
        """Recovery files of ``doc``'s file that another session left: not ours to delete."""
        self._foreign_recovery = set()
        if doc.path is not None:
            self._foreign_recovery = {p for p in recovery.candidates(self.recovery_dir, doc.path)
                                      if p.exists()}

    def offer_autosave(self, doc: Document) -> bool:
        """Offer the autosave of ``doc``'s file when it is newer than the file (an editor
        stopped without saving); True when recovered.  Declined, it is removed."""
        rec = recovery.newer_recovery(self.recovery_dir, doc.path) if doc.path else None
        if rec is None:
            return False
        self._foreign_recovery.discard(rec)
        if not self.ask_recover(rec):
            _unlink_quietly(rec)
            return False
        try:
            recovered = Document.open(rec)
        except LoadError as exc:
            self.error(f"cannot recover: {exc}")
            return False
        doc.push(recovered.root, "Recover autosave")
        return True

    def open_dialog(self) -> None:
        p = self.ask_path(save=False)
        if p is not None:
            self.open_path(p)

    def new_scenario(self) -> None:
        if self.maybe_save():
            lib, origins, errs = load_library()
            doc = Document(blank_scenario(lib), None, lib)
            doc.library_origins = origins
            doc.library_errors = errs
            self._remove_recovery()
            self.set_document(doc)

    def new_sheet(self, kind: str) -> None:
        if self.maybe_save():
            self._remove_recovery()
            self.set_document(Document(blank_sheet(kind)))

    def save(self) -> bool:
        # an installed copy's bundled sample is a template: changes go to a file of the user's
        if self.doc.path is None or sheet_library.is_installed_file(self.doc.path):
            return self.save_as()
        on_disk = file_hash(self.doc.path)
        if on_disk is not None and on_disk != self._disk_hash and not self.ask_overwrite(self.doc.path):
            self.show_hint(f"Not saved: {self.doc.path.name} was changed by another program")
            return False
        try:
            self.doc.save()
        except (LoadError, OSError, ValueError) as exc:
            self.error(f"cannot save: {exc}")
            return False
        self._watch(self.doc.path)
        self._remove_recovery()
        self.show_hint(f"Saved {self.doc.path}")
        return True

    def ask_overwrite(self, path: Path) -> bool:
        """The file changed on disk since it was opened or saved: overwrite it? (tests replace
        this method)."""
        return QMessageBox.question(
            self, "File changed on disk",
            f"{path} was changed by another program since you opened it. Overwrite it with "
            "your version? (No keeps theirs; use Save As to keep both.)",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No) == QMessageBox.StandardButton.Yes

    def _watch(self, path: Path | None) -> None:
        """Watch the open file for changes made by other programs."""
        files = self.watcher.files()
        if files:
            self.watcher.removePaths(files)
        self._disk_hash = file_hash(path) if path is not None else None
        if path is not None and Path(path).exists():
            self.watcher.addPath(str(path))

    def _file_changed(self, name: str) -> None:
        path = self.doc.path
        if path is None or Path(name) != Path(path):
            return
        if Path(path).exists() and str(path) not in self.watcher.files():
            self.watcher.addPath(str(path))  # replaced by a rename: watch the new file
        if file_hash(path) != self._disk_hash:
            self.show_hint(f"{Path(path).name} changed on disk by another program; "
                           "saving will ask before overwriting it")

    def save_as(self) -> bool:
        p = self.ask_path(save=True)
        if p is None:
            return False
        old_rec = self.doc.recovery_path(self.recovery_dir)
        old_path = self.doc.path
        try:
            self.doc.save(p)
        except (LoadError, OSError, ValueError) as exc:
            self.error(f"cannot save: {exc}")
            return False
        if old_rec not in self._foreign_recovery:
            _unlink_quietly(old_rec)
        if old_path is not None:
            _unlink_quietly(recovery.marker_for(self.recovery_dir, old_path))
        self._foreign_recovery = set()
        self._watch(self.doc.path)
        self._remove_recovery()
        self._add_recent(p)
        return True

    def autosave(self) -> Path | None:
        """Write a dirty document to its recovery file; returns where, or None."""
        if not self.doc.is_dirty():
            return None
        places = [self.doc.recovery_path(self.recovery_dir)]
        if self.doc.path is not None:  # a read-only folder: the per-user app-data folder
            places.append(recovery.fallback_recovery(self.recovery_dir, self.doc.path))
        problem = None
        for rec in places:
            try:
                self.doc.write(rec)
                if self.doc.path is not None:  # found at start-up should the file vanish
                    recovery.write_marker(self.recovery_dir, self.doc.path, rec)
            except (LoadError, OSError, ValueError) as exc:
                problem = problem or exc
                continue
            self._foreign_recovery.discard(rec)
            for other in places:
                if other != rec and other not in self._foreign_recovery:
                    _unlink_quietly(other)
            if rec != places[0]:
                self.show_hint(f"autosaved to {rec} (the file's folder is read-only)")
            return rec
        self.show_hint(f"autosave failed: {problem}")
        return None

    def _remove_recovery(self) -> None:
        """Remove this document's recovery files (never another session's, not yet offered)."""
        places = [self.doc.recovery_path(self.recovery_dir)]
        if self.doc.path is not None:
            places.append(recovery.fallback_recovery(self.recovery_dir, self.doc.path))
        kept = [p for p in places if p in self._foreign_recovery]
        for p in places:
            if p not in kept:
                _unlink_quietly(p)
        if self.doc.path is not None and not kept:
            _unlink_quietly(recovery.marker_for(self.recovery_dir, self.doc.path))

    def closeEvent(self, event) -> None:  # noqa: N802
        if self.maybe_save():
            self.save_layout()
            self._remove_recovery()
            self.autosave_timer.stop()
            if self.tool is not None:
                self.tool.deactivate()
            self.background.shutdown()
            self._let_go_of_document()
            event.accept()
        else:
            event.ignore()

    def recent_files(self) -> list[str]:
        v = self.settings.value("recent", [])
        if isinstance(v, str):
            v = [v]
        return [str(x) for x in (v or [])]

    def _add_recent(self, path: Path) -> None:
        p = str(Path(path).resolve())
        items = [p] + [x for x in self.recent_files() if x != p]
        self.settings.setValue("recent", items[:MAX_RECENT])
        self._refresh_recent()

    def _refresh_recent(self) -> None:
        self.recent_menu.clear()
        for p in self.recent_files():
            a = self.recent_menu.addAction(p)
            a.triggered.connect(lambda _=False, p=p: self.open_path(p))
        self.recent_menu.setEnabled(bool(self.recent_files()))


def _unlink_quietly(path: Path) -> None:
    """Remove a file if it can be removed (a read-only folder is not an error here)."""
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass


def file_hash(path: Path | None) -> str | None:
    """The SHA-256 of a regular file's bytes; None when missing or not a regular file."""
    if path is None or regular_file_problem(path) is not None:
        return None
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None
