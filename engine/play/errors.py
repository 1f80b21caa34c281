"""The one error of play: an action the rules do not allow now.

Kept apart from :mod:`engine.play.game` so the turn sequence, the bots and the editor can
raise or catch it without importing the referee."""

from __future__ import annotations


class PlayError(Exception):
    """An action that the rules do not allow now; the message says why in one line."""
