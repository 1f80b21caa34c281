"""Findings: placements that overlap or leave the pavement, broken sheets, engine checks.

The engine's validation (``engine.validate``) is used when it is present, so the editor lists
exactly what ``sprawlmap validate`` reports; the placement checks are the editor's own so that
they show while a building is still being dragged.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from editor.edits import PlacementRef

COLOURS = {"error": QColor(200, 30, 30), "warning": QColor(190, 120, 0),
           "info": QColor(80, 80, 80)}
STALE = QColor(150, 150, 150)


#: engine checks the editor already runs live (while dragging) under its own wording
EDITOR_CHECKS = ("overlapping-placements", "off-pavement")


def engine_findings(doc) -> list[dict]:
    """``engine.validate`` findings as dicts {code, severity, message, where}, if available."""
    if doc.mode != "scenario":
        return []
    board = doc.board()
    return engine_findings_for(board, doc.board_error(), doc.root)


def engine_findings_for(board, err: str, scenario) -> list[dict]:
    """The engine's findings of ``scenario`` on a compiled ``board`` (thread-safe: no Qt)."""
    try:
        from engine import validate as v
    except ImportError:
        return []
    if board is None:
        return [{"code": "board", "severity": "warning", "message": err, "where": None}] if err \
            else []
    try:
        found = v.validate(board, scenario)
    except Exception as exc:  # a checker bug must not take the editor down
        return [{"code": "validate", "severity": "warning", "message": str(exc), "where": None}]
    out = []
    for f in found:
        if f.code in EDITOR_CHECKS:
            continue
        out.append({"code": f.code, "severity": f.severity, "message": f.message,
                    "where": f.where})
    return out


def collect(doc, engine: list[dict] | None = None) -> list[dict]:
    """Everything to list; ``engine``: the engine's findings already computed off the GUI
    thread (see ``editor.findings_live``), else they are computed here."""
    out: list[dict] = []
    lay = doc.layout
    for idx, why in sorted(doc.problems().items()):
        pl = lay.placements[idx]
        out.append({"code": "placement", "severity": "error",
                    "message": f"{pl.id or pl.sheet} {why}", "where": PlacementRef(False, idx)})
    for e in doc.library_errors:
        out.append({"code": "sheet", "severity": "warning", "message": e, "where": None})
    missing = {p.sheet for p in lay.placements + lay.pavement if not p.piece} - set(doc.sheets())
    for m in sorted(missing):
        out.append({"code": "missing-sheet", "severity": "error",
                    "message": f"sheet {m!r} is not in the library", "where": None})
    out.extend(engine_findings(doc) if engine is None else engine)
    return out


class FindingsPanel(QWidget):
    """Double-click a placement finding to select that building."""

    activated = Signal(object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.list = QListWidget()
        self.list.setWordWrap(True)
        self.list.itemActivated.connect(
            lambda it: self.activated.emit(it.data(Qt.ItemDataRole.UserRole)))
        self.list.itemDoubleClicked.connect(
            lambda it: self.activated.emit(it.data(Qt.ItemDataRole.UserRole)))
        #: shown from an edit until its findings are in (they come from the background)
        self.updating = QLabel("updating…")
        self.updating.setObjectName("findings-updating")
        self.updating.setStyleSheet("color: #a06000; font-style: italic;")
        self.updating.setToolTip("The board is being recompiled and checked after the last edit")
        self.updating.setVisible(False)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.updating)
        lay.addWidget(self.list)
        self.findings: list[dict] = []
        #: the board-wide checks' findings of the last complete validation, by check: shown
        #: (greyed) while those checks run again after an edit
        self.kept: dict = {}

    def set_updating(self, on: bool) -> None:
        """Say that the list is being recomputed (the old findings stay meanwhile)."""
        self.updating.setVisible(on)

    def refresh(self, doc, engine: list[dict] | None = None) -> None:
        self.findings = collect(doc, engine)
        self.list.clear()
        if not self.findings:
            it = QListWidgetItem("No findings")
            it.setForeground(QBrush(QColor(60, 140, 60)))
            self.list.addItem(it)
            return
        for f in self.findings:
            sev = f.get("severity") or "info"
            it = QListWidgetItem(f"[{sev}] {f.get('message', '')}")
            it.setForeground(QBrush(COLOURS.get(sev, COLOURS["info"])))
            it.setToolTip(f"{f.get('code', '')} ({sev}): double-click to go there")
            if f.get("stale"):  # from before the last edit: its check is running again
                it.setForeground(QBrush(STALE))
                font = it.font()
                font.setItalic(True)
                it.setFont(font)
                it.setToolTip(f"{f.get('code', '')} ({sev}), found before the last edit: "
                              "being checked again")
            where = f.get("where")
            it.setData(Qt.ItemDataRole.UserRole, where)
            self.list.addItem(it)
