"""One side's characters: a table to pick one, archetypes to add from, a form to edit it.

The widgets stay alive across edits; :meth:`CharactersEditor.sync` copies the document into
them with their signals blocked and only where the text differs, so typing is never
interrupted and an undo simply shows the restored values.  Every change is pushed as a whole
new scenario (see :mod:`editor.cast_edits`), consecutive steps of one field merging into one
undo step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from editor import cast_edits as ce
from editor.context import EditorContext
from engine.catalogue import archetype_character, archetype_names
from engine.model import Character, Scenario, Weapon

VISION = ("normal", "low-light", "thermographic")
METATYPES = ("human", "elf", "dwarf", "ork", "troll")
WEAPON_COLUMNS = ("type", "name", "success", "shots", "damage")


def set_text(w: QLineEdit, text: str) -> None:
    if w.text() != text:
        w.blockSignals(True)
        w.setText(text)
        if not w.hasFocus():
            w.setCursorPosition(0)  # show the start of a long value, not its end
        w.blockSignals(False)


def set_spin(w: QSpinBox, v: int) -> None:
    if w.value() != v:
        w.blockSignals(True)
        w.setValue(v)
        w.blockSignals(False)


def set_combo(w: QComboBox, text: str) -> None:
    if w.currentText() != text:
        w.blockSignals(True)
        if w.findText(text) < 0:
            w.addItem(text)  # a value from a file the editor has no name for: keep it
        w.setCurrentText(text)
        w.blockSignals(False)


def fill_table(t: QTableWidget, rows: list[list[str]]) -> None:
    """Put ``rows`` in the table unless it already shows them (keeps the current cell)."""
    now = [[t.item(r, c).text() if t.item(r, c) else "" for c in range(t.columnCount())]
           for r in range(t.rowCount())]
    if now == rows:
        return
    cur = t.currentRow()
    t.blockSignals(True)
    t.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            t.setItem(r, c, QTableWidgetItem(text))
    if rows:
        t.setCurrentCell(min(max(cur, 0), len(rows) - 1), 0)
    t.blockSignals(False)


class CharactersEditor(QWidget):
    """The characters of the side ``side_index`` of ``ctx.doc``'s scenario."""

    def __init__(self, ctx: EditorContext, push: Callable[[Scenario, str, str | None], None], parent=None):
        super().__init__(parent)
        self.ctx = ctx
        self.push = push
        self.side_index = -1
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.table = QTableWidget(0, 4)
        self.table.setObjectName("characters")
        self.table.setHorizontalHeaderLabels(["Name", "Archetype", "MR", "FR"])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        hh.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for c in (2, 3):
            hh.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setMinimumHeight(110)
        self.table.currentCellChanged.connect(lambda *_: self.sync())
        lay.addWidget(self.table)
        row = QHBoxLayout()
        self.archetype = QComboBox()
        self.archetype.setObjectName("archetype")
        self.archetype.addItems(archetype_names())
        self.archetype.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.archetype.setMinimumContentsLength(8)
        self.add_button = QToolButton()  # compact: the row must fit a narrow dock
        self.add_button.setText("Add")
        self.add_button.setObjectName("add-character")
        self.add_button.setToolTip("Add a character of this archetype (DMZ numbers)")
        self.add_button.clicked.connect(self.add)
        self.remove_button = QToolButton()
        self.remove_button.setText("Remove")
        self.remove_button.setObjectName("remove-character")
        self.remove_button.clicked.connect(self.remove)
        row.addWidget(self.archetype, 1)
        row.addWidget(self.add_button)
        row.addWidget(self.remove_button)
        lay.addLayout(row)
        self.form_box = QWidget()
        form = QFormLayout(self.form_box)
        form.setContentsMargins(0, 0, 0, 0)
        self.name = QLineEdit()
        self.name.setObjectName("character-name")
        self.name.textEdited.connect(lambda t: self._set("Character name", "name", name=t))
        self.arch_label = QLabel()
        self.move = QSpinBox()
        self.move.setObjectName("move-ratio")
        self.fire = QSpinBox()
        self.fire.setObjectName("fire-ratio")
        for sb in (self.move, self.fire):
            sb.setRange(1, 9)
            sb.setToolTip("1 is the fastest; the book's ratios run 1 to 4")
        self.move.valueChanged.connect(lambda v: self._set("Move ratio", "mr", move_ratio=v))
        self.fire.valueChanged.connect(lambda v: self._set("Fire ratio", "fr", fire_ratio=v))
        self.vision = QComboBox()
        self.vision.setObjectName("vision")
        self.vision.addItems(list(VISION))
        self.vision.currentTextChanged.connect(lambda t: self._set("Vision", None, vision=t))
        self.metatype = QComboBox()
        self.metatype.setObjectName("metatype")
        self.metatype.addItems(list(METATYPES))
        self.metatype.currentTextChanged.connect(
            lambda t: self._set("Metatype", None, metatype=t))
        self.success = QLineEdit()
        self.success.setObjectName("success")
        self.success.setToolTip("Base success values: 'firearms 12, armed 15, unarmed 20'")
        self.success.editingFinished.connect(lambda: self._values("success"))
        self.defense = QLineEdit()
        self.defense.setObjectName("defense")
        self.defense.setToolTip("Base defense values: 'ballistic 11, impact 10, ...'")
        self.defense.editingFinished.connect(lambda: self._values("defense"))
        self.note = QLineEdit()
        self.note.textEdited.connect(lambda t: self._set("Character note", "note", note=t))
        form.addRow("Name", self.name)
        form.addRow("Archetype", self.arch_label)
        ratios = QHBoxLayout()
        ratios.addWidget(QLabel("move"))
        ratios.addWidget(self.move)
        ratios.addWidget(QLabel("fire"))
        ratios.addWidget(self.fire)
        form.addRow("Ratios", ratios)
        form.addRow("Vision", self.vision)
        form.addRow("Metatype", self.metatype)
        form.addRow("Success", self.success)
        form.addRow("Defense", self.defense)
        self.weapons = QTableWidget(0, len(WEAPON_COLUMNS))
        self.weapons.setObjectName("weapons")
        self.weapons.setHorizontalHeaderLabels([c.title() for c in WEAPON_COLUMNS])
        self.weapons.verticalHeader().hide()
        self.weapons.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.weapons.horizontalHeader().setStretchLastSection(True)
        self.weapons.setMinimumHeight(90)
        self.weapons.itemChanged.connect(self._weapon_edited)
        wl = QLabel("Weapons (success at short/medium/long/extreme range)")
        wl.setWordWrap(True)
        form.addRow(wl)
        form.addRow(self.weapons)
        wrow = QHBoxLayout()
        add_w = QPushButton("Add weapon")
        add_w.setObjectName("add-weapon")
        add_w.clicked.connect(self._add_weapon)
        rm_w = QPushButton("Remove weapon")
        rm_w.setObjectName("remove-weapon")
        rm_w.clicked.connect(self._remove_weapon)
        wrow.addWidget(add_w)
        wrow.addWidget(rm_w)
        form.addRow(wrow)
        form.addRow("Note", self.note)
        self.problem = QLabel()
        self.problem.setStyleSheet("color: #b01e1e")
        self.problem.setWordWrap(True)
        form.addRow(self.problem)
        lay.addWidget(self.form_box)

    # ------------------------------------------------------------------ model access
    def side(self):
        sides = self.ctx.doc.root.sides
        return sides[self.side_index] if 0 <= self.side_index < len(sides) else None

    def current(self) -> tuple[int, Character] | None:
        side = self.side()
        i = self.table.currentRow()
        if side is None or not 0 <= i < len(side.characters):
            return None
        return i, side.characters[i]

    def _replace(self, ch: Character, text: str, merge: str | None) -> None:
        cur = self.current()
        if cur is None:
            return
        i = cur[0]
        key = None if merge is None else f"char:{self.side_index}:{i}:{merge}"
        self.push(ce.set_character(self.ctx.doc.root, self.side_index, i, ch), text, key)

    def _set(self, text: str, merge: str | None, **change) -> None:
        cur = self.current()
        if cur is not None:
            self._replace(replace(cur[1], **change), text, merge)

    # ------------------------------------------------------------------ actions
    def add(self) -> None:
        side = self.side()
        if side is None:
            return
        ch = archetype_character(self.archetype.currentText())
        name = ce.unique_name(ch.name, {c.name for c in side.characters})
        ch = replace(ch, name=name, id=ce.character_id(self.ctx.doc.root, name))
        sc, i = ce.add_character(self.ctx.doc.root, self.side_index, ch)
        self.push(sc, f"Add {ch.name}", None)
        self.table.setCurrentCell(i, 0)

    def remove(self) -> None:
        cur = self.current()
        if cur is not None:
            self.push(ce.set_character(self.ctx.doc.root, self.side_index, cur[0], None),
                      f"Remove {cur[1].name}", None)

    def _values(self, attr: str) -> None:
        cur = self.current()
        if cur is None:
            return
        box = self.success if attr == "success" else self.defense
        try:
            pairs = ce.parse_values(box.text())
        except ValueError as exc:
            self.problem.setText(f"{attr}: {exc}")
            return
        self.problem.setText("")
        if pairs != getattr(cur[1], attr):
            self._replace(replace(cur[1], **{attr: pairs}), f"Character {attr}", None)

    def _add_weapon(self) -> None:
        cur = self.current()
        if cur is not None:
            ch = ce.set_weapon(cur[1], len(cur[1].weapons), Weapon(type="heavy-pistol"))
            self._replace(ch, "Add weapon", None)

    def _remove_weapon(self) -> None:
        cur = self.current()
        r = self.weapons.currentRow()
        if cur is not None and 0 <= r < len(cur[1].weapons):
            self._replace(ce.set_weapon(cur[1], r, None), "Remove weapon", None)

    def _weapon_edited(self, item: QTableWidgetItem) -> None:
        cur = self.current()
        if cur is None or not 0 <= item.row() < len(cur[1].weapons):
            return
        w = cur[1].weapons[item.row()]
        col = WEAPON_COLUMNS[item.column()]
        text = item.text().strip()
        try:
            if col == "type":
                if not text:
                    raise ValueError("a weapon needs a type, e.g. heavy-pistol")
                new = replace(w, type=text)
            elif col == "name":
                new = replace(w, name=text)
            elif col == "success":
                new = replace(w, success=ce.parse_success(text))
            else:
                new = replace(w, **{col: int(text) if text else None})
        except ValueError as exc:
            self.problem.setText(f"weapon {col}: {exc}")
            # put the stored value back once Qt is done with the edited item
            QTimer.singleShot(0, lambda: self.sync(force_weapons=True))
            return
        self.problem.setText("")
        self._replace(ce.set_weapon(cur[1], item.row(), new), f"Weapon {col}", None)

    # ------------------------------------------------------------------ view
    def set_side(self, index: int) -> None:
        if index != self.side_index:
            self.side_index = index
            self.table.setCurrentCell(-1, -1)
        self.sync()

    def sync(self, force_weapons: bool = False) -> None:
        side = self.side()
        chars = side.characters if side is not None else ()
        fill_table(self.table, [[c.name, c.archetype, str(c.move_ratio), str(c.fire_ratio)]
                                for c in chars])
        if chars and self.table.currentRow() < 0:
            self.table.blockSignals(True)
            self.table.setCurrentCell(0, 0)
            self.table.blockSignals(False)
        self.add_button.setEnabled(side is not None)
        cur = self.current()
        self.remove_button.setEnabled(cur is not None)
        self.form_box.setEnabled(cur is not None)
        if cur is None:
            for w in (self.name, self.success, self.defense, self.note):
                set_text(w, "")
            self.arch_label.setText("")
            fill_table(self.weapons, [])
            return
        ch = cur[1]
        set_text(self.name, ch.name)
        self.arch_label.setText(ch.archetype or "(none)")
        set_spin(self.move, ch.move_ratio)
        set_spin(self.fire, ch.fire_ratio)
        set_combo(self.vision, ch.vision)
        set_combo(self.metatype, ch.metatype)
        if not self.success.hasFocus():
            set_text(self.success, ce.format_values(ch.success))
        if not self.defense.hasFocus():
            set_text(self.defense, ce.format_values(ch.defense))
        set_text(self.note, ch.note)
        rows = [[w.type, w.name, ce.format_success(w.success),
                 "" if w.shots is None else str(w.shots),
                 "" if w.damage is None else str(w.damage)] for w in ch.weapons]
        if force_weapons:
            self.weapons.blockSignals(True)
            self.weapons.setRowCount(0)
            self.weapons.blockSignals(False)
        fill_table(self.weapons, rows)
        self.weapons.setToolTip(
            "Double-click a cell to edit it" if rows else "No weapons: add one")
