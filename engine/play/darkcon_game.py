"""The Dark Conspiracy referee: :class:`DarkConGame` plays ``ruleset: darkcon`` scenarios.

It overrides the hooks of :class:`engine.play.game.Game` with seed 003's rules, computed by
:mod:`engine.rules.darkcon_combat` (the numbers) and :mod:`engine.rules.darkcon` (range bands,
obscured, prone, covered body parts, the Incidental Fire Zone):

* every turn each character rolls his Initiative in D6 and acts at that score and every 10
  below it (l.174); one activation is one Combat Action (l.132-159): a move of up to a run
  (32 m; 4 m crawling), or one action (fire, reload, ready, melee, drop prone) with at most a
  half walk or trot (8 m, l.155), or a throw or standing up alone (l.159);
* fire: a d20 under skill + Strength, range +4/0/-4/-6, quick shots -4, recoil against
  Strength, target prone/obscured/moving; bursts by l.429-431 and the misses as incidental
  fire on whoever stands in the zone (l.434-447); hits strike a rolled body part, lose
  armour x PEN dice and leave blunt trauma (l.630-646); no direct fire at what the firer
  cannot see (l.346);
* wounds per body part against Hit Capacity, knockdown and stun (l.741-761), melee (l.220-252),
  grenades (l.507-535) and falls (l.664-668).

Where the supplement leaves a number to the rulebook, the log entry says ``assumed`` (see
``darkcon_combat.ASSUMED`` and docs/rulesets.md).
"""

from __future__ import annotations

import functools
import math
from typing import Any

from shapely.geometry import Point, Polygon

from engine.model import Character
from engine.movement import Step
from engine.play import turn
from engine.play.board_view import BarrierInfo, Sight
from engine.play.condition import register_condition
from engine.play.errors import PlayError
from engine.play.game import Game
from engine.play.pair_memo import per_dot_pair
from engine.play.referee_melee import melee_contact
from engine.play.shots import ShotPlan
from engine.play.state import PRONE, CharacterState, PendingGrenade
from engine.play.weapons import grenade_kind
from engine.rules import darkcon as R
from engine.rules import darkcon_combat as C
from engine.rules.base import METERS_PER_DOT, METERS_PER_STORY

register_condition(C.Wounds.kind, C.Wounds)

BASE_RATE = R.DarkCon.base_rate  # 8 m walking (l.143)
PACES = {name: BASE_RATE * f for name, f in R.DarkCon.movement.rates}  # crawl 4 ... run 32
COMBINED_M = PACES["trot"] / 2  # a walk or trot combined with an action: half as far (l.155)
#: actions that may go with half a walk or trot (l.155); the others stand alone (l.159)
COMBINED = ("fire", "reload", "ready", "melee", "prone", "breach")
ALONE = ("throw", "stand", "aim")  # aiming goes with nothing else (l.157)
#: ``_charge_path`` asks the board's floor under path metres this far past the 16 m run (a
#: square beyond it is out of reach) ...
_FLOOR_SLACK_M = 1.0
#: ... and trusts a floor to within this (``BoardView.step_floor``)
_LOW_TOL_M = 0.01
OPEN_M = float(METERS_PER_DOT)  # opening a door or window: 2 m of the move (ASSUMED open-door)


#: expected wound points of a shot by its figures (:meth:`DarkConGame._fire_expected`)
_PRICES: dict[tuple, tuple[float | None]] = {}


@functools.lru_cache(maxsize=8192)
def _band(short_m: int, metres: float) -> str:
    """``R.range_band`` of a weapon's printed short range (every shot priced asks: the
    weapon's figure parsed and the bands walked once per range and distance)."""
    return R.range_band(str(short_m), metres)


def _assumed(key: str) -> dict[str, str]:
    return {"assumed": C.ASSUMED[key]}


class DarkConGame(Game):
    """Referee of a game under ``ruleset: darkcon``."""

    ruleset_name = "darkcon"
    units = "m"
    can_hold_arcs = False
    per_character_initiative = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._models: list[Character] = []
        #: what play remembers beyond the skeleton's state (saved with the game): sheets,
        #: this turn's action scores, each character's last pace, lost actions, stun
        self.dc: dict[str, Any] = {"sheets": {}, "scores": [], "pace": {}, "lose": {},
                                   "diagonals": {},
                                   "stunned": {}, "alone": {}, "aim": {}, "opp": {},
                                   "suppress": {}, "charge": {}, "surprised": [],
                                   "ambush": None}
        self._fighters: dict[str, C.Fighter] = {}
        self._profiles: dict[tuple[str, int], C.WeaponProfile] = {}
        #: each character's armour as sorted (body part, points) pairs (a shot's figure)
        self._armor: dict[str, tuple[tuple[str, int], ...]] = {}
        #: Suppression Fire zones' polygons by their corners (:meth:`_zone_shape`)
        self._zones: dict[tuple, Polygon] = {}
        super().__init__(*args, **kwargs)

    # ================================================================== sheets
    def condition_for(self, ch_model: Character) -> C.Wounds:
        problems = C.check_character(ch_model)
        if problems:
            raise PlayError(f"{ch_model.name}: {problems[0]} (darkcon figures; sprawlmap "
                            f"validate lists them)")
        self._models.append(ch_model)
        return C.Wounds.for_fighter(C.fighter(ch_model.stats))

    def wire(self) -> None:
        super().wire()
        chars = list(self.state.characters.values())
        if self._models and len(self._models) == len(chars):
            for cs, model in zip(chars, self._models, strict=True):
                self.dc["sheets"][cs.id] = {
                    "stats": [[k, v] for k, v in model.stats],
                    "weapons": [[[k, v] for k, v in w.stats] for w in model.weapons]}
                for ws, w in zip(cs.weapons, model.weapons, strict=True):
                    mag = dict(w.stats).get("mag")
                    if w.shots is None and isinstance(mag, int):
                        ws.clip = ws.loaded = mag
            self._models = []

    def fighter(self, ch: CharacterState) -> C.Fighter:
        got = self._fighters.get(ch.id)
        if got is None:
            got = C.fighter([tuple(p) for p in self.dc["sheets"][ch.id]["stats"]])
            self._fighters[ch.id] = got
        return got

    def profile(self, ch: CharacterState, index: int | None = None) -> C.WeaponProfile | None:
        """darkcon figures of ``ch``'s weapon ``index`` (his ready one by default)."""
        i = ch.ready if index is None else index
        if i is None:
            return None
        got = self._profiles.get((ch.id, i))
        if got is None:
            got = C.weapon_profile([tuple(p) for p in self.dc["sheets"][ch.id]["weapons"][i]])
            self._profiles[(ch.id, i)] = got
        return got

    def strength(self, ch: CharacterState) -> int:
        """Strength, halved by a serious or critical wound (l.760)."""
        s = self.fighter(ch).strength
        return s // 2 if ch.condition.strength_halved else s

    # ================================================================== dice
    def _d20(self, purpose: str, **ctx: Any) -> int:
        r = self.dice.rng.randint(1, 20)
        self.log.record("roll", purpose=purpose, dice=[r], total=r, die="d20", **ctx)
        return r

    def _ability(self, purpose: str, attribute: int, difficulty: str, modifier: int = 0,
                 **ctx: Any) -> tuple[bool, int, int]:
        """An ability check, 2D6-1 under the attribute (l.112): (success, target, roll)."""
        a, b = self.dice.pair()
        roll = a + b - 1
        target = C.ability_target(attribute, difficulty, modifier)
        out = C.judge_ability(target, roll)
        ctx.setdefault("rule", "2D6-1 under the attribute (seed 003 l.112)")
        self.log.record("check", purpose=purpose, difficulty=difficulty, target=target,
                        roll=roll, dice=[a, b], success=out.success, **ctx)
        return out.success, target, roll

    def _roll(self, dice: C.Dice) -> tuple[list[int], int]:
        return dice.roll(self.dice.d6)

    # ================================================================== turn and budget
    def new_turn_order(self) -> list[str]:
        """Everyone rolls his Initiative in D6 (less his wound's penalty) and acts at the
        score and every 10 below it (l.174-176); a stunned character sits the turn out."""
        entries: list[tuple[int, int, str]] = []
        rolls: dict[str, Any] = {}
        self.dc["suppress"] = {}  # segment 0 has passed (l.449)
        chars = [c for c in self.state.characters.values() if not c.out]
        self.dice.rng.shuffle(chars)  # ties: a random order
        ambushers = self._ambushers() if self.state.turn == 1 else set()
        scores: dict[str, int] = {}
        for k, ch in enumerate(chars):
            stun = self.dc["stunned"].get(ch.id, 0)
            if stun > 0:
                self.dc["stunned"][ch.id] = stun - 1
                rolls[ch.id] = {"stunned": stun}
                continue
            rating = self.fighter(ch).initiative
            if ambushers:
                panic = None if ch.id in ambushers else self.dice.d6()
                rating = C.ambush_initiative(rating, ch.id in ambushers, panic)
                rolls[ch.id] = {"ambusher": ch.id in ambushers, "initiative": rating}
                if panic is not None:
                    rolls[ch.id]["panic"] = panic
                    self.dc["surprised"].append(ch.id)
            n = C.initiative_dice(rating, -ch.condition.modifier)
            dice = [self.dice.d6() for _ in range(n)]
            score = sum(dice)
            rolls[ch.id] = {**rolls.get(ch.id, {}), "dice": dice, "combat_initiative": score}
            scores[ch.id] = score
            entries += [(s, k, ch.id) for s in C.action_scores(score)]
        if ambushers & set(scores):
            rank = {cid: k for _s, k, cid in entries}
            sched = C.ambush_schedule(scores, ambushers & set(scores))
            entries = [(s, rank[cid], cid) for s, cid in sched]
            self.log.record("ambush", side=self.dc["ambush"], ambushers=sorted(ambushers),
                            rule="ambushers act as Initiative 6, the others make a Panic "
                                 "Check; actions before the ambusher's first are lost (seed "
                                 "003 l.184)", **_assumed("ambush-several"))
        entries.sort(key=lambda e: (-e[0], e[1]))
        self.dc["scores"] = [[s, cid] for s, _k, cid in entries]
        self.log.record("initiative", turn=self.state.turn, rolls=rolls,
                        order=[f"{cid}@{s}" for s, _k, cid in entries],
                        rule="Initiative D6, act at the score and every 10 less (seed 003 "
                             "l.174)")
        return [cid for _s, _k, cid in entries]

    def _ambushers(self) -> set[str]:
        """Characters of the side in ambush that no enemy sees at the start (l.184)."""
        side = self.dc.get("ambush")
        if not side:
            return set()
        out = set()
        for ch in self.state.characters.values():
            if ch.side != side or ch.out or ch.pos is None:
                continue
            seen = any(not e.out and e.pos is not None and not self.board.sight(
                e.pos, ch.pos, e.posture, ch.posture, e.vision).blocked
                for e in self.state.enemies_of(ch))
            if seen:
                self.log.record("ambush-spoiled", who=ch.id, why="an enemy sees him at the "
                                "start (seed 003 l.184)")
            else:
                out.add(ch.id)
        return out

    def read_conditions(self, conditions: dict[str, Any]) -> None:
        """A side named by ``conditions: {ambush: SIDE}`` starts in ambush (its first turn is
        the ambush turn, l.184)."""
        self.dc["ambush"] = conditions.get("ambush")

    def segment(self) -> int | None:
        """The action segment of the activation now open (for the log)."""
        i = self.state.phase
        sc = self.dc["scores"]
        return sc[i][0] if 0 <= i < len(sc) else None

    def refresh(self, ch: CharacterState) -> None:
        super().refresh(ch)
        self.dc["diagonals"].pop(ch.id, None)
        self.dc["alone"].pop(ch.id, None)
        self.dc["opp"].pop(ch.id, None)
        self.dc["suppress"].pop(ch.id, None)
        if ch.id in self.dc["surprised"]:
            self.dc["surprised"].remove(ch.id)
        lose = self.dc["lose"].get(ch.id, 0)
        if lose > 0 and not ch.out:
            self.dc["lose"][ch.id] = lose - 1
            ch.moved = True
            self.log.record("action-lost", who=ch.id, segment=self.segment(), left=lose - 1)

    def _pace(self, ch: CharacterState) -> str | None:
        moved = ch.mp_spent
        if moved <= 1e-9:
            return None
        if ch.posture == PRONE:
            return "crawl"
        return next((p for p in ("walk", "trot") if moved <= PACES[p] + 1e-9), "run")

    def step_charged(self, m: CharacterState, st: Any) -> Any:
        """Every other diagonal square of a move counts double (l.128): the first diagonal of
        his action 2 m, the second 4 m, and so on, the count that reach and paths search
        with (the board prices one diagonal alone at their mean, 3 m)."""
        if not self._diagonal(m.pos, st.to):
            return st
        k = self.dc["diagonals"].get(m.id, 0)
        metres = self._diagonal_m(k)
        why = f"{metres:g} m ({'second' if k % 2 else 'first'} diagonal: every other counts " \
              f"double, seed 003 l.128)"
        return Step(st.to, metres, [why] + list(st.why[1:]))

    def _diagonal(self, frm: tuple[int, ...], to: tuple[int, ...]) -> bool:
        """A diagonal step on one level of a square lattice (the steps l.128 counts)."""
        return self.board.lattice.name == "square" and frm[2] == to[2] and \
            abs(frm[0] - to[0]) == 1 and abs(frm[1] - to[1]) == 1

    @staticmethod
    def _diagonal_m(k: int) -> float:
        """Metres of a diagonal step after ``k`` diagonals of the same move (the book's
        count, :func:`engine.rules.darkcon.squares`)."""
        return float((R.squares(0, k + 1) - R.squares(0, k)) * METERS_PER_DOT)

    def walk_cost(self, m: CharacterState, path: list, steps: list[float]) -> float:
        """The path's metres as :meth:`step_charged` takes them: diagonals 2 m and 4 m in
        turn, counted on from the ones he has taken this action (l.128)."""
        k = self.dc["diagonals"].get(m.id, 0)
        total = 0.0
        for a, b, cost in zip(path, path[1:], steps):
            if self._diagonal(a, b):
                total += self._diagonal_m(k)
                k += 1
            else:
                total += cost
        return total

    def _finish_mover(self) -> None:
        m = self.mover
        self.dc["pace"][m.id] = self._pace(m)
        super()._finish_mover()

    def _crawls(self, ch: CharacterState) -> bool:
        return ch.posture == PRONE or ch.condition.legs_lost > 0

    def allowance(self, ch: CharacterState) -> float:
        """Metres of one Combat Action: a run (crawl when prone or on a lost leg, l.142-145,
        ASSUMED limbs); half a walk or trot once an action is taken with it (l.155); nothing
        after a throw or standing up (l.159)."""
        if ch.condition.out:
            return 0.0
        if self.dc["charge"].get("who") == ch.id:
            return C.CHARGE_M
        base = PACES["crawl"] if self._crawls(ch) else PACES["run"]
        if ch.slots_spent:
            if self.dc["alone"].get(ch.id):
                return 0.0
            return min(base, COMBINED_M)
        return base

    def action_slots(self, ch: CharacterState) -> int:
        return 1

    def slots_left(self, ch: CharacterState) -> int:
        """No action after moving more than half a trot, nor after crawling (l.155, l.461)."""
        if ch.mp_spent > COMBINED_M + 1e-9 or (ch.posture == PRONE and ch.mp_spent > 0):
            return 0
        return super().slots_left(ch)

    def cost(self, kind: str, ch: CharacterState, distance: int | None = None,
             weapon: Any = None) -> tuple[float, int]:
        """One action slot for fire, reload, ready, melee, prone, breach (with half a walk or
        trot); a throw and standing up take the whole action: after any movement they cost
        two slots, more than there is (l.159).  Doors: 2 m of the move (assumed)."""
        if kind in COMBINED:
            return 0.0, 1
        if kind in ALONE:
            if kind == "throw" and distance is not None:
                w = weapon if weapon is not None else ch.ready_weapon
                if w is not None and self._throw_difficulty(ch, distance * METERS_PER_DOT) is None:
                    return 0.0, 2
            return 0.0, (1 if ch.mp_spent <= 1e-9 else 2)
        if kind in ("open-door", "open-window"):
            return OPEN_M, 0
        if kind == "exit":
            return self.min_step(ch), 0
        if kind.startswith("arc-"):
            return 0.0, 2
        raise PlayError(f"no cost for {kind!r}")

    def plan_actions(self, ch: CharacterState, kinds: tuple[str, ...],
                     distance: int | None = None, weapon: Any = None
                     ) -> list[tuple[str, ...]] | None:
        """One Combat Action an activation, and a throw takes a whole one (l.159): drawing a
        grenade (one action) and throwing it go into two of his actions.  What does not fit
        this one waits for his next, begun without a move; a throw beyond twice his range
        never fits (l.507)."""
        return self.spread_plan(ch, kinds, distance, weapon)

    def slots_when_fresh(self, kind: str, ch: CharacterState, slots: int,
                         distance: int | None = None, weapon: Any = None) -> int | None:
        """In his next action, before any move, a throw or standing up takes the one action
        (l.155-159); a throw beyond twice his range never (l.507)."""
        if kind == "throw" and distance is not None and \
                self._throw_difficulty(ch, distance * METERS_PER_DOT) is None:
            return None
        return 1 if kind in ALONE else slots

    def grenade_reach(self, ch: CharacterState, weapon: Any) -> int:
        """Dots of the grenade's primary fragment radius (l.529): a bot keeps his friends
        beyond it and throws no nearer (M67: 8 m, 4 dots)."""
        i = ch.weapons.index(weapon) if weapon in ch.weapons else None
        p = self.profile(ch, i) if i is not None else None
        if p is None or not p.is_grenade or p.burst_radius <= 0:
            return super().grenade_reach(ch, weapon)
        return math.ceil(p.burst_radius / METERS_PER_DOT)

    def _need(self, m: CharacterState, cost: tuple[float, int], what: str) -> None:
        if cost[1] and m.slots_spent:
            raise PlayError(f"{m.id} has taken his combat action ({what} is another; seed 003 "
                            f"l.132)")
        if cost[1] and m.mp_spent > 0 and (cost[1] > 1 or m.mp_spent > COMBINED_M + 1e-9
                                           or m.posture == PRONE):
            raise PlayError(f"{m.id} has moved {m.mp_spent:g} m: {what} goes only with half a "
                            f"walk or trot ({COMBINED_M:g} m), never with a run or a crawl, "
                            f"and a throw or standing up with no move (seed 003 l.155-159)")
        super()._need(m, cost, what)

    @classmethod
    def turn_budget(cls, ch_model: Character) -> float:
        """A run for each action an average Initiative roll gives (the rules layer's, which
        validation asks too)."""
        return C.turn_metres(ch_model.stats, ch_model.metatype)

    # ================================================================== range
    @per_dot_pair  # (worked out once a game per pair)
    def metres(self, a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
        """2 m squares, every other diagonal doubled (l.128), 4 m a level."""
        lat = self.board.lattice
        dc, dr = abs(a[0] - b[0]), abs(a[1] - b[1])
        d = lat.distance(a[:2], b[:2])
        flat = R.squares(max(dc, dr) - min(dc, dr), min(dc, dr)) if d == max(dc, dr) else d
        up = abs(a[2] - b[2]) * METERS_PER_STORY // METERS_PER_DOT
        return float(R.squares(max(flat, up) - min(flat, up), min(flat, up)) * METERS_PER_DOT)

    # ================================================================== fire
    def _fire_inputs(self, a: CharacterState, apos: tuple[int, int, int], t: CharacterState,
                     tpos: tuple[int, int, int], s: Sight, posture: str,
                     moving: float | None = None, aim: int = 0, single: bool = False,
                     charging: bool = False) -> tuple | None:
        """Everything :meth:`_fire_numbers` works its figures out from (:meth:`_fire_of`
        reads nothing else), or None when he has no shot (no skill, out of range, no use of
        both arms): his weapon and figures, the range band, his pace, the line's and the
        target's modifiers, the rounds loaded, his aims, the body parts the line hides, and
        last the metres (only their band counts but for the "range_m" figure).  Plain
        values, the same in every game (his figures as the skill and attribute they give,
        the target's armour as sorted pairs), so a price kept by them serves every game."""
        p = self.profile(a)
        if p is None or not p.is_firearm or a.condition.arms_lost >= 2:
            return None
        f = self.fighter(a)
        skill = f.skill(p.skill)
        if skill <= 0:
            return None  # "Characters with no skill in a weapon type may not fire it" (l.348)
        metres = self.metres(apos, tpos)
        band = _band(p.range, metres)
        if band not in R.RANGE_MODIFIER:
            return None
        spent = a.mp_spent if moving is None else moving
        pace = None if spent <= 1e-9 else ("walk" if spent <= PACES["walk"] / 2 + 1e-9
                                           else "trot")
        sm = s.modifiers
        armor = self._armor.get(t.id)
        if armor is None:
            armor = self._armor[t.id] = tuple(sorted(self.fighter(t).armor.items()))
        strength = self.strength(a)
        return (p, f.attribute(p.skill, strength), armor, skill, band, pace, strength,
                sm.get("prone"), sm.get("visibility"), sm.get("target_modifier"),
                posture == PRONE, self.dc["pace"].get(t.id), charging,
                a.ready_weapon.loaded, single, aim, tuple(s.details.get("covered", ())),
                metres)

    @staticmethod
    def _fire_of(inputs: tuple) -> dict[str, Any] | None:
        """:meth:`_fire_numbers` from its :meth:`_fire_inputs` alone."""
        (p, attribute, armor, skill, band, pace, strength, s_prone, s_visibility, s_target,
         prone, tmove, charging, w_loaded, single, aim, covered, metres) = inputs
        mods: dict[str, int] = {"range": R.RANGE_MODIFIER[band]}
        for k, v in (("prone", s_prone), ("visibility", s_visibility),
                     ("target_modifier", s_target)):
            if v:
                mods[k] = v
        if prone and "prone" not in mods:
            mods["prone"] = R.PRONE
        if tmove in C.TARGET_MOVING:
            mods["target_moving"] = C.TARGET_MOVING[tmove]
        if charging:
            mods["charging"] = C.CHARGER_TARGET
        base = C.skill_target(skill, attribute)
        rec_str = C.effective_strength(strength, pace)
        burst = p.burst
        loaded = w_loaded if w_loaded is not None else p.max_shots * max(burst, 1)
        if burst:
            burst = min(burst, loaded)
            most = min(p.max_shots, max(loaded // burst, 1)) if burst else 0
            recoil = p.burst_recoil
        else:
            most = min(p.max_shots, loaded)
            recoil = p.recoil
        if most <= 0:
            return None
        shots = 1 if single else C.steady_shots(recoil, rec_str, most)
        rec = C.recoil_modifiers(recoil, shots, rec_str)
        aims = C.shot_aims(aim, shots, moving=pace is not None)
        if aims[0] == C.QUICK_SHOT:
            mods["quick_shot"] = C.QUICK_SHOT
        else:
            mods["aimed"] = aims[0]
        targets = [base + sum(mods.values()) + r + x - aims[0] for r, x in zip(rec, aims,
                                                                                strict=True)]
        pen = C.pen_at(p.pen, band)
        per_round = C.expected_wound(p.damage, pen, dict(armor), covered)
        if burst:
            hits = sum(C.expected_burst_hits(x, burst, band) for x in targets)
        else:
            hits = sum(C.p_skill(x, True, band) for x in targets)
        p_none = math.prod(1 - C.p_skill(x, True, band) for x in targets)
        return {"skill": skill, "attribute": attribute, "base": base,
                "modifiers": mods, "recoil": rec, "aims": aims, "targets": targets,
                "shots": shots, "aim_actions": aim,
                "burst": burst, "band": band, "range_m": metres, "pace": pace,
                "damage": str(p.damage), "pen": pen, "covered": list(covered),
                "p_hit": round(1 - p_none, 4), "expected": round(hits * per_round, 3),
                "difficulty": "Average"}

    def _fire_numbers(self, a: CharacterState, apos: tuple[int, int, int], t: CharacterState,
                      tpos: tuple[int, int, int], s: Sight, posture: str,
                      moving: float | None = None, aim: int = 0, single: bool = False,
                      charging: bool = False) -> dict[str, Any] | None:
        """Everything about ``a``'s fire with his ready weapon at ``t``, or None (no skill,
        out of range, no use of both arms, moved too far).  ``aim``: aiming actions spent on
        ``t`` (l.381); ``single``: one shot or burst (an attack of opportunity); ``charging``:
        ``t`` is charging (+2, l.260)."""
        inputs = self._fire_inputs(a, apos, t, tpos, s, posture, moving, aim, single, charging)
        return None if inputs is None else self._fire_of(inputs)

    def _fire_expected(self, a: CharacterState, apos: tuple[int, int, int],
                       t: CharacterState, tpos: tuple[int, int, int], s: Sight, posture: str,
                       moving: float | None = None, aim: int = 0) -> float | None:
        """``_fire_numbers(...)["expected"]`` (None: no shot), kept by its inputs but the
        metres: the bots price thousands of shots a game, most of them the same figures
        from another dot or in another game."""
        inputs = self._fire_inputs(a, apos, t, tpos, s, posture, moving, aim)
        return None if inputs is None else self._kept_expected(inputs)

    @classmethod
    def _kept_expected(cls, inputs: tuple) -> float | None:
        """``_fire_of(inputs)["expected"]`` kept by the inputs but the metres."""
        key = inputs[:-1]
        got = _PRICES.get(key)
        if got is None:
            n = cls._fire_of(inputs)
            if len(_PRICES) > 65536:
                _PRICES.clear()
            got = _PRICES[key] = (None if n is None else n["expected"],)
        return got[0]

    def plan_shot(self, a: CharacterState, t: CharacterState, movement_fire: bool,
                  ) -> ShotPlan | None:
        line = self.line_of_fire(a, t)
        if line is None:
            return None  # no direct fire at what the firer cannot see (l.346)
        s = line[0]
        n = self._fire_numbers(a, a.pos, t, t.pos, s, t.posture, aim=self.aim_actions(a, t))
        if n is None:
            return None
        return ShotPlan(n["p_hit"], n["expected"], n)

    def shot_value(self, shooter: CharacterState, spos: tuple[int, int, int],
                   target: CharacterState, tpos: tuple[int, int, int], movement_fire: bool,
                   target_posture: str | None = None) -> float:
        s = self.shot_sight(shooter, spos, target, tpos, target_posture)
        if s is None:
            return 0.0
        posture = target_posture or target.posture
        # from another dot he has moved there: half a trot at most if he still fires
        moving = 0.0 if spos == shooter.pos else COMBINED_M
        aim = self.aim_actions(shooter, target) if spos == shooter.pos else 0
        got = self._fire_expected(shooter, spos, target, tpos, s, posture, moving=moving,
                                  aim=aim)
        return 0.0 if got is None else got

    def resolve_shot(self, a: CharacterState, t: CharacterState, plan: ShotPlan,
                     reaction: bool) -> None:
        """Each shot or burst rolled under its target (l.400, l.429-431); hits strike a body
        part; a burst's misses fly on through the Incidental Fire Zone (l.434-447)."""
        w = a.ready_weapon
        n = plan.numbers
        p = self.profile(a)
        w.fired_this_turn += 1
        if self.dc["aim"].pop(a.id, None) is not None and not n.get("aim_actions"):
            self.log.record("aim-lost", who=a.id, why="fired at another target (a quick shot, "
                            "seed 003 l.383)")
        band = n["band"]
        missed = 0
        for i, target in enumerate(n["targets"]):
            if w.loaded is not None and w.loaded <= 0:
                break
            rounds = n["burst"] or 1
            if w.loaded is not None:
                rounds = min(rounds, w.loaded)
                w.loaded -= rounds
            roll = self.dice.rng.randint(1, 20)
            out = C.judge_skill(target, roll, True, band)
            hits = C.burst_hits(target, roll, rounds, band) if n["burst"] else int(out.success)
            missed += rounds - hits
            # a "test" event, as DMZ's shots are, so records and reports count it
            self.log.record(
                "test", purpose=n.get("purpose") or ("reaction fire" if reaction
                                                     else "movement fire"),
                attacker=a.id, target=t.id, weapon=w.name, segment=self.segment(),
                shot=i + 1, of=len(n["targets"]), rounds=rounds, target_number=target,
                roll=roll, result=out.why, success=out.success, critical=out.critical, hits=hits,
                skill=n["skill"], attribute=n["attribute"], modifiers=n["modifiers"],
                recoil=n["recoil"][i], aim=n["aims"][i], range_m=n["range_m"], band=band,
                rule="d20 under skill + Strength; 17-20 miss, 2 hits, 1 critical (seed 003 "
                     "l.116, l.400)")
            for _ in range(hits):
                if t.condition.out:
                    break
                self._round_hits(a, t, p, band, tuple(n["covered"]))
            if t.condition.out:
                break
        if n["burst"] and missed:
            self._incidental(a, t, p, band, C.incidental_rounds(missed))
            self._suppress(a, t, band, missed - C.incidental_rounds(missed))

    def _round_hits(self, a: CharacterState, t: CharacterState, p: C.WeaponProfile, band: str,
                    covered: tuple[str, ...], source: str | None = None) -> None:
        """One round strikes ``t``: hit location, cover, armour x PEN, blunt trauma."""
        loc = C.hit_location(self._d20("hit location", target=t.id, **_assumed("hit-location")))
        if loc in covered:
            self.log.record("stopped", target=t.id, location=loc,
                            why="the body part is behind cover (seed 003 l.644)",
                            **_assumed("cover"))
            return
        armor = self.fighter(t).armor_at(loc)
        pen = C.pen_at(p.pen, band)
        left, absorbed = C.penetrate(p.damage.n, armor, pen)
        rolled: list[int] = []
        pts = 0
        if left > 0:
            rolled, pts = self._roll(C.Dice(left, p.damage.plus, p.damage.floor))
        blunt = C.blunt_trauma(absorbed)
        self.damage(t, pts + blunt, "wound", source=source or a.id, location=loc,
                    dam=str(p.damage), armor=armor, pen="Nil" if pen is None else pen,
                    dice_rolled=rolled, blunt_trauma=blunt)

    def _incidental(self, a: CharacterState, t: CharacterState, p: C.WeaponProfile, band: str,
                    rounds: int) -> None:
        """Bystanders in the Incidental Fire Zone check Difficult Agility; the Incidental
        Rounds go to the worst failures, a D6 each, 5-6 a hit (l.434-447)."""
        if rounds <= 0:
            return
        zone = R.incidental_fire_zone(self.point(a.pos), self.point(t.pos), band)
        if not zone:
            return
        poly = Polygon(zone).buffer(1e-6)  # (once, not per bystander)
        fails: list[tuple[str, int]] = []
        for c in self.state.characters.values():
            if c is a or c is t or c.out or c.pos is None or c.pos[2] != t.pos[2]:
                continue
            if not poly.contains(Point(self.point(c.pos))):
                continue
            f = self.fighter(c)
            mod = int(self.metres(c.pos, t.pos) // 2) + C.INCIDENTAL_RANGE[band] + \
                (1 if c.posture == PRONE else 0)
            ok, target, roll = self._ability("incidental fire", f.agility, "Difficult", mod,
                                             who=c.id, shooter=a.id,
                                             rule="Incidental Fire Zone (seed 003 l.434-443)")
            if not ok:
                fails.append((c.id, max(roll - target, 1)))
        self.log.record("incidental", shooter=a.id, target=t.id, rounds=rounds, band=band,
                        failed=dict(fails), **_assumed("incidental-rounds"))
        if not fails:
            return
        hits = C.allocate_incidental(rounds, fails, self.dice.d6)
        for cid, h in hits.items():
            c = self.char(cid)
            for _ in range(h):
                if c.condition.out:
                    break
                self._round_hits(a, c, p, band, (), source=a.id)


    # ================================================================== aim, opportunity fire
    def aim_actions(self, a: CharacterState, t: CharacterState) -> int:
        """Aiming actions ``a`` has spent on ``t`` (0: a quick shot, l.381-383).  An aim at
        a square counts for whoever stands on it."""
        aim = self.dc["aim"].get(a.id)
        if not aim:
            return 0
        if aim.get("target") == t.id or (aim.get("target") is None and t.pos is not None
                                          and list(t.pos) == aim.get("at")):
            return int(aim["actions"])
        return 0

    def _drop_aim(self, who: str, why: str) -> None:
        if self.dc["aim"].pop(who, None) is not None:
            self.log.record("aim-lost", who=who, why=why, **_assumed("aim-kept"))

    def _do_aim(self, target: str | None = None, at: list[int] | None = None) -> None:
        """Aim the ready firearm at an enemy (``target``) or a square (``at``): a combat
        action alone (l.157); each further action on the same mark adds +1, to +4 (l.381).
        While aiming he threatens the square and the line to it (opportunity fire, l.200)."""
        m = self.mover
        p = self.profile(m)
        if p is None or not p.is_firearm or self.fighter(m).skill(p.skill) <= 0:
            raise PlayError(f"{m.id} has no firearm ready that he can aim")
        if (target is None) == (at is None):
            raise PlayError("aim at a target or at a square, not both")
        if target is not None:
            t = self.char(target)
            if t.side == m.side or t.out:
                raise PlayError(f"{target} is not a target")
            if self.line_of_fire(m, t) is None:
                raise PlayError(f"{m.id} cannot see {target} to aim at him (seed 003 l.381)")
            dot = list(t.pos)
        else:
            dot = [int(x) for x in at]  # type: ignore[union-attr]
            if len(dot) == 2:
                dot.append(m.pos[2])
            if tuple(dot) == m.pos or self.board.sight(m.pos, tuple(dot), m.posture, "standing",
                                                       m.vision).blocked:
                raise PlayError(f"{m.id} cannot see {dot[0]},{dot[1]} to aim at it")
        cost = self.cost("aim", m)
        self._need(m, cost, "aiming")
        was = self.dc["aim"].get(m.id)
        same = bool(was) and was.get("target") == target and (
            target is not None or was.get("at") == dot)
        n = int(was["actions"]) + 1 if same else 1
        self._charge(m, cost, "aim")
        self.dc["aim"][m.id] = {"target": target, "at": dot, "actions": n}
        self.log.record("aim", who=m.id, target=target, at=dot, actions=n,
                        modifier=C.aim_modifier(n),
                        rule="aimed shot: one aiming action 0, +1 each further one to +4; "
                             "a quick shot -4 (seed 003 l.381-383)")

    def _charge(self, m: CharacterState, cost: tuple[float, int], what: str) -> None:
        if what in ALONE:
            self.dc["alone"][m.id] = True
        if what not in ("aim", "movement fire"):
            self._drop_aim(m.id, f"{what} (only aiming keeps an aim)")
        super()._charge(m, cost, what)

    def flat_footed(self, ch: CharacterState) -> bool:
        """Not acted yet this turn (l.178): no block, avoidance or opportunity fire."""
        return not any(cid == ch.id for _s, cid in self.dc["scores"][:self.state.phase])

    def threatened(self, r: CharacterState) -> set[tuple[int, int, int]]:
        """The squares an aiming character threatens: the one he aims at and every square on
        the straight line to it (l.200)."""
        aim = self.dc["aim"].get(r.id)
        if not aim or r.pos is None:
            return set()
        dot = aim["at"]
        if aim.get("target") is not None:
            t = self.state.characters.get(aim["target"])
            if t is None or t.pos is None:
                return set()
            dot = list(t.pos)
        return self._line_dots(r.pos, (dot[0], dot[1], dot[2]))

    def _line_dots(self, a: tuple[int, int, int], b: tuple[int, int, int]
                   ) -> set[tuple[int, int, int]]:
        lat = self.board.lattice
        p0, p1 = self.point(a), self.point(b)
        n = max(2, int(math.hypot(p1[0] - p0[0], p1[1] - p0[1]) * 4))
        out = set()
        for k in range(1, n + 1):
            f = k / n
            d = lat.dot_at((p0[0] + (p1[0] - p0[0]) * f, p0[1] + (p1[1] - p0[1]) * f))
            out.add((d[0], d[1], b[2]))
        out.discard(a)
        return out

    def _do_move(self, to: list[int] | tuple[int, ...]) -> None:
        m = self.mover
        frm = m.pos
        aims = self.dc["aim"]
        before = {r.id: self.threatened(r) for r in self.state.enemies_of(m)
                  if r.id in aims and not r.out} if aims else {}
        super()._do_move(to)
        if m.pos != frm:
            if self._diagonal(frm, m.pos):
                self.dc["diagonals"][m.id] = self.dc["diagonals"].get(m.id, 0) + 1
            if not m.out:
                self._after_step(m, frm, before)

    def _after_step(self, m: CharacterState, frm: tuple[int, int, int],
                    before: dict[str, set[tuple[int, int, int]]]) -> None:
        """A step done: aims on him that lose sight drop; enemies aiming along the squares he
        left or entered fire (attacks of opportunity, l.194, l.200); Suppression Fire zones he
        enters (l.449)."""
        for rid, aim in list(self.dc["aim"].items()):
            if aim.get("target") == m.id:
                r = self.char(rid)
                if r.pos is None or self.board.sight(r.pos, m.pos, r.posture, m.posture,
                                                     r.vision).blocked:
                    self._drop_aim(rid, f"lost sight of {m.id}")
        aims = self.dc["aim"]
        # (no one aiming: no opportunity fire; the suppression loop asks m.out itself)
        for r in sorted(self.state.enemies_of(m), key=lambda c: c.id) if aims else ():
            if m.out or m.movement_ended:
                return
            if r.id not in aims or r.out or self.dc["opp"].get(r.id):
                continue
            zone = before.get(r.id, set()) | self.threatened(r)
            if frm not in zone and m.pos not in zone:
                continue
            self._opportunity_fire(r, m, "entered" if m.pos in zone else "left")
        for sid, z in list(self.dc["suppress"].items()):
            if m.out or m.movement_ended:
                return
            if m.id in z["checked"] or m.pos[2] != z["level"] or z["rounds"] <= 0:
                continue
            if self._zone_shape(z["zone"]).contains(Point(self.point(m.pos))):
                z["checked"].append(m.id)
                self._suppressed(sid, z, m)

    def _zone_shape(self, zone: list[list[float]]) -> Polygon:
        """A Suppression Fire zone's polygon, grown by 1e-6 (every step of every mover asks
        whether he entered it): kept by its corners."""
        key = tuple(tuple(p) for p in zone)
        got = self._zones.get(key)
        if got is None:
            if len(self._zones) > 256:
                self._zones.clear()
            got = self._zones[key] = Polygon(zone).buffer(1e-6)
        return got

    def _opportunity_fire(self, r: CharacterState, m: CharacterState, how: str) -> None:
        """One quick shot or burst (aimed only at what he aims at) at an enemy moving through
        the line he aims along; then his aim is gone (l.200)."""
        w = r.ready_weapon
        if self.flat_footed(r) or r.id in self.dc["surprised"]:
            return
        if w is None or w.is_grenade or not w.can_fire():
            return
        line = self.line_of_fire(r, m)
        if line is None:
            return
        charging = self.dc["charge"].get("who") == m.id
        n = self._fire_numbers(r, r.pos, m, m.pos, line[0], m.posture,
                               aim=self.aim_actions(r, m), single=True, charging=charging)
        if n is None:
            return
        pace = self._pace(m)
        if pace in C.TARGET_MOVING and "target_moving" not in n["modifiers"]:
            n["modifiers"]["target_moving"] = C.TARGET_MOVING[pace]
            n["targets"] = [x + C.TARGET_MOVING[pace] for x in n["targets"]]
        n["purpose"] = "opportunity fire"
        self.dc["opp"][r.id] = True
        self.log.record("opportunity", attacker=r.id, target=m.id, square=how,
                        aimed=n["aims"][0] != C.QUICK_SHOT, at=list(m.pos),
                        rule="attack of opportunity by an aiming firer (seed 003 l.194, "
                             "l.200)", **_assumed("opportunity-fire"))
        self.resolve_shot(r, m, ShotPlan(n["p_hit"], n["expected"], n), reaction=True)
        self.dc["aim"].pop(r.id, None)

    # ================================================================== suppression fire
    def _suppress(self, a: CharacterState, t: CharacterState, band: str, rounds: int) -> None:
        """The other half of a burst's misses stays in the Incidental Fire Zone until the
        shooter's next action or segment 0 (l.449)."""
        if rounds <= 0 or a.pos is None or t.pos is None:
            return
        zone = R.incidental_fire_zone(self.point(a.pos), self.point(t.pos), band)
        if not zone:
            return
        self.dc["suppress"][a.id] = {
            "zone": [list(p) for p in zone], "rounds": rounds, "band": band,
            "target_at": list(t.pos), "level": t.pos[2], "checked": [a.id, t.id]}
        self.log.record("suppression", shooter=a.id, rounds=rounds, band=band,
                        rule="Suppression Fire: the other half of the missed rounds (seed 003 "
                             "l.449)", **_assumed("suppression-expiry"))

    def _suppressed(self, sid: str, z: dict[str, Any], m: CharacterState) -> None:
        f = self.fighter(m)
        tat = tuple(z["target_at"])
        mod = int(self.metres(m.pos, tat) // 2) + C.INCIDENTAL_RANGE[z["band"]] + \
            (1 if m.posture == PRONE else 0)
        ok, target, roll = self._ability("suppression fire", f.agility, "Difficult", mod,
                                         who=m.id, shooter=sid,
                                         rule="Suppression Fire: a Difficult Agility check as "
                                              "in the Incidental Fire Zone (seed 003 l.449)")
        if ok:
            return
        hits = C.allocate_incidental(z["rounds"], [(m.id, max(roll - target, 1))],
                                     self.dice.d6).get(m.id, 0)
        z["rounds"] -= hits
        self.log.record("suppressed", who=m.id, shooter=sid, hits=hits, rounds_left=z["rounds"])
        shooter = self.char(sid)
        p = self.profile(shooter)
        for _ in range(hits):
            if m.condition.out or p is None:
                break
            self._round_hits(shooter, m, p, z["band"], (), source=sid)

    # ================================================================== charge
    def _charge_path(self, m: CharacterState, t: CharacterState
                     ) -> tuple[list[tuple[int, int, int]], float] | None:
        """The run of a charge at ``t``: a path to a free square next to him within 16 m
        and no more than 2 m longer than the straight line (assumed ``charge-straight``)."""
        if m.pos is None or t.pos is None or m.pos[2] != t.pos[2]:
            return None
        if self.metres(m.pos, t.pos) < C.CHARGE_GAP_M + METERS_PER_DOT:
            return None  # two empty squares between them first (l.256)
        squares = []
        for d in self.board.neighbours(t.pos):
            # (the metres first: most targets a bot prices are out of a charge's reach, and
            # the wall and door questions of melee_contact cost more)
            if d[2] != t.pos[2]:
                continue
            straight = self.metres(m.pos, d)
            if straight > C.CHARGE_M or not melee_contact(self.board, d, t.pos):
                continue
            occ = self.state.occupant(d)
            if occ is not None and occ is not m:
                continue
            squares.append((d, min(C.CHARGE_M, straight + METERS_PER_DOT)))
        if not squares:
            return None
        # The shortest run wins, the first square listed on a tie.  Speed only: the squares
        # are searched (A*) cheapest floor first, and one whose every path is longer than its
        # limit, or than the run found so far, is not searched at all
        # (``BoardView.step_floor``: a floor under every path's metres, to a centimetre).
        ask = getattr(self.board, "step_floor", None)
        floor = None if ask is None else ask(m.pos, m.move_ratio, C.CHARGE_M + _FLOOR_SLACK_M)
        order = list(range(len(squares)))
        if floor is not None:
            low = [floor.get(tuple(d)) for d, _lim in squares]
            order = [k for k in order if low[k] is not None
                     and low[k] - _LOW_TOL_M <= squares[k][1]]
            order.sort(key=lambda k: (low[k], k))
        best: tuple[float, int, list[tuple[int, int, int]]] | None = None
        for k in order:
            d, limit = squares[k]
            if floor is not None and best is not None:
                lo = low[k] - _LOW_TOL_M
                if lo > best[0] or (lo >= best[0] and k > best[1]):
                    continue  # it could at best tie with an earlier square
            path = self.board.path(m.pos, d, m.move_ratio)
            if not path or any((o := self.state.occupant(x)) is not None and o.side != m.side
                               for x in path[1:]):
                continue
            metres = self._path_m(path)
            if metres > limit:
                continue
            if best is None or (metres, k) < (best[0], best[1]):
                best = (metres, k, path)
        return None if best is None else (best[2], best[0])

    def _path_m(self, path: list[tuple[int, int, int]]) -> float:
        """Metres a run along ``path`` spends, step by step as the moves are charged."""
        total = 0.0
        for a, b in zip(path, path[1:]):
            st = self.board.step(a, b, 1)
            if st is None:
                return math.inf
            total += st.cost
        return total

    def _do_charge(self, target: str) -> None:
        """Run at half speed (16 m) straight at an enemy at least 4 m off and strike him
        (l.256-264)."""
        m = self.mover
        self._upright(m, "a charge")
        t = self.char(target)
        if t.side == m.side or t.out:
            raise PlayError(f"{target} is not a target")
        if m.mp_spent > 1e-9 or m.slots_spent:
            raise PlayError(f"{m.id} must charge with his whole action (seed 003 l.256)")
        route = self._charge_path(m, t)
        if route is None:
            raise PlayError(f"{m.id} has no straight run of at most {C.CHARGE_M:g} m at "
                            f"{target}, with two empty squares between them first (seed 003 "
                            f"l.256)")
        path, metres = route
        cost = self.cost("melee", m)
        self._need(m, cost, "a charge")
        self._charge(m, cost, "charge")
        self.dc["charge"] = {"who": m.id}
        self.log.record("charge", who=m.id, target=t.id, metres=metres,
                        path=[list(d) for d in path], rule="seed 003 l.256-264",
                        **_assumed("charge-straight"))
        try:
            for d in path[1:]:
                self._do_move(d)
                if m.out or m.movement_ended or m.posture == PRONE or t.out:
                    self.log.record("charge-stopped", who=m.id, at=list(m.pos))
                    return
        finally:
            self.dc["charge"] = {}
        self.state.melee_passed.append(t.id)
        self.resolve_charge(m, t, metres)

    def _avoids(self, t: CharacterState, m: CharacterState, what: str) -> bool:
        """A defender not flat-footed, with an action to give and a free square, may avoid a
        charge: Difficult Agility; a critical success (a 1) costs no action (l.262)."""
        if t.out or t.posture == PRONE or self.flat_footed(t) or t.id in self.dc["surprised"]:
            return False
        if t.id not in self.state.order[self.state.phase + 1:]:
            return False
        free = [d for d in self.board.neighbours(t.pos) if d[2] == t.pos[2]
                and self.state.occupant(d) is None and d != m.pos
                and self.board.step(t.pos, d, t.move_ratio) is not None]
        if not free:
            return False
        ok, target, roll = self._ability(f"avoid {what}", self.fighter(t).agility, "Difficult",
                                         who=t.id, attacker=m.id,
                                         rule="avoiding a charge: Difficult Agility (seed 003 "
                                              "l.262)")
        if roll != 1:
            self.dc["lose"][t.id] = self.dc["lose"].get(t.id, 0) + 1
        if ok:
            to = max(free, key=lambda d: (self.metres(m.pos, d), d))
            self.log.record("avoid", who=t.id, frm=list(t.pos), to=list(to),
                            action_lost=roll != 1)
            t.pos = to
        return ok

    def _charge_numbers(self, m: CharacterState, t: CharacterState, metres: float
                        ) -> dict[str, Any]:
        n = self._melee_numbers(m, t)
        bonus = int(metres // C.CHARGE_STEP_M)
        armor = self.fighter(t).armor
        armed = n["kind"] == "armed"
        mean = sum(w * max(min(n["dice"].mean + bonus, 2 * n["dice"].mean)
                           - C.melee_armor(armor.get(loc, 0), armed), 0)
                   for loc, w in C.LOCATION_WEIGHT.items())
        return {**n, "metres": metres, "bonus": bonus, "expected": n["p_hit"] * mean}

    def resolve_charge(self, m: CharacterState, t: CharacterState, metres: float) -> bool:
        """Average vs Melee Combat; never blocked, but avoided; damage + 1 each 4 m run to
        twice the roll (three times critical); half what armour stops comes back (l.256-264)."""
        n = self._charge_numbers(m, t, metres)
        roll = self.dice.rng.randint(1, 20)
        out = C.judge_skill(n["target_number"], roll)
        self.log.record("test", purpose="charge", attacker=m.id, target=t.id,
                        weapon=n["weapon"], melee=n["kind"], target_number=n["target_number"],
                        roll=roll, success=out.success, critical=out.critical,
                        modifiers=n["modifiers"], metres=metres,
                        rule="a charge: Average task vs Melee Combat (seed 003 l.256)")
        if not out.success or self._avoids(t, m, "charge"):
            return False
        loc = C.hit_location(self._d20("hit location", target=t.id, **_assumed("hit-location")))
        rolled, pts = self._roll(n["dice"])
        dmg = C.charge_damage(pts, metres, out.critical)
        armed = n["kind"] == "armed"
        through, stopped = C.melee_damage(dmg, self.fighter(t).armor_at(loc), armed)
        self.damage(t, through, "wound", source=m.id, location=loc, melee=n["kind"],
                    charge_m=metres, dam=str(n["dice"]), dice_rolled=rolled, rolled=pts,
                    charge_damage=dmg, armor_absorbed=stopped,
                    rule="+1 each 4 m, at most twice the roll (seed 003 l.264)")
        back = C.charge_backlash(stopped)
        for share in back:
            if share > 0 and not m.condition.out:
                bl = C.hit_location(self._d20("hit location", target=m.id,
                                              **_assumed("hit-location")))
                self.damage(m, share, "wound", source=t.id, location=bl, backlash=True,
                            **_assumed("charge-backlash"))
        return True

    def charge_value(self, m: CharacterState, t: CharacterState) -> float:
        """Expected wound points of a charge at ``t`` now (0: no charge possible)."""
        route = self._charge_path(m, t)
        if route is None or t.out:
            return 0.0
        return self._charge_numbers(m, t, route[1])["expected"]

    def _door_to_open(self, ch: CharacterState, foes: list[CharacterState]
                      ) -> tuple[float, dict[str, Any], dict[str, Any]] | None:
        """A closed door next to him with an unseen enemy within 4 m behind it: open it (2 m
        of the move) so the fight is not two sides waiting at a shut door.  Worth a good shot
        (1 expected wound point: the exchange it opens)."""
        near = [f for f in foes if f.pos[2] == ch.pos[2]
                and self.board.lattice.distance(f.pos[:2], ch.pos[:2]) <= 2]
        if not near or not self.affords(ch, "open-door"):
            return None
        for op in self.board.openings_near(ch.pos):
            if op.kind != "door" or op.state != "closed":
                continue
            if all(self.board.sight(ch.pos, f.pos, ch.posture, f.posture, ch.vision).blocked
                   for f in near):
                return (1.0, {"act": "open", "feature": op.feature, "state": "open"},
                        {"door": op.feature, "enemy_behind": near[0].id})
        return None

    # ================================================================== the play panel
    def play_buttons(self) -> list[tuple[str, str, str, str]]:
        return [
            ("aim", "Aim…", "Then click an enemy or a dot: one action alone; the next shot at "
             "it is aimed (0, +1 a further aim, to +4; quick shots -4) and he fires at enemies "
             "moving along the line (seed 003 l.200, l.381)", "enemy-or-dot"),
            ("charge", "Charge…", "Then click an enemy 6-16 m off in a straight run: the whole "
             "action, +1 damage a 4 m run (seed 003 l.256-264)", "enemy"),
        ]

    def hold_words(self, ch: CharacterState) -> str:
        aim = self.dc["aim"].get(ch.id)
        if not aim:
            return "not aiming (quick shots -4)"
        mark = aim["target"] or "{},{}".format(*aim["at"][:2])
        mod = C.aim_modifier(int(aim["actions"]))
        return f"aiming at {mark} ({aim['actions']} action(s), {mod:+d})"

    # ================================================================== the bots' options
    bot_acts = ("charge", "open", "aim")

    def bot_options(self, ch: CharacterState, holding: bool = False, only: str | None = None
                    ) -> list[tuple[float, dict[str, Any], dict[str, Any]]]:
        """What the bots may do under darkcon besides shooting and walking, each with the
        expected wound points it is worth now: a charge at an enemy in reach; aiming at the
        enemy worth most (worth half the aimed shot, which comes an action later; when
        ``holding``, at the end of an activation with the action unspent, the whole).
        ``only``: the options of that act alone (the others are not priced)."""
        out: list[tuple[float, dict[str, Any], dict[str, Any]]] = []
        if ch.out or ch.pos is None:
            return out
        foes = [f for f in self.state.enemies_of(ch) if not f.out and f.pos is not None]
        if only in (None, "charge") and not holding and self.affords(ch, "melee") and \
                ch.posture != PRONE:
            for f in foes:
                v = self.charge_value(ch, f)
                if v > 0:
                    out.append((v, {"act": "charge", "target": f.id},
                                {"target": f.id, "expected_wound": round(v, 2)}))
        door = self._door_to_open(ch, foes) if only in (None, "open") else None
        if door is not None:
            out.append(door)
        p = self.profile(ch)
        if only in (None, "aim") and p is not None and p.is_firearm and self.affords(ch, "aim") and \
                ch.ready_weapon is not None and ch.ready_weapon.can_fire():
            for f in foes:
                line = self.line_of_fire(ch, f)  # (once: characters in the way are counted)
                if line is None:
                    continue
                s = line[0]
                e = self._fire_expected(ch, ch.pos, f, f.pos, s, f.posture, moving=0.0,
                                        aim=self.aim_actions(ch, f) + 1)
                if e is None:
                    continue
                v = e * (1.0 if holding else 0.5)
                out.append((v, {"act": "aim", "target": f.id},
                            {"target": f.id, "aimed_shot": round(e, 2)}))
        self.sort_options(out)
        return out

    # ================================================================== damage
    def damage(self, victim: CharacterState, amount: int, kind: str, source: str,
               **detail: Any) -> None:
        """Points on a body part (rolled when not given), the wound level it reaches, and
        knockdown (more than Constitution: Difficult Agility or prone, with a Panic Check)
        and stun (a head wound above Constitution) (l.745-761)."""
        cond: C.Wounds = victim.condition
        if cond.dead:
            return
        if victim.id in self.dc["surprised"]:
            self.dc["surprised"].remove(victim.id)  # flat-footed now, no longer surprised
        loc = detail.pop("location", None)
        if loc is None:
            loc = C.hit_location(self._d20("hit location", target=victim.id,
                                           **_assumed("hit-location")))
        res = cond.wound(loc, int(amount))
        self.log.record("damage", target=victim.id, source=source, damage=kind,
                        worst=cond.worst, initiative_penalty=-cond.modifier,
                        **res, **detail)
        knocked = False
        f = self.fighter(victim)
        if not cond.out and amount > f.constitution:
            ok, _t, _r = self._ability("knockdown", f.agility, "Difficult", who=victim.id)
            if not ok and victim.posture != PRONE:
                knocked = True
                panic = self.dice.d6()
                lost = max(panic - f.initiative, 0)
                self.log.record("panic", who=victim.id, roll=panic, initiative=f.initiative,
                                actions_lost=lost, rule="Panic Check when knocked down (seed "
                                "003 l.216)")
                if lost:
                    self.dc["lose"][victim.id] = self.dc["lose"].get(victim.id, 0) + lost
            if loc == "head" and not cond.out:
                ok, target, roll = self._ability("stun", f.constitution, "Difficult",
                                                 who=victim.id)
                rounds = 0 if ok else C.stun_rounds(target, roll)
                if rounds:
                    self.dc["stunned"][victim.id] = rounds
                    self.log.record("stunned", who=victim.id, rounds=rounds,
                                    rule="seed 003 l.749")
        if cond.out and not cond.dead and cond.level(loc) == "critical":
            self.log.record("bleeding", who=victim.id, location=loc,
                            **_assumed("critical-unconscious"))
        self.consequences(victim, knocked)

    # ================================================================== melee
    def _melee_numbers(self, a: CharacterState, d: CharacterState) -> dict[str, Any]:
        p = self.profile(a)
        armed = p is not None and p.skill == "armed" and a.condition.arms_lost < 2
        f = self.fighter(a)
        kind = "armed" if armed else "unarmed"
        strength = self.strength(a)
        dice = p.damage if armed else C.unarmed_rating(strength, f.skill("unarmed"))
        target = C.skill_target(f.skill(kind), strength)
        vis = self.board.sight(a.pos, d.pos, a.posture, d.posture, a.vision).visibility \
            if a.pos is not None and d.pos is not None else 0
        mods = {}
        if vis:
            mods["visibility"] = max(vis // 2, -3)  # the melee table is half the fire one
            target += mods["visibility"]
        p_hit = C.p_skill(target)
        armor = self.fighter(d).armor
        mean = sum(w * max(dice.mean - C.melee_armor(armor.get(loc, 0), armed), 0)
                   for loc, w in C.LOCATION_WEIGHT.items())
        return {"kind": kind, "target_number": target, "dice": dice, "modifiers": mods,
                "p_hit": p_hit, "expected": p_hit * mean, "skill": f.skill(kind),
                "weapon": (a.ready_weapon.name if armed else "unarmed")}

    def _blocks(self, d: CharacterState, kind: str) -> bool:
        """The defender may block if he has acted this turn and has an action left to give
        (l.230, l.248); with an armed blow only with a melee weapon ready."""
        if d.out or d.posture == PRONE:
            return False
        if kind == "armed":
            p = self.profile(d)
            if p is None or p.skill != "armed":
                return False
        later = self.state.order[self.state.phase + 1:]
        acted = any(cid == d.id for _s, cid in self.dc["scores"][:self.state.phase + 1])
        return acted and d.id in later

    def resolve_melee(self, m: CharacterState, t: CharacterState,
                      purpose: str = "melee") -> bool:
        n = self._melee_numbers(m, t)
        if t.id in self.dc["surprised"]:
            # a surprised defender: no roll, no block, the attacker picks the part (l.184)
            armor = self.fighter(t).armor
            loc = min(("head", "chest"), key=lambda x: (armor.get(x, 0), x != "head"))
            self.log.record("test", purpose=purpose, attacker=m.id, target=t.id,
                            weapon=n["weapon"], melee=n["kind"], surprised=True, success=True,
                            location=loc, rule="melee at a surprised character hits the "
                            "location of the attacker's choice (seed 003 l.184)")
            rolled, pts = self._roll(n["dice"])
            through, stopped = C.melee_damage(pts, armor.get(loc, 0), n["kind"] == "armed")
            self.damage(t, through, "wound", source=m.id, location=loc, melee=n["kind"],
                        dam=str(n["dice"]), dice_rolled=rolled, armor_absorbed=stopped)
            return True
        roll = self.dice.rng.randint(1, 20)
        out = C.judge_skill(n["target_number"], roll)
        self.log.record("test", purpose=purpose, attacker=m.id, target=t.id,
                        weapon=n["weapon"], melee=n["kind"], target_number=n["target_number"],
                        roll=roll, success=out.success, critical=out.critical,
                        modifiers=n["modifiers"],
                        rule="Average task vs Melee Combat (seed 003 l.226, l.240)")
        if not out.success:
            return False
        if self._blocks(t, n["kind"]):
            fd = self.fighter(t)
            bt = C.skill_target(fd.skill(n["kind"]), self.strength(t), "Difficult")
            broll = self.dice.rng.randint(1, 20)
            b = C.judge_skill(bt, broll)
            if not b.critical:
                self.dc["lose"][t.id] = self.dc["lose"].get(t.id, 0) + 1
            self.log.record("block", who=t.id, target_number=bt, roll=broll,
                            blocked=b.success, action_lost=not b.critical,
                            rule="Difficult task vs Melee Combat (seed 003 l.230, l.248)")
            if b.success:
                return True
        loc = C.hit_location(self._d20("hit location", target=t.id, **_assumed("hit-location")))
        rolled, pts = self._roll(n["dice"])
        armor = self.fighter(t).armor_at(loc)
        through, stopped = C.melee_damage(pts, armor, n["kind"] == "armed", out.critical)
        self.damage(t, through, "wound", source=m.id, location=loc, melee=n["kind"],
                    dam=str(n["dice"]), dice_rolled=rolled, armor_absorbed=stopped,
                    **({} if n["kind"] == "unarmed" else _assumed("melee-damage")))
        return True

    def melee_value(self, a: CharacterState, d: CharacterState) -> float:
        return self._melee_numbers(a, d)["expected"]

    def resolve_move_by(self, e: CharacterState, m: CharacterState) -> None:
        """An attack of opportunity: only a character with a melee weapon threatens the
        squares next to him (l.196-198)."""
        p = self.profile(e)
        if p is None or p.skill != "armed" or e.condition.out:
            return
        self.log.record("opportunity", attacker=e.id, target=m.id,
                        rule="attack of opportunity on leaving a threatened square (seed 003 "
                             "l.196-198)")
        self.resolve_melee(e, m, "move-by attack")

    def counterattacks(self, attacker: CharacterState, defender: CharacterState) -> bool:
        return False

    # ================================================================== barriers
    def breach_problem(self, m: CharacterState, b: BarrierInfo, w: Any) -> str | None:
        return ("darkcon has no barrier ratings: the Armor Values of Cover Chart (seed 003 "
                "l.644) is not in the sources")

    # ================================================================== grenades, falls
    def _throw_difficulty(self, ch: CharacterState, metres: float) -> str | None:
        return C.throw_difficulty(metres, self.strength(ch))

    def _do_throw(self, at: list[int] | tuple[int, ...]) -> None:
        m = self.mover
        to = tuple(int(x) for x in at)
        to3 = to if len(to) == 3 else (to[0], to[1], m.pos[2])
        metres = self.metres(m.pos, to3)
        if self._throw_difficulty(m, metres) is None:
            raise PlayError(f"{metres:g} m is beyond twice {m.id}'s throw range of "
                            f"{C.throw_range(self.strength(m)):g} m (seed 003 l.84, l.507)")
        super()._do_throw(list(to3))

    def resolve_throw(self, m: CharacterState, w: Any, at: tuple[int, int, int], dots: int,
                      s: Sight) -> tuple[tuple[int, int, int], bool]:
        """Average Thrown Weapons within 4 x Strength metres, Difficult to twice that; a miss
        deviates by what the roll exceeded the target by, 1 m (2 m at long range) a point,
        never more than half the distance (l.507-513)."""
        f = self.fighter(m)
        metres = self.metres(m.pos, at)
        diff = self._throw_difficulty(m, metres) or "Difficult"
        target = C.skill_target(f.skill("thrown"), f.attribute("thrown"), diff)
        roll = self.dice.rng.randint(1, 20)
        out = C.judge_skill(target, roll)
        self.log.record("test", purpose="grenade accuracy", thrower=m.id, aimed=list(at),
                        range_m=metres, difficulty=diff, target_number=target, roll=roll,
                        success=out.success,
                        rule="Thrown Weapons, seed 003 l.507-513",
                        **_assumed("controlling-attribute"))
        if out.success:
            return at, True
        dev = C.grenade_deviation(target, roll, diff, metres)
        d10 = self.dice.rng.randint(1, 10)
        bearing = math.radians(C.deviation_bearing(d10))
        p0, p1 = self.point(m.pos), self.point(at)
        dx, dy = p1[0] - p0[0], p1[1] - p0[1]
        norm = math.hypot(dx, dy) or 1.0
        ux, uy = dx / norm, dy / norm
        rx = ux * math.cos(bearing) - uy * math.sin(bearing)
        ry = ux * math.sin(bearing) + uy * math.cos(bearing)
        step = dev / METERS_PER_DOT
        land2 = self.board.lattice.dot_at((p1[0] + rx * step, p1[1] + ry * step))
        land = (land2[0], land2[1], at[2])
        if not self.board.standable(land):
            land = at
        self.log.record("scatter", thrower=m.id, aimed=list(at), landed=list(land),
                        direction_roll=d10, metres=dev, **_assumed("scatter-direction"))
        return land, False

    def resolve_grenade(self, g: PendingGrenade) -> None:
        """Concussion by 8 m squares, split over the body, and fragments in the primary and
        secondary burst radius (l.521-535); solid cover shields from both (l.527)."""
        gk = grenade_kind(g.type)
        if gk is not None and gk.kind == "smoke":
            turn.lay_smoke(self, g)
            return
        thrower = self.char(g.thrower)
        idx = next((i for i, w in enumerate(thrower.weapons) if w.type == g.type), None)
        p = self.profile(thrower, idx) if idx is not None else None
        if p is None or not p.is_grenade:
            self.log.record("dud", thrower=g.thrower, at=list(g.at))
            return
        self.log.record("blast", thrower=g.thrower, grenade=g.type, at=list(g.at),
                        concussion=p.concussion, burst_m=p.burst_radius)
        for ch in list(self.state.characters.values()):
            if ch.out or ch.pos is None or ch.pos[2] != g.at[2]:
                continue
            metres = self.metres(g.at, ch.pos)
            covered: tuple[str, ...] = ()
            if metres > 0:
                s = self.board.sight(g.at, ch.pos, "standing", ch.posture, "thermographic")
                if s.blocked:
                    self.log.record("blast-shielded", target=ch.id,
                                    why=s.details.get("blocked_by"))
                    continue
                covered = tuple(s.details.get("covered", ()))
            conc = C.concussion_at(p.concussion, metres, contact=metres == 0)
            if conc > 0:
                rolled, total = self._roll(C.Dice(conc))
                split = C.concussion_split(total, ch.posture == PRONE, covered)
                self.log.record("test", purpose="grenade blast", thrower=g.thrower,
                                target=ch.id, concussion=True, success=total > 0)
                self.log.record("concussion", target=ch.id, metres=metres, dice=conc,
                                rolled=rolled, total=total, split=split,
                                **_assumed("concussion-squares"))
                for loc, pts in split.items():
                    if pts > 0 and not ch.condition.out:
                        self.damage(ch, pts, "concussion", source=g.thrower, location=loc)
            zone = C.burst_zone(metres, p.burst_radius)
            if zone is None or ch.condition.out:
                continue
            d10 = self.dice.rng.randint(1, 10)
            many = self.dice.d6()
            n = C.fragments(d10, zone == "primary", many)
            self.log.record("test", purpose="grenade blast", thrower=g.thrower, target=ch.id,
                            zone=zone, roll=d10, fragments=n, success=n > 0,
                            rule="fragments, seed 003 l.529-535")
            dmg, pen = C.FRAGMENT[zone == "primary"]
            frag = C.WeaponProfile(skill="thrown", damage=dmg, pen=pen)
            for _ in range(n):
                if ch.condition.out:
                    break
                self._round_hits(thrower, ch, frag, "short", covered, source=g.thrower)

    def fall(self, ch: CharacterState, stories: int) -> None:
        """2D6 a metre less Agility D6, over three rolled locations: ½, ¼, ¼ (l.666-668)."""
        f = self.fighter(ch)
        fall = R.DarkCon().fall(stories, f.agility)
        n = int(fall["damage"][:-2])
        rolled, total = self._roll(C.Dice(n))
        locs = tuple(C.hit_location(self._d20("fall location", target=ch.id)) for _ in range(3))
        split = C.fall_split(total, locs)  # type: ignore[arg-type]
        self.log.record("fall-damage", who=ch.id, metres=fall["metres"], dice=n,
                        rolled=rolled, total=total, split=split, rule=fall["rule"])
        for loc, pts in split.items():
            if pts > 0 and not ch.condition.out:
                self.damage(ch, pts, "fall", source="fall", location=loc)

    # ================================================================== save / load
    def to_data(self) -> dict[str, Any]:
        return {**super().to_data(), "darkcon": self.dc}

    @classmethod
    def from_data(cls, data: dict[str, Any], board: Any) -> Game:
        game = super().from_data(data, board)
        saved = data.get("darkcon") or {}
        game.dc.update({k: v for k, v in saved.items()})  # type: ignore[attr-defined]
        return game


__all__ = ["DarkConGame"]
