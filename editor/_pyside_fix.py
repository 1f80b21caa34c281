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
import sys

_HUGE = 1 << 60


def keep_none_alive() -> None:
    if sys.version_info >= (3, 12):
        return
    try:
        from PySide6 import __version_info__ as qt_version
    except ImportError:  # pragma: no cover - PySide6 is a dependency
        return
    if tuple(qt_version[:2]) < (6, 12):
        return  # pyproject pins 3.11 to 6.11, which counts None correctly
    refcnt = ctypes.c_ssize_t.from_address(id(None))  # ob_refcnt is a PyObject's first field
    if refcnt.value < _HUGE:
        refcnt.value += _HUGE
