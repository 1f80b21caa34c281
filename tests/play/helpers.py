"""Building small games for the tests without a scenario file."""

from __future__ import annotations

from engine.model import Character, Objective, Weapon
from engine.play import turn
from engine.play.dice import Dice
from engine.play.events import EventLog
from engine.play.game import Game
from engine.play.reaction import Arc
from engine.play.state import CharacterState, GameState


class ScriptedDice(Dice):
    """Dice that fall as the test says (2D6 totals in order), then always 12."""

    def __init__(self, totals=(), log: EventLog | None = None) -> None:
        super().__init__(0, log)
        self.totals = list(totals)

    def pair(self) -> tuple[int, int]:
        t = self.totals.pop(0) if self.totals else 12
        a = min(6, t - 1)
        return a, t - a


def char(cid: str, side: str, pos, move_ratio=2, fire_ratio=3, weapon_success=(14, 12, 10, 8),
         damage=4, wtype="smg", **kw) -> CharacterState:
    model = Character(
        name=cid, id=cid, move_ratio=move_ratio, fire_ratio=fire_ratio,
        success=tuple(kw.pop("success", {"unarmed": 12, "throwing": 12}).items()),
        defense=tuple(kw.pop("defense", {"ballistic": 8, "impact": 8}).items()),
        weapons=tuple(kw.pop("weapons", (Weapon(type=wtype, success=weapon_success, shots=30,
                                                damage=damage),))),
    )
    cs = CharacterState.from_model(side, model, 0)
    cs.pos = tuple(pos)
    for k, v in kw.items():
        setattr(cs, k, v)
    return cs


def build(board, chars, order, dice=None, objectives=None, turn_limit=None,
          initiative="team") -> Game:
    state = GameState(title="test", characters={c.id: c for c in chars}, order=list(order),
                      turn_limit=turn_limit, initiative=initiative)
    dice = dice or ScriptedDice()
    sides = sorted({c.side for c in chars})
    from engine.play.objectives import implicit_objectives
    game = Game(state, board, dice, list(objectives) if objectives is not None
                else implicit_objectives(sides))
    turn.start_phase(game)
    return game


def set_arc(ch: CharacterState, kind: str, direction: float) -> None:
    ch.arcs.append(Arc(kind, (float(ch.pos[0]), float(ch.pos[1])), direction))


__all__ = ["ScriptedDice", "char", "build", "set_arc", "Objective"]
