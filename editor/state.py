"""What the user is looking at and has selected: level, visible layers, selection.

Kept apart from the document (which is only the file's content) so that switching levels or
selecting never dirties the file or lands on the undo stack.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from editor.canvas.style import LAYERS
from editor.edits import FeatureRef, PlacementRef
from editor.scenario_edits import ObjectiveRef, SideRef

#: the view's dot grid: a layer of its own, switched in View > Dot grid (not in the panel)
GRID = "grid"

Selection = FeatureRef | PlacementRef | SideRef | ObjectiveRef | None


class EditorState(QObject):
    levelChanged = Signal(int)
    layersChanged = Signal()
    selectionChanged = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.level = 0
        self.layers: set[str] = set(LAYERS) | {GRID}
        self.selection: Selection = None
        #: buildings selected together (Shift+click, rubber band, Ctrl+A, a paste); the
        #: ``selection`` is one of them.  Empty when one thing (or nothing) is selected.
        self.group: tuple[PlacementRef, ...] = ()
        #: the placed building a selected sheet feature was picked on (None when unknown):
        #: the copy an edit "for this copy only" makes unique
        self.copy: PlacementRef | None = None

    def set_level(self, level: int) -> None:
        if level != self.level:
            self.level = level
            self.selection = None
            self.copy = None
            self.group = ()
            self.levelChanged.emit(level)
            self.selectionChanged.emit()

    def set_layer(self, name: str, on: bool) -> None:
        if on != (name in self.layers):
            (self.layers.add if on else self.layers.discard)(name)
            self.layersChanged.emit()

    def select(self, sel: Selection, copy: PlacementRef | None = None) -> None:
        """Select ``sel``; for a feature of a placed sheet, ``copy`` is the building it was
        picked on."""
        self.copy = copy if isinstance(sel, FeatureRef) else (
            sel if isinstance(sel, PlacementRef) and not sel.pavement else None)
        if sel != self.selection or self.group:
            self.selection = sel
            self.group = ()
            self.selectionChanged.emit()

    def select_group(self, refs) -> None:
        """Select several buildings at once (one is just a selection)."""
        refs = tuple(dict.fromkeys(refs))
        if len(refs) <= 1:
            self.select(refs[0] if refs else None)
            return
        if refs != self.group or self.selection != refs[-1]:
            self.copy = None
            self.group = refs
            self.selection = refs[-1]
            self.selectionChanged.emit()

    def placements(self) -> tuple[PlacementRef, ...]:
        """The selected buildings: the group, or the one selected."""
        if self.group:
            return self.group
        return (self.selection,) if isinstance(self.selection, PlacementRef) else ()
