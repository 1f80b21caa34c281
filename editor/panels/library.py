"""The sheet library: thumbnails of pavement sheets, building sheets and cut pieces.

Click an entry to place it with the mouse, or drag it onto the canvas.  Each sheet says where it
comes from (bundled library, user library, SPRAWLMAP_LIBRARY, the document's folder, or inlined
in the document; the tooltip names the file).  Pieces cut in this
document appear here at once and place like sheets; their context menu renames or deletes them
(the main window does the undoable edit and refuses to delete a piece that is placed).
"""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QMenu, QVBoxLayout, QWidget

from editor.canvas.display_cache import sheet_items
from editor.canvas.items import shapely_path
from editor.canvas.view import MIME
from editor.geometry import piece_polygon
from editor.render import paint_items
from engine.model import Piece, Sheet

THUMB = 112


def thumbnail(sheet: Sheet, piece: Piece | None = None, size: int = THUMB) -> QPixmap:
    """A small picture of the sheet's ground floor (clipped to the piece, if any)."""
    pm = QPixmap(size, size)
    pm.fill(QColor(58, 62, 68))
    poly = piece_polygon(sheet, piece)
    x0, y0, x1, y1 = poly.bounds
    w, h = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
    k = (size - 8) / max(w, h)
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    p.translate(size / 2, size / 2)
    p.scale(k, k)
    p.translate(-(x0 + x1) / 2, -(y0 + y1) / 2)
    clip = shapely_path(poly)
    p.setClipPath(clip)
    paint_items(p, sheet_items(sheet, piece, 0))
    p.setClipping(False)
    p.setPen(QPen(QColor(20, 20, 20), 0))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawPath(clip)
    p.end()
    return pm


class _List(QListWidget):
    def mimeData(self, items):  # noqa: N802 - Qt's name
        data = QMimeData()
        if items:
            data.setData(MIME, items[0].data(Qt.ItemDataRole.UserRole).encode())
        return data

    def mimeTypes(self):  # noqa: N802
        return [MIME]


class LibraryPanel(QWidget):
    """Emits ``chosen("sheet:ID" | "piece:ID")`` when an entry is clicked, and
    ``renamePiece(ID)`` / ``deletePiece(ID)`` from a piece's context menu."""

    chosen = Signal(str)
    renamePiece = Signal(str)  # noqa: N815 - Qt signal naming
    deletePiece = Signal(str)  # noqa: N815

    def __init__(self, parent=None):
        super().__init__(parent)
        self.list = _List()
        self.list.setViewMode(QListWidget.ViewMode.IconMode)
        self.list.setIconSize(QSize(THUMB, THUMB))
        self.list.setGridSize(QSize(THUMB + 16, THUMB + 50))
        self.list.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.list.setMovement(QListWidget.Movement.Static)
        self.list.setWordWrap(True)
        self.list.setDragEnabled(True)
        self.list.setSelectionMode(QListWidget.SelectionMode.SingleSelection)
        self.list.itemClicked.connect(
            lambda it: self.chosen.emit(it.data(Qt.ItemDataRole.UserRole)))
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._context_menu)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.list)
        self._key: tuple | None = None
        self._icons: dict[tuple, tuple[Sheet, QIcon]] = {}
        # thumbnails not drawn yet: one is drawn per turn of the event loop, after the window
        # has painted (drawing a dozen at start delayed the first paint by a few hundred ms)
        blank = QPixmap(THUMB, THUMB)
        blank.fill(QColor(58, 62, 68))
        self._blank = QIcon(blank)
        self._todo: list[tuple[tuple, Sheet, Piece | None, QListWidgetItem]] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._draw_next)

    def refresh(self, sheets: dict[str, Sheet], pieces: tuple[Piece, ...],
                origins: dict[str, str] | None = None) -> None:
        """Show ``sheets`` (pavement first) and ``pieces``; cheap when nothing changed.
        ``origins`` says where each sheet comes from (``label: file``), see engine.library."""
        origins = origins or {}
        key = (tuple(sorted((k, id(s)) for k, s in sheets.items())),
               tuple((p.id, p.sheet, p.polygon) for p in pieces),
               tuple(sorted(origins.items())))
        if key == self._key:
            return
        self._key = key
        self._todo.clear()
        self.list.clear()
        order = sorted(sheets.values(), key=lambda s: (s.kind != "pavement", s.title.lower()))
        for s in order:
            origin = origins.get(s.id, "")
            short = origin.split(":", 1)[0]
            self._add(f"sheet:{s.id}", f"{s.title}\n{s.size[0]}×{s.size[1]}"
                      + (f"\n{short}" if short else ""), s, None, origin)
        for pc in pieces:
            if pc.sheet in sheets:
                self._add(f"piece:{pc.id}", f"{pc.id}\n(cut of {pc.sheet})", sheets[pc.sheet], pc)
        if self._todo:
            self._timer.start(0)

    def _draw_next(self) -> None:
        """Draw one waiting thumbnail (a frame's work at most), then let the loop run."""
        if not self._todo:
            return
        ck, sheet, piece, item = self._todo.pop(0)
        icon = QIcon(thumbnail(sheet, piece))
        self._icons[ck] = (sheet, icon)
        item.setIcon(icon)
        if self._todo:
            self._timer.start(0)

    def waiting(self) -> int:
        """How many thumbnails are still to be drawn."""
        return len(self._todo)

    def finish(self) -> None:
        """Draw every waiting thumbnail now (a screenshot, a test)."""
        while self._todo:
            self._draw_next()
        self._timer.stop()

    def _add(self, key: str, text: str, sheet: Sheet, piece: Piece | None,
             origin: str = "") -> None:
        ck = (key, id(sheet), piece)
        hit = self._icons.get(ck)
        fresh = hit is not None and hit[0] is sheet  # same object, not a recycled id
        item = QListWidgetItem(hit[1] if fresh else self._blank, text)
        if not fresh:
            self._todo.append((ck, sheet, piece, item))
        item.setData(Qt.ItemDataRole.UserRole, key)
        item.setToolTip(f"{key} — click to place, or drag onto the board"
                        + ("; right-click to rename or delete" if piece is not None else "")
                        + (f"\n{origin}" if origin else ""))
        self.list.addItem(item)

    def menu_for(self, key: str) -> QMenu | None:
        """The context menu of a library entry (pieces only: sheets live in files)."""
        if not key.startswith("piece:"):
            return None
        pid = key.split(":", 1)[1]
        menu = QMenu(self)
        menu.addAction("Rename piece…").triggered.connect(lambda: self.renamePiece.emit(pid))
        menu.addAction("Delete piece").triggered.connect(lambda: self.deletePiece.emit(pid))
        return menu

    def _context_menu(self, pos) -> None:
        item = self.list.itemAt(pos)
        menu = self.menu_for(item.data(Qt.ItemDataRole.UserRole)) if item else None
        if menu is not None:
            menu.exec(self.list.viewport().mapToGlobal(pos))

    def item_for(self, key: str) -> QListWidgetItem | None:
        for i in range(self.list.count()):
            it = self.list.item(i)
            if it.data(Qt.ItemDataRole.UserRole) == key:
                return it
        return None
