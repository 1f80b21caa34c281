"""The Shadowrun (third-edition era) referee: :class:`Game`'s hooks with seed 001's rules.

The arithmetic is :mod:`engine.rules.sr3_combat`'s; this module wires it to the board:

* every Combat Turn each character rolls Reaction (less his wounds) + Initiative dice and acts
  in his Combat Phases, the total and every 10 below it (l.37-79): the turn order lists him
  once per pass;
* an action is two Simple Actions (fire, ready, throw, stand, open a door) or one Complex
  Action (melee, full-auto fire, reload as two Simple ones) and a walk of Quickness metres, or
  a run of x3 (dwarf, troll x2) once a turn (l.103-230);
* fire: range band by metres, the sight verdict's cover and visibility, walking +1 / running
  +4, target running +2 / stationary -1, recoil, wounds; skill + Combat Pool dice against the
  TN, the target's Body + leftover Combat Pool against Power - armour, staging (l.384-600);
* no reaction arcs: Interception (a free melee blow at a character who slips past within a
  metre, l.232-239) stands in for DMZ's move-by attacks;
* melee as an opposed test, grenades with scatter and blast Power by metre, barriers with
  their ratings (l.851-994).

Every roll goes through ``self.dice`` and the log records the target number, pools, dice,
successes, damage code, staged level and resisted successes.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from engine.model import Character
from engine.play import turn
from engine.play.board_view import BarrierInfo, BoardView, Sight
from engine.play.condition import PHYSICAL, STUN, register_condition
from engine.play.errors import PlayError
from engine.play.game import Game
from engine.play.pair_memo import per_dot_pair
from engine.play.referee_melee import melee_contact
from engine.play.shots import ShotPlan
from engine.play.state import PRONE, STANDING, CharacterState, PendingGrenade
from engine.rules import sr3_combat as C
from engine.rules.base import METERS_PER_DOT, METERS_PER_STORY
from engine.rules.sr3 import BASE_TN, GRENADE_DAMAGE, blast_against_barrier, range_band

register_condition(C.SR3Condition.kind, C.SR3Condition)

#: rounds a burst-fire trigger pull and a full-auto burst fire (l.655, ASSUMED["fa-burst"])
BURST = 3
FA_ROUNDS = 6
#: a fall (no rule in seed 001): Power per story, Moderate, Impact armour (assumed)
FALL_POWER_PER_STORY = 4
#: a delayed character fires at an enemy acting in his line with at least this chance to hit
INTERVENE_P = 0.5


#: a shot's expected boxes and the fire mode ``plan_shot`` picks, by the figures they are
#: worked out from (:meth:`SR3Game._price_key`)
_PRICES: dict[tuple, float] = {}
_PICKS: dict[tuple, tuple] = {}


def _no_shots() -> dict[str, Any]:
    return {"shots": 0, "rounds": 0, "targets": []}


def _assumed(key: str) -> dict[str, str]:
    return {"assumed": C.ASSUMED[key]}


@lru_cache(maxsize=65536)
def _ranged_tn(band: str, cover: int, pace: str, tpace: str, melee: int, others: int,
               aid: str | None, metres: float, smoke: bool, recoil: int, wounds: int,
               blind: bool, called: bool, aimed: int) -> tuple[int, dict[str, int]]:
    """:func:`engine.rules.sr3_combat.ranged_tn` of a shot's situation, worked out once
    per situation: ``plan_shot`` asks up to 20 fire modes of each target, most of them the
    same situation but for the recoil.  Callers copy the modifiers before handing them on."""
    sit = C.Situation(attacker_pace=pace, target_running=tpace == "run",
                      target_stationary=tpace == "still", melee_opponents=melee,
                      other_targets=others, aid=aid, range_m=metres, smoke=smoke,
                      recoil=recoil, wounds=wounds, blind_fire=blind, called=called,
                      aimed=aimed)
    return C.ranged_tn(band, cover, sit)


class SR3Game(Game):
    """Referee of a game under ``ruleset: sr3``."""

    ruleset_name = "sr3"
    units = "m"
    can_hold_arcs = False
    can_delay = True
    can_aim = True
    per_character_initiative = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._models: list[Character] = []
        #: character id -> his sheet: raw ``stats`` of the character and of each weapon
        self.sheets: dict[str, dict[str, Any]] = {}
        #: what the current Combat Turn remembers (saved with the game)
        self.sr3: dict[str, Any] = {"passes": [], "ran": {}, "acted": {}, "pace": {},
                                    "pool": {}, "fired": {}, "throws": {}, "barriers": {},
                                    "known": {}, "aim": {}, "delayed": {}, "totals": {}}
        self._stats: dict[str, C.SR3Stats] = {}
        self._weapons: dict[tuple[str, int], C.SR3Weapon] = {}
        super().__init__(*args, **kwargs)

    # ================================================================== sheets
    def condition_for(self, ch_model: Character) -> C.SR3Condition:
        try:
            st = C.character_stats(ch_model.stats, ch_model.metatype)
        except ValueError as e:
            raise PlayError(f"{ch_model.name}: {e} (sr3 figures; sprawlmap validate lists "
                            f"them)") from None
        self._models.append(ch_model)
        return C.SR3Condition(body=st.body)

    def wire(self) -> None:
        super().wire()
        chars = list(self.state.characters.values())
        if self._models and len(self._models) == len(chars):
            for cs, model in zip(chars, self._models, strict=True):
                self.sheets[cs.id] = {
                    "stats": [[k, v] for k, v in model.stats], "metatype": model.metatype,
                    "weapons": [[[k, v] for k, v in w.stats] for w in model.weapons]}
                for ws, w in zip(cs.weapons, model.weapons, strict=True):
                    ammo = dict(w.stats).get("ammo")
                    if w.shots is None and isinstance(ammo, int):
                        ws.clip = ws.loaded = ammo
            self._models = []

    def stats(self, ch: CharacterState) -> C.SR3Stats:
        got = self._stats.get(ch.id)
        if got is None:
            sh = self.sheets[ch.id]
            got = C.character_stats([tuple(p) for p in sh["stats"]], sh["metatype"])
            self._stats[ch.id] = got
        return got

    def weapon(self, ch: CharacterState, index: int | None = None) -> C.SR3Weapon | None:
        """sr3 figures of ``ch``'s weapon ``index`` (his ready one by default)."""
        i = ch.ready if index is None else index
        if i is None:
            return None
        got = self._weapons.get((ch.id, i))
        if got is None:
            raw = self.sheets[ch.id]["weapons"][i]
            got = C.weapon_stats(ch.weapons[i].type, [tuple(p) for p in raw],
                                 self.stats(ch).strength)
            self._weapons[(ch.id, i)] = got
        return got

    def unarmed(self, ch: CharacterState) -> C.SR3Weapon:
        return C.weapon_stats("unarmed", [], self.stats(ch).strength)

    def melee_weapon(self, ch: CharacterState) -> C.SR3Weapon:
        w = self.weapon(ch)
        return w if w is not None and w.kind == "melee" else self.unarmed(ch)

    def pool_left(self, ch: CharacterState) -> int:
        return self.sr3["pool"].get(ch.id, self.stats(ch).combat_pool)

    # ================================================================== turn and budget
    def new_turn_order(self) -> list[str]:
        """Everyone rolls Initiative; one entry per Combat Phase he acts in (l.37-79)."""
        rolls: dict[str, tuple[int, int, int]] = {}
        shown = {}
        chars = [c for c in self.state.characters.values() if not c.out]
        self.dice.rng.shuffle(chars)  # a full tie is simultaneous: a random order (l.75)
        for ch in chars:
            st = self.stats(ch)
            dice = [self.dice.d6() for _ in range(st.initiative_dice)]
            wounds = ch.condition.modifier
            total = C.initiative_total(st.reaction, dice, wounds)
            rolls[ch.id] = (total or 0, st.reaction - wounds, st.natural_reaction)
            shown[ch.id] = {"reaction": st.reaction, "wounds": -wounds, "dice": dice,
                            "total": total, "phases": C.phases(total)}
        passes = C.pass_order(rolls)
        self.sr3["passes"] = [[p, w] for p, w in passes]
        self.sr3["ran"] = {}
        self.sr3["totals"] = {w: shown[w]["total"] or 0 for w in shown}
        turn_now = self.state.turn
        for side, known in self.sr3["known"].items():
            self.sr3["known"][side] = {c: k for c, k in known.items() if k[1] >= turn_now - 1}
        self.log.record("initiative", turn=self.state.turn, order=[w for _p, w in passes],
                        rolls={w: shown[w]["total"] for w in shown},
                        phases=[f"{w}@{p}" for p, w in passes], detail=shown,
                        rule="Reaction + Initiative dice, Combat Phases every 10 (seed 001 "
                             "l.37-79)")
        return [w for _p, w in passes]

    def combat_phase(self) -> int | None:
        """The Combat Phase of the activation now open (for the log)."""
        i = self.state.phase
        passes = self.sr3["passes"]
        return passes[i][0] if 0 <= i < len(passes) else None

    def refresh(self, ch: CharacterState) -> None:
        st = self.state
        if ch.id in self.sr3["acted"]:
            # what his previous action was: a run counts for the turn it was in (l.207)
            pace = self._pace_of(ch)
            self.sr3["pace"][ch.id] = pace
            if pace == "run" and self.sr3["acted"][ch.id] == st.turn:
                self.sr3["ran"][ch.id] = st.turn
        self.sr3["acted"][ch.id] = st.turn
        super().refresh(ch)
        self.sr3["pool"][ch.id] = self.stats(ch).combat_pool  # pools refresh (l.252)
        self.sr3["fired"][ch.id] = _no_shots()

    def _pace_of(self, ch: CharacterState) -> str:
        moved = ch.mp_spent
        if moved <= 1e-9:
            return "still"
        return "run" if moved > self.stats(ch).walk_m + 1e-9 else "walk"

    def allowance(self, ch: CharacterState) -> float:
        """Metres of this action: a run (Quickness x3, dwarf and troll x2) unless he ran in an
        earlier action this turn, then a walk of Quickness metres (l.203-230)."""
        if ch.id not in self.sheets:
            return 0.0
        st = self.stats(ch)
        if self.sr3["ran"].get(ch.id) == self.state.turn:
            return st.walk_m
        return st.run_m

    def action_slots(self, ch: CharacterState) -> int:
        """Two Simple Actions, or one Complex Action that takes both (l.105, l.155)."""
        return 2

    def cost(self, kind: str, ch: CharacterState, distance: int | None = None,
             weapon: Any = None) -> tuple[float, int]:
        """(metres, actions): firing, readying, throwing, standing up, opening a door are
        Simple Actions; melee a Complex Action; a reload is Remove Clip and Insert Clip, two
        Simple Actions; dropping prone is Free (l.109-190)."""
        simple = {"fire": 1, "breach": 1, "ready": 1, "throw": 1, "stand": 1, "open-door": 1,
                  "open-window": 1, "reload": 2, "melee": 2, "prone": 0, "aim": 1, "delay": 0}
        if kind in simple:
            return 0.0, simple[kind]
        return super().cost(kind, ch, distance, weapon)

    @classmethod
    def turn_budget(cls, ch_model: Character) -> float:
        """Metres in a Combat Turn, unhurt (the rules layer's, which validation asks too)."""
        return C.turn_metres(ch_model.stats, ch_model.metatype)

    # ================================================================== actions of sr3
    def act(self, action: dict[str, Any]) -> None:
        """Any action but another Take Aim or the shot itself spends a held aim (l.174); a
        character ending his activation is seen by, and sees, the enemies in his line."""
        who = self.state.active
        kind = action.get("act")
        super().act(action)
        if who is not None and kind not in ("aim", "fire", "end", "begin") and \
                who in self.sr3["aim"]:
            self.sr3["aim"].pop(who)
            self.log.record("aim-lost", who=who, why=f"{kind}: any other action (l.174)")
        if who is not None and self.state.active != who:
            self._spot(self.char(who))

    def hold_words(self, ch: CharacterState) -> str:
        """What ``ch`` holds for the enemy under sr3: a delayed action and an aim (no arcs)."""
        parts = []
        if ch.id in self.sr3["delayed"]:
            parts.append("delaying: fires when an enemy acts in his line of fire (l.81-100)")
        aim = self.sr3["aim"].get(ch.id)
        if aim:
            parts.append(f"aiming at {aim['target']} ({aim['n']} aim(s), -{aim['n']} TN)")
        return "; ".join(parts) or "no delayed action, not aiming"

    def _do_aim(self, target: str) -> None:
        """Take Aim (Simple Action): -1 TN for the next shot at ``target`` per aim, at most
        half the weapon skill in a row, kept over Combat Phases and Turns (l.173-176)."""
        m = self.mover
        t = self.char(target)
        w = self.weapon(m)
        if t.side == m.side or t.out:
            raise PlayError(f"{target} is not a target")
        if w is None or w.kind not in ("firearm", "projectile"):
            raise PlayError(f"{m.id} has no ranged weapon ready to aim")
        if self.line_of_fire(m, t) is None and self.blind_line(m, t) is None:
            raise PlayError(f"{m.id} has no line of fire to {target}")
        aim = self.sr3["aim"].get(m.id)
        if aim is None or aim["target"] != t.id or aim["weapon"] != m.ready:
            aim = {"target": t.id, "weapon": m.ready, "n": 0, "since": self._activation()}
        top = C.aim_limit(self.stats(m).skill(w.skill_keys))
        if aim["n"] >= top:
            raise PlayError(f"{m.id} has aimed {aim['n']} times: half his skill is the most "
                            f"(l.174)")
        cost = self.cost("aim", m)
        self._need(m, cost, "taking aim")
        self._charge(m, cost, "aim")
        aim["n"] += 1
        self.sr3["aim"][m.id] = aim
        self.log.record("aim", who=m.id, target=t.id, aimed=aim["n"], most=top,
                        rule="Take Aim, -1 TN each (seed 001 l.173-176, l.549)")

    def _do_delay(self) -> None:
        """Delay Action (Free): he does nothing now and takes his action later, when an enemy
        acts in his line of fire, this Combat Turn or the next (l.81-100)."""
        m = self.mover
        if m.mp_spent > 1e-9 or m.slots_spent:
            raise PlayError(f"{m.id} has acted already: a delay is declared before the action "
                            f"(l.82)")
        w = self.weapon(m)
        if w is None or w.kind not in ("firearm", "projectile") or m.ready_weapon.spent:
            raise PlayError(f"{m.id} has no loaded ranged weapon to wait with")
        self.sr3["delayed"][m.id] = {"turn": self.state.turn, "phase": self.combat_phase()}
        self.log.record("delay", who=m.id, phase=self.combat_phase(),
                        rule="Delaying Actions, seed 001 l.81-100")
        m.movement_ended = True

    def _do_begin(self, who: str) -> None:
        super()._do_begin(who)
        if self.sr3["delayed"].pop(who, None) is not None:
            # his own phase came first: the action he waited with is this one (l.94)
            self.log.record("delay-ends", who=who, why="his own Combat Phase")

    def _spend_pool(self, ch: CharacterState, n: int) -> None:
        self.sr3["pool"][ch.id] = max(0, self.pool_left(ch) - n)
        if n > 0 and ch.id in self.sr3["delayed"] and self.sr3.get("intervening") != ch.id:
            self.sr3["delayed"].pop(ch.id)
            self.log.record("delay-broken", who=ch.id, why="Combat Pool dice drawn (l.96)")

    def _react(self, m: CharacterState, spent: float) -> bool:
        """No arcs in Shadowrun: an enemy holding a delayed action takes it now, firing at the
        mover who acts in his clear line of fire (l.84-88), highest Initiative first."""
        if not self.sr3["delayed"]:
            return not (m.out or m.movement_ended)
        waiting = [self.char(c) for c in self.sr3["delayed"]]
        waiting = [r for r in waiting if r.side != m.side and not r.out]
        waiting.sort(key=lambda r: (-self.sr3["totals"].get(r.id, 0), r.id))
        for r in waiting:
            if m.out or r.id not in self.sr3["delayed"]:
                continue
            plan = self.plan_shot(r, m, movement_fire=False)
            if plan is None or "blind_fire" in plan.numbers or plan.p_hit < INTERVENE_P:
                continue
            self._intervene(r, m)
        return not (m.out or m.movement_ended)

    def _intervene(self, r: CharacterState, m: CharacterState) -> None:
        """``r`` takes his delayed action in the mover's Combat Phase: the shots of one action
        (two Simple Actions, or a full-auto Complex Action) at ``m``; then his next phase is
        ten lower, or his own if lower (l.88, l.94)."""
        phase = self.combat_phase() or 0
        self.sr3["delayed"].pop(r.id)
        self.sr3["intervening"] = r.id
        self.sr3["fired"][r.id] = _no_shots()
        self.log.record("intervene", who=r.id, against=m.id, phase=phase,
                        rule="a delayed action taken (seed 001 l.84-88)",
                        **_assumed("intervene"))
        slots = 2
        try:
            while slots > 0 and not m.out and not r.out:
                ws = r.ready_weapon
                if ws is None or ws.spent:
                    break
                plan = self.plan_shot(r, m, movement_fire=False)
                if plan is None or (plan.numbers["mode"] == "FA" and slots < 2):
                    break
                slots -= 2 if plan.numbers["mode"] == "FA" else 1
                self.resolve_shot(r, m, plan, reaction=True)
        finally:
            self.sr3["intervening"] = None
        self._reschedule(r, phase)

    def _reschedule(self, r: CharacterState, trigger: int) -> None:
        st = self.state
        passes = self.sr3["passes"]
        here = st.phase
        later = [i for i in range(here + 1, len(passes)) if passes[i][1] == r.id]
        own = passes[later[0]][0] if later else None
        keep = [p for i, p in enumerate(passes) if i not in later]
        for ph in C.phases_after_delay(trigger, own):
            at = next((i for i in range(here + 1, len(keep)) if keep[i][0] < ph), len(keep))
            keep.insert(at, [ph, r.id])
        self.sr3["passes"] = keep
        st.order = [w for _p, w in keep]
        self.log.record("initiative-after-delay", who=r.id, trigger=trigger,
                        phases=C.phases_after_delay(trigger, own), rule="l.88, l.94, l.100")

    # ================================================================== geometry
    @per_dot_pair  # (worked out once a game per pair)
    def metres(self, a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
        """Straight-line metres, height included (as ``engine.rules.sr3`` measures range)."""
        pa, pb = self.point(a), self.point(b)
        flat = math.hypot(pa[0] - pb[0], pa[1] - pb[1]) * METERS_PER_DOT
        return round(math.hypot(flat, (a[2] - b[2]) * METERS_PER_STORY), 2)

    def _pace_now(self, ch: CharacterState) -> str:
        if ch.id == self.state.active:
            return self._pace_of(ch)
        return self.sr3["pace"].get(ch.id, "still")

    def _melee_foes(self, ch: CharacterState, pos: tuple[int, int, int]) -> int:
        # (where he stands first: ``out`` is asked only of an enemy next to him)
        return sum(1 for e in self.state.enemies_of(ch)
                   if (at := e.pos) is not None and at[2] == pos[2]
                   and abs(at[0] - pos[0]) <= 1 and abs(at[1] - pos[1]) <= 1
                   and not e.out and melee_contact(self.board, at, pos))

    # ================================================================== shooting
    def _fired(self, a: CharacterState) -> dict[str, Any]:
        """What ``a`` has fired in the action now under way (recoil, multiple targets): his
        own activation or his delayed action taken in someone else's."""
        if a.id in (self.state.active, self.sr3.get("intervening")):
            return self.sr3["fired"].get(a.id) or _no_shots()
        return _no_shots()

    def _ranged(self, a: CharacterState, apos: tuple[int, int, int], t: CharacterState,
                tpos: tuple[int, int, int], s: Sight, chars: int, pace: str,
                w: C.SR3Weapon, mode: str | None = None, rounds: int | None = None,
                called: bool = False, foes: int | None = None) -> dict[str, Any] | None:
        """Every figure of a shot, or None when out of range.  A blocked ``s`` is Blind Fire
        through the barriers it lists (l.964-969)."""
        base = self._ranged_base(a, apos, t, tpos, s, chars, pace, w, foes)
        return None if base is None else self._ranged_as(base, mode, rounds, called)

    def _ranged_base(self, a: CharacterState, apos: tuple[int, int, int], t: CharacterState,
                     tpos: tuple[int, int, int], s: Sight, chars: int, pace: str,
                     w: C.SR3Weapon, foes: int | None = None) -> tuple | None:
        """The figures of :meth:`_ranged` that no fire mode, round count or called shot
        changes (``plan_shot`` weighs up to 20 of those per target), or None when out of
        range."""
        metres = self.metres(apos, tpos)
        band = range_band(w.range_key, metres)
        if band not in BASE_TN:
            return None
        fired = self._fired(a)
        ws = a.weapons[a.ready] if a.ready is not None else None
        loaded = ws.loaded if ws is not None and ws.loaded is not None else 99
        others = [x for x in fired["targets"] if x != t.id]
        blind = s.blocked
        cover = 0 if blind else s.total
        if chars and not s.modifiers.get("cover"):
            cover += 4  # someone in the way hides part of him: Partial Cover (l.488)
        tpace = self._pace_now(t)
        aim = self.sr3["aim"].get(a.id)
        aimed = aim["n"] if aim and aim["target"] == t.id and aim["weapon"] == a.ready else 0
        st, ts = self.stats(a), self.stats(t)
        skill = st.skill(w.skill_keys)
        pool = C.attack_pool(skill, self.pool_left(a), st.combat_pool)
        # aiming over more than one Combat Phase forbids Combat Pool dice (l.175)
        held = bool(aimed) and aim["since"] != self._activation()
        if held:
            pool = 0
        if blind:
            through = [max(0, r - self.sr3["barriers"].get(f, 0))
                       for f, _k, r in s.details.get("barriers", ())]
            barrier = C.through_rating(through, w.code.flechette)
        else:
            barrier = int(s.details.get("barrier_rating") or 0)
        melee = self._melee_foes(a, apos) if foes is None else foes
        return (a, t, s, pace, w, metres, band, fired, loaded, others, blind, cover, tpace,
                aimed, held, ts, skill, pool, barrier, melee, self.pool_left(t),
                a.condition.modifier)

    def _ranged_as(self, base: tuple, mode: str | None, rounds: int | None, called: bool
                   ) -> dict[str, Any]:
        """:meth:`_ranged` from its :meth:`_ranged_base` figures, fired in ``mode``."""
        (_a, _t, s, _pace, w, metres, band, _fired, _loaded, _others, blind, _cover, _tpace,
         aimed, held, ts, skill, pool, barrier, _melee, resist_pool, _wounds) = base
        mode, rounds, tn, mods, code, armour, resist_tn = self._fired_as(base, mode, rounds,
                                                                         called)
        mods = dict(mods)  # (the kept answer's own dict stays as it was)
        n = {"target_number": tn, "modifiers": mods, "range_m": metres, "range_band": band,
             "mode": mode, "rounds": rounds, "skill": skill, "pool": pool,
             "dice": skill + pool, "damage_code": str(code), "power": code.power,
             "level": code.level, "stun": code.stun, "armour": armour, "barrier": barrier,
             # the base Power, not the burst's, meets the Barrier Rating (l.969, l.994)
             "stopped": barrier > w.code.power, "body": ts.body,
             "resist_pool": resist_pool, "resist_tn": resist_tn}
        if blind:
            n["blind_fire"] = [f for f, _k, _r in s.details.get("barriers", ())]
            n["blind_through"] = [list(b) for b in s.details.get("barriers", ())]
        if called:
            n["called"] = True
        if aimed:
            n["aimed"] = aimed
            if held:
                n["aimed_over_phases"] = True
        return n

    def _fired_as(self, base: tuple, mode: str | None, rounds: int | None, called: bool
                  ) -> tuple:
        """(mode, rounds, TN, its modifiers as kept, Damage Code, armour, resistance TN) of
        the shot of these :meth:`_ranged_base` figures fired in ``mode``: what both
        :meth:`_ranged_as` and :meth:`_odds_as` work from."""
        (_a, _t, s, pace, w, metres, band, fired, loaded, others, blind, cover, tpace,
         aimed, _held, ts, _skill, _pool, barrier, melee, _resist_pool, wounds) = base
        mode = mode or self._mode(w)
        if mode == "FA":
            rounds = min(rounds or FA_ROUNDS, loaded)
        else:
            rounds = min(BURST, loaded) if mode == "BF" else 1
        before = fired["rounds"] if mode == "FA" else fired["shots"]
        recoil = C.recoil(mode, before, rounds, w.recoil_comp, w.heavy) \
            if w.kind == "firearm" else 0
        tn, mods = _ranged_tn(band, cover, pace, tpace, melee, len(others), w.aid, metres,
                              s.visibility >= 4, recoil, wounds, blind, called, aimed)
        code = C.burst_code(w.code, mode, rounds)
        if called:
            code = C.called_code(code)
        armour = C.armour_against(code, ts.ballistic, ts.impact, w.kind)
        code = C.flechette_code(code, armour)
        return mode, rounds, tn, mods, code, armour, C.resistance_tn(code.power, armour,
                                                                     barrier)

    def _odds_as(self, base: tuple, mode: str | None, rounds: int | None, called: bool
                 ) -> tuple[float, float]:
        """``_odds(_ranged_as(base, mode, rounds, called))`` without the figures the log
        shows (the bots weigh up to 20 fire modes a target and keep only the odds)."""
        _m, _r, tn, _mods, code, _armour, resist_tn = self._fired_as(base, mode, rounds,
                                                                     called)
        w, ts, skill, pool, barrier, resist_pool = (base[4], base[15], base[16], base[17],
                                                    base[18], base[20])
        if barrier > w.code.power:  # stopped by the barrier (l.969, l.994)
            return 0.0, 0.0
        return C.ranged_odds(skill + pool, tn, ts.body, resist_pool, resist_tn, code.level)

    def _price_key(self, base: tuple) -> tuple:
        """What :meth:`_ranged_as`'s odds read of its :meth:`_ranged_base` figures, in one
        key of plain values (the same in every game): the weapon's figures, the target's
        armour and Body, the range by its band (and whether a laser's 50 m are passed),
        never the dots, the line's barriers' names or an aim held over phases (names in the
        log)."""
        (_a, _t, s, pace, w, metres, band, fired, loaded, others, blind, cover, tpace,
         aimed, _held, ts, skill, pool, barrier, melee, resist_pool, wounds) = base
        return (w, ts.ballistic, ts.impact, ts.body, pace, band, metres > 50, fired["rounds"],
                fired["shots"], loaded, len(others), blind, cover, tpace, aimed, skill, pool,
                barrier, melee, resist_pool, wounds, s.visibility >= 4)

    def _expected_as(self, base: tuple) -> float:
        """``_odds(_ranged_as(base, None, None, False))[1]``, kept by :meth:`_price_key`:
        the bots price thousands of shots a game, most of them the same figures from
        another dot or in another game."""
        key = self._price_key(base)
        got = _PRICES.get(key)
        if got is None:
            if len(_PRICES) > 65536:
                _PRICES.clear()
            got = _PRICES[key] = self._odds_as(base, None, None, False)[1]
        return got

    @staticmethod
    def _mode(w: C.SR3Weapon) -> str:
        """The mode a shot is fired in unless asked: a burst when the gun has one (two per
        action), else semi-automatic or single shot."""
        for m in ("BF", "SA", "SS"):
            if m in w.modes:
                return m
        return w.modes[0] if w.modes else "SS"

    bot_acts = ("aim",)

    def bot_options(self, ch: CharacterState, holding: bool = False, only: str | None = None
                    ) -> list[tuple[float, dict[str, Any], dict[str, Any]]]:
        """Take Aim (l.173-176) for the bots, when an aim and then the aimed shot beat the
        two shots the same two Simple Actions buy now (the second with its recoil, l.463-483).
        Each is worth what it adds to the one shot the bot would fire anyway: the aimed
        shot's expected boxes less those of the second shot it gives up, so the bot aims
        when that beats its best shot now.  Only aims with the shot in this Combat Phase
        (the Combat Pool stays his, l.175); none when ``holding`` (or ``only`` another act)."""
        out: list[tuple[float, dict[str, Any], dict[str, Any]]] = []
        w = self.weapon(ch)
        if holding or only not in (None, "aim") or ch.out or ch.pos is None or w is None or \
                w.kind not in ("firearm", "projectile") or self.slots_left(ch) < 2 or \
                ch.ready_weapon is None or ch.ready_weapon.spent:
            return out
        held = self.sr3["aim"].get(ch.id)
        top = C.aim_limit(self.stats(ch).skill(w.skill_keys))
        modes = [m for m in (w.modes if w.kind == "firearm" else ("SS",)) if m != "FA"]
        for f in self.state.enemies_of(ch):
            if f.out or f.pos is None:
                continue
            line = self._shot_line(ch, f)  # (one line for the shot now and both what-ifs)
            now = None if line is None else self._plan_along(ch, f, w, line)
            if now is None:
                continue
            n = held["n"] if held and held["target"] == f.id and held["weapon"] == ch.ready \
                else 0
            if n >= top:
                continue
            if now.numbers.get("mode") == "FA":
                first, second = now.expected / 2, now.expected / 2  # one Complex Action
            else:
                first, second = now.expected, self._what_if(ch, f, modes, fired=now.numbers,
                                                            line=line)
            aimed = self._what_if(ch, f, modes, aims=n + 1, line=line)
            if aimed > first + second + 1e-9:
                out.append((aimed - second, {"act": "aim", "target": f.id},
                            {"target": f.id, "aimed_shot": round(aimed, 2),
                             "two_shots_now": round(first + second, 2), "aims": n + 1}))
        self.sort_options(out)
        return out

    @staticmethod
    def sort_options(options: list[tuple[float, dict[str, Any], dict[str, Any]]]) -> None:
        options.sort(key=lambda o: (-o[0], o[1]["target"]))

    def _what_if(self, a: CharacterState, t: CharacterState, modes: list[str],
                 aims: int = 0, fired: dict[str, Any] | None = None,
                 line: tuple[Sight, int] | None = None) -> float:
        """Expected boxes of the best one-action shot at ``t`` after ``aims`` aims this phase,
        or after the shot ``fired`` (its recoil and the Combat Pool dice it spent count): a
        what-if, set for the sums and put back.  ``line``: his :meth:`_shot_line` at ``t``
        when the caller has it (what the what-if changes moves no one)."""
        aim, shots, pools = self.sr3["aim"], self.sr3["fired"], self.sr3["pool"]
        saved = (aim.get(a.id), shots.get(a.id), pools.get(a.id))
        if aims:
            aim[a.id] = {"target": t.id, "weapon": a.ready, "n": aims,
                         "since": self._activation()}
        if fired is not None:
            was = self._fired(a)
            shots[a.id] = {"shots": was["shots"] + 1,
                           "rounds": was["rounds"] + int(fired["rounds"]),
                           "targets": sorted({*was["targets"], t.id})}
            pools[a.id] = max(0, self.pool_left(a) - int(fired["pool"]))
        try:
            w = self.weapon(a)
            if w is None or w.kind not in ("firearm", "projectile"):
                line = None
            elif line is None:
                line = self._shot_line(a, t)
            picks = [] if line is None else [self._pick_along(a, t, w, line, mode=m)
                                             for m in modes]
        finally:
            for table, old in zip((aim, shots, pools), saved, strict=True):
                if old is None:
                    table.pop(a.id, None)
                else:
                    table[a.id] = old
        return max((p[2] for p in picks if p is not None), default=0.0)

    def fire_modes(self, ch: CharacterState) -> list[str]:
        """The fire modes of ``ch``'s ready firearm (the play panel's selector)."""
        w = self.weapon(ch)
        return list(w.modes) if w is not None and w.kind == "firearm" else []

    def _choices(self, a: CharacterState, w: C.SR3Weapon, mode: str | None,
                 rounds: int | None, called: bool | None) -> list[tuple[str, int | None, bool]]:
        """(mode, rounds, called) a shot may be fired with: what was asked, or every mode
        the gun has (full-auto bursts of 3 to 10 rounds, called shots in SS/SA/BF) when not."""
        modes = [mode] if mode else (list(w.modes) if w.kind == "firearm" else ["SS"])
        fired = self._fired(a)
        mine = a.id in (self.state.active, self.sr3.get("intervening"))
        slots = self.slots_left(a) if a.id == self.state.active else 2
        out: list[tuple[str, int | None, bool]] = []
        for m in modes:
            if not mode and m == "SS" and fired["shots"] >= 1:
                continue  # a single-shot gun fires once a Combat Phase (l.655)
            if not mode and m == "FA" and mine and slots < 2:
                continue  # full-auto is a Complex Action (l.674)
            counts = [rounds] if m != "FA" or rounds else [3, 4, 5, 6, 7, 8, 9, 10]
            for r in counts:
                flags = [called] if called is not None else [False, True]
                for c in flags:
                    if c and (m not in C.CALLED_MODES or fired.get("called")):
                        continue
                    out.append((m, r, c))
        return out

    def plan_shot(self, a: CharacterState, t: CharacterState, movement_fire: bool,
                  mode: str | None = None, rounds: int | None = None,
                  called: bool | None = None) -> ShotPlan | None:
        """The shot ``a`` has at ``t``: along a clear line, or Blind Fire at an enemy his side
        knows of behind a wall or door.  Unless ``mode`` (and ``rounds``, ``called``) is
        given, the mode, full-auto rounds and called shot with the most expected boxes per
        Simple Action (recoil included): what the bots and the panel's 'auto' fire."""
        w = self.weapon(a)
        if w is None or w.kind not in ("firearm", "projectile"):
            return None
        line = self._shot_line(a, t)
        return None if line is None else self._plan_along(a, t, w, line, mode, rounds, called)

    def _shot_line(self, a: CharacterState, t: CharacterState) -> tuple[Sight, int] | None:
        """(sight, characters in the way) of ``a``'s shot at ``t``: a clear line of fire, or
        a Blind Fire line (0 in the way); None: no shot."""
        line = self.line_of_fire(a, t)
        if line is None:
            s = self.blind_line(a, t)
            if s is None:
                return None
            line = (s, 0)
        return line

    def _plan_along(self, a: CharacterState, t: CharacterState, w: C.SR3Weapon,
                    line: tuple[Sight, int], mode: str | None = None,
                    rounds: int | None = None, called: bool | None = None
                    ) -> ShotPlan | None:
        """:meth:`plan_shot` along its :meth:`_shot_line` (a what-if asks several plans of
        one line: the aims, shots and Combat Pool it changes do not move anyone)."""
        got = self._pick_along(a, t, w, line, mode, rounds, called)
        if got is None:
            return None
        n = self._ranged_as(got[0], *got[1])
        p, exp = self._odds(n)
        return ShotPlan(p, exp, n)

    def _pick_along(self, a: CharacterState, t: CharacterState, w: C.SR3Weapon,
                    line: tuple[Sight, int], mode: str | None = None,
                    rounds: int | None = None, called: bool | None = None
                    ) -> tuple | None:
        """(the :meth:`_ranged_base` figures, the (mode, rounds, called) a plan along
        ``line`` fires, its expected boxes), or None when there is no shot; the choice and
        its price kept by :meth:`_price_key` and the choices (a what-if needs only the
        price: no numbers are built)."""
        s, chars = line
        # his own shot, in his action: the metres he has moved so far in it (l.464-467)
        pace = self._pace_of(a) if a.id == self.state.active else "still"
        base = self._ranged_base(a, a.pos, t, t.pos, s, chars, pace, w)
        if base is None:
            return None
        choices = self._choices(a, w, mode, rounds, called)
        # the choice the odds pick depends on the figures and the choices alone: kept
        key = (self._price_key(base), *choices)
        pick = _PICKS.get(key)
        if pick is None:
            best: tuple[float, tuple[str, int | None, bool], float] | None = None
            for m, r, c in choices:
                _p, exp = self._odds_as(base, m, r, c)
                value = exp / (2 if m == "FA" else 1)
                if best is None or value > best[0] + 1e-9:
                    best = (value, (m, r, c), exp)
            if len(_PICKS) > 65536:
                _PICKS.clear()
            pick = _PICKS[key] = () if best is None else best[1:]  # (): no choice at all
        return (base, *pick) if pick else None

    # ------------------------------------------------------------------ blind fire
    def _activation(self) -> list[int]:
        return [self.state.turn, self.state.phase]

    def knows(self, a: CharacterState, t: CharacterState) -> bool:
        """Does ``a``'s side know where ``t`` stands?  Yes when one of them saw him at the
        end of an activation, or anyone heard him fire or throw, this Combat Turn or the
        last, and he has not moved since (docs/rulesets.md, "Blind Fire")."""
        rec = self.sr3["known"].get(a.side, {}).get(t.id)
        return rec is not None and t.pos is not None and list(t.pos) == rec[0] and \
            rec[1] >= self.state.turn - 1

    def _reveal(self, ch: CharacterState, to_side: str) -> None:
        if ch.pos is not None and not ch.out:
            self.sr3["known"].setdefault(to_side, {})[ch.id] = [list(ch.pos), self.state.turn]

    def _spot(self, ch: CharacterState) -> None:
        """``ch`` ends his activation: he and every enemy with a line to each other learn
        where the other stands."""
        if ch.out or ch.pos is None:
            return
        for e in self.state.enemies_of(ch):
            if e.out or e.pos is None:
                continue
            if self._in_sight(ch, e):
                self._reveal(e, ch.side)
            if self._in_sight(e, ch):
                self._reveal(ch, e.side)

    def _in_sight(self, a: CharacterState, b: CharacterState) -> bool:
        """Does ``a`` see where ``b`` stands (the board's verdict for his eyes)?  A line a
        fan already found blocked for his eyes is not traced (``known_blocked``: blocked
        whatever the postures; most lines spotting asks were in a bot's fan)."""
        if self.board.known_blocked(a.pos, b.pos, a.vision):
            return False
        return not self.board.sight(a.pos, b.pos, a.posture, b.posture, a.vision).blocked

    def _heard(self, ch: CharacterState) -> None:
        """Gunfire and a throw give away where he stands to every enemy."""
        for side in {e.side for e in self.state.enemies_of(ch)}:
            self._reveal(ch, side)

    def blind_line(self, a: CharacterState, t: CharacterState) -> Sight | None:
        """The blocked sight of a Blind Fire shot at ``t`` (l.485-486, l.964-969): a wall,
        door or window on the line, both on one level, and ``a``'s side knows where ``t``
        is; None otherwise."""
        w = a.ready_weapon
        if w is None or w.is_grenade or a.pos is None or t.pos is None or \
                a.pos[2] != t.pos[2] or not self.knows(a, t):
            return None  # (whether his side knows first: no line traced for nothing)
        s = self.board.sight(a.pos, t.pos, a.posture, t.posture, a.vision)
        if not (s.blocked and s.details.get("blind_fire") and s.details.get("barriers")):
            return None
        return s

    def _odds(self, n: dict[str, Any]) -> tuple[float, float]:
        if n["stopped"]:
            return 0.0, 0.0
        return C.ranged_odds(n["dice"], n["target_number"], n["body"], n["resist_pool"],
                             n["resist_tn"], n["level"])

    def shot_value(self, shooter: CharacterState, spos: tuple[int, int, int],
                   target: CharacterState, tpos: tuple[int, int, int], movement_fire: bool,
                   target_posture: str | None = None) -> float:
        """Expected boxes of one shot from ``spos`` at ``tpos``: the exact odds of the dice
        pool against the TN and of the Damage Resistance Test (``movement_fire``: he walks)."""
        w = self.weapon(shooter)
        if w is None or w.kind not in ("firearm", "projectile"):
            return 0.0
        s = self.shot_sight(shooter, spos, target, tpos, target_posture)
        if s is None:
            return 0.0
        pace = "walk" if movement_fire else "still"
        base = self._ranged_base(shooter, spos, target, tpos, s, 0, pace, w)
        return 0.0 if base is None else self._expected_as(base)

    def _do_fire(self, target: str, mode: str | None = None, rounds: int | None = None,
                 called: bool | None = None) -> None:
        m = self.mover
        t = self.char(target)
        if t.side == m.side or t.out:
            raise PlayError(f"{target} is not a target")
        ws = m.ready_weapon
        w = self.weapon(m)
        if ws is None or w is None or w.kind not in ("firearm", "projectile"):
            raise PlayError(f"{m.id} has no firearm ready")
        if mode is not None and mode not in w.modes:
            raise PlayError(f"the {ws.name} fires {'/'.join(w.modes)}, not {mode}")
        if rounds is not None and (mode != "FA" or not 3 <= int(rounds) <= 10):
            raise PlayError("a full-auto burst is 3 to 10 rounds (l.676)")
        if ws.loaded is not None and ws.loaded <= 0:
            raise PlayError(f"{m.id}'s {ws.name} is empty")
        if mode == "SS" and self._fired(m)["shots"] >= 1:
            raise PlayError(f"a single-shot {ws.name} fires once a Combat Phase (l.655)")
        if called and mode is not None and mode not in C.CALLED_MODES:
            raise PlayError("only single-shot, semi-automatic and burst fire may call a shot "
                            "(l.624)")
        if called and self._fired(m).get("called"):
            raise PlayError(f"{m.id} has called a shot this action already: calling one is "
                            f"his Free Action (l.110, l.626)")
        if called and not any(x in C.CALLED_MODES for x in ([mode] if mode else w.modes)):
            raise PlayError("only single-shot, semi-automatic and burst fire may call a shot "
                            "(l.624)")
        plan = self.plan_shot(m, t, True, mode, rounds, called)
        if plan is None:
            raise PlayError(f"{m.id} has no line of fire to {target} in range, and no wall "
                            f"or door to fire blind through at where his side knows he is")
        n = plan.numbers
        cost = (0.0, 2) if n["mode"] == "FA" else self.cost("fire", m)
        self._need(m, cost, "full-auto fire" if cost[1] == 2 else "firing")
        self._charge(m, cost, "fire")
        # an enemy waiting with a delayed action shoots first (l.84)
        self._react(m, 0.0)
        if m.out or t.out:
            return
        plan = self.plan_shot(m, t, True, n["mode"],
                              n["rounds"] if n["mode"] == "FA" else None, bool(n.get("called")))
        if plan is not None:
            self.resolve_shot(m, t, plan, reaction=False)

    def resolve_shot(self, a: CharacterState, t: CharacterState, plan: ShotPlan,
                     reaction: bool) -> None:
        n = plan.numbers
        ws = a.ready_weapon
        if ws.loaded is not None:
            ws.loaded -= n["rounds"]
        ws.fired_this_turn += 1
        fired = self.sr3["fired"].setdefault(a.id, _no_shots())
        fired["shots"] += 1
        fired["rounds"] += n["rounds"]
        if t.id not in fired["targets"]:
            fired["targets"].append(t.id)
        if n.get("called"):
            fired["called"] = True
        # a held aim is spent on this shot, or lost by shooting at someone else (l.174)
        self.sr3["aim"].pop(a.id, None)
        self._spend_pool(a, n["pool"])
        self._heard(a)
        tn = n["target_number"]
        dice = C.roll_pool(self.dice.d6, n["dice"], tn)
        hits = C.successes(dice, tn)
        event = {k: n[k] for k in ("target_number", "modifiers", "range_m", "range_band",
                                   "mode", "rounds", "skill", "pool", "damage_code")}
        event.update({k: n[k] for k in ("blind_fire", "called", "aimed", "aimed_over_phases")
                      if k in n})
        if "blind_fire" in n:
            event.update(barrier=n["barrier"], rule="Blind Fire +8 (l.486); the Barrier "
                         "Ratings come off the Power (Firing Through, l.964-969)")
        if tn > 12:  # a second 6 re-rolled: beyond the one re-roll l.565 shows
            event.update(_assumed("rule-of-six"))
        # a "test" event, as DMZ's shots are, so records and reports count it
        self.log.record("test", purpose="reaction fire" if reaction else "movement fire",
                        attacker=a.id, target=t.id, weapon=ws.name, phase=self.combat_phase(),
                        dice=dice, successes=hits, success=hits > 0, **event)
        if hits == 0:
            self.log.record("miss", attacker=a.id, target=t.id, why="no successes")
            return
        if n["stopped"]:
            self.log.record("miss", attacker=a.id, target=t.id, barrier=n["barrier"],
                            why="the Barrier Rating is above the Power (l.969)")
            for f, kind, rating in (plan.numbers.get("blind_through") or ())[:1]:
                # the round still strikes the barrier it stopped in (l.969, l.988-994)
                b = BarrierInfo(f, kind, rating, rating, 0)
                res = C.break_through(self.weapon(a).code.power, self._rating(b))
                if res["effect"] != "holds":
                    self._hit_barrier(b, res, a.id)
            return
        self._resist_and_damage(a.id, t, hits, n["power"], n["level"], n["stun"], n["armour"],
                                n["barrier"], n["damage_code"], clean_miss=True,
                                knock_tn=n["power"] // 2)

    def _resist_and_damage(self, source: str, t: CharacterState, hits: int, power: int,
                           level: str, stun: bool, armour: int, barrier: int, code: str,
                           clean_miss: bool, knock_tn: int) -> None:
        """The target's Damage Resistance Test (Body + his leftover Combat Pool against Power
        less armour, l.569-578), staging against the attack's successes, the wound."""
        ts = self.stats(t)
        rtn = C.resistance_tn(power, armour, barrier)
        pool = self.pool_left(t)
        body_dice = C.roll_pool(self.dice.d6, ts.body, rtn)
        pool_dice = C.roll_pool(self.dice.d6, pool, rtn)
        self._spend_pool(t, pool)
        rb, rp = C.successes(body_dice, rtn), C.successes(pool_dice, rtn)
        if clean_miss:
            out = C.ranged_outcome(hits, rb, rp, level)
        else:  # a blast: no clean miss, a 0-success throw still goes off (l.917)
            lv = C.stage_level(level, C.staging(hits - rb - rp))
            out = C.Outcome(hits, rb + rp, rp, lv)
        self.log.record("resist", target=t.id, resist_tn=rtn, armour=armour, barrier=barrier,
                        body_dice=body_dice, pool_dice=pool_dice, **out.to_data(),
                        damage_code=code)
        if out.level is None:
            return
        self.damage(t, out.boxes, STUN if stun else PHYSICAL, source, damage_code=code,
                    staged=f"{C.LEVEL_NAMES[out.level]}{' Stun' if stun else ''}",
                    resisted=out.resist, successes=hits)
        if not t.condition.out and t.posture != PRONE:
            self._knockdown(t, out.level, knock_tn)

    def _knockdown(self, t: CharacterState, level: str, tn: int) -> None:
        """Body Test against half the Power (ranged) or the attacker's Strength (melee):
        no successes and he falls prone (l.603-612, l.1178-1186)."""
        dice = C.roll_pool(self.dice.d6, self.stats(t).body, max(2, tn))
        got = C.knockdown(level, C.successes(dice, max(2, tn)))
        self.log.record("knockdown", who=t.id, target_number=max(2, tn), dice=dice, result=got)
        if got == "falls":
            t.posture = PRONE
            self.log.record("knocked-prone", who=t.id)

    # ================================================================== damage
    def damage(self, victim: CharacterState, amount: int, kind: str, source: str,
               **detail: Any) -> None:
        """Fill ``amount`` boxes of the Physical or Stun column (l.1589-1604)."""
        if victim.condition.dead:
            return
        level = {1: "L", 3: "M", 6: "S", 10: "D"}.get(amount)
        res = victim.condition.apply_boxes(amount, kind == STUN)
        self.log.record("damage", target=victim.id, source=source, boxes=amount, damage=kind,
                        level=level, **res, **detail)
        self.consequences(victim, False)

    # ================================================================== melee
    def _melee_numbers(self, a: CharacterState, d: CharacterState) -> dict[str, Any]:
        wa, wd = self.melee_weapon(a), self.melee_weapon(d)
        sa, sd = self.stats(a), self.stats(d)
        reach = (wa.reach + sa.reach) - (wd.reach + sd.reach)
        friends = sum(1 for c in self.state.characters.values()
                      if c.side == a.side and c is not a and not c.out and c.pos
                      and melee_contact(self.board, c.pos, d.pos))
        foes = sum(1 for c in self.state.characters.values()
                   if c.side == d.side and c is not d and not c.out and c.pos
                   and melee_contact(self.board, c.pos, a.pos))
        light = self.board.sight(a.pos, d.pos, a.posture, d.posture, a.vision)
        vis = light.visibility if not light.blocked else 8
        tn_a, mods_a = C.melee_tn(a.condition.modifier, reach, friends - foes,
                                  d.posture == PRONE, visibility=vis, full_darkness=vis >= 8)
        tn_d, mods_d = C.melee_tn(d.condition.modifier, -reach, foes - friends,
                                  a.posture == PRONE, visibility=vis, full_darkness=vis >= 8)
        return {"wa": wa, "wd": wd, "tn_a": tn_a, "mods_a": mods_a, "tn_d": tn_d,
                "mods_d": mods_d, "skill_a": sa.skill(wa.skill_keys),
                "skill_d": sd.skill(wd.skill_keys)}

    def resolve_melee(self, m: CharacterState, t: CharacterState, interception: bool = False
                      ) -> bool:
        """An opposed melee test: both roll skill + Combat Pool against TN 4 and the table's
        modifiers; the most successes hits (a tie the attacker), stages up one level per two
        net, and the one hit resists with Body (l.1046-1166).  An Interception's defender is in
        full defence: no pool in his test, all of it for resisting (l.238, l.1170)."""
        n = self._melee_numbers(m, t)
        sa, sd = self.stats(m), self.stats(t)
        pa = C.attack_pool(n["skill_a"], self.pool_left(m), sa.combat_pool)
        pd = 0 if interception else C.attack_pool(n["skill_d"], self.pool_left(t),
                                                   sd.combat_pool)
        self._spend_pool(m, pa)
        self._spend_pool(t, pd)
        da = C.roll_pool(self.dice.d6, n["skill_a"] + pa, n["tn_a"])
        dd = C.roll_pool(self.dice.d6, n["skill_d"] + pd, n["tn_d"])
        ha, hd = C.successes(da, n["tn_a"]), C.successes(dd, n["tn_d"])
        who, net = C.melee_outcome(ha, hd)
        hitter, hit, w = (m, t, n["wa"]) if who == "attacker" else (t, m, n["wd"])
        landed = who == "attacker" and ha > 0 or who == "defender"
        # both sides' tests as "test" events (the records read them), then the verdict
        self.log.record("test", purpose="move-by attack" if interception else "melee",
                        attacker=m.id, target=t.id, weapon=n["wa"].type,
                        phase=self.combat_phase(), target_number=n["tn_a"],
                        modifiers=n["mods_a"], skill=n["skill_a"], pool=pa, dice=da,
                        successes=ha, damage_code=str(n["wa"].code),
                        success=who == "attacker" and landed)
        self.log.record("test", purpose="full defence" if interception else "counterattack",
                        attacker=t.id, target=m.id, weapon=n["wd"].type,
                        target_number=n["tn_d"], modifiers=n["mods_d"], skill=n["skill_d"],
                        pool=pd, dice=dd, successes=hd, damage_code=str(n["wd"].code),
                        success=who == "defender")
        self.log.record("melee", attacker=m.id, defender=t.id, interception=interception,
                        hits=hitter.id if landed else None, net=net,
                        rule="the most successes hits, a tie the attacker (seed 001 l.1054)")
        if not landed:
            return False
        code = w.code
        staged = C.stage_level(code.level, C.staging(net))
        if interception and hit is m:
            # the one slipping past only defends (full defence, l.238): a parry, no blow
            self.log.record("parried", who=t.id, by=m.id)
            return False
        hs = self.stats(hit)
        # monofilament whips meet half the Impact armour (l.1200)
        armour = hs.impact // 2 if w.type == "monofilament-whip" else hs.impact
        rtn = C.resistance_tn(code.power, armour)
        pool = self.pool_left(hit)
        body = C.roll_pool(self.dice.d6, hs.body + pool, rtn)
        self._spend_pool(hit, pool)
        got = C.successes(body, rtn)
        final = C.resist_melee(staged, got)
        self.log.record("resist", target=hit.id, resist_tn=rtn, armour=armour, dice=body,
                        resisted=got, damage_code=str(code), staged_up=staged, staged=final,
                        rule="every 2 successes take a level off (l.1060)")
        if final is not None:
            self.damage(hit, C.BOXES[final], STUN if code.stun else PHYSICAL, hitter.id,
                        damage_code=str(code),
                        staged=f"{C.LEVEL_NAMES[final]}{' Stun' if code.stun else ''}",
                        resisted=got, successes=net)
            if not hit.condition.out and hit.posture != PRONE:
                self._knockdown(hit, final, self.stats(hitter).strength)
        return hitter is m

    def melee_value(self, a: CharacterState, d: CharacterState) -> float:
        if a.pos is None or d.pos is None:
            return 0.0
        n = self._melee_numbers(a, d)
        sa, sd = self.stats(a), self.stats(d)
        pa = C.attack_pool(n["skill_a"], self.pool_left(a), sa.combat_pool)
        pd = C.attack_pool(n["skill_d"], self.pool_left(d), sd.combat_pool)
        code = n["wa"].code
        rtn = C.resistance_tn(code.power, sd.impact)
        _hit, exp, _back = C.melee_odds(n["skill_a"] + pa, n["tn_a"], n["skill_d"] + pd,
                                        n["tn_d"], sd.body, rtn, code.level)
        return exp

    def counterattacks(self, attacker: CharacterState, defender: CharacterState) -> bool:
        return True  # in Shadowrun melee both sides always roll (l.1052)

    def resolve_move_by(self, e: CharacterState, m: CharacterState) -> None:
        """Interception (l.232-239): ``e`` takes a free melee blow at ``m`` slipping past
        within a metre; ``m`` defends in full defence; if hurt he is stopped."""
        before = (m.condition.physical, m.condition.stun)
        self.log.record("interception", interceptor=e.id, mover=m.id,
                        rule="Interception, seed 001 l.232-239")
        self.resolve_melee(e, m, interception=True)
        if (m.condition.physical, m.condition.stun) != before and not m.out:
            m.movement_ended = True
            self.log.record("intercepted", who=m.id, why="took damage passing (l.237)")

    # ================================================================== grenades
    def resolve_throw(self, m: CharacterState, w: Any, at: tuple[int, int, int], dots: int,
                      s: Sight) -> tuple[tuple[int, int, int], bool]:
        """The throw: throwing skill + Combat Pool against the Grenade Range Table's TN and
        the ranged modifiers; the scatter dice less 2 m (4 m aerodynamic) a success, in one of
        six directions (l.851-891)."""
        sw = C.weapon_stats(w.type, [], self.stats(m).strength)
        st = self.stats(m)
        metres = self.metres(m.pos, at)
        band = C.grenade_band(st.strength, metres, sw.aerodynamic)
        if band not in BASE_TN:
            band = "extreme"
        sit = C.Situation(attacker_pace=self._pace_now(m), wounds=m.condition.modifier)
        tn, mods = C.ranged_tn(band, s.total, sit)
        skill = st.skill(sw.skill_keys)
        pool = C.attack_pool(skill, self.pool_left(m), st.combat_pool)
        self._spend_pool(m, pool)
        dice = C.roll_pool(self.dice.d6, skill + pool, tn)
        hits = C.successes(dice, tn)
        kind = "aerodynamic" if sw.aerodynamic else "standard"
        sdice = [self.dice.d6() for _ in range(C.scatter_dice(kind))]
        dist = C.scatter_metres(sum(sdice), hits, kind)
        land = at
        direction = None
        if dist > 0:
            roll = self.dice.d6()
            direction = roll
            pa, pt = self.point(m.pos), self.point(at)
            heading = math.atan2(pt[1] - pa[1], pt[0] - pa[0]) + C.scatter_direction(roll)
            d_dots = dist / METERS_PER_DOT
            for k in range(int(d_dots * 2), -1, -1):
                frac = k / max(1, int(d_dots * 2))
                x = pt[0] + math.cos(heading) * d_dots * frac
                y = pt[1] + math.sin(heading) * d_dots * frac
                c, r = self.board.lattice.dot_at((x, y))
                cand = (c, r, at[2])
                if self.board.standable(cand):
                    land = cand
                    break
        self.sr3["throws"][f"{m.id}@{list(land)}"] = hits
        self._heard(m)
        self.log.record("test", purpose="grenade accuracy", thrower=m.id, aimed=list(at),
                        range_m=metres, range_band=band, success=dist == 0,
                        target_number=tn, modifiers=mods, skill=skill, pool=pool, dice=dice,
                        successes=hits, scatter_dice=sdice, scatter_m=dist,
                        direction_roll=direction, landed=list(land),
                        **(_assumed("scatter-direction") if direction else {}))
        return land, dist == 0

    def resolve_grenade(self, g: PendingGrenade) -> None:
        """The blast: Power less 1 a metre (a half metre for defensive grenades); each
        character resists with Body + Combat Pool against Power - Impact armour, staged against
        the throw's successes; walls and doors meet it at twice their rating (l.893-924)."""
        sw = C.weapon_stats(g.type, [], None)
        if sw.kind == "smoke":
            turn.lay_smoke(self, g)
            return
        hits = self.sr3["throws"].pop(f"{g.thrower}@{list(g.at)}", 0)
        power, level, per = GRENADE_DAMAGE[sw.grenade]
        radius_m = power * per
        self.log.record("blast", thrower=g.thrower, grenade=g.type, at=list(g.at),
                        successes=hits, radius_m=radius_m)
        for ch in list(self.state.characters.values()):
            if ch.out or ch.pos is None or ch.pos[2] != g.at[2]:
                continue
            metres = self.metres(g.at, ch.pos)
            code = C.blast_code(sw.grenade, metres)
            if code is None:
                continue
            if metres > 0:
                s = self.board.sight(g.at, ch.pos, STANDING, ch.posture, "thermographic")
                if s.blocked:
                    past = self.board.blast_through(g.at, ch.pos, sw.grenade)
                    if not (past and past["reaches"]):
                        self.log.record("blast-shielded", target=ch.id,
                                        why=s.details.get("blocked_by"))
                        continue
                    code = C.DamageCode(past["power"], code.level, code.stun)
                    self.log.record("blast-through", target=ch.id, power=past["power"],
                                    barriers=[b["effect"] for b in past["barriers"]])
            self.log.record("test", purpose="grenade blast", thrower=g.thrower, target=ch.id,
                            metres=metres, damage_code=str(code), successes=hits,
                            success=True)
            ts = self.stats(ch)
            self._resist_and_damage(g.thrower, ch, hits, code.power, code.level, code.stun,
                                    ts.impact, 0, str(code), clean_miss=False,
                                    knock_tn=code.power // 2)
        for b in self.board.barriers_near(g.at, int(radius_m // METERS_PER_DOT)):
            if b.feature in self.state.holes:
                continue
            left = C.blast_power_at(sw.grenade, b.distance * METERS_PER_DOT)
            if left > 0:
                res = blast_against_barrier(left, self._rating(b))
                if res["effect"] != "holds":  # a wall the blast leaves unmarked says nothing
                    self._hit_barrier(b, res, g.thrower)

    # ================================================================== barriers
    def _rating(self, b: BarrierInfo) -> int:
        return max(0, b.barrier - self.sr3["barriers"].get(b.feature, 0))

    def _hit_barrier(self, b: BarrierInfo, res: dict[str, Any], who: str) -> None:
        """Apply a Barrier Effect Table result: the rating lost, a hole when it falls or a
        door drops to half its rating (l.982-992)."""
        lost = max(0, res["barrier_rating"] - res["rating_after"])
        self.sr3["barriers"][b.feature] = self.sr3["barriers"].get(b.feature, 0) + lost
        self.state.barrier_damage[b.feature] = self.sr3["barriers"][b.feature]
        opens = res["falls"] or (b.kind == "door" and C.door_opens(self._rating(b), b.barrier))
        self.log.record("barrier-damage", feature=b.feature, by=who, effect=res["effect"],
                        power=res["power"], barrier_rating=res["barrier_rating"],
                        adjusted_rating=res["adjusted_rating"], rating_after=self._rating(b),
                        rule=res["rule"])
        if opens and b.feature not in self.state.holes:
            self.state.holes.append(b.feature)
            self.board.open_hole(b.feature)
            self.log.record("hole", feature=b.feature)

    def breach_problem(self, m: CharacterState, b: BarrierInfo, w: Any) -> str | None:
        sw = self.weapon(m)
        if sw is None or sw.kind != "firearm":
            return f"{m.id} has no firearm ready"
        band = range_band(sw.range_key, max(1, b.distance) * METERS_PER_DOT)
        if band not in BASE_TN:
            return f"{b.feature} is out of range of the {w.name}"
        return None

    def resolve_breach(self, m: CharacterState, b: BarrierInfo, w: Any) -> None:
        """Shoot at a barrier: one success at the range TN strikes it (assumed); the base
        Power meets twice the rating on the Barrier Effect Table (Break Through, l.988-994)."""
        sw = self.weapon(m)
        metres = max(1, b.distance) * METERS_PER_DOT
        band = range_band(sw.range_key, metres)
        sit = C.Situation(attacker_pace=self._pace_now(m), wounds=m.condition.modifier,
                          target_stationary=True)
        tn, mods = C.ranged_tn(band, 0, sit)
        skill = self.stats(m).skill(sw.skill_keys)
        if w.loaded is not None:
            w.loaded -= 1
        w.fired_this_turn += 1
        dice = C.roll_pool(self.dice.d6, skill, tn)
        hits = C.successes(dice, tn)
        self.log.record("test", purpose="fire at barrier", attacker=m.id, barrier=b.feature,
                        weapon=w.name, success=hits > 0,
                        target_number=tn, modifiers=mods, range_m=metres, skill=skill, pool=0,
                        dice=dice, successes=hits, damage_code=str(sw.code),
                        **_assumed("breach-test"))
        if hits:
            self._hit_barrier(b, C.break_through(sw.code.power, self._rating(b)), m.id)

    # ================================================================== falls
    def fall(self, ch: CharacterState, stories: int) -> None:
        """Seed 001 has no falling rule: a fall is a Power 4-a-story Moderate blow against
        Impact armour (assumed, docs/rulesets.md)."""
        ts = self.stats(ch)
        code = C.DamageCode(FALL_POWER_PER_STORY * stories, "M")
        rtn = C.resistance_tn(code.power, ts.impact)
        dice = C.roll_pool(self.dice.d6, ts.body, rtn)
        got = C.successes(dice, rtn)
        final = C.resist_melee(code.level, got)
        self.log.record("test", purpose="fall", who=ch.id, target=ch.id, resist_tn=rtn,
                        dice=dice, resisted=got, success=final is None,
                        damage_code=str(code), staged=final,
                        assumed="a fall: Power 4 a story, Moderate (no rule in seed 001)")
        if final is not None:
            self.damage(ch, C.BOXES[final], PHYSICAL, "fall", damage_code=str(code))

    # ================================================================== save / load
    def to_data(self) -> dict[str, Any]:
        data = super().to_data()
        data["sr3"] = {"sheets": self.sheets, "turn": self.sr3}
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any], board: BoardView) -> SR3Game:
        extra = data.get("sr3") or {}
        game = super().from_data(data, board)
        game.sheets = {k: dict(v) for k, v in (extra.get("sheets") or {}).items()}
        game.sr3.update(extra.get("turn") or {})
        return game


__all__ = ["SR3Game"]
