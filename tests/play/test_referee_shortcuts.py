"""The referee's shortcuts answer as the plain computation: played sample games (the DMZ
ones, where reaction arcs are held) give the same event logs with the shortcut as with the
plain code the shortcut stands for, and the shortcut did skip some work."""

from __future__ import annotations

from pathlib import Path

from engine.io import load_board
from engine.play.game import Game
from engine.play.headless import engine_view_factory, play_game_of
from tests.play.fakes import GridBoard
from tests.play.helpers import build, char, set_arc

ROOT = Path(__file__).resolve().parents[2]
#: the samples whose characters hold reaction arcs (DMZ), two seeds each
PLAYED = (("street-ambush.yaml", (1, 2)), ("nightclub-hold.yaml", (1, 2)))


def _logs() -> list[list[dict]]:
    """The event logs of the :data:`PLAYED` games, as the referee now plays them."""
    logs = []
    for name, seeds in PLAYED:
        scenario, board = load_board(ROOT / "scenarios" / name)
        make = engine_view_factory(scenario, board)
        for seed in seeds:
            logs.append(play_game_of(scenario, make, seed).log.to_data())
    return logs


def _plain_attacks(self, r, m, shots) -> None:
    """``Game._reaction_attacks`` without its shortcut: every attack worked out."""
    for _ in range(shots):
        if m.out:
            break
        self._reaction_attack(r, m)


def _counted(work, calls: list[int]):
    """``work`` that notes each call in ``calls``."""
    def counted(*a, **k):
        calls.append(1)
        return work(*a, **k)
    return counted


def test_held_reaction_attacks_repeat_as_if_each_was_worked_out(monkeypatch):
    """The plain loop (every attack worked out) plays the same games, planning more shots."""
    planned: list[int] = []
    monkeypatch.setattr(Game, "plan_shot", _counted(Game.plan_shot, planned))
    lean = _logs()
    lean_planned = len(planned)
    planned.clear()
    monkeypatch.setattr(Game, "_reaction_attacks", _plain_attacks)
    assert _logs() == lean
    assert len(planned) - lean_planned > 100, (len(planned), lean_planned)


def test_a_held_attack_is_logged_again_and_a_shot_is_planned_again():
    """A wall between them: the three attacks a wide arc's 6 MP earn (Fire Ratio 2) are three
    holds for one shot planned.  In the open: three shots, each planned (one may change the
    next: ammunition, a wound)."""
    for walled in (True, False):
        board = GridBoard(12, 12, walls=[(3, 1)] if walled else [])
        a = char("a", "runners", (1, 1, 0))
        b = char("b", "gang", (5, 1, 0), fire_ratio=2, weapon_success=(30, 30, 30, 30),
                 damage=1)
        game = build(board, [a, b], ["runners", "gang"])
        set_arc(b, "wide", 180.0)
        planned: list[int] = []
        game.plan_shot = _counted(game.plan_shot, planned)
        game.act({"act": "begin", "who": "a"})
        game.act({"act": "arc", "kind": "wide", "direction": 0.0})
        holds = [e for e in game.log.events if e["event"] == "reaction-hold"]
        shots = [e for e in game.log.events if e.get("purpose") == "reaction fire"]
        if walled:
            assert [e["why"] for e in holds] == ["no line of fire"] * 3
            assert len(planned) == 1 and not shots
        else:
            assert len(planned) == 3 and len(shots) == 3 and not holds


def test_the_arcs_are_asked_about_a_free_shot_only_while_one_is_owed(monkeypatch):
    """With ``owes_free_shot`` always True (the plain code: every tally that began in an arc
    asks the arcs, ``_free_shot`` then finds nothing owed) the games are the same; the
    shortcut asks the arcs less."""
    from engine.play import game as game_mod

    asked: list[int] = []
    monkeypatch.setattr(Game, "in_arcs", _counted(Game.in_arcs, asked))
    lean = _logs()
    lean_asked = len(asked)
    asked.clear()
    monkeypatch.setattr(game_mod, "owes_free_shot", lambda t: t["started_in_arc"])
    assert _logs() == lean
    assert len(asked) - lean_asked > 1000, (len(asked), lean_asked)


def test_owes_free_shot_is_the_tallys_own_free_shot():
    """Every combination of the fields: owed exactly when ``free_shot`` gives an attack."""
    from itertools import product

    from engine.play.reaction import ReactionTally, owes_free_shot

    for started, attacks, used in product((False, True), (0, 1, 2), (False, True)):
        t = ReactionTally(2, started_in_arc=started, attacks=attacks, free_used=used)
        owed = owes_free_shot(t.to_data())
        assert owed == bool(t.free_shot()) == (started and attacks == 0 and not used)
        assert not owes_free_shot(t.to_data())  # (given once)


def test_blind_numbers_on_a_line_known_blocked_are_the_plain_numbers(monkeypatch):
    """Every Blind Fire numbers of the played games (the bots' and the referee's) equal the
    plain code's (``known_blocked`` not asked: Game.sight and his own verdict worked out),
    and most of them came from a line a fan knew was blocked."""
    from engine.play import referee_blind as rb

    keep = rb.blind_numbers
    seen = {"calls": 0, "dark": 0}

    def plain(game, a, t):
        board = game.board
        board.known_blocked = lambda *x: False  # (the instance's: the plain path)
        try:
            return keep(game, a, t)
        finally:
            del board.known_blocked

    def spy(game, a, t):
        got = keep(game, a, t)
        assert got == plain(game, a, t)
        seen["calls"] += 1
        seen["dark"] += a.pos is not None and t.pos is not None and \
            game.board.known_blocked(a.pos, t.pos, a.vision)
        return got

    monkeypatch.setattr(rb, "blind_numbers", spy)
    _logs()
    assert seen["calls"] > 500 and seen["dark"] > 300, seen
