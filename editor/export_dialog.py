"""File > Export: the same exports as ``sprawlmap export``, with a progress bar.

:class:`ExportDialog` asks for the format, the file, the levels, player-safe pictures and (PDF,
PNG) the paper and dot spacing, the same choices as ``sprawlmap export``, and shows a preview of
the first level as it will come out (for the PDF: its overview page with the tiles to print).
:class:`ExportRun` compiles the board and calls :func:`engine.export.export` in a worker thread
(the GUI stays live; the engine writes every file atomically), and a QProgressDialog follows
the engine's ``progress(done, total)`` callback through a timer on the GUI thread, so no Qt
object is touched from the worker.  Cancel stops the export at its next progress step; files
already finished stay, the one in progress is never left half written.

When validation has errors the engine refuses; :class:`RefusedDialog` lists them (double-click
one to go there on the map) and offers "Export anyway", which runs again with ``force``.
"""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QProgressDialog,
    QPushButton,
    QVBoxLayout,
)

#: format -> (menu label, file extension, file dialog filter)
FORMATS = {
    "yaml": ("YAML bundle…", ".yaml", "YAML bundle (*.yaml)"),
    "svg": ("SVG…", ".svg", "SVG drawing (*.svg)"),
    "png": ("PNG…", ".png", "PNG picture (*.png)"),
    "pdf": ("PDF…", ".pdf", "PDF (*.pdf)"),
    "uvtt": ("Universal VTT…", ".dd2vtt", "Universal VTT (*.dd2vtt)"),
}
PAGES = {"A4": "a4", "Letter": "letter", "A3": "a3", "Tabloid": "tabloid"}
PREVIEW_PX = 300  # the longer side of the page preview
STEPS = 1000  # progress bar resolution


class ExportCancelled(Exception):
    """Raised from the progress callback when the user pressed Cancel."""


def default_path(doc, fmt: str) -> Path:
    """Next to the open file with the format's extension (``untitled`` when unsaved)."""
    ext = FORMATS[fmt][1]
    if doc.path is not None:
        return doc.path.with_suffix(ext) if fmt != "yaml" else \
            doc.path.with_name(doc.path.stem + "-bundle.yaml")
    return Path.cwd() / f"untitled{ext}"


class ExportDialog(QDialog):
    """Format, file, paper and dot spacing; Export starts an :class:`ExportRun`."""

    def __init__(self, win, fmt: str = "pdf"):
        super().__init__(win)
        self.win = win
        self.setObjectName("export-dialog")
        self.setWindowTitle("Export")
        form = QFormLayout(self)
        self.format = QComboBox()
        self.format.setObjectName("export-format")
        for key, (label, _, _) in FORMATS.items():
            self.format.addItem(label.rstrip("…"), key)
        self.path = QLineEdit()
        self.path.setObjectName("export-path")
        self.path.setMinimumWidth(340)
        browse = QPushButton("Browse…")
        browse.setObjectName("export-browse")
        browse.clicked.connect(self.browse)
        row = QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(browse)
        self.page = QComboBox()
        self.page.setObjectName("export-page")
        self.page.addItems(list(PAGES))
        self.dot_mm = QDoubleSpinBox()
        self.dot_mm.setObjectName("export-dot-mm")
        self.dot_mm.setRange(2.0, 60.0)
        self.dot_mm.setDecimals(1)
        self.dot_mm.setValue(25.4)
        self.dot_mm.setSuffix(" mm per dot")
        self.dot_mm.setToolTip("25.4 mm: the one-inch dots of the printed DMZ sheets")
        self.about = QLabel()
        self.about.setWordWrap(True)
        self.about.setStyleSheet("color: #555")
        form.addRow("Format", self.format)
        form.addRow("File", row)
        form.addRow("Paper", self.page)
        form.addRow("Dot spacing", self.dot_mm)
        self.level_checks: dict[int, QCheckBox] = {}
        levels_row = QHBoxLayout()
        board = self.win.doc.board()
        for lv in (board.levels if board is not None else [0]):
            box = QCheckBox("street" if lv == 0 else str(lv))
            box.setObjectName(f"export-level-{lv}")
            box.setChecked(True)
            box.toggled.connect(lambda _: self._count_pages())
            self.level_checks[lv] = box
            levels_row.addWidget(box)
        levels_row.addStretch(1)
        form.addRow("Levels", levels_row)
        self.player_safe = QCheckBox("Player-safe: no deployment zones or objectives")
        self.player_safe.setObjectName("export-player-safe")
        self.player_safe.toggled.connect(lambda _: self._count_pages(rebuild=True))
        form.addRow("", self.player_safe)
        form.addRow(self.about)
        self.pages = QLabel()
        self.pages.setObjectName("export-pages")
        form.addRow(self.pages)
        self.preview = QLabel()
        self.preview.setObjectName("export-preview")
        self.preview.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.preview.setMinimumSize(PREVIEW_PX, PREVIEW_PX)
        form.addRow(self.preview)
        self._scenes = None
        self.page.currentTextChanged.connect(lambda _: self._count_pages())
        self.dot_mm.valueChanged.connect(lambda _: self._count_pages())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.export_button = buttons.addButton("Export", QDialogButtonBox.ButtonRole.AcceptRole)
        self.export_button.setObjectName("export-go")
        self.export_button.setDefault(True)
        buttons.accepted.connect(self.go)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.format.currentIndexChanged.connect(self._format_changed)
        self.set_format(fmt)

    def fmt(self) -> str:
        return self.format.currentData()

    def set_format(self, fmt: str) -> None:
        self.format.setCurrentIndex(list(FORMATS).index(fmt))
        self._format_changed()

    def _format_changed(self, *_) -> None:
        fmt = self.fmt()
        old = Path(self.path.text()) if self.path.text() else None
        if old is None or old.suffix in {e for _, e, _ in FORMATS.values()}:
            self.path.setText(str(default_path(self.win.doc, fmt)))
        pdf = fmt == "pdf"
        self.page.setEnabled(pdf)
        for box in self.level_checks.values():
            box.setEnabled(fmt != "yaml")
        self.player_safe.setEnabled(fmt != "yaml")
        self.dot_mm.setEnabled(fmt in ("pdf", "png"))
        self.about.setText({
            "yaml": "The scenario with every sheet it uses inlined: opens anywhere.",
            "svg": "One drawing per level: FILE for the street, FILE-L1, ... above.",
            "png": "One picture per level at 32 px per dot; the dot spacing sets its DPI.",
            "pdf": "The map at table scale, tiled over pages, with a briefing and an overview "
                   "per level; blank tiles are left out.",
            "uvtt": "Universal VTT (.dd2vtt) per level, all on one frame: walls, doors, "
                    "windows, lights and the map image.",
        }[fmt])
        self._count_pages(rebuild=True)

    def levels(self) -> list[int] | None:
        """The ticked levels (None: all of them)."""
        chosen = [lv for lv, box in self.level_checks.items() if box.isChecked()]
        return None if len(chosen) == len(self.level_checks) else chosen

    def scenes(self, rebuild: bool = False) -> list | None:
        """The display lists of the ticked levels (None: nothing to draw)."""
        if self._scenes is None or rebuild:
            board = self.win.doc.board()
            if board is None or board.node_count == 0:
                return None
            from engine.render.display import build_scenes

            self._scenes = build_scenes(board, self.win.doc.scenario(),
                                        player_safe=self.player_safe.isChecked(),
                                        shared_frame=self.fmt() == "uvtt")
        levels = self.levels()
        return [sc for sc in self._scenes if levels is None or sc.level in levels]

    def page_count(self) -> int | None:
        """Pages the PDF will have at the chosen paper, dot spacing and levels."""
        from engine.export.pdf import page_count

        scenes = self.scenes()
        if not scenes:
            return None
        return page_count(scenes, PAGES[self.page.currentText()], self.dot_mm.value())

    def _count_pages(self, rebuild: bool = False) -> None:
        if rebuild:
            self._scenes = None
        self.export_button.setEnabled(self.fmt() == "yaml" or bool(
            [b for b in self.level_checks.values() if b.isChecked()]))
        n = self.page_count() if self.fmt() == "pdf" else None
        self.pages.setVisible(n is not None)
        if n is not None:
            k = len(self.scenes() or [])
            self.pages.setText(f"{n} pages: the briefing, {k} level overview(s) and "
                               f"{n - 1 - k} tiles to print at 100 %")
        self._preview()

    def _preview(self) -> None:
        scenes = self.scenes() if self.fmt() != "yaml" else None
        self.preview.setVisible(bool(scenes))
        if not scenes:
            self.preview.clear()
            return
        from editor.render.preview import page_preview, picture_preview

        if self.fmt() == "pdf":
            img = page_preview(scenes[0], PAGES[self.page.currentText()], self.dot_mm.value(),
                               PREVIEW_PX)
        else:
            img = picture_preview(scenes[0], PREVIEW_PX, map_only=self.fmt() == "uvtt")
        self.preview.setPixmap(QPixmap.fromImage(img))

    def browse(self) -> None:
        fmt = self.fmt()
        name, _ = QFileDialog.getSaveFileName(self, "Export to", self.path.text(),
                                              FORMATS[fmt][2])
        if name:
            self.path.setText(name)

    def go(self) -> None:
        out = self.path.text().strip()
        if not out:
            self.browse()
            out = self.path.text().strip()
            if not out:
                return
        self.accept()
        start_export(self.win, self.fmt(), Path(out), page=PAGES[self.page.currentText()],
                     dot_mm=self.dot_mm.value(), levels=self.levels(),
                     player_safe=self.player_safe.isChecked())


class ExportRun(QObject):
    """One export in a worker thread, shown by a progress dialog; ``finished(result)`` gives
    the list of files written or the exception."""

    finished = Signal(object)

    def __init__(self, win, fmt: str, out: Path, page: str = "a4", dot_mm: float = 25.4,
                 force: bool = False, levels: list[int] | None = None,
                 player_safe: bool = False):
        super().__init__(win)
        self.win = win
        self.fmt, self.out, self.page, self.dot_mm, self.force = fmt, out, page, dot_mm, force
        self.levels, self.player_safe = levels, player_safe
        self.result: object = None
        self.values: list[int] = []  # every value the progress bar showed, in order
        self._progress = (0, 1)
        self._done = threading.Event()
        self._cancel = threading.Event()
        doc = win.doc
        self._scenario = doc.scenario()  # sheet mode: the sheet on its own
        self._layout = doc.layout
        self._sheets = dict(doc.sheets())
        self._base = doc.path.parent if doc.path else None
        self.dialog = QProgressDialog(f"Exporting {FORMATS[fmt][0].rstrip('…')} to {out.name}",
                                      "Cancel", 0, STEPS, win)
        self.dialog.setObjectName("export-progress")
        self.dialog.setWindowTitle("Export")
        self.dialog.setWindowModality(Qt.WindowModality.WindowModal)
        self.dialog.setMinimumDuration(0)
        self.dialog.setAutoClose(False)
        self.dialog.setAutoReset(False)
        self.dialog.canceled.connect(self._cancel.set)
        self._timer = QTimer(self)
        self._timer.setInterval(30)
        self._timer.timeout.connect(self._poll)

    def start(self) -> None:
        self._show(0)
        self.dialog.show()
        threading.Thread(target=self._work, name="sprawlmap-export", daemon=True).start()
        self._timer.start()

    def running(self) -> bool:
        return not self._done.is_set() or self._timer.isActive()

    def _tick(self, done: int, total: int) -> None:  # worker thread
        self._progress = (done, total)
        if self._cancel.is_set():
            raise ExportCancelled()

    def _work(self) -> None:  # worker thread: only immutable model data and the engine
        try:
            from engine.board import compile_board
            from engine.export import export

            board = compile_board(self._layout, self._sheets)
            self.result = export(self._scenario, board, self.fmt, self.out, page=self.page,
                                 dot_mm=self.dot_mm, force=self.force, progress=self._tick,
                                 sheets=self._sheets, base_dir=self._base,
                                 levels=self.levels, player_safe=self.player_safe)
        except BaseException as exc:  # handed to the GUI thread, shown there
            self.result = exc
        finally:
            self._done.set()

    def _show(self, value: int) -> None:
        self.dialog.setValue(value)
        self.values.append(self.dialog.value())  # what the bar really shows

    def _poll(self) -> None:
        done, total = self._progress
        value = min(STEPS, int(STEPS * done / max(total, 1)))
        if not self.values or value != self.values[-1]:
            self._show(value)
        if not self._done.is_set():
            return
        self._timer.stop()
        if isinstance(self.result, list):
            self._show(STEPS)
        self.dialog.close()
        self.finished.emit(self.result)


class RefusedDialog(QDialog):
    """Validation errors that stopped an export, and the choice to export anyway."""

    def __init__(self, win, findings: list, retry):
        super().__init__(win)
        self.win = win
        self.setObjectName("export-refused")
        self.setWindowTitle("Export refused")
        errors = [f for f in findings if f.severity == "error"]
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(f"Validation found {len(errors)} error(s). Fix them, or export "
                             f"anyway (the printed map will have these problems).\n"
                             f"Double-click an error to see it on the map."))
        self.list = QListWidget()
        self.list.setObjectName("refused-errors")
        self.list.setWordWrap(True)
        self.list.setMinimumSize(460, 140)
        for f in errors:
            it = QListWidgetItem(f"[{f.code}] {f.message}")
            it.setForeground(QBrush(QColor(200, 30, 30)))
            it.setData(Qt.ItemDataRole.UserRole, f.where)
            self.list.addItem(it)
        self.list.itemDoubleClicked.connect(
            lambda it: win._finding_activated(it.data(Qt.ItemDataRole.UserRole)))
        lay.addWidget(self.list)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.force_button = buttons.addButton("Export anyway",
                                              QDialogButtonBox.ButtonRole.AcceptRole)
        self.force_button.setObjectName("export-anyway")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.accepted.connect(retry)
        lay.addWidget(buttons)


def start_export(win, fmt: str, out: Path, page: str = "a4", dot_mm: float = 25.4,
                 force: bool = False, levels: list[int] | None = None,
                 player_safe: bool = False) -> ExportRun:
    """Run an export; show the files written, the refusal (with "Export anyway") or the error."""
    from engine.export import ExportRefused

    run = ExportRun(win, fmt, out, page, dot_mm, force, levels, player_safe)
    win.export_run = run

    def done(result) -> None:
        if isinstance(result, ExportRefused):
            dlg = RefusedDialog(win, result.findings, lambda: start_export(
                win, fmt, out, page, dot_mm, True, levels, player_safe))
            win.export_refused = dlg
            dlg.open()
        elif isinstance(result, ExportCancelled):
            win.show_hint("Export cancelled")
        elif isinstance(result, BaseException):
            win.error(f"cannot export: {result}")
        else:
            names = ", ".join(p.name for p in result)
            win.show_hint(f"Exported {names}" + (" (with validation errors)" if force else ""))

    run.finished.connect(done)
    run.start()
    return run


def open_export_dialog(win, fmt: str) -> ExportDialog:
    """The File > Export menu action: the dialog, preset to ``fmt`` (kept as win.export_dialog)."""
    dlg = ExportDialog(win, fmt)
    win.export_dialog = dlg
    dlg.open()
    return dlg


def install_export_menu(win, file_menu) -> dict:
    """Add File > Export (before Quit); returns format -> QAction."""
    menu = file_menu.addMenu("Export")
    menu.setObjectName("export-menu")
    quit_action = next((a for a in file_menu.actions() if a.text() == "Quit"), None)
    if quit_action is not None:
        file_menu.removeAction(menu.menuAction())
        file_menu.insertMenu(quit_action, menu)
    actions = {}
    for fmt, (label, _, _) in FORMATS.items():
        a = menu.addAction(label)
        a.triggered.connect(lambda _=False, f=fmt: open_export_dialog(win, f))
        actions[fmt] = a
    return actions
