"""The Lenses panel: a side's exposure, tempo or lead map over the canvas.

Choose the map and the side; the map follows the level switcher.  Each map is computed in the
background (the engine worker, slot ``lens``) from a freshly compiled board after every edit,
and drawn when ready; meanwhile the old shading stays, dimmed.  Colours come from
:mod:`engine.analysis.ramp`, the same classes ``sprawlmap analyse -o`` draws.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QWidget

from editor.tools.overlay import DotShade

MAPS = ("off", "exposure", "tempo", "lead")
ALPHA = 170  # shading opacity over the map


class LensPanel(QWidget):
    def __init__(self, ctx, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.map_box = QComboBox()
        self.map_box.addItems(list(MAPS))
        self.side_box = QComboBox()
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.legend = QLabel("")
        self.legend.setWordWrap(True)
        form = QFormLayout(self)
        form.addRow("Map", self.map_box)
        form.addRow("Side", self.side_box)
        form.addRow(self.status)
        form.addRow(self.legend)
        self.item: DotShade | None = None
        self.lens = None  # the LensMap drawn
        self.map_box.currentTextChanged.connect(lambda _: self.refresh())
        self.side_box.currentTextChanged.connect(lambda _: self.refresh())

    # ------------------------------------------------------------------ inputs
    def document_changed(self) -> None:
        """Sides may have changed; recompute the map on the edited board."""
        doc = self.ctx.doc
        ids = [s.id for s in doc.root.sides] if doc.mode == "scenario" else []
        cur = self.side_box.currentText()
        self.side_box.blockSignals(True)
        self.side_box.clear()
        self.side_box.addItems(ids)
        if cur in ids:
            self.side_box.setCurrentText(cur)
        self.side_box.blockSignals(False)
        self.refresh()

    def choose(self, lens: str, side: str | None = None) -> None:
        if side is not None:
            self.side_box.setCurrentText(side)
        self.map_box.setCurrentText(lens)

    def key(self) -> tuple:
        return (self.map_box.currentText(), self.side_box.currentText(), self.ctx.state.level)

    # ------------------------------------------------------------------ computing
    def refresh(self) -> None:
        """Compute the chosen map in the background; draw it when it arrives."""
        lens, side, level = self.key()
        if lens == "off" or not side:
            self.ctx.background.cancel("lens")
            self._drop()
            self.status.setText("" if lens == "off" else "this document has no sides")
            self.legend.setText("")
            return
        if self.item is not None:
            self.item.setOpacity(0.35)
        self.status.setText(f"{lens} of {side}, level {level}: computing…")
        doc = self.ctx.doc
        compile_job = doc.board_job()
        scenario = doc.scenario()
        asked = self.key()

        def job():
            from engine.analysis.exposure import exposure
            from engine.analysis.tempo import lead, tempo

            root, board, err = compile_job()
            if board is None:
                return root, board, err, None
            fn = {"exposure": exposure, "tempo": tempo, "lead": lead}[lens]
            return root, board, err, fn(board, scenario, side, level)

        def done(result) -> None:
            if isinstance(result, BaseException):
                self.status.setText(f"{lens}: {result}")
                return
            root, board, err, m = result
            self.ctx.doc.adopt_board(root, board, err)
            if self.key() != asked:
                return  # a newer request is on its way
            if m is None:
                self.status.setText(f"{lens}: {err}")
                return
            self.draw(m)
        self.ctx.background.run_soon("lens", job, done)

    # ------------------------------------------------------------------ drawing
    def draw(self, m) -> None:
        from engine.analysis.ramp import bands

        self._drop()
        self.lens = m
        colours = np.zeros((len(m.dots), 4), dtype=np.uint8)
        rows = []
        for band in bands(m):
            if not band.mask.any():
                continue
            c = QColor(band.colour)
            colours[band.mask] = (c.red(), c.green(), c.blue(),
                                  ALPHA if band.filled else ALPHA // 2)
            mark = "●" if band.filled else "○"
            rows.append(f"<span style='color:{band.colour}'>{mark}</span> {band.label} "
                        f"({int(band.mask.sum())})")
        shown = colours[:, 3] > 0
        self.item = DotShade(self.ctx.doc.layout.lattice, m.dots[shown, :2], colours[shown])
        self.item.setZValue(55)
        self.ctx.scene.addItem(self.item)
        none = int(np.isnan(m.values).sum())
        what = {"exposure": "unseen", "tempo": "never reached", "lead": "never reached"}[m.kind]
        self.status.setText(f"{m.kind} of {m.side}, level {int(m.dots[0, 2]) if len(m.dots) else ''}"
                            f": {len(m.dots) - none} dots shaded, {none} {what}"
                            + (f" ({m.info['sources']} enemy set-up dots)"
                               if m.kind == "exposure" else ""))
        self.legend.setText("<br>".join(rows))

    def _drop(self) -> None:
        if self.item is not None and self.item.scene() is not None:
            self.item.scene().removeItem(self.item)
        self.item = None
        self.lens = None
