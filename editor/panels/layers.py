"""Level switcher and layer toggles."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QLabel, QVBoxLayout, QWidget

from editor.canvas.style import LAYERS
from editor.state import EditorState


def level_name(k: int) -> str:
    return "ground (0)" if k == 0 else f"level {k}"


class LayersPanel(QWidget):
    def __init__(self, state: EditorState, parent=None):
        super().__init__(parent)
        self.state = state
        self.level_box = QComboBox()
        self.level_box.currentIndexChanged.connect(self._level_picked)
        self.checks: dict[str, QCheckBox] = {}
        form = QFormLayout()
        form.addRow(QLabel("Level"), self.level_box)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        for name in LAYERS:
            cb = QCheckBox(name.title())
            cb.setChecked(name in state.layers)
            cb.toggled.connect(lambda on, n=name: state.set_layer(n, on))
            self.checks[name] = cb
            lay.addWidget(cb)
        lay.addStretch(1)
        self._levels: list[int] = []
        state.levelChanged.connect(self._sync)

    def set_levels(self, levels: list[int]) -> None:
        if levels == self._levels:
            return
        self._levels = list(levels)
        self.level_box.blockSignals(True)
        self.level_box.clear()
        for k in levels:
            self.level_box.addItem(level_name(k), k)
        self.level_box.blockSignals(False)
        if self.state.level not in levels:
            self.state.set_level(levels[-1] if levels else 0)
        self._sync(self.state.level)

    def _sync(self, level: int) -> None:
        i = self.level_box.findData(level)
        if i >= 0 and i != self.level_box.currentIndex():
            self.level_box.blockSignals(True)
            self.level_box.setCurrentIndex(i)
            self.level_box.blockSignals(False)

    def _level_picked(self, i: int) -> None:
        if i >= 0:
            self.state.set_level(self.level_box.itemData(i))

    def step(self, d: int) -> None:
        """Go up (d=1) or down (d=-1) one level."""
        if not self._levels:
            return
        i = self._levels.index(self.state.level) if self.state.level in self._levels else 0
        j = max(0, min(len(self._levels) - 1, i + d))
        self.state.set_level(self._levels[j])
