"""A ruleset subclass overrides every hook of the referee skeleton and plays through it.

``ToyGame`` is a deliberately different ruleset: metres, two actions an activation, no arcs,
per-character initiative re-rolled every turn with a second pass for a high roll, a wound
track instead of the Condition Monitor, a d6 target-number shot.  Bots play it headless
through the factory; the DMZ referee's games are unchanged by its existence.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from engine.play import referees
from engine.play.bots import Bot, play_game
from engine.play.condition import CONDITIONS, register_condition
from engine.play.game import Game
from engine.play.shots import ShotPlan
from engine.play.state import PRONE, CharacterState
from tests.play.fakes import GridBoard
from tests.play.scenarios import raid


@dataclasses.dataclass
class Wounds:
    """Four wounds and he is out; each wound is -1 to his shots."""

    kind = "toy-wounds"
    taken: int = 0

    out = property(lambda self: self.taken >= 4)
    dead = property(lambda self: self.taken >= 6)
    unconscious = property(lambda self: 4 <= self.taken < 6)
    modifier = property(lambda self: self.taken)
    lowest = property(lambda self: None if not self.taken else 12 - 3 * self.taken)
    mp = property(lambda self: 0)

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "taken": self.taken}

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> Wounds:
        return cls(d.get("taken", 0))


register_condition(Wounds.kind, Wounds)


class ToyGame(Game):
    ruleset_name = "toy"
    units = "m"
    can_hold_arcs = False
    per_character_initiative = True

    def condition_for(self, ch_model):
        return Wounds()

    def new_turn_order(self) -> list[str]:
        rolls = {c.id: self.dice.rng.randint(1, 6) for c in self.state.characters.values()
                 if not c.out}
        order = sorted(rolls, key=lambda k: (-rolls[k], k))
        order += [k for k in order if rolls[k] == 6]  # a second pass on a six
        self.log.record("toy-initiative", turn=self.state.turn, rolls=rolls, order=order)
        return order

    def allowance(self, ch: CharacterState) -> float:
        return 0.0 if ch.condition.out else 10.0 - ch.condition.taken

    def action_slots(self, ch: CharacterState) -> int:
        return 2

    def cost(self, kind, ch, distance=None, weapon=None):
        if kind in ("fire", "ready", "reload", "melee", "throw", "breach"):
            return 0.0, 1
        if kind in ("prone", "stand"):
            return 1.0, 0
        return super().cost(kind, ch, distance, weapon)

    def min_step(self, ch: CharacterState) -> float:
        return 2.0

    def plan_shot(self, a, t, movement_fire):
        w = a.ready_weapon
        if w is None or w.is_grenade or a.pos is None or t.pos is None:
            return None
        s, _chars, _why = self.sight(a, t)
        if s.blocked:
            return None
        tn = min(6, 3 + s.range // 4 + a.condition.modifier + (1 if t.posture == PRONE else 0))
        p = (7 - tn) / 6
        return ShotPlan(p, p * 2, {"target_number": tn, "range": s.range})

    def resolve_shot(self, a, t, plan, reaction):
        a.ready_weapon.fired_this_turn += 1
        roll = self.dice.rng.randint(1, 6)
        hit = roll >= plan.numbers["target_number"]
        self.log.record("toy-shot", attacker=a.id, target=t.id, roll=roll, hit=hit,
                        **plan.numbers)
        if hit:
            self.damage(t, 2, "wounds", source=a.id, roll=roll)

    def shot_value(self, shooter, spos, target, tpos, movement_fire, target_posture=None):
        w = shooter.ready_weapon
        if w is None or w.is_grenade:
            return 0.0
        s = self.board.sight(spos, tpos, shooter.posture, target_posture or target.posture,
                             shooter.vision)
        return 0.0 if s.blocked else (7 - min(6, 3 + s.range // 4)) / 6 * 2

    def damage(self, victim, amount, kind, source, **detail):
        victim.condition.taken += amount
        self.log.record("toy-damage", target=victim.id, wounds=amount, source=source, **detail)
        self.consequences(victim, False)

    def resolve_melee(self, m, t):
        hit = self.dice.rng.randint(1, 6) >= 4
        if hit:
            self.damage(t, 1, "wounds", source=m.id)
        return hit

    def resolve_move_by(self, e, m):
        self.log.record("toy-move-by", attacker=e.id, target=m.id)

    def fall(self, ch, stories):
        self.damage(ch, stories, "wounds", source="fall")

    def melee_value(self, a, d):
        return 0.5

    def resolve_throw(self, m, w, at, dots, s):
        roll = self.dice.rng.randint(1, 6)
        self.log.record("toy-throw", thrower=m.id, roll=roll, dots=dots)
        return (at if roll > 2 else m.pos), roll > 2

    def resolve_grenade(self, g):
        self.log.record("toy-grenade", at=list(g.at))
        for ch in self.state.characters.values():
            if not ch.out and ch.pos is not None and \
                    self.board.lattice.distance(ch.pos[:2], g.at[:2]) <= 1:
                self.damage(ch, 1, "wounds", source="grenade")


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(referees.REFEREES, "toy", ToyGame)
    return dataclasses.replace(raid(turn_limit=4), ruleset="toy")


def board():
    return GridBoard(18, 12)


def bots():
    return {"runners": Bot("runners"), "guards": Bot("guards")}


def test_the_factory_plays_the_toy_ruleset_through_every_hook(toy):
    players = bots()
    g = play_game(referees.new_game(toy, board(), 3), players)
    assert type(g) is ToyGame and g.state.finished
    ev = g.log.events
    kinds = {e["event"] for e in ev}
    # initiative asked every turn, one activation per character (and a pass again on a six)
    inits = [e for e in ev if e["event"] == "toy-initiative"]
    assert [e["turn"] for e in inits] == list(range(1, g.state.turn + 1))
    assert all(set(e["order"]) >= {k for k, v in e["rolls"].items()} for e in inits)
    assert "initiative" not in kinds and g.state.initiative == "character"
    # the shots and damage are the toy's, the budget is in metres, nobody holds an arc
    assert "toy-shot" in kinds and "test" not in kinds
    assert all("target_number" in e for e in ev if e["event"] == "toy-shot")
    spends = [e for e in ev if e["event"] == "spend"]
    assert spends and all(e["units"] == "m" for e in spends)
    fires = [e for e in spends if e["what"] == "movement fire"]
    assert fires and all(e["mp"] == 0 and e["slots"] == 1 for e in fires)
    assert all(e["units"] == "m" for e in ev if e["event"] in ("begin", "move", "end"))
    assert "arc" not in kinds and not any(c.arcs for c in g.state.characters.values())
    assert all(isinstance(c.condition, Wounds) for c in g.state.characters.values())
    assert not [e for b in players.values() for e in b.errors if "arc" in e]


def test_slots_limit_the_actions_of_an_activation(toy):
    g = referees.new_game(toy, board(), 5)
    who = g.movable()[0]
    g.act({"act": "begin", "who": who})
    ch = g.char(who)
    assert ch.mp == 10.0 and g.slots_left(ch) == 2
    assert g.affords(ch, "fire") and not g.affords(ch, "arc-narrow")
    ch.slots_spent = 2
    assert not g.affords(ch, "reload")
    with pytest.raises(Exception, match="no reaction arcs"):
        g.act({"act": "arc", "kind": "narrow", "direction": 0.0})


def test_a_toy_game_saves_and_resumes_with_its_class_and_wounds(toy, tmp_path):
    full = play_game(referees.new_game(toy, board(), 8), bots())
    g = referees.new_game(toy, board(), 8)
    half = len(full.actions) // 2
    for act in full.actions[:half]:
        g.act(act)
    path = tmp_path / "toy.json"
    g.save(path)
    back = referees.load_game(path, board())
    assert type(back) is ToyGame and back.to_data()["ruleset"] == "toy"
    assert back.state.to_data() == g.state.to_data()
    for act in full.actions[half:]:
        back.act(act)
    assert back.log.events == full.log.events
    assert CONDITIONS["toy-wounds"] is Wounds


def test_dmz_games_are_untouched_by_a_registered_subclass(toy):
    a = play_game(referees.new_game(raid(turn_limit=4), board(), 3), bots())
    b = play_game(Game.new(raid(turn_limit=4), board(), 3), bots())
    assert type(a) is Game and a.log.events == b.log.events
    assert a.log.of_kind("initiative") and not a.log.of_kind("toy-initiative")
