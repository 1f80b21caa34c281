"""The tool protocol and the helpers every tool shares (overlays, targets, feature edits)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QGraphicsItem

from editor import edits
from editor.context import EditorContext
from editor.geometry import Resolved
from editor.picking import placement_at


def cosmetic(colour: QColor | str, width: float = 2.0,
             style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    pen = QPen(QColor(colour), width, style)
    pen.setCosmetic(True)
    return pen


class Tool:
    """Base tool: ignores everything.  Handlers return True when they used the event.

    A tool works through its :class:`~editor.context.EditorContext` (``self.ctx``): the
    document, view state, canvas, worker, tool options and status line; never the window."""

    name = "tool"
    hint = ""

    def __init__(self, ctx: EditorContext):
        self.ctx = ctx
        self._overlay: list[QGraphicsItem] = []

    @property
    def doc(self):
        return self.ctx.doc

    @property
    def state(self):
        return self.ctx.state

    # ------------------------------------------------------------------ lifecycle
    def activate(self) -> None:
        self.ctx.show_hint(self.hint)

    def deactivate(self) -> None:
        self.clear_overlay()

    def refresh(self) -> None:
        """The view changed (level, tool options): redraw from the current board."""

    def analyse_in_background(self, label: str, analyse: Callable[[Any], Any],
                              key: Callable[[], Any], redraw: Callable[[Any], None]) -> None:
        """Recompile the board and run ``analyse(board)`` off the GUI thread, then adopt the
        board and call ``redraw(result)``; ``redraw(None)`` when ``key()`` (origin, level,
        options) changed meanwhile, so a stale answer is never drawn."""
        self.ctx.show_hint(f"{label}: updating…")
        compile_job = self.doc.board_job()
        asked = key()

        def job():
            root, board, err = compile_job()
            return root, board, err, (analyse(board) if board is not None else None)

        def done(result) -> None:
            if isinstance(result, BaseException):
                self.ctx.show_hint(f"{label}: {result}")
                return
            root, board, err, data = result
            if self.doc.adopt_board(root, board, err) and self.ctx.tool is self:
                redraw(data if key() == asked else None)
        self.ctx.background.run_soon("analysis", job, done)

    def document_changed(self) -> None:
        """The document changed under the tool (edit, undo): refresh what it shows."""
        self.refresh()

    # ------------------------------------------------------------------ events
    def press(self, ev, p: QPointF) -> bool:
        return False

    def move(self, ev, p: QPointF) -> bool:
        return False

    def release(self, ev, p: QPointF) -> bool:
        return False

    def double_click(self, ev, p: QPointF) -> bool:
        return False

    def key(self, ev) -> bool:
        return False

    # ------------------------------------------------------------------ overlays
    def add_overlay(self, item: QGraphicsItem, z: float = 100) -> QGraphicsItem:
        item.setZValue(z)
        self.ctx.scene.addItem(item)
        self._overlay.append(item)
        return item

    def clear_overlay(self) -> None:
        for it in self._overlay:
            if it.scene() is not None:
                it.scene().removeItem(it)
        self._overlay.clear()

    # ------------------------------------------------------------------ targets
    def target_at(self, p: tuple[float, float], pavement_ok: bool = True) -> Resolved | None:
        """The placed sheet a new feature at ``p`` belongs to on the current level."""
        level = self.state.level
        r = placement_at(self.doc.resolved(), p, buildings_only=True)
        if r is not None and level <= r.sheet.height:
            return r
        if pavement_ok and level == 0:
            return placement_at([x for x in self.doc.resolved() if x.pavement], p)
        return None

    def add_feature(self, r: Resolved, list_name: str, feature: Any, text: str) -> bool:
        """Add ``feature`` (already in the sheet's frame) to sheet ``r`` on the current level.

        When the sheet is placed more than once, the designer is asked whether the tag is
        for this copy (which then gets a sheet of its own, in the same undo step) or for
        the sheet every copy shows.  False when cancelled."""
        level = self.state.level if r.sheet.kind == "building" else 0
        sheet = r.sheet
        stack = self.doc.undo_stack
        macro = False
        if self.doc.mode == "scenario" and not r.pavement and self.ctx.make_unique:
            copies = edits.sheet_users(self.doc.layout, sheet.id)
            if copies > 1:
                scope = self.ctx.ask_tag_scope(sheet.title, copies)
                if scope is None:
                    self.ctx.show_hint("Nothing tagged")
                    return False
                if scope == "copy":
                    stack.beginMacro(f"{text} (this copy)")
                    macro = True
                    new_id = self.ctx.make_unique(edits.PlacementRef(False, r.index))
                    sheet = self.doc.sheets()[new_id]
        try:
            sheet, idx = edits.add_feature(sheet, level, list_name, feature)
            self.doc.edit_sheet(sheet, text)
        finally:
            if macro:
                stack.endMacro()
        self.state.select(edits.FeatureRef(sheet.id, level, list_name, idx),
                          None if r.pavement else edits.PlacementRef(False, r.index))
        return True

    def add_extra(self, list_name: str, feature: Any, text: str) -> None:
        layout, idx = edits.extras_add(self.doc.layout, list_name, feature)
        self.doc.edit_layout(layout, text)
        self.state.select(edits.FeatureRef(None, 0, list_name, idx))
