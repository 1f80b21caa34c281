"""Keep ``None`` alive under PySide6 6.12 on Python 3.11.

The installed shiboken6 6.12 drops one reference to ``None`` on every call of a C++ method
that returns ``void`` (``QPainterPath.lineTo``, ``QPainter.setPen``, ...), as if ``None``
were immortal (it is from Python 3.12 on).  On 3.11 its count starts near 5,000, so painting a
busy board for a few seconds frees ``None`` and aborts the interpreter ("none_dealloc").
pyproject.toml keeps Python 3.11 on PySide6 6.11; when 6.12 is found on 3.11 anyway (a system
install), we give ``None`` a reference count so large that no session can use it up, which is
what 3.12 does.
"""

from __future__ import annotations

import ctypes
import importlib.util
import re
import sys
from pathlib import Path

_HUGE = 1 << 60


def keep_none_alive() -> None:
    if sys.version_info >= (3, 12):
        return
    qt_version = _pyside_version()
    if qt_version is None or qt_version < (6, 12):
        return  # pyproject pins 3.11 to 6.11, which counts None correctly
    refcnt = ctypes.c_ssize_t.from_address(id(None))  # ob_refcnt is a PyObject's first field
    if refcnt.value < _HUGE:
        refcnt.value += _HUGE


def _pyside_version() -> tuple[int, int] | None:
    """PySide6's (major, minor), read from its ``_config.py`` without importing it: importing
    PySide6 costs a fifth of a second, which every ``sprawlmap`` command would pay (the
    launcher lives in this package).  Falls back to the import when the file says nothing."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None:
        return None
    for folder in spec.submodule_search_locations or ():
        try:
            text = (Path(folder) / "_config.py").read_text(encoding="utf-8")
        except OSError:
            continue
        m = re.search(r"^version_info\s*=\s*\((\d+),\s*(\d+)", text, re.MULTILINE)
        if m:
            return int(m.group(1)), int(m.group(2))
    try:
        from PySide6 import __version_info__
    except ImportError:  # pragma: no cover - PySide6 is a dependency
        return None
    return int(__version_info__[0]), int(__version_info__[1])
