"""Python's cyclic garbage collector during a run of bot games.

A run plays game after game on forks of one compiled board.  What is alive when it starts
(the board and its shared tables, the modules) lives on through every game, yet each full
collection walks all of it again, finding nothing to free; and a game makes objects by the
hundred thousand (sight answers, log events, candidate scores), most of them dropped within
a decision, so a young collection every 700 of them walks the survivors of the last few
hundred again and again.  On the six samples the collector took 6-14% of a game.

:func:`games_heap` takes what is alive at the start out of the collector's sight for the run
(``gc.freeze``) and lets young collections wait for :data:`YOUNG` new objects; afterwards it
hands everything back (``gc.unfreeze``, the old thresholds): nothing is lost, what became
garbage meanwhile goes at the next collection after.  The games are collected as before,
only less often, and play the same.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: objects made (less those freed) between two young collections while games run
YOUNG = 10_000


def settle() -> None:
    """For a process that only plays games from now on (a worker of ``sprawlmap play``): the
    objects alive now are left out of every collection, and young collections wait for
    :data:`YOUNG` new objects, for the rest of its life."""
    gc.freeze()
    t = gc.get_threshold()
    gc.set_threshold(max(t[0], YOUNG), *t[1:])


@contextmanager
def games_heap() -> Iterator[None]:
    """:func:`settle` while the block runs, undone after (not when the collector is off or
    something else froze the heap: that caller decides)."""
    if not gc.isenabled() or gc.get_freeze_count():
        yield
        return
    was = gc.get_threshold()
    settle()
    try:
        yield
    finally:
        gc.set_threshold(*was)
        gc.unfreeze()
