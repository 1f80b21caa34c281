"""The open zone: the immutable :class:`engine.zone.model.Zone`, its file and its undo stack.

Every change replaces the whole zone through :class:`ZoneEdit` (a QUndoCommand holding the zone
before and after), so undo covers everything - painting, the River, players, barriers, links,
and the dice's results - and the views simply redraw from ``zone``.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from engine.zone.io import load_zone, save_zone
from engine.zone.model import Growth, Landslide, Player, Zone


class ZoneEdit(QUndoCommand):
    def __init__(self, doc: ZoneDocument, before: Zone, after: Zone, text: str):
        super().__init__(text)
        self.doc, self.before, self.after = doc, before, after

    def redo(self) -> None:
        self.doc._set(self.after)

    def undo(self) -> None:
        self.doc._set(self.before)


class ZoneDocument(QObject):
    changed = Signal()

    def __init__(self, zone: Zone, path: Path | None = None):
        super().__init__()
        self.zone = zone
        self.path = Path(path) if path else None
        self.undo_stack = QUndoStack(self)

    @classmethod
    def open(cls, path: str | Path) -> ZoneDocument:
        return cls(load_zone(path), Path(path))

    @property
    def base_dir(self) -> Path | None:
        return self.path.resolve().parent if self.path else None

    def _set(self, zone: Zone) -> None:
        self.zone = zone
        self.changed.emit()

    def apply(self, zone: Zone, text: str) -> bool:
        """Change the zone undoably; an unchanged zone pushes nothing."""
        if zone == self.zone:
            return False
        self.undo_stack.push(ZoneEdit(self, self.zone, zone, text))
        return True

    def save(self, path: str | Path | None = None) -> Path:
        target = Path(path) if path else self.path
        if target is None:
            raise ValueError("no file name")
        save_zone(self.zone, target)
        self.path = target
        self.undo_stack.setClean()
        return target


def blank_zone() -> Zone:
    """The seed's starting zone: 4 x 4, Player A north, Player B south (seed 002 l.19-30)."""
    return Zone(title="Untitled zone", grid=(4, 4),
                players=(Player("A", "north", "Player A"), Player("B", "south", "Player B")),
                growth=Growth(), landslide=Landslide())
