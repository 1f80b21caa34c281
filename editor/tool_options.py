"""The tool-options bar: area and line kinds, the side the scenario tools work for, move ratio,
MP, the LOS fan switch and the weapon the LOS tool asks about.

Tools read their options here (through :class:`editor.context.EditorContext`), not from the
window, so a tool needs no more of the editor than its context.
"""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QSpinBox, QToolBar, QWidget

from engine.model import AREA_KINDS, LINE_KINDS

NEW_SIDE = "(new side)"
NO_WEAPON = "(no weapon)"


class ToolOptions(QToolBar):
    def __init__(self, parent: QWidget | None = None):
        super().__init__("Tool options", parent)
        self.setObjectName("tool-options")
        self.area_kind = QComboBox()
        self.area_kind.addItems(list(AREA_KINDS))
        self.line_kind = QComboBox()
        self.line_kind.addItems(list(LINE_KINDS))
        self.move_ratio = QSpinBox()
        self.move_ratio.setRange(1, 6)
        self.move_ratio.setValue(3)
        self.move_ratio.setPrefix("move ratio ")
        self.mp_box = QSpinBox()
        self.mp_box.setRange(1, 60)
        self.mp_box.setValue(12)
        self.mp_box.setSuffix(" MP")
        self.fan_box = QCheckBox("LOS fan")
        self.weapon_box = QComboBox()
        self.weapon_box.setObjectName("los-weapon")
        self.weapon_box.setEditable(True)  # any weapon the ruleset reads (e.g. darkcon "m16:40")
        self.weapon_box.addItem(NO_WEAPON)
        self.weapon_box.setToolTip("LOS tool: the weapon the shot is fired with (range band; "
                                   "under darkcon the incidental fire zone is drawn)")
        self.side_box = QComboBox()
        self.addWidget(QLabel(" Area "))
        self.addWidget(self.area_kind)
        self.addWidget(QLabel(" Line "))
        self.addWidget(self.line_kind)
        self.addWidget(QLabel(" Side "))
        self.addWidget(self.side_box)
        self.addSeparator()
        self.addWidget(self.move_ratio)
        self.addWidget(self.mp_box)
        self.addWidget(self.fan_box)
        self.addWidget(QLabel(" Weapon "))
        self.addWidget(self.weapon_box)

    # ------------------------------------------------------------------ analysis tools
    def fan(self) -> bool:
        return self.fan_box.isChecked()

    def set_fan(self, on: bool) -> None:
        self.fan_box.setChecked(on)

    def weapon(self) -> str | None:
        """The weapon the LOS tool asks about (None: no weapon)."""
        t = self.weapon_box.currentText().strip()
        return None if t in ("", NO_WEAPON) else t

    def set_weapons(self, names: list[str]) -> None:
        """Offer ``names`` (and no weapon), keeping the chosen one when it is still offered
        (another ruleset reads weapons differently)."""
        items = [NO_WEAPON, *names]
        if [self.weapon_box.itemText(i) for i in range(self.weapon_box.count())] == items:
            return
        current = self.weapon_box.currentText()
        self.weapon_box.blockSignals(True)
        self.weapon_box.clear()
        self.weapon_box.addItems(items)
        self.weapon_box.setCurrentText(current if current in items else NO_WEAPON)
        self.weapon_box.blockSignals(False)

    def ratio(self) -> int:
        return self.move_ratio.value()

    def mp(self) -> int:
        return self.mp_box.value()

    # ------------------------------------------------------------------ scenario tools
    def set_sides(self, ids: list[str]) -> None:
        """Offer ``ids`` (and a new side), keeping the chosen one when it is still there."""
        items = list(ids) + [NEW_SIDE]
        if [self.side_box.itemText(i) for i in range(self.side_box.count())] == items:
            return
        current = self.side_box.currentText()
        self.side_box.blockSignals(True)
        self.side_box.clear()
        self.side_box.addItems(items)
        self.side_box.setCurrentText(current if current in items else items[0])
        self.side_box.blockSignals(False)

    def chosen_side(self) -> str | None:
        """The side id the deploy and objective tools work for (None: make a new side)."""
        t = self.side_box.currentText()
        return None if t in ("", NEW_SIDE) else t

    def choose_side(self, side_id: str) -> None:
        self.side_box.setCurrentText(side_id)
