"""The edited document: a Scenario (or one Sheet in sheet mode), its file, undo stack and caches.

The root object is immutable; it is only ever replaced through :class:`editor.commands.ReplaceRoot`
pushed on :attr:`Document.undo_stack`.  Everything derived from it (resolved placements,
placement problems, the compiled engine board) is cached per root and rebuilt lazily.

File I/O goes through ``engine.io`` only, so the editor reads and writes exactly what the CLI
does.  In scenario mode, editing the features of a sheet puts an edited copy of that sheet
inline in the scenario's layout (``layout.sheets``): the shared library files are only written
in sheet mode, on purpose.  Which folders make up the library is :mod:`engine.library`'s call.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from editor import edits, geometry
from editor.commands import ReplaceRoot
from editor.recovery import titled_recovery, untitled_name
from engine import library as sheet_library
from engine.atomic_file import regular_file_problem
from engine.errors import LoadError
from engine.model import Layout, Placement, Scenario, Sheet

#: the folder holding the editor package (the repository root in a checkout)
REPO = Path(__file__).resolve().parent.parent
#: the bundled mapsheet folder and sample scenario (the checkout's, or the installed copy's)
MAPSHEETS = sheet_library.bundled_dir("mapsheets")
SAMPLE = sheet_library.sample()


_FORMAT = re.compile(r"^format:\s*['\"]?sprawlmap/([a-z]+)@", re.MULTILINE)


def file_kind(text: str) -> str | None:
    """``mapsheet``, ``scenario`` or ``layout`` from the top-level ``format:`` line."""
    m = _FORMAT.search(text)
    return m.group(1) if m else None


def _io():
    try:
        from engine import io
    except ImportError as exc:  # the loader lands separately; say so in one line
        raise LoadError(f"file I/O is not available ({exc})") from None
    return io


def load_library(doc_dir: Path | None = None, extra: list[Path] | None = None
                 ) -> tuple[dict[str, Sheet], dict[str, sheet_library.Entry], list[str]]:
    """Every sheet on the library search path of a document in ``doc_dir`` (first wins), where
    each came from, and one-line errors for the broken files.  ``extra`` folders go last."""
    search = sheet_library.sources(doc_dir)
    search += [sheet_library.Source("env", Path(f)) for f in extra or []]
    return sheet_library.load_all(search)


class Document(QObject):
    """One open file.  ``changed`` fires after every change of the root (edit, undo, redo)."""

    changed = Signal()
    pathChanged = Signal()

    def __init__(self, root: Scenario | Sheet, path: Path | None = None,
                 library: dict[str, Sheet] | None = None, layout_only: bool = False,
                 parent: QObject | None = None):
        super().__init__(parent)
        self._root = root
        self.path = Path(path) if path else None
        self.library: dict[str, Sheet] = dict(library or {})
        #: sheet id -> where the library sheet came from (origin and file), see engine.library
        self.library_origins: dict[str, sheet_library.Entry] = {}
        self.library_errors: list[str] = []
        self.layout_only = layout_only
        self.undo_stack = QUndoStack(self)
        self._cache: dict[str, Any] = {}
        #: (lattice, resolved placements) of an earlier root: unchanged placements keep theirs
        self._resolved_last: tuple[str, list] = ("", [])
        #: the last board compiled for this document: the next compile starts from it (a drag
        #: recompiles the moved building's part of the board and patches its movement graph)
        self._board_last: Any = None
        #: an untitled document recovered after a crash autosaves over the file it came from
        self.recovery_file: Path | None = None
        self._untitled_name: str | None = None
        #: cut piece id -> (rotation, mirror) of the placement it was cut from, so the piece
        #: is offered the way the designer saw it when cutting (kept for the session only)
        self.cut_orientation: dict[str, tuple[int, bool]] = {}

    # ------------------------------------------------------------------ state
    @property
    def root(self) -> Scenario | Sheet:
        return self._root

    @property
    def mode(self) -> str:
        return "sheet" if isinstance(self._root, Sheet) else "scenario"

    def _set_root(self, root: Scenario | Sheet) -> None:
        """Only commands call this; everyone else pushes an edit."""
        self._root = root
        self._cache.clear()
        self.changed.emit()

    def is_dirty(self) -> bool:
        return not self.undo_stack.isClean()

    def push(self, new_root: Scenario | Sheet, text: str, merge_key: str | None = None) -> None:
        """Record an edit from the current root to ``new_root`` (no-op when equal)."""
        if new_root == self._root:
            return
        self.undo_stack.push(ReplaceRoot(self._set_root, self._root, new_root, text, merge_key))

    # ------------------------------------------------------------------ views of the root
    def scenario(self) -> Scenario:
        """The scenario shown on the canvas; in sheet mode a one-placement stand-in."""
        if isinstance(self._root, Scenario):
            return self._root
        s = self._root
        pl = Placement(sheet=s.id, at=(0, 0), id="sheet")
        if s.kind == "pavement":
            lay = Layout(lattice=s.lattice, pavement=(pl,), sheets=(s,))
        else:
            lay = Layout(lattice=s.lattice, placements=(pl,), sheets=(s,))
        return Scenario(title=s.title, layout=lay)

    @property
    def layout(self) -> Layout:
        return self.scenario().layout

    def sheets(self) -> dict[str, Sheet]:
        """Sheets by id as the layout sees them: inlined copies win over the library."""
        key = "sheets"
        if key not in self._cache:
            out = dict(self.library)
            out.update({s.id: s for s in self.layout.sheets})
            self._cache[key] = out
        return self._cache[key]

    def sheet_origins(self) -> dict[str, str]:
        """Sheet id -> where it comes from, in words (``bundled library: /path/x.yaml``)."""
        inline = {s.id for s in self.layout.sheets}
        out = {}
        for ident in self.sheets():
            if ident in inline:
                out[ident] = sheet_library.LABELS["inline"]
            elif ident in self.library_origins:
                e = self.library_origins[ident]
                out[ident] = f"{e.source.label}: {e.path}"
        return out

    def resolved(self) -> list[geometry.Resolved]:
        if "resolved" not in self._cache:
            lay = self.layout
            before = self._resolved_last[1] if self._resolved_last[0] == lay.lattice else None
            self._cache["resolved"] = geometry.resolve_placements(lay, self.sheets(), before)
            self._resolved_last = (lay.lattice, self._cache["resolved"])
        return self._cache["resolved"]

    def problems(self) -> dict[int, str]:
        """Building placement index -> why it is drawn red (overlap, off the pavement)."""
        if "problems" not in self._cache:
            self._cache["problems"] = geometry.placement_problems(self.resolved())
        return self._cache["problems"]

    def board(self):
        """The engine's compiled board for the current root, or None (see board_error)."""
        if "board" not in self._cache:
            board, err = None, ""
            try:
                from engine.board import compile_board

                board = compile_board(self.layout, self.sheets(), previous=self._board_last)
                self._board_last = board
            except ImportError as exc:
                err = f"the rules engine is not available ({exc})"
            except Exception as exc:  # a half-drawn layout must not crash the editor
                err = f"board: {exc}"
            self._cache["board"] = board
            self._cache["board_error"] = err
        return self._cache["board"]

    def has_board(self) -> bool:
        """True when the board of the current root is compiled (no waiting)."""
        return "board" in self._cache

    def board_job(self):
        """A thread-safe function compiling the current root's board: () -> (root, board, err).

        It reads only immutable model objects; hand its result to :meth:`adopt_board`.
        """
        root, layout, sheets = self._root, self.layout, dict(self.sheets())
        previous = self._board_last  # read only by the compile: no other thread changes it

        def job():
            try:
                from engine.board import compile_board

                return root, compile_board(layout, sheets, previous=previous), ""
            except ImportError as exc:
                return root, None, f"the rules engine is not available ({exc})"
            except Exception as exc:
                return root, None, f"board: {exc}"
        return job

    def adopt_board(self, root, board, err: str) -> bool:
        """Cache a board compiled off the GUI thread, if the root has not changed since."""
        if root is not self._root:
            return False
        self._cache["board"] = board
        self._cache["board_error"] = err
        if board is not None:
            self._board_last = board
        return True

    def board_error(self) -> str:
        self.board()
        return self._cache["board_error"]

    def levels(self) -> list[int]:
        top = 0
        for r in self.resolved():
            top = max(top, r.sheet.height)
            top = max([top] + [lv.level for lv in r.sheet.levels])
        return list(range(0, top + 1))

    # ------------------------------------------------------------------ edits
    def edit_sheet(self, sheet: Sheet, text: str, merge_key: str | None = None) -> None:
        """Replace a sheet: the root itself in sheet mode, an inlined copy in scenario mode."""
        if isinstance(self._root, Sheet):
            self.push(sheet, text, merge_key)
        else:
            self.push(edits.with_inlined_sheet(self._root, sheet), text, merge_key)

    def edit_layout(self, layout: Layout, text: str, merge_key: str | None = None) -> None:
        if isinstance(self._root, Sheet):
            raise ValueError("a mapsheet has no layout to edit")
        self.push(replace(self._root, layout=layout), text, merge_key)

    # ------------------------------------------------------------------ files
    @classmethod
    def open(cls, path: Path | str, extra_library: list[Path] | None = None) -> Document:
        """Load a scenario, layout or mapsheet file (``LoadError`` on bad input)."""
        io = _io()
        path = Path(path)
        problem = regular_file_problem(path)
        if problem is not None:  # a FIFO would block the read below, a device never end
            raise LoadError(problem, str(path))
        try:
            head = path.read_text(encoding="utf-8", errors="replace")[:2000]
        except OSError as exc:
            raise LoadError(exc.strerror or "cannot read", str(path)) from None
        library, origins, errors = load_library(path.parent, extra_library)
        kind = file_kind(head)
        if kind == "mapsheet":
            doc = cls(io.load_sheet(path), path, library)
        else:
            scenario = io.load_document(path)
            try:
                library.update(io.resolve_sheets(scenario.layout, path.parent))
            except LoadError as exc:
                errors.append(str(exc))
            doc = cls(scenario, path, library, layout_only=kind == "layout")
        doc.library_origins = origins
        doc.library_errors = errors
        return doc

    def save(self, path: Path | str | None = None) -> Path:
        """Write the root to ``path`` (or its own path) atomically and mark it clean."""
        target = Path(path) if path else self.path
        if target is None:
            raise ValueError("no file name yet")
        self.write(target)
        if self.path != target:
            self.path = target
            self.pathChanged.emit()
        self.undo_stack.setClean()
        return target

    def write(self, target: Path) -> None:
        """Write without touching the clean state (used by autosave)."""
        io = _io()
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(self._root, Sheet):
            io.save_sheet(self._root, target)
        else:
            io.save_document(self._root, target, layout_only=self.layout_only)

    def recovery_path(self, fallback_dir: Path) -> Path:
        """Where autosave writes: next to the file as ``.name.autosave``, else in app data
        (a name of its own per document; a recovered document keeps the file it came from).
        A file of an installed copy's bundled library autosaves in app data too."""
        if self.path is not None and not sheet_library.is_installed_file(self.path):
            return titled_recovery(self.path)
        if self.recovery_file is not None:
            return self.recovery_file
        if self._untitled_name is None:
            self._untitled_name = untitled_name()
        return fallback_dir / self._untitled_name
