"""What the user is looking at and has selected: level, visible layers, selection.

Kept apart from the document (which is only the file's content) so that switching levels or
selecting never dirties the file or lands on the undo stack.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from editor.canvas.style import LAYERS
from editor.edits import FeatureRef, PlacementRef
from editor.scenario_edits import ObjectiveRef, SideRef

Selection = FeatureRef | PlacementRef | SideRef | ObjectiveRef | None


class EditorState(QObject):
    levelChanged = Signal(int)
    layersChanged = Signal()
    selectionChanged = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.level = 0
        self.layers: set[str] = set(LAYERS)
        self.selection: Selection = None

    def set_level(self, level: int) -> None:
        if level != self.level:
            self.level = level
            self.selection = None
            self.levelChanged.emit(level)
            self.selectionChanged.emit()

    def set_layer(self, name: str, on: bool) -> None:
        if on != (name in self.layers):
            (self.layers.add if on else self.layers.discard)(name)
            self.layersChanged.emit()

    def select(self, sel: Selection) -> None:
        if sel != self.selection:
            self.selection = sel
            self.selectionChanged.emit()
