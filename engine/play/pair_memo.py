"""A game's answers kept per pair of dots: the bots ask the same pairs over and over."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from engine.lattice import Dot3 as Dot

#: answers kept per method and game before the memo starts again (bounded memory)
LIMIT = 200_000

R = TypeVar("R")


def per_dot_pair(fn: Callable[[Any, Dot, Dot], R]) -> Callable[[Any, Dot, Dot], R]:
    """Keep ``fn(self, a, b)`` per pair of dots on ``self`` (each game its own memo)."""
    attr = f"_{fn.__name__}_memo"

    @functools.wraps(fn)
    def kept(self: Any, a: Dot, b: Dot) -> R:
        key = (a[0], a[1], a[2], b[0], b[1], b[2])
        memo = self.__dict__.get(attr)
        if memo is None:
            memo = self.__dict__[attr] = {}
        got = memo.get(key)
        if got is None:
            got = fn(self, a, b)
            if len(memo) > LIMIT:
                memo.clear()
            memo[key] = got
        return got

    return kept
