"""The play panel dock: whose turn it is, the character to move and his buttons, the shot
about to be rolled, the objectives and the score, save and load.

The panel only lays the widgets out; :class:`editor.play.mode.PlayMode` fills them in and
connects them to the game.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from engine.play.reaction import ARCS

ARC_CHOICES = [(name, f"{name} — {cost} MP, {width:.0f}°") for name, (cost, width) in ARCS.items()]


def _label(wrap: bool = True) -> QLabel:
    lab = QLabel("")
    lab.setWordWrap(wrap)
    return lab


class PlayPanel(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        self.banner = _label()
        self.banner.setStyleSheet("QLabel { background: #1d6b2c; color: white; font-weight: bold;"
                                  " padding: 6px; border-radius: 3px; }")
        self.banner.hide()
        lay.addWidget(self.banner)
        self.turn_label = _label()
        self.turn_label.setStyleSheet("QLabel { font-weight: bold; font-size: 11pt; }")
        lay.addWidget(self.turn_label)

        who = QGroupBox("Character")
        form = QFormLayout(who)
        self.char_box = QComboBox()
        self.char_box.setToolTip("Who moves next (or click his counter)")
        form.addRow("Moves", self.char_box)
        self.mp_label = _label()
        form.addRow("MP", self.mp_label)
        self.char_label = _label()
        form.addRow("State", self.char_label)
        self.weapon_box = QComboBox()
        form.addRow("Weapon", self.weapon_box)
        self.arc_box = QComboBox()
        for key, text in ARC_CHOICES:
            self.arc_box.addItem(text, key)
        self.arc_box.setCurrentIndex(1)
        self.arc_box.setToolTip("Drag from the character to set an arc of this width")
        form.addRow("Arc", self.arc_box)
        self.opening_box = QComboBox()
        form.addRow("Door", self.opening_box)
        lay.addWidget(who)

        grid = QGridLayout()
        self.end_move = QPushButton("End move")
        self.end_move.setToolTip("End this character's Movement Phase (Enter)")
        self.posture = QPushButton("Drop prone")
        self.ready = QPushButton("Ready")
        self.reload = QPushButton("Reload")
        self.open_door = QPushButton("Open door")
        self.fire = QPushButton("Fire…")
        self.fire.setCheckable(True)
        self.fire.setToolTip("Then click an enemy counter: the chance is shown before the roll (F)")
        self.throw = QPushButton("Throw grenade…")
        self.throw.setCheckable(True)
        self.throw.setToolTip("Then click the dot to throw at (the ready weapon must be a grenade)")
        self.end_phase = QPushButton("End phase")
        self.end_phase.setToolTip("Everyone of this team who has not moved stands still")
        buttons = [self.end_move, self.posture, self.ready, self.reload, self.open_door,
                   self.fire, self.throw, self.end_phase]
        for i, b in enumerate(buttons):
            grid.addWidget(b, i // 2, i % 2)
        lay.addLayout(grid)

        self.shot_box = QFrame()
        self.shot_box.setFrameShape(QFrame.Shape.StyledPanel)
        sl = QVBoxLayout(self.shot_box)
        sl.setContentsMargins(4, 4, 4, 4)
        self.shot_label = _label()
        sl.addWidget(self.shot_label)
        row = QHBoxLayout()
        self.roll = QPushButton("Roll")
        self.cancel_shot = QPushButton("Cancel")
        row.addWidget(self.roll)
        row.addWidget(self.cancel_shot)
        sl.addLayout(row)
        self.shot_box.hide()
        lay.addWidget(self.shot_box)

        self.path_label = _label()
        lay.addWidget(self.path_label)
        self.warning_label = _label()
        self.warning_label.setStyleSheet("QLabel { color: #c01010; font-weight: bold; }")
        lay.addWidget(self.warning_label)

        obj = QGroupBox("Objectives")
        ol = QVBoxLayout(obj)
        self.objectives_label = _label()
        self.objectives_label.setTextFormat(self.objectives_label.textFormat().RichText)
        ol.addWidget(self.objectives_label)
        self.score_label = _label()
        self.score_label.setStyleSheet("QLabel { font-weight: bold; }")
        ol.addWidget(self.score_label)
        lay.addWidget(obj)

        files = QHBoxLayout()
        self.save_game = QPushButton("Save game…")
        self.load_game = QPushButton("Load game…")
        self.leave = QPushButton("Leave play")
        files.addWidget(self.save_game)
        files.addWidget(self.load_game)
        files.addWidget(self.leave)
        lay.addLayout(files)
        lay.addStretch(1)
