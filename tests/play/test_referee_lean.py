"""The referee's and the bots' lean paths answer as the plain ones (issue 12.6, referee lane).

Each test plays sample games with a check beside the lean path: the same question asked the
plain way must give the same answer at every call, so a kept fact that goes stale, or a
question skipped that could have changed the answer, fails here."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.io import load_board
from engine.play import turn
from engine.play.bots import Bot
from engine.play.headless import engine_view_factory, play_game_of

ROOT = Path(__file__).resolve().parents[2] / "scenarios"


def _play(name: str, seeds: range) -> list:
    sc, board = load_board(ROOT / name)
    mk = engine_view_factory(sc, board)
    return [play_game_of(sc, mk, s) for s in seeds]


@pytest.mark.parametrize("name", ["club-umbra-darkcon.yaml", "nightclub-raid-sr3.yaml"])
def test_all_options_are_each_acts_options_sorted(name, monkeypatch):
    """A bot's options of every act (each act's, priced once an activation step and merged)
    equal the ruleset's ``bot_options`` asked afresh for them all, at every ask of the games;
    and a ruleset's own ``bot_options`` of all acts equals its acts' merged."""
    plain = Bot._options
    asked = {"all": 0, "kept": 0, "acts": set()}

    def checked(self, game, ch, holding, only=None):
        kept = ("options", ch.id, holding, only) in self._known
        got = plain(self, game, ch, holding, only)
        if only is None:
            want = game.bot_options(ch, holding)
            assert got == want, (ch.id, holding)
            parts = [o for act in game.bot_acts for o in game.bot_options(ch, holding, act)]
            game.sort_options(parts)
            assert parts == want
            asked["all"] += 1
            asked["kept"] += kept or any(("options", ch.id, holding, a) in self._known
                                         for a in game.bot_acts)
            asked["acts"] |= {o[1]["act"] for o in got}
        return got

    monkeypatch.setattr(Bot, "_options", checked)
    _play(name, range(1, 4))
    assert asked["all"] > 100 and asked["kept"] > 20
    assert asked["acts"] >= ({"charge", "aim"} if "darkcon" in name else {"aim"})


@pytest.mark.parametrize("name", ["club-umbra-darkcon.yaml", "police-station-extraction.yaml"])
def test_sides_left_in_the_fight_as_every_character_says(name, monkeypatch):
    """The turn sequence's "at most one side left?" (two characters kept from the last ask
    are asked first) equals the sides of every character in the fight, after every action,
    to the end of games where sides are wiped out."""
    lean = turn._fight_left
    asked = {"n": 0, "ends": 0}

    def checked(game):
        got = lean(game)
        want = turn.in_fight(game)
        assert got == (want if len(want) <= 1 else None), (got, want)
        asked["n"] += 1
        asked["ends"] += got is not None
        return got

    monkeypatch.setattr(turn, "_fight_left", checked)
    games = _play(name, range(1, 5))
    assert asked["n"] > 500
    assert any(g.log.of_kind("out") for g in games)


def test_shadowrun_out_as_unconscious_or_dead():
    """sr1's and sr3's ``out`` (read off the boxes) is ``unconscious or dead`` on every box
    count around the thresholds."""
    from engine.rules.sr1_combat import TRACK, SR1Condition
    from engine.rules.sr3_combat import MONITOR_BOXES, SR3Condition

    n = 0
    for body in (1, 3, 6):
        for phys in range(TRACK + 2):
            for mental in range(TRACK + 2):
                for over in range(body + 3):
                    c = SR1Condition(body=body, physical=phys, mental=mental, overflow=over)
                    assert c.out == (c.unconscious or c.dead)
                    n += c.out
        for phys in range(MONITOR_BOXES + 2):
            for stun in range(MONITOR_BOXES + 2):
                for dead in (False, True):
                    c3 = SR3Condition(body=body, physical=phys, stun=stun, dead=dead)
                    assert c3.out == (c3.dead or c3.unconscious)
                    n += not c3.out
    assert n > 1000


def test_suppression_zone_kept_as_drawn_afresh(monkeypatch):
    """The Suppression Fire zone a mover's step is checked against (kept by its corners)
    holds the points the zone drawn afresh holds, for every zone of the games, the kept
    shapes asked again after other zones."""
    import random

    from shapely.geometry import Point, Polygon

    from engine.play.darkcon_game import DarkConGame

    lean = DarkConGame._zone_shape
    zones: list[tuple[DarkConGame, list]] = []

    def spy(self, zone):
        zones.append((self, [list(p) for p in zone]))
        return lean(self, zone)

    monkeypatch.setattr(DarkConGame, "_zone_shape", spy)
    _play("club-umbra-darkcon.yaml", range(1, 7))
    monkeypatch.setattr(DarkConGame, "_zone_shape", lean)
    distinct = {tuple(map(tuple, z)) for _g, z in zones}
    assert len(distinct) >= 3
    rng = random.Random(2)
    inside = 0
    one = zones[0][0]  # (every zone through one game's table)
    for _game, zone in zones[::-1] * 2:
        fresh = Polygon(zone).buffer(1e-6)
        kept = one._zone_shape(zone)
        x0, y0, x1, y1 = fresh.bounds
        for _ in range(30):
            p = Point(rng.uniform(x0, x1), rng.uniform(y0, y1))
            assert kept.contains(p) == fresh.contains(p)
            inside += fresh.contains(p)
    assert inside > 50
