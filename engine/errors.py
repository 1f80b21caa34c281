"""Errors the engine raises for bad input; the CLI prints them as one line and exits 2."""

from __future__ import annotations


class SprawlmapError(Exception):
    """Bad input. ``str()`` is the one-line message shown to the user."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None):
        self.message = message
        self.file = file
        self.line = line
        super().__init__(self.format())

    def format(self) -> str:
        where = ""
        if self.file:
            where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: "
        return f"{where}{self.message}"


class LoadError(SprawlmapError):
    """A file could not be read, parsed or validated."""


class QueryError(SprawlmapError):
    """A query names something the board does not have (a dot off the map, a bad level)."""
