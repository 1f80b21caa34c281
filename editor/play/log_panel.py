"""The play log dock: every event of the game as a readable line, appended as it happens."""

from __future__ import annotations

from PySide6.QtGui import QFont, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QVBoxLayout, QWidget

from editor.play.describe import lines


class LogPanel(QWidget):
    """Shows ``game.log``; :meth:`sync` appends the events not shown yet."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        font = QFont("monospace")
        font.setStyleHint(QFont.StyleHint.TypeWriter)
        font.setPointSizeF(8.5)
        self.text.setFont(font)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.text)
        self.shown = 0

    def reset(self) -> None:
        self.text.clear()
        self.shown = 0

    def sync(self, events: list[dict]) -> list[str]:
        """Append the new events; returns the lines added."""
        if len(events) < self.shown:  # a loaded game: start over
            self.reset()
        new = lines(events[self.shown:])
        self.shown = len(events)
        if new:
            self.text.appendPlainText("\n".join(new))
            self.text.moveCursor(QTextCursor.MoveOperation.End)
            self.text.ensureCursorVisible()
        return new

    def lines(self) -> list[str]:
        return self.text.toPlainText().splitlines()
