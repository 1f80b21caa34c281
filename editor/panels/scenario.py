"""The scenario panel: the scenario's settings and briefing, its sides (deployment and
characters) and its objectives, in three tabs.

Every change is pushed as a new immutable Scenario (``Document.push``), so Ctrl+Z restores the
exact object; consecutive keystrokes or spin-box steps on one field merge into one undo step.
The widgets are built once and :meth:`ScenarioPanel.sync` copies the document into them
(signals blocked, only where different), after every edit, undo or redo.

Deployment zones are drawn on the map with the Deploy tool ("Draw zone on map" arms it for the
chosen side on the zone's level); objectives are put on their dot (or their hold area is
drawn) with "Place on map".  Choosing a side or an objective in a list selects it on the
canvas too, and the other way round.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from editor import cast_edits as ce
from editor import scenario_edits as se
from editor.canvas import objective_icons
from editor.canvas.scenario_item import side_colour
from editor.context import EditorContext
from editor.panels.characters import CharactersEditor, set_combo, set_spin, set_text
from editor.scenario_edits import ObjectiveRef, SideRef
from editor.tools.objective_place import HoldAreaTool, PlaceObjectiveTool
from engine.model import LIGHT, RULESETS, Scenario

NONE = "(none)"
INITIATIVE = ("team", "character")
DEPLOYMENT_KINDS = ("none", "polygon", "edge")
THEN = (NONE,) + tuple(f"exit-{e}" for e in se.EDGES)


def _opt_spin(lo: int, hi: int, name: str) -> QSpinBox:
    """A spin box whose lowest value means "not set"."""
    sb = QSpinBox()
    sb.setObjectName(name)
    sb.setRange(lo - 1, hi)
    sb.setSpecialValueText("none")
    return sb


def _opt(sb: QSpinBox, v: int | None) -> None:
    set_spin(sb, sb.minimum() if v is None else v)


def _val(sb: QSpinBox, v: int) -> int | None:
    return None if v == sb.minimum() else v


def fill_list(lst: QListWidget, rows: list[tuple[str, object]]) -> None:
    """Show ``rows`` (text, icon) unless the list already does; keeps the current row."""
    now = [lst.item(i).text() for i in range(lst.count())]
    if now == [t for t, _ in rows] and getattr(lst, "_icons", None) == [k for _, k in rows]:
        return
    cur = lst.currentRow()
    lst.blockSignals(True)
    lst.clear()
    for text, key in rows:
        it = QListWidgetItem(text)
        if key is not None:
            it.setIcon(key[0])
        lst.addItem(it)
    lst._icons = [k for _, k in rows]
    lst.setCurrentRow(min(cur, len(rows) - 1))
    lst.blockSignals(False)


class _IconKey(tuple):
    """(QIcon, kind, colour name): compares by kind and colour, not by the QIcon object."""

    def __eq__(self, other):  # noqa: D105
        return isinstance(other, tuple) and self[1:] == other[1:]

    def __hash__(self):  # noqa: D105
        return hash(self[1:])


def _icon_key(kind: str, colour) -> _IconKey:
    return _IconKey((objective_icons.icon(kind, colour), kind, colour.name()))


class ScenarioPanel(QWidget):
    def __init__(self, ctx: EditorContext, parent=None):
        super().__init__(parent)
        self.ctx = ctx
        outer = QVBoxLayout(self)
        outer.setContentsMargins(2, 2, 2, 2)
        self.sheet_note = QLabel("Sheet mode: sides and objectives belong to a scenario.")
        self.sheet_note.setWordWrap(True)
        outer.addWidget(self.sheet_note)
        self.tabs = QTabWidget()
        outer.addWidget(self.tabs)
        self.tabs.addTab(self._scroll(self._build_general()), "Scenario")
        self.tabs.addTab(self._scroll(self._build_sides()), "Sides")
        self.tabs.addTab(self._scroll(self._build_objectives()), "Objectives")
        ctx.state.selectionChanged.connect(self._follow_selection)

    @staticmethod
    def _scroll(w: QWidget) -> QScrollArea:
        s = QScrollArea()
        s.setWidgetResizable(True)
        s.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        s.setWidget(w)
        return s

    @property
    def doc(self):
        return self.ctx.doc

    def push(self, sc: Scenario, text: str, merge: str | None = None) -> None:
        if self.ctx.playing:  # test-play keeps the scenario as it is
            self.ctx.show_hint("Playing: leave play mode to edit the scenario")
            self.sync()
            return
        self.doc.push(sc, text, merge)

    def _root(self) -> Scenario:
        return self.doc.root

    # ------------------------------------------------------------------ general tab
    def _build_general(self) -> QWidget:
        w = QWidget()
        form = QFormLayout(w)
        self.title = QLineEdit()
        self.title.setObjectName("scenario-title")
        self.title.textEdited.connect(
            lambda t: self.push(replace(self._root(), title=t), "Edit title", "title"))
        self.ruleset = QComboBox()
        self.ruleset.setObjectName("ruleset")
        self.ruleset.addItems(list(RULESETS))
        self.ruleset.currentTextChanged.connect(
            lambda t: self.push(replace(self._root(), ruleset=t), "Ruleset"))
        self.light = QComboBox()
        self.light.setObjectName("light")
        self.light.addItems(list(LIGHT))
        self.light.currentTextChanged.connect(
            lambda t: self.push(ce.set_condition(self._root(), "light", t), "Light"))
        self.turn_limit = _opt_spin(1, 99, "turn-limit")
        self.turn_limit.valueChanged.connect(lambda v: self.push(
            replace(self._root(), turn_limit=_val(self.turn_limit, v)), "Turn limit",
            "turn-limit"))
        self.initiative = QComboBox()
        self.initiative.setObjectName("initiative")
        self.initiative.addItems(list(INITIATIVE))
        self.initiative.currentTextChanged.connect(
            lambda t: self.push(replace(self._root(), initiative=t), "Initiative"))
        self.most_points = QCheckBox("most points wins")
        self.most_points.setObjectName("most-points")
        self.most_points.toggled.connect(lambda on: self.push(
            ce.set_victory(self._root(), "most_points", on), "Victory"))
        self.points_to_win = _opt_spin(1, 999, "points-to-win")
        self.points_to_win.setPrefix("first to ")
        self.points_to_win.setSuffix(" points wins")
        self.points_to_win.setSpecialValueText("no points target")
        self.points_to_win.valueChanged.connect(lambda v: self.push(
            ce.set_victory(self._root(), "points", _val(self.points_to_win, v)), "Victory",
            "victory-points"))
        self.last_standing = QCheckBox("last side standing wins")
        self.last_standing.setObjectName("last-standing")
        self.last_standing.toggled.connect(lambda on: self.push(
            ce.set_victory(self._root(), "last_standing", on), "Victory"))
        self.briefing = QPlainTextEdit()
        self.briefing.setObjectName("briefing")
        self.briefing.setPlaceholderText("Briefing for the players: the situation, what each "
                                         "side knows, special rules")
        self.briefing.textChanged.connect(lambda: self.push(
            replace(self._root(), notes=self.briefing.toPlainText()), "Briefing", "briefing"))
        form.addRow("Title", self.title)
        form.addRow("Ruleset", self.ruleset)
        form.addRow("Light", self.light)
        form.addRow("Turn limit", self.turn_limit)
        form.addRow("Initiative", self.initiative)
        vic = QVBoxLayout()
        vic.addWidget(self.most_points)
        vic.addWidget(self.points_to_win)
        vic.addWidget(self.last_standing)
        form.addRow("Victory", vic)
        form.addRow(QLabel("Briefing"))
        form.addRow(self.briefing)
        return w

    # ------------------------------------------------------------------ sides tab
    def _build_sides(self) -> QWidget:
        w = QWidget()
        lay = QVBoxLayout(w)
        self.sides = QListWidget()
        self.sides.setObjectName("sides")
        self.sides.setMaximumHeight(84)  # three sides; more scroll
        self.sides.currentRowChanged.connect(self._side_chosen)
        self.sides.itemClicked.connect(lambda it: self._side_chosen(self.sides.row(it)))
        lay.addWidget(self.sides)
        row = QHBoxLayout()
        self.add_side_button = QPushButton("Add side")
        self.add_side_button.setObjectName("add-side")
        self.add_side_button.clicked.connect(self.add_side)
        self.remove_side_button = QPushButton("Remove side")
        self.remove_side_button.setObjectName("remove-side")
        self.remove_side_button.setToolTip("Removes the side and its objectives")
        self.remove_side_button.clicked.connect(self.remove_side)
        row.addWidget(self.add_side_button)
        row.addWidget(self.remove_side_button)
        lay.addLayout(row)
        self.side_box = QGroupBox("Side")
        form = QFormLayout(self.side_box)
        self.side_id = QLineEdit()
        self.side_id.setObjectName("side-id")
        self.side_id.setToolTip("The id objectives refer to; renaming updates them")
        self.side_id.editingFinished.connect(self._side_id_edited)
        self.side_name = QLineEdit()
        self.side_name.setObjectName("side-name-edit")
        self.side_name.textEdited.connect(lambda t: self._set_side("Side name", "name", name=t))
        self.dep_kind = QComboBox()
        self.dep_kind.setObjectName("deployment-kind")
        self.dep_kind.addItems(list(DEPLOYMENT_KINDS))
        self.dep_kind.currentTextChanged.connect(self._dep_kind_chosen)
        self.dep_level = QSpinBox()
        self.dep_level.setObjectName("deployment-level")
        self.dep_level.setRange(0, 60)
        self.dep_level.valueChanged.connect(lambda v: self._set_dep("Deployment level", level=v))
        self.dep_edge = QComboBox()
        self.dep_edge.setObjectName("deployment-edge")
        self.dep_edge.addItems(list(se.EDGES))
        self.dep_edge.currentTextChanged.connect(
            lambda t: self._set_dep("Deployment edge", edge=t))
        self.dep_depth = QSpinBox()
        self.dep_depth.setObjectName("deployment-depth")
        self.dep_depth.setRange(1, 40)
        self.dep_depth.setSuffix(" dots")
        self.dep_depth.valueChanged.connect(lambda v: self._set_dep("Deployment depth", depth=v))
        self.draw_zone = QPushButton("Draw zone on map")
        self.draw_zone.setObjectName("draw-zone")
        self.draw_zone.setToolTip("Arms the Deploy tool (Y) for this side on the zone's level")
        self.draw_zone.clicked.connect(self.arm_deploy)
        self.side_note = QLineEdit()
        self.side_note.textEdited.connect(lambda t: self._set_side("Side note", "note", note=t))
        form.addRow("Id", self.side_id)
        form.addRow("Name", self.side_name)
        form.addRow("Deployment", self.dep_kind)
        form.addRow("Level", self.dep_level)
        form.addRow("Edge", self.dep_edge)
        form.addRow("Depth", self.dep_depth)
        form.addRow(self.draw_zone)
        form.addRow("Note", self.side_note)
        self.dep_rows = {"edge": (self.dep_edge, self.dep_depth)}
        self._form = form
        lay.addWidget(self.side_box)
        self.chars_box = QGroupBox("Characters")
        cl = QVBoxLayout(self.chars_box)
        self.characters = CharactersEditor(self.ctx, self.push)
        cl.addWidget(self.characters)
        lay.addWidget(self.chars_box)
        lay.addStretch(1)
        return w

    def side_index(self) -> int:
        i = self.sides.currentRow()
        return i if 0 <= i < len(self._root().sides) else -1

    def _set_side(self, text: str, merge: str | None, **change) -> None:
        i = self.side_index()
        if i < 0:
            return
        side = replace(self._root().sides[i], **change)
        self.push(ce.replace_side(self._root(), i, side), text,
                  None if merge is None else f"side:{i}:{merge}")

    def _set_dep(self, text: str, **change) -> None:
        i = self.side_index()
        if i < 0 or self._root().sides[i].deployment is None:
            return
        dep = replace(self._root().sides[i].deployment, **change)
        self._set_side(text, None, deployment=dep)

    def add_side(self) -> None:
        sc, i = ce.add_side(self._root())
        self.push(sc, f"Add {sc.sides[i].id}")
        self.sides.setCurrentRow(i)

    def remove_side(self) -> None:
        i = self.side_index()
        if i >= 0:
            self.ctx.state.select(None)
            self.push(ce.remove_side(self._root(), i), f"Remove {self._root().sides[i].id}")

    def _side_id_edited(self) -> None:
        i = self.side_index()
        if i < 0:
            return
        new = self.side_id.text().strip()
        old = self._root().sides[i].id
        if new == old:
            return
        taken = {s.id for s in self._root().sides} - {old}
        if not new or new in taken or any(ch.isspace() for ch in new):
            self.ctx.show_hint(f"side id {new!r}: give a new id without spaces")
            set_text(self.side_id, old)
            return
        self._set_side("Side id", None, id=new)

    def _dep_kind_chosen(self, kind: str) -> None:
        i = self.side_index()
        if i < 0:
            return
        side = self._root().sides[i]
        if kind == "polygon" and (side.deployment is None or not side.deployment.polygon):
            self.arm_deploy()  # a polygon zone exists once it is drawn
            return
        new = ce.set_deployment_kind(side, kind)
        self.push(ce.replace_side(self._root(), i, new), "Deployment kind")

    def arm_deploy(self) -> None:
        """The Deploy tool, for this side, on the level its zone is (or will be) on."""
        i = self.side_index()
        if i < 0:
            return
        side = self._root().sides[i]
        level = side.deployment.level if side.deployment else self.dep_level.value()
        if level in self.doc.levels():
            self.ctx.state.set_level(level)
        self.ctx.options.set_sides([s.id for s in self._root().sides])
        self.ctx.options.choose_side(side.id)
        self.ctx.set_tool("deploy")
        QTimer.singleShot(0, self.sync_sides)  # the kind shows "polygon" once one is drawn
        self.ctx.show_hint(f"Deployment of {side.id}: click the zone's corners on level "
                           f"{self.ctx.state.level}, double-click or Enter to close it")

    def _side_chosen(self, row: int) -> None:
        self.sync_sides()
        sc = self._root()
        if 0 <= row < len(sc.sides):
            self.ctx.options.set_sides([s.id for s in sc.sides])
            self.ctx.options.choose_side(sc.sides[row].id)
            dep = sc.sides[row].deployment
            if dep is not None:
                self._go(dep.level, dep.polygon[0] if dep.polygon else None)
                self._select(SideRef(row))

    def _go(self, level: int, point) -> None:
        """Show a zone's or objective's level and scroll its first point into view."""
        if self.ctx.state.level != level and level in self.doc.levels():
            self.ctx.state.set_level(level)
        if point is not None and self.ctx.view.isVisible():
            self.ctx.view.ensureVisible(float(point[0]) - 3, float(point[1]) - 3, 6, 6)

    def _select(self, ref) -> None:
        self._selecting = True
        try:
            self.ctx.state.select(ref)
        finally:
            self._selecting = False

    # ------------------------------------------------------------------ objectives tab
    def _build_objectives(self) -> QWidget:
        w = QWidget()
        lay = QVBoxLayout(w)
        self.objectives = QListWidget()
        self.objectives.setObjectName("objectives")
        self.objectives.setMaximumHeight(120)
        self.objectives.currentRowChanged.connect(self._objective_chosen)
        # clicking the current one again shows it again (after the canvas selected another)
        self.objectives.itemClicked.connect(
            lambda it: self._objective_chosen(self.objectives.row(it)))
        lay.addWidget(self.objectives)
        row = QHBoxLayout()
        self.new_kind = QComboBox()
        self.new_kind.setObjectName("new-objective-kind")
        self.new_kind.addItems(list(se.OBJECTIVE_KINDS))
        self.add_objective_button = QPushButton("Add")
        self.add_objective_button.setObjectName("add-objective")
        self.add_objective_button.setToolTip(
            "Add an objective of this kind for the side chosen in the Sides tab; a reach or "
            "retrieve is then placed on the map, a hold's area drawn")
        self.add_objective_button.clicked.connect(self.add_objective)
        self.remove_objective_button = QPushButton("Remove")
        self.remove_objective_button.setObjectName("remove-objective")
        self.remove_objective_button.clicked.connect(self.remove_objective)
        row.addWidget(self.new_kind, 1)
        row.addWidget(self.add_objective_button)
        row.addWidget(self.remove_objective_button)
        lay.addLayout(row)
        self.ob_box = QGroupBox("Objective")
        form = QFormLayout(self.ob_box)
        self.ob_kind = QComboBox()
        self.ob_kind.setObjectName("objective-kind-edit")
        self.ob_kind.addItems(list(se.OBJECTIVE_KINDS))
        self.ob_kind.currentTextChanged.connect(self._kind_chosen)
        self.ob_side = QComboBox()
        self.ob_side.setObjectName("objective-side")
        self.ob_side.currentTextChanged.connect(lambda t: self._set_ob("Objective side", side=t))
        self.ob_points = _opt_spin(0, 999, "objective-points")
        self.ob_points.valueChanged.connect(lambda v: self._set_ob(
            "Points", "points", points=_val(self.ob_points, v)))
        self.ob_by_turn = _opt_spin(1, 99, "objective-by-turn")
        self.ob_by_turn.valueChanged.connect(lambda v: self._set_ob(
            "By turn", "by_turn", by_turn=_val(self.ob_by_turn, v)))
        self.ob_turns = _opt_spin(1, 99, "objective-turns")
        self.ob_turns.valueChanged.connect(lambda v: self._set_ob(
            "Turns to hold", "turns", turns=_val(self.ob_turns, v)))
        self.ob_then = QComboBox()
        self.ob_then.setObjectName("objective-then")
        self.ob_then.addItems(list(THEN))
        self.ob_then.currentTextChanged.connect(
            lambda t: self._set_ob("Then", then=None if t == NONE else t))
        self.ob_target = QComboBox()
        self.ob_target.setObjectName("objective-target")
        self.ob_target.currentTextChanged.connect(
            lambda t: self._set_ob("Target", target=None if t in (NONE, "") else t))
        self.ob_edge = QComboBox()
        self.ob_edge.setObjectName("objective-edge")
        self.ob_edge.addItems([NONE, *se.EDGES])
        self.ob_edge.currentTextChanged.connect(
            lambda t: self._set_ob("Edge", edge=None if t == NONE else t))
        self.ob_at = QLabel()
        self.place_button = QPushButton("Place on map")
        self.place_button.setObjectName("place-objective")
        self.place_button.clicked.connect(self.arm_place)
        self.ob_note = QLineEdit()
        self.ob_note.textEdited.connect(lambda t: self._set_ob("Objective note", "note", note=t))
        form.addRow("Kind", self.ob_kind)
        form.addRow("Side", self.ob_side)
        form.addRow("Points", self.ob_points)
        form.addRow("By turn", self.ob_by_turn)
        form.addRow("Turns", self.ob_turns)
        form.addRow("Then", self.ob_then)
        form.addRow("Target", self.ob_target)
        form.addRow("Edge", self.ob_edge)
        form.addRow("Where", self.ob_at)
        form.addRow(self.place_button)
        form.addRow("Note", self.ob_note)
        self._ob_form = form
        lay.addWidget(self.ob_box)
        lay.addStretch(1)
        return w

    def objective_index(self) -> int:
        i = self.objectives.currentRow()
        return i if 0 <= i < len(self._root().objectives) else -1

    def _set_ob(self, text: str, merge: str | None = None, **change) -> None:
        i = self.objective_index()
        if i < 0:
            return
        ob = replace(self._root().objectives[i], **change)
        self.push(ce.set_objective(self._root(), i, ob), text,
                  None if merge is None else f"objective:{i}:{merge}")

    def _kind_chosen(self, kind: str) -> None:
        i = self.objective_index()
        if i >= 0:
            ob = ce.change_kind(self._root().objectives[i], kind)
            self.push(ce.set_objective(self._root(), i, ob), "Objective kind")

    def add_objective(self) -> None:
        sc = self._root()
        i = self.side_index()
        if not sc.sides:
            sc, i = ce.add_side(sc)
        side = sc.sides[max(i, 0)].id
        kind = self.new_kind.currentText()
        sc, k = ce.add_objective(sc, side, kind)
        self.push(sc, f"Add {sc.objectives[k].id}")
        self.objectives.setCurrentRow(k)
        if ce.missing(sc.objectives[k]) in ("at", "area"):
            self.arm_place()

    def remove_objective(self) -> None:
        i = self.objective_index()
        if i >= 0:
            self.ctx.state.select(None)
            self.push(ce.set_objective(self._root(), i, None),
                      f"Remove {self._root().objectives[i].id}")

    def arm_place(self) -> None:
        """Put the chosen objective on the map: its dot, or for a hold its area."""
        i = self.objective_index()
        if i < 0:
            return
        ob = self._root().objectives[i]
        tool = HoldAreaTool(self.ctx, i) if ob.kind == "hold" else PlaceObjectiveTool(self.ctx, i)
        self.ctx.set_tool(tool.name, tool)

    def _objective_chosen(self, row: int) -> None:
        self.sync_objectives()
        if 0 <= row < len(self._root().objectives):
            ob = self._root().objectives[row]
            if ob.at is not None:
                self._go(ob.at[2] if len(ob.at) > 2 else 0, ob.at[:2])
            elif ob.area:
                self._go(ob.level, ob.area[0])
            self._select(ObjectiveRef(row))

    # ------------------------------------------------------------------ selection
    def _follow_selection(self) -> None:
        """A side's zone or an objective chosen on the canvas: show it here."""
        if getattr(self, "_selecting", False):
            return
        sel = self.ctx.state.selection
        if isinstance(sel, SideRef):
            self.sides.setCurrentRow(sel.index)
            self.tabs.setCurrentIndex(1)
        elif isinstance(sel, ObjectiveRef):
            self.objectives.setCurrentRow(sel.index)
            self.tabs.setCurrentIndex(2)

    # ------------------------------------------------------------------ view
    def sync(self) -> None:
        scenario = self.doc.mode == "scenario"
        self.sheet_note.setVisible(not scenario)
        self.tabs.setEnabled(scenario)
        if not scenario:
            return
        sc = self._root()
        set_text(self.title, sc.title)
        set_combo(self.ruleset, sc.ruleset)
        set_combo(self.light, sc.light)
        _opt(self.turn_limit, sc.turn_limit)
        set_combo(self.initiative, sc.initiative)
        vic = dict(sc.victory)
        for box, key in ((self.most_points, "most_points"), (self.last_standing, "last_standing")):
            if box.isChecked() != bool(vic.get(key)):
                box.blockSignals(True)
                box.setChecked(bool(vic.get(key)))
                box.blockSignals(False)
        _opt(self.points_to_win, vic.get("points"))
        if self.briefing.toPlainText() != sc.notes:
            self.briefing.blockSignals(True)
            self.briefing.setPlainText(sc.notes)
            self.briefing.blockSignals(False)
        self.sync_sides()
        self.sync_objectives()

    def sync_sides(self) -> None:
        sc = self._root()
        fill_list(self.sides, [(f"{s.name or s.id}  ({s.id}, {len(s.characters)})",
                                _icon_key("side", side_colour(i)))
                               for i, s in enumerate(sc.sides)])
        if sc.sides and self.sides.currentRow() < 0:
            self.sides.blockSignals(True)
            self.sides.setCurrentRow(0)
            self.sides.blockSignals(False)
        i = self.side_index()
        self.remove_side_button.setEnabled(i >= 0)
        self.side_box.setEnabled(i >= 0)
        self.chars_box.setEnabled(i >= 0)
        self.characters.set_side(i)
        if i < 0:
            for w in (self.side_id, self.side_name, self.side_note):
                set_text(w, "")
            return
        side = sc.sides[i]
        self.side_box.setTitle(f"Side {side.id}")
        if not self.side_id.hasFocus():
            set_text(self.side_id, side.id)
        set_text(self.side_name, side.name)
        set_text(self.side_note, side.note)
        dep = side.deployment
        kind = ce.deployment_kind(dep)
        set_combo(self.dep_kind, kind)
        if dep is not None:
            set_spin(self.dep_level, dep.level)
            set_combo(self.dep_edge, dep.edge or "west")
            set_spin(self.dep_depth, dep.depth or 3)
        self.dep_level.setEnabled(dep is not None)
        for w in self.dep_rows["edge"]:
            self._form.setRowVisible(w, kind == "edge")
        self._form.setRowVisible(self.draw_zone, kind != "edge")
        self.draw_zone.setText("Redraw zone on map" if kind == "polygon" else
                               "Draw zone on map")

    def sync_objectives(self) -> None:
        sc = self._root()
        colours = {s.id: side_colour(i) for i, s in enumerate(sc.sides)}
        rows = []
        for o in sc.objectives:
            lack = ce.missing(o)
            rows.append((f"{o.id}: {o.kind} ({o.side})" + (f" — needs {lack}" if lack else ""),
                         _icon_key(o.kind, colours.get(o.side, side_colour(0)))))
        fill_list(self.objectives, rows)
        if rows and self.objectives.currentRow() < 0:
            self.objectives.blockSignals(True)
            self.objectives.setCurrentRow(0)
            self.objectives.blockSignals(False)
        i = self.objective_index()
        self.remove_objective_button.setEnabled(i >= 0)
        self.ob_box.setEnabled(i >= 0)
        self.add_objective_button.setEnabled(True)
        sides = [s.id for s in sc.sides]
        if [self.ob_side.itemText(k) for k in range(self.ob_side.count())] != sides:
            self.ob_side.blockSignals(True)
            self.ob_side.clear()
            self.ob_side.addItems(sides)
            self.ob_side.blockSignals(False)
        targets = [NONE] + sides + [c.name for s in sc.sides for c in s.characters]
        if [self.ob_target.itemText(k) for k in range(self.ob_target.count())] != targets:
            self.ob_target.blockSignals(True)
            self.ob_target.clear()
            self.ob_target.addItems(targets)
            self.ob_target.blockSignals(False)
        if i < 0:
            self.ob_at.setText("")
            return
        ob = sc.objectives[i]
        self.ob_box.setTitle(f"Objective {ob.id}")
        set_combo(self.ob_kind, ob.kind)
        set_combo(self.ob_side, ob.side)
        _opt(self.ob_points, ob.points)
        _opt(self.ob_by_turn, ob.by_turn)
        _opt(self.ob_turns, ob.turns)
        set_combo(self.ob_then, ob.then or NONE)
        set_combo(self.ob_target, ob.target or NONE)
        set_combo(self.ob_edge, ob.edge or NONE)
        set_text(self.ob_note, ob.note)
        fields = ce.KIND_FIELDS.get(ob.kind, ())
        for w, f in ((self.ob_turns, "turns"), (self.ob_then, "then"),
                     (self.ob_target, "target"), (self.ob_edge, "edge")):
            self._ob_form.setRowVisible(w, f in fields)
        placed = "at" in fields or "area" in fields
        self._ob_form.setRowVisible(self.ob_at, placed)
        self._ob_form.setRowVisible(self.place_button, placed)
        if ob.kind == "hold":
            self.ob_at.setText(f"area of {len(ob.area)} corners on level {ob.level}"
                               if ob.area else "no area yet")
            self.place_button.setText("Draw hold area on map")
        else:
            self.ob_at.setText("dot " + ",".join(map(str, ob.at)) if ob.at else "not placed yet")
            self.place_button.setText("Place on map")
