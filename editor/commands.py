"""Undoable edits.  Every command only swaps one immutable model object for another.

The document's root (a Scenario, or the Sheet in sheet mode) is immutable, so a command just
keeps the root before and after the edit: undo/redo restore the exact same objects, and views
redraw from the document's ``changed`` signal.  The edit itself is computed by the pure
functions of :mod:`editor.edits` before the command is pushed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QUndoCommand


class ReplaceRoot(QUndoCommand):
    """Replace the document root ``old`` by ``new``.

    ``merge_key`` lets consecutive small edits of the same thing (arrow-key nudges of one
    building, typing in one note field) collapse into one undo step.  ``set_root`` is the
    document's root setter: the command knows how to put a root back, not what holds it.
    """

    def __init__(self, set_root: Callable[[Any], None], old: Any, new: Any, text: str,
                 merge_key: str | None = None):
        super().__init__(text)
        self.set_root = set_root
        self.old = old
        self.new = new
        self.merge_key = merge_key

    def id(self) -> int:  # noqa: A003 - Qt's name
        return 1 if self.merge_key else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt's name
        if not isinstance(other, ReplaceRoot) or other.merge_key != self.merge_key:
            return False
        self.new = other.new
        if self.new == self.old and self.merge_key.startswith("feature-drag-"):
            self.setObsolete(True)  # a feature dragged back where it began: no undo step
        return True

    def redo(self) -> None:
        self.set_root(self.new)

    def undo(self) -> None:
        self.set_root(self.old)
