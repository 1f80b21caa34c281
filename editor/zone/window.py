"""The zone editor window: the grid of blocks, its tools, and panels for the zone's settings,
players, paths, dice and findings (seed 002; docs/zone.md).

Tools (one at a time, like the layout editor's): Path (click two blocks), Shape (paint blocks
in or out), River, Entry (the chosen player's entry blocks), Barrier (click a shared edge, or
two neighbouring blocks; a diagonal is refused; asks for the Body), Card (empty, face-down,
face-up) and Link (choose a layout for a block).  Double-click a block to open its layout;
"Compose" writes the neighbourhood of linked blocks and opens it.  Every change is a
QUndoCommand on the document's stack.  Dialogs are methods (``ask_body``, ``ask_layout``,
``ask_compose_path``, ``ask_open_path``, ``ask_save_path``) so tests can replace them.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QLabel,
    QListWidgetItem,
    QMainWindow,
    QScrollArea,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from editor.zone import edits
from editor.zone.document import ZoneDocument, blank_zone
from editor.zone.files import ZoneFiles
from editor.zone.panels import ZonePanels
from editor.zone.view import ZoneView
from engine.errors import SprawlmapError
from engine.zone import rules
from engine.zone.dice import growth_turn, landslide_turn
from engine.zone.model import Block, Zone, side_between
from engine.zone.validate import validate_zone

TOOLS = {"path": ("Path", "P"), "shape": ("Shape", "S"), "river": ("River", "R"),
         "entry": ("Entry", "E"), "barrier": ("Barrier", "B"), "card": ("Card", "C"),
         "link": ("Link", "L")}
CARD_CYCLE = (None, "face-down", "face-up")


class ZoneWindow(ZonePanels, ZoneFiles, QMainWindow):
    def __init__(self, doc: ZoneDocument | None = None,
                 open_document: Callable[[Path], object] | None = None):
        super().__init__()
        self.doc = doc or ZoneDocument(blank_zone())
        #: opens a layout/scenario (or zone) file in a window of its own; set by editor.app
        self.open_document = open_document
        self.opened: list[object] = []  # windows opened from here, kept alive
        self.tool = "path"
        self.path_ends: list[Block | str] = []
        self.barrier_first: Block | None = None
        self.turn = 0
        self.current_block: Block | None = None
        self.view = ZoneView(self)
        self.setCentralWidget(self.view)
        self._build_tools()
        self._build_panels()
        self._build_menus()
        self.view.block_clicked.connect(self.on_block)
        self.view.edge_clicked.connect(self.on_edge)
        self.view.block_activated.connect(self.open_block)
        self.doc.changed.connect(self.refresh)
        self.doc.undo_stack.cleanChanged.connect(self._clean_changed)
        self.doc.setParent(self)  # the document lives and dies with its window
        self.resize(1300, 850)
        self.refresh()
        self.view.fit()

    # ----------------------------------------------------------------- building
    def _build_tools(self) -> None:
        bar = QToolBar("Zone tools", self)
        bar.setObjectName("zone-tools")
        self.addToolBar(bar)
        group = QActionGroup(self)
        self.tool_actions: dict[str, QAction] = {}
        for key, (label, short) in TOOLS.items():
            act = QAction(label, self, checkable=True)
            act.setShortcut(QKeySequence(short))
            act.setToolTip(f"{label} ({short})")
            act.triggered.connect(lambda _c=False, k=key: self.set_tool(k))
            group.addAction(act)
            bar.addAction(act)
            self.tool_actions[key] = act
        self.tool_actions["path"].setChecked(True)
        bar.addSeparator()
        self.compose_action = QAction("Compose", self)
        self.compose_action.setToolTip("write one dot-scale layout of every linked block and open it")
        self.compose_action.triggered.connect(self.compose)
        bar.addAction(self.compose_action)
        self.toolbar = bar

    def toolbar_button(self, text: str) -> QWidget:
        """The tool-bar button of the action called ``text`` (for tests and tours)."""
        act = next(a for a in self.toolbar.actions() if a.text() == text)
        return self.toolbar.widgetForAction(act)

    def _build_panels(self) -> None:
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.addWidget(self._zone_group())
        lay.addWidget(self._players_group())
        lay.addWidget(self._path_group())
        lay.addWidget(self._dice_group())
        lay.addWidget(self._findings_group())
        lay.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidget(box)
        scroll.setWidgetResizable(True)
        dock = QDockWidget("Zone", self)
        dock.setObjectName("zone-panel")
        dock.setWidget(scroll)
        dock.setMinimumWidth(380)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        self.status = QLabel("")
        self.statusBar().addWidget(self.status, 1)

    def _build_menus(self) -> None:
        m = self.menuBar().addMenu("&File")
        for label, key, fn in (("&New zone", QKeySequence.StandardKey.New, self.new_zone),
                               ("&Open...", QKeySequence.StandardKey.Open, self.open_file),
                               ("&Save", QKeySequence.StandardKey.Save, self.save),
                               ("Save &as...", QKeySequence.StandardKey.SaveAs, self.save_as),
                               ("&Print picture (SVG/PDF/PNG)...", QKeySequence.StandardKey.Print, self.print_picture)):
            act = m.addAction(label)
            act.setShortcut(key)
            act.triggered.connect(fn)
        e = self.menuBar().addMenu("&Edit")
        undo = self.doc.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.doc.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcut(QKeySequence.StandardKey.Redo)
        e.addAction(undo)
        e.addAction(redo)
        z = self.menuBar().addMenu("&Zone")
        z.addAction(self.compose_action)
        fight = z.addAction("Fight in the last clicked block...")
        fight.triggered.connect(self.block_fight)
        fit = z.addAction("Fit the zone")
        fit.triggered.connect(self.view.fit)

    # ----------------------------------------------------------------- state
    def _clean_changed(self, _clean: bool) -> None:
        self._title()

    def _title(self) -> None:
        name = self.doc.path.name if self.doc.path else "untitled zone"
        dirty = "" if self.doc.undo_stack.isClean() else " *"
        self.setWindowTitle(f"{name}{dirty} - sprawlmap zone")

    def refresh(self) -> None:
        z = self.doc.zone
        self._title()
        self.title_edit.setText(z.title)
        for s, v in ((self.cols_spin, z.cols), (self.rows_spin, z.rows)):
            s.blockSignals(True)
            s.setValue(v)
            s.blockSignals(False)
        for cb, word in ((self.cross_vehicle, "vehicle"), (self.cross_athletics, "athletics")):
            cb.blockSignals(True)
            cb.setChecked(bool(z.river) and word in z.river.crossing)
            cb.setEnabled(z.river is not None)
            cb.blockSignals(False)
        self.player_list.clear()
        for p in z.players:
            ents = " ".join(f"{b[0]},{b[1]}" for b in rules.entries(z, p.id))
            self.player_list.addItem(f"{p.id}  {p.name}  - {p.safehouse} edge; entries {ents}")
        current = self.entry_player.currentText()
        self.entry_player.blockSignals(True)
        self.entry_player.clear()
        self.entry_player.addItems([p.id for p in z.players])
        if current:
            self.entry_player.setCurrentText(current)
        self.entry_player.blockSignals(False)
        self.view.show_zone(z, self.doc.base_dir)
        self.find_path(quiet=True)
        self.refresh_findings()

    def refresh_findings(self) -> None:
        self.findings.clear()
        try:
            found = validate_zone(self.doc.zone, self.doc.base_dir)
        except SprawlmapError as e:
            self.findings.addItem(str(e))
            return
        if not found:
            self.findings.addItem("no findings")
        for f in found:
            item = QListWidgetItem(f"{f.severity}: {f.message}")
            item.setData(Qt.ItemDataRole.UserRole, [tuple(b) for b in f.where.get("blocks", [])])
            item.setForeground(Qt.GlobalColor.red if f.severity == "error" else Qt.GlobalColor.darkYellow)
            self.findings.addItem(item)

    def _zoom_finding(self, item: QListWidgetItem) -> None:
        blocks = item.data(Qt.ItemDataRole.UserRole) or []
        self.view.zoom_to(blocks)

    def say(self, text: str) -> None:
        self.status.setText(text)

    def apply(self, change: Callable[[Zone], Zone], text: str) -> bool:
        try:
            new = change(self.doc.zone)
        except (ValueError, SprawlmapError) as e:
            self.say(str(e))
            return False
        done = self.doc.apply(new, text)
        if done:
            self.say(text)
        return done

    def set_tool(self, key: str) -> None:
        self.tool = key
        self.tool_actions[key].setChecked(True)
        self.barrier_first = None
        self.path_ends = []
        hints = {"path": "click two blocks: the path between them",
                 "shape": "click a square to take it out of the zone or put it back",
                 "river": "click blocks to add them to the River or take them out",
                 "entry": "click blocks to toggle the entries of the chosen player",
                 "barrier": "click the edge between two blocks (or the two blocks) to build a barrier; "
                            "click a barrier to remove it",
                 "card": "click a block: empty slot, face-down card, face-up card",
                 "link": "click a block to link it to a layout file"}
        self.say(hints[key])

    # ----------------------------------------------------------------- tools
    def on_block(self, c: int, r: int) -> None:
        b = (c, r)
        z = self.doc.zone
        self.current_block = b
        if self.tool == "shape":
            self.apply(lambda z: edits.toggle_block(z, b), f"shape {c},{r}")
            return
        if not z.has_block(b):
            self.say(f"{c},{r} is not a block of the zone")
            return
        if self.tool == "path":
            self.path_ends = (self.path_ends + [b])[-2:]
            if len(self.path_ends) == 1:
                self.path_from.setText(f"{c},{r}")
                self.say(f"path from {c},{r}: click the other end")
            else:
                self.path_to.setText(f"{c},{r}")
                self.path_ends = []
                self.find_path()
        elif self.tool == "river":
            self.apply(lambda z: edits.toggle_river(z, b), f"river {c},{r}")
        elif self.tool == "entry":
            pid = self.entry_player.currentText()
            if not pid:
                self.say("add a player first")
                return
            self.apply(lambda z: edits.toggle_entry(z, pid, b, rules.entries(z, pid)), f"entry {c},{r} of {pid}")
        elif self.tool == "card":
            zb = z.block(b)
            now = zb.card if zb else None
            nxt = CARD_CYCLE[(CARD_CYCLE.index(now) + 1) % len(CARD_CYCLE)]
            self.apply(lambda z: edits.set_block(z, b, card=nxt), f"card {c},{r}: {nxt or 'empty'}")
        elif self.tool == "link":
            ref = self.ask_layout(b)
            if ref is not None:
                self.apply(lambda z: edits.set_block(z, b, layout=ref or None), f"link {c},{r}")
        elif self.tool == "barrier":
            if self.barrier_first is None:
                self.barrier_first = b
                self.say(f"barrier from {c},{r}: click the neighbouring block")
                return
            a, self.barrier_first = self.barrier_first, None
            self.build_barrier(a, b)

    def on_edge(self, a: Block, b: Block) -> None:
        if self.tool == "barrier":
            self.barrier_first = None
            if self.doc.zone.barrier(a, b) is not None:
                self.apply(lambda z: edits.remove_barrier(z, a, b), f"remove barrier {a}-{b}")
            else:
                self.build_barrier(a, b)
        else:
            self.on_block(*a)

    def build_barrier(self, a: Block, b: Block) -> None:
        if side_between(a, b) is None:
            self.say(f"no barrier between {a[0]},{a[1]} and {b[0]},{b[1]}: not orthogonal neighbours "
                     "(barriers are never diagonal)")
            return
        if not (self.doc.zone.has_block(a) and self.doc.zone.has_block(b)):
            self.say("a barrier stands between two blocks of the zone")
            return
        body = self.ask_body(a, b)
        if body is None:
            return
        self.apply(lambda z: edits.add_barrier(z, a, b, body), f"barrier {a[0]},{a[1]}-{b[0]},{b[1]} Body {body}")

    def ask_body(self, a: Block, b: Block) -> int | None:
        value, ok = QInputDialog.getInt(self, "Barrier", "Body rating (the builders' total Attack):", 4, 0, 1000)
        return value if ok else None

    def ask_layout(self, b: Block) -> str | None:
        start = str(self.doc.base_dir or Path.cwd())
        path, _ = QFileDialog.getOpenFileName(self, f"Layout for block {b[0]},{b[1]}", start, "YAML (*.yaml *.yml)")
        if not path:
            return None
        return self._relative(Path(path))

    def _relative(self, path: Path) -> str:
        base = self.doc.base_dir
        if base is None:
            return str(path)
        try:
            return os.path.relpath(path, base)
        except ValueError:
            return str(path)

    # ----------------------------------------------------------------- panels
    def _set_title(self) -> None:
        text = self.title_edit.text()
        self.apply(lambda z: edits.evolve(z, title=text), "title")

    def _set_grid(self) -> None:
        c, r = self.cols_spin.value(), self.rows_spin.value()
        self.apply(lambda z: edits.resize(z, c, r), f"grid {c} x {r}")

    def river_preset(self, preset: int | None) -> None:
        self.apply(lambda z: edits.river_preset(z, preset), f"River preset {preset}" if preset else "no River")

    def _set_crossing(self) -> None:
        words = tuple(w for cb, w in ((self.cross_vehicle, "vehicle"), (self.cross_athletics, "athletics"))
                      if cb.isChecked())
        self.apply(lambda z: edits.set_crossing(z, words), "River crossing")

    def _selected_player(self) -> str | None:
        row = self.player_list.currentRow()
        players = self.doc.zone.players
        return players[row].id if 0 <= row < len(players) else None

    def _move_safehouse(self) -> None:
        pid = self._selected_player()
        if pid is None:
            self.say("select a player in the list first")
            return
        side = self.side_combo.currentText()
        self.apply(lambda z: edits.set_safehouse(z, pid, side), f"player {pid} safehouse {side}")

    def _remove_player(self) -> None:
        pid = self._selected_player()
        if pid is not None:
            self.apply(lambda z: edits.remove_player(z, pid), f"remove player {pid}")

    def find_path(self, quiet: bool = False) -> None:
        z = self.doc.zone
        try:
            a = rules.parse_end(z, self.path_from.text().strip())
            b = rules.parse_end(z, self.path_to.text().strip())
        except SprawlmapError as e:
            self.view.path_blocks = []
            if not quiet:
                self.path_label.setText(str(e))
                self.view.rebuild()
            return
        res = rules.path(z, a, b, vehicle=self.path_vehicle.isChecked(), athletics=self.path_athletics.isChecked())
        self.path_result = res
        self.path_label.setText(("" if res.reachable else "NO PATH: ") + res.why
                                + ("\n" + " -> ".join(f"{x[0]},{x[1]}" for x in res.blocks) if res.blocks else ""))
        self.view.path_blocks = list(res.blocks)
        self.view.rebuild()

    def roll(self, table: str) -> None:
        """One turn of a table with the panel's seed; the seed then steps on, so the log replays."""
        seed = self.seed_spin.value()
        rng = random.Random(seed)
        z = self.doc.zone
        self.turn += 1
        if table == "landslide":
            new, dice, res = landslide_turn(z, rng, self.runners_spin.value())
            blk = tuple(res["block"])
            self.view.pushes = [(blk, tuple(p["to"]) if p.get("to") else None) for p in res["pushes"]]
            text = (f"seed {seed}: landslide on {blk[0]},{blk[1]} (dice {' '.join(map(str, dice))}): "
                    + "; ".join(f"{p['direction']}" + (" (off the edge: stays)" if p.get("off_edge") else
                                                       " (to the safehouse)" if p.get("safehouse") else
                                                       f" -> {p['to'][0]},{p['to'][1]}" if p["direction"] != "stay"
                                                       else "")
                                + (f" {p['damage']} dmg" if p["damage"] else "") for p in res["pushes"])
                    + "".join(f"; barrier {b['between'][0]}-{b['between'][1]} destroyed"
                              for b in res["barriers_destroyed"]))
        else:
            new, dice, res = growth_turn(z, rng)
            self.view.pushes = []
            text = (f"seed {seed}: growth (dice {' '.join(map(str, dice))}): "
                    + (f"a {res['added']} on the {res['side']} -> {res['grid'][0]} x {res['grid'][1]}"
                       if res["grew"] else f"no growth ({res['why']})"))
        self.dice_log.addItem(text)
        self.dice_log.scrollToBottom()
        self.seed_spin.setValue(seed + 1)
        if not self.doc.apply(new, f"{table} roll (seed {seed})"):
            self.view.rebuild()
        self.say(text)

    # ----------------------------------------------------------------- documents
    def set_text_title(self, text: str) -> None:
        self.title_edit.setText(text)
        self._set_title()
