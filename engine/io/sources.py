"""Where loaded objects came from (file and line), for errors found after loading.

Model objects are frozen and hold no source positions, yet a problem found later (a placement
naming a sheet that cannot be found) should still point at the line that says so.  Loaders
:func:`remember` the position of such objects; :func:`where` looks it up by value.  The table
is bounded (oldest entries are dropped) so an editor session cannot grow it without limit.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable

MAX_ENTRIES = 20_000

_TABLE: OrderedDict[Hashable, tuple[str | None, int | None]] = OrderedDict()


def remember(obj: Hashable, file: str | None, line: int | None) -> None:
    if file is None and line is None:
        return
    _TABLE[obj] = (file, line)
    _TABLE.move_to_end(obj)
    while len(_TABLE) > MAX_ENTRIES:
        _TABLE.popitem(last=False)


def where(obj: Hashable) -> tuple[str | None, int | None]:
    """``(file, line)`` where an equal object was last loaded, or ``(None, None)``."""
    try:
        return _TABLE.get(obj, (None, None))
    except TypeError:
        return (None, None)
