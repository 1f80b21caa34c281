"""The zone window's side panels: the zone's settings, players, the path question, the dice
and the findings.  A mixin of :class:`editor.zone.window.ZoneWindow`: the widgets it builds
are the window's attributes, their slots the window's methods."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
)

from editor.zone import edits
from engine.zone.model import SIDES


class ZonePanels:
    def _zone_group(self) -> QGroupBox:
        g = QGroupBox("Zone")
        f = QFormLayout(g)
        self.title_edit = QLineEdit()
        self.title_edit.editingFinished.connect(self._set_title)
        f.addRow("Title", self.title_edit)
        row = QHBoxLayout()
        self.cols_spin, self.rows_spin = QSpinBox(), QSpinBox()
        for s in (self.cols_spin, self.rows_spin):
            s.setRange(1, 64)
            s.editingFinished.connect(self._set_grid)
            row.addWidget(s)
        f.addRow("Grid (cols, rows)", row)
        river = QHBoxLayout()
        self.preset_buttons = []
        for label, preset in (("Preset 1", 1), ("Preset 2", 2), ("No River", None)):
            b = QPushButton(label)
            b.clicked.connect(lambda _c=False, p=preset: self.river_preset(p))
            river.addWidget(b)
            self.preset_buttons.append(b)
        f.addRow("River", river)
        cross = QHBoxLayout()
        self.cross_vehicle, self.cross_athletics = QCheckBox("vehicle"), QCheckBox("athletics")
        for cb in (self.cross_vehicle, self.cross_athletics):
            cb.toggled.connect(self._set_crossing)
            cross.addWidget(cb)
        f.addRow("Crosses the River", cross)
        return g

    def _players_group(self) -> QGroupBox:
        g = QGroupBox("Players (safehouse edges)")
        v = QVBoxLayout(g)
        self.player_list = QListWidget()
        self.player_list.setMaximumHeight(64)
        v.addWidget(self.player_list)
        row = QHBoxLayout()
        self.side_combo = QComboBox()
        self.side_combo.addItems(list(SIDES))
        add = QPushButton("Add player")
        add.clicked.connect(lambda: self.apply(lambda z: edits.add_player(z, self.side_combo.currentText()),
                                               "add player"))
        move = QPushButton("Move safehouse")
        move.clicked.connect(self._move_safehouse)
        rem = QPushButton("Remove")
        rem.clicked.connect(self._remove_player)
        for w in (self.side_combo, add, move, rem):
            row.addWidget(w)
        v.addLayout(row)
        erow = QHBoxLayout()
        erow.addWidget(QLabel("Entry tool edits:"))
        self.entry_player = QComboBox()
        erow.addWidget(self.entry_player, 1)
        v.addLayout(erow)
        return g

    def _path_group(self) -> QGroupBox:
        g = QGroupBox("Path (fewest moves)")
        f = QFormLayout(g)
        self.path_from, self.path_to = QLineEdit("A"), QLineEdit("B")
        f.addRow("From (block c,r or player)", self.path_from)
        f.addRow("To", self.path_to)
        row = QHBoxLayout()
        self.path_vehicle, self.path_athletics = QCheckBox("vehicle"), QCheckBox("Athletics")
        go = QPushButton("Find path")
        go.clicked.connect(self.find_path)
        for w in (self.path_vehicle, self.path_athletics, go):
            row.addWidget(w)
        self.path_vehicle.toggled.connect(lambda _c: self.find_path())
        self.path_athletics.toggled.connect(lambda _c: self.find_path())
        f.addRow(row)
        self.path_label = QLabel("")
        self.path_label.setWordWrap(True)
        f.addRow(self.path_label)
        return g

    def _dice_group(self) -> QGroupBox:
        g = QGroupBox("Dice: growth and landslides")
        v = QVBoxLayout(g)
        row = QHBoxLayout()
        self.seed_spin = QSpinBox()
        self.seed_spin.setRange(0, 2_000_000_000)
        self.seed_spin.setValue(1)
        self.runners_spin = QSpinBox()
        self.runners_spin.setRange(1, 6)
        row.addWidget(QLabel("Seed"))
        row.addWidget(self.seed_spin)
        row.addWidget(QLabel("Runners"))
        row.addWidget(self.runners_spin)
        v.addLayout(row)
        row = QHBoxLayout()
        self.landslide_button = QPushButton("Roll landslide")
        self.landslide_button.clicked.connect(lambda: self.roll("landslide"))
        self.growth_button = QPushButton("Roll growth")
        self.growth_button.clicked.connect(lambda: self.roll("growth"))
        row.addWidget(self.landslide_button)
        row.addWidget(self.growth_button)
        v.addLayout(row)
        self.dice_log = QListWidget()
        self.dice_log.setMaximumHeight(90)
        v.addWidget(self.dice_log)
        return g

    def _findings_group(self) -> QGroupBox:
        g = QGroupBox("Findings (click to zoom to the blocks)")
        v = QVBoxLayout(g)
        self.findings = QListWidget()
        self.findings.setMinimumHeight(110)
        self.findings.setWordWrap(True)
        self.findings.itemClicked.connect(self._zoom_finding)
        v.addWidget(self.findings)
        return g
