"""Baseline players a scenario's bot is measured against, and the bot factory of ``play``.

``smart`` is :class:`engine.play.bots.Bot`.  ``random`` moves every character to a random dot
it can reach, shoots a random enemy it can hit and sets a random arc; ``hold`` never leaves its
dot: it stands up, shoots what it can hit well and holds a wide arc on the nearest enemy.
Both draw their choices from their own generator seeded by the game's seed and their side, so
the game's dice stay the only dice and a game replays from its seed and actions.
"""

from __future__ import annotations

import random
import zlib

from engine.play import actions as A
from engine.play.bots import Behaviour, Bot
from engine.play.game import Game
from engine.play.reaction import direction_to
from engine.play.state import PRONE, CharacterState

KINDS = ("smart", "random", "hold")
BEHAVIOURS = ("balanced", "cautious", "reckless")


class HoldBot(Bot):
    """Never moves a step: the side that sits tight."""

    kind = "hold"

    def _turn(self, game: Game, ch: CharacterState) -> None:
        if ch.posture == PRONE and self._can(game, ch, "stand"):
            self._try(game, ch, A.stand())
        self._shoot(game, ch, keep=6)
        self._set_arc(game, ch)


class RandomBot(Bot):
    """Plays legal but aimless moves."""

    kind = "random"

    def __init__(self, side: str, seed: int = 0, behaviour: Behaviour | None = None) -> None:
        super().__init__(side, behaviour=behaviour)
        self.rng = random.Random(zlib.crc32(f"{side}/{seed}".encode()))

    def _turn(self, game: Game, ch: CharacterState) -> None:
        if ch.posture == PRONE and self._can(game, ch, "stand"):
            self._try(game, ch, A.stand())
        if self.rng.random() < 0.5:
            self._random_shot(game, ch)
        here = game.board.reach(ch.pos, ch.move_ratio,
                                max(0, ch.mp_left - self._narrow(game, ch)))
        occupied = {c.pos for c in game.state.characters.values() if not c.out}
        dots = sorted(d for d in here if d not in occupied)
        if dots and self._active(game, ch):
            dest = self.rng.choice(dots)
            path = game.board.path(ch.pos, dest, ch.move_ratio) or []
            for d in path[1:]:
                occ = game.state.occupant(d)
                if occ is not None and occ.side != ch.side:
                    break
                if not self._try(game, ch, A.move(d)):
                    break
        self._random_shot(game, ch)
        if self._active(game, ch) and game.can_hold_arcs and \
                self._can(game, ch, "arc-narrow") and ch.ready_weapon is not None \
                and not ch.ready_weapon.is_grenade:
            kind = self.rng.choice([k for k in ("narrow", "intermediate", "wide")
                                    if self._can(game, ch, f"arc-{k}")])
            foes = [f for f in game.state.enemies_of(ch) if not f.out and f.pos]
            aim = direction_to(game.point(ch.pos), game.point(self.rng.choice(foes).pos)) \
                if foes else self.rng.uniform(-180, 180)
            self._try(game, ch, A.arc(kind, round(aim + self.rng.uniform(-60, 60), 1)))

    def _random_shot(self, game: Game, ch: CharacterState) -> None:
        if not self._active(game, ch) or not self._can(game, ch, "fire"):
            return
        w = ch.ready_weapon
        if w is None or w.is_grenade or not w.can_fire():
            return
        foes = [f for f in game.state.enemies_of(ch) if not f.out and f.pos is not None
                and game.plan_shot(ch, f, movement_fire=True) is not None]
        if foes:
            self._try(game, ch, A.fire(self.rng.choice(sorted(foes, key=lambda f: f.id)).id))


def make_bot(kind: str, side: str, seed: int, behaviour: str = "balanced") -> Bot:
    """A bot of ``kind`` for ``side`` (``seed`` feeds the random bot's own generator)."""
    beh = Behaviour.named(behaviour)
    if kind == "smart":
        return Bot(side, behaviour=beh)
    if kind == "hold":
        return HoldBot(side, behaviour=beh)
    if kind == "random":
        return RandomBot(side, seed, behaviour=beh)
    raise ValueError(f"unknown bot {kind!r} (smart, random, hold)")
