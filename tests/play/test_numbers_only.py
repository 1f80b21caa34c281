"""Play prices a new sight line from the ruleset's numbers alone (``modifiers(text=False)``):
every ruleset then leaves out the reasons citing its rules (``engine.rules.base.TEXT_KEYS``)
and gives every other key as with them, and the board view's answer is the one it built from
the full verdict (``engine.sight.verdict_of``), kept here as it was.  Asked on every sample
under every ruleset, every posture, vision and light, with doors shut and smoke laid, and on a
generated city with every street feature kind."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from engine.board import Board, compile_board
from engine.io.resolve import load_board
from engine.los import line_of_sight
from engine.play.board_view import Sight
from engine.play.engine_board import EngineBoard, fork_board
from engine.rules import get_ruleset
from engine.rules.base import TEXT_KEYS
from engine.sight import numbers_only, verdict_of
from tests.engine.test_single_line_agrees import _city, _pairs

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ("dmz1990", "sr3", "sr1", "darkcon")
VISIONS = ("normal", "low-light", "thermographic")
POSTURES = ("standing", "prone", "kneeling")
LIGHTS = ("day", "partial-darkness", "full-darkness")
WEAPONS = {"dmz1990": (None, "pistol"), "sr3": (None, "heavy-pistol"),
           "sr1": (None, "heavy-pistol"), "darkcon": (None, "20")}


def _plain_sight(view: EngineBoard, facts: Any, vision: str) -> Sight:
    """The board view's answer as it was built from the full verdict."""
    v = verdict_of(facts, ruleset=view.rules.name, vision=vision)
    facts, mods = v.facts, v.mods
    details: dict[str, Any] = {}
    by = v.blocked_by
    if by:
        details["blocked_by"] = by.get("feature") or by.get("kind")
    if v.blocked:
        if mods.get("blind_fire"):
            details["blind_fire"] = int(mods["blind_fire"])
            details["barriers"] = [(b["feature"], b["kind"], int(b["rating"]))
                                   for b in mods.get("barriers") or ()]
        return Sight(True, facts.range, details=details)
    if mods.get("covered_locations"):
        details["covered"] = list(mods["covered_locations"])
    parts = {k: int(mods.get(k, 0)) for k in
             ("cover", "prone", "elevation", "visibility", "target_modifier")}
    details.update({k: mods[k] for k in ("range_m", "hard_cover") if k in mods})
    through = sum(int(b.get("rating") or 0) for b in mods.get("barriers") or ()
                  if b.get("kind") in ("window", "fence")) if view._metric else 0
    if through:
        details["barrier_rating"] = through
    return Sight(False, facts.range, total=int(mods["total"]), visibility=parts["visibility"],
                 modifiers=parts, details=details)


def _shut_and_smoke(view: EngineBoard, rng: random.Random) -> None:
    """Every other door and window shut (the rest opened), smoke on a few dots."""
    opens = [f.id for f in view.board.all_features() if f.kind in ("door", "window")]
    for n, fid in enumerate(sorted(opens)):
        view.set_opening(fid, "closed" if n % 2 else "open")
    dots = view.board.dots(0)
    view.add_smoke([tuple(int(v) for v in dots[rng.randrange(len(dots))]) + (0,)
                    for _ in range(6)])


def _agree(board: Board, seed: int, n: int) -> dict[str, int]:
    """Lines asked per verdict kind ({"blocked", "cover", "clear", "blind"})."""
    seen = {"blocked": 0, "cover": 0, "clear": 0, "blind": 0}
    for ruleset in RULESETS:
        rs = get_ruleset(ruleset)
        assert numbers_only(rs)
        for light in LIGHTS:
            rng = random.Random(seed)
            view = EngineBoard(fork_board(board), light=light, ruleset=ruleset)
            _shut_and_smoke(view, rng)
            for a, b in _pairs(view.board, rng, n):
                pa, pb = rng.choice(POSTURES), rng.choice(POSTURES)
                facts = line_of_sight(view.board, a, b, posture_a=pa, posture_b=pb, light=light)
                for vision in VISIONS:
                    for weapon in WEAPONS[ruleset]:
                        full = rs.modifiers(facts, vision=vision, weapon=weapon)
                        lean = rs.modifiers(facts, vision=vision, weapon=weapon, text=False)
                        assert set(TEXT_KEYS) & set(full) and not set(TEXT_KEYS) & set(lean)
                        assert lean == {k: v for k, v in full.items() if k not in TEXT_KEYS}, \
                            (ruleset, a, b, vision, weapon)
                    got = view._sight_uncached(a, b, pa, pb, vision, facts)
                    assert got == _plain_sight(view, facts, vision), (ruleset, a, b, vision)
                    kind = "blind" if got.details.get("blind_fire") else \
                        "blocked" if got.blocked else "cover" if got.modifiers["cover"] else "clear"
                    seen[kind] += 1
    return seen


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml")))
def test_numbers_only_as_the_full_verdict_on_samples(name):
    _scen, board = load_board(ROOT / "scenarios" / name)
    seen = _agree(board, 3 + len(name), 30)
    assert seen["blocked"] and seen["cover"] and seen["clear"]


def test_numbers_only_as_the_full_verdict_on_a_city():
    lay, sheets = _city()
    seen = _agree(compile_board(lay, sheets), 8, 40)
    assert seen["blocked"] and seen["clear"] and seen["blind"], seen


def test_a_ruleset_without_the_keyword_is_asked_for_everything():
    class Old:
        name = "old"

        def modifiers(self, facts, vision="normal", weapon=None):
            return {}

    assert not numbers_only(Old()) and numbers_only(get_ruleset("sr3"))
