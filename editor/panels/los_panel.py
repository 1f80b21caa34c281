"""The LOS panel: the side view of the line the LOS tool shows on the plan, and the same line
under every ruleset (dmz1990, sr3, sr1, darkcon) side by side.

Both come from the engine (:mod:`engine.analysis.profile`, :mod:`engine.analysis.compare`),
the same answers ``sprawlmap los A B --profile OUT.png --all-rulesets`` prints.  The tool asks
on every hover; the panel waits until the pointer rests a moment so a sweep stays smooth.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

#: how long the pointer must rest on a target before the panel redraws (ms)
SETTLE_MS = 120


class LosPanel(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.title = QLabel("LOS: pick a dot with the LOS tool (L), then hover a target")
        self.title.setWordWrap(True)
        self.side = QLabel()
        self.side.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        scroll = QScrollArea()
        scroll.setWidget(self.side)
        scroll.setWidgetResizable(True)
        scroll.setMinimumHeight(170)
        self.table = QTableWidget(0, 0)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.title)
        row = QHBoxLayout()
        row.addWidget(scroll, 3)
        row.addWidget(self.table, 2)
        lay.addLayout(row, 1)
        self._want = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SETTLE_MS)
        self._timer.timeout.connect(self._update)
        self.profile = None
        self.comparison = None

    def show_line(self, board, scenario, a, b, *, now: bool = False) -> None:
        """Show the line ``a`` -> ``b`` of ``board`` (soon, or at once with ``now``)."""
        self._want = (board, scenario, tuple(a), tuple(b))
        if now:
            self._update()
        else:
            self._timer.start()

    def reveal(self) -> None:
        """Bring up the panel's dock (the LOS tool does when it is chosen, before any line is
        hovered, so the canvas does not shift under the pointer)."""
        dock = self.parentWidget()
        if isinstance(dock, QDockWidget) and dock.isHidden():
            dock.show()

    def clear(self) -> None:
        self._want = None
        self._timer.stop()
        self.profile = self.comparison = None
        self.side.clear()
        self.table.setRowCount(0)
        self.table.setColumnCount(0)

    def _update(self) -> None:
        if self._want is None:
            return
        from editor.render.raster import render_image
        from engine.analysis.compare import compare, fmt
        from engine.analysis.profile import profile
        from engine.analysis.profile_picture import PX_PER_DOT, profile_scene

        board, scenario, a, b = self._want
        light = getattr(scenario, "light", "day")
        try:
            self.profile = profile(board, a, b, light=light)
            self.comparison = compare(board, a, b, light=light)
        except Exception as exc:  # a dot off the board: say so, keep the panel
            self.title.setText(f"LOS: {exc}")
            return
        self.title.setText(f"Side view and every ruleset: {','.join(map(str, a))} -> "
                           f"{','.join(map(str, b))} (scenario ruleset "
                           f"{getattr(scenario, 'ruleset', 'dmz1990')})")
        self.side.setPixmap(QPixmap.fromImage(render_image(profile_scene(self.profile),
                                                           PX_PER_DOT * 0.8)))
        t = self.comparison
        names = list(t["rulesets"])
        self.table.setColumnCount(len(names))
        self.table.setHorizontalHeaderLabels(names)
        self.table.setRowCount(len(t["rows"]))
        self.table.setVerticalHeaderLabels([label for _k, label in t["rows"]])
        for i, (k, _label) in enumerate(t["rows"]):
            for j, n in enumerate(names):
                item = QTableWidgetItem(fmt(t["rulesets"][n].get(k)))
                notes = t["rulesets"][n].get("notes") or []
                if notes:
                    item.setToolTip("\n".join(notes))
                self.table.setItem(i, j, item)
