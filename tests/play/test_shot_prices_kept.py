"""Shot prices kept by their figures (issue 12.6, pricing lane) are the prices worked out
afresh.  The bots price tens of thousands of shots a game; sr1 (``SR1Game.priced``), darkcon
(``_fire_expected``) and sr3 (``_expected_as`` and the fire mode ``plan_shot`` picks) keep
each price by the figures it is worked out from, the metres by their range band.  Here every
price a bot game asks is also worked out the way it was before anything was kept (the old
code, copied below), and the two must be equal: a key that leaves out a figure the price
reads (the target's Dodge Pool, the rounds loaded, an aim, a wound...) gives a stale price
and fails these tests."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

import pytest

from engine.io import load_board
from engine.play import darkcon_game as dg
from engine.play import sr1_game as s1
from engine.play import sr3_game as s3
from engine.play.headless import engine_view_factory, play_game_of
from engine.play.state import PRONE
from engine.rules import darkcon as R
from engine.rules import darkcon_combat as C
from engine.rules import sr1_combat as c
from engine.rules.base import METERS_PER_DOT

ROOT = Path(__file__).resolve().parents[2] / "scenarios"


def _play(name: str, seeds: range) -> None:
    sc, board = load_board(ROOT / name)
    make = engine_view_factory(sc, board)
    for seed in seeds:
        play_game_of(sc, make, seed)


# ------------------------------------------------------------------ sr1
def _sr1_numbers(g: Any, a: Any, t: Any, s: Any, movement_fire: bool) -> dict | None:
    """SR1Game._numbers as it was before prices were kept."""
    arm = g.arm_of(a)
    if arm is None or arm.kind not in ("firearm", "thrown"):
        return None
    metres = float(s.details.get("range_m", s.range * METERS_PER_DOT))
    try:
        band = c.range_band(arm.range_row, metres)
    except ValueError:
        return None
    base = c.base_tn(band)
    if base is None:
        return None
    f, ft = g.fighter(a), g.fighter(t)
    moved = movement_fire and a.mp_spent > 0
    turn_a = a.condition.turn
    skill = f.skill(arm.skill)
    code = arm.damage(f.strength)
    hard = g._hard_cover(s)
    dodge = 0 if t.out else max(ft.dodge_pool - t.condition.turn.get("dodge_used", 0), 0)
    resist = ft.resist_dice + dodge
    auto = ft.ballistic + hard
    common = dict(situational=s.total, moved=moved, wound=a.condition.modifier,
                  rough=moved and bool(turn_a.get("rough")), laser=arm.laser,
                  melee_attackers=len(turn_a.get("melee_by", [])) if moved else 0)
    shots = 1
    tn = c.target_number(base, **common)
    if arm.mode == "FA" and skill > 0:
        rounds = None
        w = a.ready_weapon
        if w is not None and w.loaded is not None:
            rounds = w.loaded
        shots, _e = c.best_burst(code, skill, tn.target_number, resist, auto, rounds,
                                 arm.recoil_comp, arm.range_row in ("mmg", "hmg"))
        if shots > 1:
            code = c.autofire_code(code)
            tn = c.target_number(base, **common,
                                 recoil=c.recoil(shots, arm.recoil_comp,
                                                 arm.range_row in ("mmg", "hmg")))
    return {"target_number": tn.target_number, "base_target_number": base,
            "modifiers": dict(tn.modifiers), "range_m": metres, "range_band": band,
            "pool": skill, "skill": arm.skill, "damage_code": str(code), "shots": shots,
            "resist_pool": resist, "body": ft.resist_dice, "dodge": dodge,
            "armor": ft.ballistic, "hard_cover": hard,
            "assumed": [c.ASSUMED["range"]] if band != "short" else []}


def test_sr1_kept_prices_are_the_fresh_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    kept_value = s1.SR1Game.shot_value
    seen = {"asked": 0, "priced": 0, "same_key": 0}

    def both(self, shooter, spos, target, tpos, movement_fire, target_posture=None):
        got = kept_value(self, shooter, spos, target, tpos, movement_fire, target_posture)
        s = self.shot_sight(shooter, spos, target, tpos, target_posture)
        n = None if s is None else _sr1_numbers(self, shooter, target, s, movement_fire)
        want = 0.0 if n is None else self._plan(n).expected
        assert got == want, (shooter.id, spos, target.id, tpos, movement_fire)
        if s is not None:
            # the full figures a referee logs are the old ones too
            assert self._numbers(shooter, target, s, movement_fire) == n
        seen["asked"] += 1
        seen["priced"] += want > 0
        return got

    monkeypatch.setattr(s1.SR1Game, "shot_value", both)
    s1._PRICES.clear()
    _play("chop-shop-sr1.yaml", range(1, 4))
    assert seen["asked"] > 3000 and seen["priced"] > 1000
    assert 0 < len(s1._PRICES) < seen["priced"]  # kept answers were asked again


# ------------------------------------------------------------------ darkcon
def _dc_fire(g: Any, a: Any, apos: Any, t: Any, tpos: Any, s: Any, posture: str,
             moving: float | None = None, aim: int = 0) -> dict | None:
    """DarkConGame._fire_numbers as it was before prices were kept (single, charging off:
    the bots' questions)."""
    p = g.profile(a)
    if p is None or not p.is_firearm or a.condition.arms_lost >= 2:
        return None
    f = g.fighter(a)
    skill = f.skill(p.skill)
    if skill <= 0:
        return None
    w = a.ready_weapon
    metres = g.metres(apos, tpos)
    band = R.range_band(str(p.range), metres)
    if band not in R.RANGE_MODIFIER:
        return None
    spent = a.mp_spent if moving is None else moving
    pace = None if spent <= 1e-9 else ("walk" if spent <= dg.PACES["walk"] / 2 + 1e-9
                                       else "trot")
    strength = g.strength(a)
    mods: dict[str, int] = {"range": R.RANGE_MODIFIER[band]}
    for k in ("prone", "visibility", "target_modifier"):
        if s.modifiers.get(k):
            mods[k] = s.modifiers[k]
    if posture == PRONE and "prone" not in mods:
        mods["prone"] = R.PRONE
    tmove = g.dc["pace"].get(t.id)
    if tmove in C.TARGET_MOVING:
        mods["target_moving"] = C.TARGET_MOVING[tmove]
    base = C.skill_target(skill, f.attribute(p.skill, strength))
    rec_str = C.effective_strength(strength, pace)
    burst = p.burst
    loaded = w.loaded if w.loaded is not None else p.max_shots * max(burst, 1)
    if burst:
        burst = min(burst, loaded)
        most = min(p.max_shots, max(loaded // burst, 1)) if burst else 0
        recoil = p.burst_recoil
    else:
        most = min(p.max_shots, loaded)
        recoil = p.recoil
    if most <= 0:
        return None
    shots = C.steady_shots(recoil, rec_str, most)
    rec = C.recoil_modifiers(recoil, shots, rec_str)
    aims = C.shot_aims(aim, shots, moving=pace is not None)
    if aims[0] == C.QUICK_SHOT:
        mods["quick_shot"] = C.QUICK_SHOT
    else:
        mods["aimed"] = aims[0]
    targets = [base + sum(mods.values()) + r + x - aims[0] for r, x in zip(rec, aims,
                                                                            strict=True)]
    pen = C.pen_at(p.pen, band)
    tf = g.fighter(t)
    covered = tuple(s.details.get("covered", ()))
    per_round = C.expected_wound(p.damage, pen, tf.armor, covered)
    if burst:
        hits = sum(C.expected_burst_hits(x, burst, band) for x in targets)
    else:
        hits = sum(C.p_skill(x, True, band) for x in targets)
    p_none = math.prod(1 - C.p_skill(x, True, band) for x in targets)
    return {"skill": skill, "attribute": f.attribute(p.skill, strength), "base": base,
            "modifiers": mods, "recoil": rec, "aims": aims, "targets": targets,
            "shots": shots, "aim_actions": aim,
            "burst": burst, "band": band, "range_m": metres, "pace": pace,
            "damage": str(p.damage), "pen": pen, "covered": list(covered),
            "p_hit": round(1 - p_none, 4), "expected": round(hits * per_round, 3),
            "difficulty": "Average"}


def test_darkcon_kept_prices_are_the_fresh_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    kept = dg.DarkConGame._fire_expected
    seen = {"asked": 0, "priced": 0}

    def both(self, a, apos, t, tpos, s, posture, moving=None, aim=0):
        got = kept(self, a, apos, t, tpos, s, posture, moving, aim)
        n = _dc_fire(self, a, apos, t, tpos, s, posture, moving, aim)
        assert got == (None if n is None else n["expected"]), (a.id, apos, t.id, tpos, aim)
        # the full figures (what plan_shot logs) are the old ones too
        assert self._fire_numbers(a, apos, t, tpos, s, posture, moving, aim) == n
        seen["asked"] += 1
        seen["priced"] += bool(got)
        return got

    monkeypatch.setattr(dg.DarkConGame, "_fire_expected", both)
    _play("club-umbra-darkcon.yaml", range(1, 4))
    assert seen["asked"] > 2000 and seen["priced"] > 1000


# ------------------------------------------------------------------ sr3
def _sr3_plan(g: Any, a: Any, t: Any, w: Any, line: Any, mode: Any, rounds: Any,
              called: Any) -> tuple | None:
    """plan_shot along ``line`` before anything was kept: every choice priced, the best
    one planned; (p_hit, expected, numbers) or None."""
    pace = g._pace_of(a) if a.id == g.state.active else "still"
    base = g._ranged_base(a, a.pos, t, t.pos, line[0], line[1], pace, w)
    best = None
    for m, r, cc in ([] if base is None else g._choices(a, w, mode, rounds, called)):
        n = g._ranged_as(base, m, r, cc)
        p, exp = g._odds(n)
        v = exp / (2 if m == "FA" else 1)
        if best is None or v > best[0] + 1e-9:
            best = (v, (p, exp, n))
    return None if best is None else best[1]


def test_sr3_kept_prices_and_picks_are_the_fresh_ones(monkeypatch: pytest.MonkeyPatch
                                                      ) -> None:
    kept_value, kept_plan = s3.SR3Game.shot_value, s3.SR3Game.plan_shot
    kept_along = s3.SR3Game._pick_along
    g_odds = s3.SR3Game._odds
    seen = {"values": 0, "plans": 0, "picked": 0, "along": 0}

    def value(self, shooter, spos, target, tpos, movement_fire, target_posture=None):
        got = kept_value(self, shooter, spos, target, tpos, movement_fire, target_posture)
        w = self.weapon(shooter)
        s = None if w is None or w.kind not in ("firearm", "projectile") else \
            self.shot_sight(shooter, spos, target, tpos, target_posture)
        n = None if s is None else self._ranged(
            shooter, spos, target, tpos, s, 0, "walk" if movement_fire else "still", w)
        assert got == (0.0 if n is None else self._odds(n)[1])
        seen["values"] += 1
        return got

    def plan(self, a, t, movement_fire, mode=None, rounds=None, called=None):
        got = kept_plan(self, a, t, movement_fire, mode, rounds, called)
        # the line as plan_shot found it before: a line of fire, else a Blind Fire line
        want = None
        w = self.weapon(a)
        if w is not None and w.kind in ("firearm", "projectile"):
            line = self.line_of_fire(a, t)
            if line is None:
                s = self.blind_line(a, t)
                line = None if s is None else (s, 0)
            if line is not None:
                want = _sr3_plan(self, a, t, w, line, mode, rounds, called)
        if want is None:
            assert got is None
        else:
            assert (got.p_hit, got.expected, got.numbers) == want
            seen["picked"] += 1
        seen["plans"] += 1
        return got

    def along(self, a, t, w, line, mode=None, rounds=None, called=None):
        # (what-ifs ask the price of plans along one line with aims, shots and pools set)
        got = kept_along(self, a, t, w, line, mode, rounds, called)
        want = _sr3_plan(self, a, t, w, line, mode, rounds, called)
        assert (None if got is None else got[2]) == (None if want is None else want[1])
        if got is not None:  # the pick's numbers are the plan's
            assert g_odds(self, self._ranged_as(got[0], *got[1])) == want[:2]
            assert self._ranged_as(got[0], *got[1]) == want[2]
        seen["along"] += 1
        return got

    monkeypatch.setattr(s3.SR3Game, "shot_value", value)
    monkeypatch.setattr(s3.SR3Game, "plan_shot", plan)
    monkeypatch.setattr(s3.SR3Game, "_pick_along", along)
    _play("nightclub-raid-sr3.yaml", range(1, 4))
    assert seen["values"] > 2000 and seen["plans"] > 1000 and seen["picked"] > 500
    assert seen["along"] > 1000


def test_sr3_odds_as_are_the_numbers_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    """``_odds_as`` (the odds of a fire mode without the figures the log shows) is
    ``_odds(_ranged_as(...))`` for every fire mode, burst and called shot the bots weigh,
    stopped shots included: its own TN, code or resistance TN would differ here."""
    kept = s3.SR3Game._odds_as
    seen = {"asked": 0, "hit": 0}

    def odds_as(self, base, mode, rounds, called):
        got = kept(self, base, mode, rounds, called)
        assert got == self._odds(self._ranged_as(base, mode, rounds, called))
        assert type(got[0]) is float and type(got[1]) is float
        seen["asked"] += 1
        seen["hit"] += got[1] > 0
        return got

    monkeypatch.setattr(s3.SR3Game, "_odds_as", odds_as)
    s3._PICKS.clear()
    s3._PRICES.clear()
    _play("nightclub-raid-sr3.yaml", range(1, 3))
    assert seen["asked"] > 1000 and seen["hit"] > 500


# ------------------------------------------------------------------ one figure changed
def _captured(monkeypatch: pytest.MonkeyPatch, cls: Any, name: str, scenario: str,
              keep: Any) -> list:
    """The arguments of every call of ``cls.name`` over two bot games (``keep`` picks)."""
    seen: list = []
    orig = getattr(cls, name)

    def spy(self, *args, **kw):
        got = orig(self, *args, **kw)
        if got is not None:
            seen.append(keep(self, args, got))
        return got

    monkeypatch.setattr(cls, name, spy)
    _play(scenario, range(1, 3))
    monkeypatch.setattr(cls, name, orig)
    return seen


def _one_changed(rows: list[tuple], fields: Any, kept: Any, fresh: Any,
                 extra: dict[int, Any] | None = None) -> int:
    """Each row's price kept first, then each field in turn set to a value another row has
    (or one of ``extra[field](row)``): the kept price of the changed row must be its fresh
    price (a key without that field answers the first row's price).  Returns how many
    changed rows priced differently."""
    differ = 0
    extra = extra or {}
    for k, row in enumerate(rows):
        kept(row)
        for i in fields:
            values = [rows[(k + 7) % len(rows)][i], rows[(k + 31) % len(rows)][i],
                      *(extra[i](row) if i in extra else ())]
            for value in values:
                if value == row[i]:
                    continue
                changed = (*row[:i], value, *row[i + 1:])
                want = fresh(changed)
                assert kept(changed) == want, (i, row[i], value)
                differ += want != fresh(row)
    return differ


def test_sr1_price_follows_each_figure(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = _captured(monkeypatch, s1.SR1Game, "_shot_inputs", "chop-shop-sr1.yaml",
                     lambda g, args, got: got)
    rows = rows[::max(1, len(rows) // 400)]

    def fresh(inputs: tuple) -> float:
        n = s1.SR1Game._numbers_of(inputs)
        return 0.0 if n is None else s1.SR1Game._plan(n).expected

    s1._PRICES.clear()
    # every field but the metres (the last: its band is a field)
    assert _one_changed(rows, range(len(rows[0]) - 1), s1.SR1Game.priced, fresh) > 500


def test_darkcon_price_follows_each_figure(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = _captured(monkeypatch, dg.DarkConGame, "_fire_inputs", "club-umbra-darkcon.yaml",
                     lambda g, args, got: got)
    rows = rows[::max(1, len(rows) // 400)]

    def fresh(inputs: tuple) -> float | None:
        n = dg.DarkConGame._fire_of(inputs)
        return None if n is None else n["expected"]

    dg._PRICES.clear()
    # every figure but the metres (the last: their band is a figure); a wound halving his
    # Strength, an aim more, the rounds left, unarmoured and armoured targets, cover
    extra = {6: lambda r: [r[6] // 2, r[6] + 2], 15: lambda r: [r[15] + 1, r[15] + 3],
             13: lambda r: [1, 3, None], 2: lambda r: [(), (("chest", 3), ("head", 1))],
             16: lambda r: [(), ("left-leg", "right-leg")]}
    assert _one_changed(rows, range(len(rows[0]) - 1), dg.DarkConGame._kept_expected, fresh,
                        extra) > 300


def test_sr3_price_follows_each_figure(monkeypatch: pytest.MonkeyPatch) -> None:
    games: list = []

    def keep(g: Any, args: tuple, got: tuple) -> tuple:
        games.append(g)
        return got

    rows = _captured(monkeypatch, s3.SR3Game, "_ranged_base", "nightclub-raid-sr3.yaml",
                     keep)
    g = games[-1]
    rows = [r for r in rows if r[0].id in g.state.characters and
            g.state.characters[r[0].id] is r[0]]
    rows = rows[::max(1, len(rows) // 300)]

    def fresh(base: tuple) -> float:
        return g._odds(g._ranged_as(base, None, None, False))[1]

    # (a, t, s, pace, w, metres, band, fired, loaded, others, blind, cover, tpace, aimed,
    #  held, ts, skill, pool, barrier, melee, resist_pool, wounds): not a and t (only their
    #  figures count), nor held (the log's words only)
    fields = [2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 18, 19, 20, 21]
    # shots and rounds fired apart (a burst is 3 rounds, a semi-automatic shot 1); a line
    # through smoke (a laser fails in it) and one without
    extra = {7: lambda r: [{"shots": n, "rounds": k, "targets": []}
                           for n, k in ((1, 1), (1, 3), (2, 2), (2, 6), (0, 3))],
             2: lambda r: [dataclasses.replace(r[2], visibility=v) for v in (0, 4)],
             5: lambda r: [20.0, 60.0]}
    for laser in (False, True):
        if laser:  # every gun with a laser sight: 50 m and smoke count (l.545)
            g._weapons.update({k: dataclasses.replace(w, aid="laser")
                               for k, w in g._weapons.items() if w.kind == "firearm"})
        # each row with the weapon the key names (his ready one now)
        rows = [(*r[:4], g.weapon(r[0]), *r[5:]) for r in rows if g.weapon(r[0]) is not None]
        s3._PRICES.clear()
        assert _one_changed(rows, fields + [5], g._expected_as, fresh, extra) > 300


def test_sr3_spotting_skips_only_lines_known_blocked(monkeypatch: pytest.MonkeyPatch) -> None:
    """sr3's end-of-activation spotting asks ``known_blocked`` before tracing a line: the
    answer is the traced verdict's, on every line of three games, and some were skipped."""
    kept = s3.SR3Game._in_sight
    seen = {"asked": 0, "known": 0, "seen": 0}

    def both(self, a, b):
        got = kept(self, a, b)
        want = not self.board.sight(a.pos, b.pos, a.posture, b.posture, a.vision).blocked
        assert got == want, (a.id, a.pos, b.id, b.pos)
        seen["asked"] += 1
        seen["known"] += self.board.known_blocked(a.pos, b.pos, a.vision)
        seen["seen"] += got
        return got

    monkeypatch.setattr(s3.SR3Game, "_in_sight", both)
    _play("nightclub-raid-sr3.yaml", range(1, 4))
    assert seen["asked"] > 300 and seen["known"] > 20 and 20 < seen["seen"] < seen["asked"]
