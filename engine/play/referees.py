"""The referee factory: which :class:`~engine.play.game.Game` class plays a ruleset.

``Game`` is the DMZ referee and the skeleton; each other ruleset's subclass overrides its hooks
(``engine/play/<ruleset>_game.py``).  Every caller builds and loads games here, never through
``Game.new``/``Game.load``, so a scenario with ``ruleset: sr3`` is refereed by Shadowrun's
rules.  ``game.py`` never imports the subclasses (no cycle): this module does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from engine.lattice import Dot3
from engine.model import Scenario
from engine.play.board_view import BoardView
from engine.play.errors import PlayError
from engine.play.game import Game

# Ruleset lanes: replace your comment line below by the import of your subclass, and "Game" by
# it in REFEREES (one line each, apart from the others' so merges do not collide).
# isort: split
from engine.play.sr3_game import SR3Game

# isort: split
from engine.play.sr1_game import SR1Game

# isort: split
from engine.play.darkcon_game import DarkConGame

#: ruleset name -> referee class (a ruleset not listed here cannot be played)
REFEREES: dict[str, type[Game]] = {
    "dmz1990": Game,

    "sr3": SR3Game,

    "sr1": SR1Game,

    "darkcon": DarkConGame,
}


def game_class(name: str) -> type[Game]:
    """The referee class of ruleset ``name``."""
    try:
        return REFEREES[name]
    except KeyError:
        known = ", ".join(sorted(REFEREES))
        raise PlayError(f"no referee for ruleset {name!r} (known: {known})") from None


def new_game(scenario: Scenario, board: BoardView, seed: int,
             deployment: dict[str, Dot3] | None = None, turn_limit: int | None = None) -> Game:
    """A new game of ``scenario`` under its own ruleset."""
    cls = game_class(scenario.ruleset or "dmz1990")
    return cls.new(scenario, board, seed, deployment=deployment, turn_limit=turn_limit)


def load_game(path_or_data: str | Path | dict[str, Any], board: BoardView) -> Game:
    """A saved game (a path to .json/.yaml, or its data), refereed by the ruleset it names."""
    if isinstance(path_or_data, dict):
        data = path_or_data
    else:
        path = Path(path_or_data)
        text = path.read_text(encoding="utf-8")
        data = yaml.safe_load(text) if path.suffix in (".yaml", ".yml") else json.loads(text)
    if not isinstance(data, dict):
        raise PlayError("not a saved game (no mapping at the top)")
    return game_class(str(data.get("ruleset", "dmz1990"))).from_data(data, board)
