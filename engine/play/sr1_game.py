"""The Shadowrun 1st edition referee (ConcisionRun, seed 004): :class:`SR1Game` wires the pure
rules of :mod:`engine.rules.sr1_combat` into the play skeleton's hooks.

* Every character acts on his own Initiative, (dice)d6 + Reaction less wounds, re-rolled each
  turn, with an extra Action Phase at 11, 17 and 23, each 7 after the last (l.1018-1050).
* An Action Phase is one move of Quickness metres and one Action, or a run of x4 (dwarf and
  troll x3) that is the whole phase, once a turn (l.1074-1136).  Acting after moving is +1 to
  the TN (l.1112-1114).  There are no reaction arcs: ConcisionRun's answer to a mover is
  Interception, a free melee attack on whoever moves next to a character (l.1086-1090).
* A shot rolls Firearms dice against the range TN plus cover, night and wounds; a hit's damage
  code stages up with extra successes and down with the target's Body and Dodge Pool dice,
  with ballistic armor and hard cover as automatic successes (l.1138-1168, l.1334-1400).
* Damage fills the Physical or Mental track (1/3/6/10 boxes, l.1372).

Numbers seed 004 leaves to the Shadowrun book are :data:`engine.rules.sr1_combat.ASSUMED`;
each log event that rests on one names it under ``assumed``.
"""

from __future__ import annotations

import math
from typing import Any

from engine.model import Character
from engine.play import objectives as obj_rules
from engine.play import turn
from engine.play.board_view import BarrierInfo, Sight
from engine.play.condition import register_condition
from engine.play.errors import PlayError
from engine.play.game import Game
from engine.play.grenades import step_towards
from engine.play.referee_melee import is_melee_weapon
from engine.play.shots import ShotPlan
from engine.play.state import PRONE, STANDING, CharacterState, PendingGrenade
from engine.rules import sr1_combat as c
from engine.rules.base import METERS_PER_DOT
from engine.rules.sr3 import barrier_rating

register_condition(c.SR1Condition.kind, c.SR1Condition)

#: actions that are an Action (l.1074-1080; the list itself is SR1 p. 64, assumed)
ACTIONS = ("fire", "ready", "reload", "stand", "melee", "throw", "breach")
#: free actions (assumed): no Action, but a Quickness Test (TN 4) when moving (l.1116-1118)
FREE = ("prone", "open-door", "open-window")
FREE_ACTION_TN = 4
#: hard cover with no class of its own (a car, a desk): average material (assumed)
CLASSLESS_HARD_COVER = barrier_rating("thin")

#: the sr1 figures of a character's stats and of his weapons' sheets, worked out once per
#: sheet (the bots price tens of thousands of shots a run; each asked for both): keyed by the
#: sheet dict's id, kept with the dict and a copy of it, so an edited or new sheet is worked
#: out afresh
_FIGHTERS: dict[int, tuple] = {}
_ARMS: dict[int, tuple] = {}
#: damage codes parsed, by their text
_CODES: dict[str, c.DamageCode] = {}
#: expected boxes of a shot, by its figures (:meth:`SR1Game.priced`)
_PRICES: dict[tuple, tuple] = {}


def _plain(d: Any) -> bool:
    """A dict of flat values only (a copy then tells an edit apart)."""
    return isinstance(d, dict) and all(v is None or isinstance(v, (str, int, float)) for v in d.values())


def _remember(table: dict[int, tuple], key: int, value: tuple) -> None:
    if len(table) > 4096:
        table.clear()
    table[key] = value


class SR1Game(Game):
    """Referee of a game under ``ruleset: sr1``."""

    ruleset_name = "sr1"
    units = "m"
    can_hold_arcs = False
    per_character_initiative = True
    holders_fire_first = False  # no arcs or delays: only Interception within 1 m

    def hold_words(self, ch: CharacterState) -> str:
        """Under sr1 nothing is held for the enemy's move (no arcs): an enemy stepping
        past within reach is Intercepted (seed 004 l.1088)."""
        return "no arcs; Interception of a mover within 1 m"

    # ================================================================== figures
    def condition_for(self, ch_model: Character) -> c.SR1Condition:
        """Both tracks empty, and the sheet: the character's and his weapons' sr1 figures."""
        f = c.fighter(ch_model.stats, ch_model.metatype)
        arms = [{"type": w.type, "name": w.name or w.type, "shots": w.shots, **dict(w.stats)}
                for w in ch_model.weapons]
        return c.SR1Condition(body=f.body, stats=dict(ch_model.stats), arms=arms)

    @staticmethod
    def fighter(ch: CharacterState) -> c.Fighter:
        stats, meta = ch.condition.stats, ch.metatype
        got = _FIGHTERS.get(id(stats))
        if got is not None and got[0] is stats and got[2] == meta and got[1] == stats:
            return got[3]
        f = c.fighter(stats, meta)
        if _plain(stats):
            _remember(_FIGHTERS, id(stats), (stats, dict(stats), meta, f))
        return f

    @staticmethod
    def arm_of(ch: CharacterState, index: int | None = None) -> c.Arm | None:
        i = ch.ready if index is None else index
        if i is None or i >= len(ch.condition.arms):
            return None
        raw = ch.condition.arms[i]
        got = _ARMS.get(id(raw))
        if got is not None and got[0] is raw and got[1] == raw:
            return got[2]
        d = dict(raw)
        wtype, name, shots = d.pop("type"), d.pop("name", ""), d.pop("shots", None)
        a = c.arm(wtype, d, name, shots)
        if _plain(raw):
            _remember(_ARMS, id(raw), (raw, dict(raw), a))
        return a

    @classmethod
    def turn_budget(cls, ch_model: Character) -> float:
        """A run and a walk, unhurt (the rules layer's, which validation asks too)."""
        return c.turn_metres(ch_model.stats, ch_model.metatype)

    # ================================================================== turn
    def new_turn_order(self) -> list[str]:
        """Initiative for everyone in the fight, rolled every turn (l.1001-1008)."""
        entries = []
        rolls: dict[str, Any] = {}
        for ch in self.state.characters.values():
            ch.mp_spent = 0
            ch.slots_spent = 0
            if ch.out:
                continue
            f = self.fighter(ch)
            dice = [self.dice.d6() for _ in range(f.initiative_dice)]
            score = c.initiative(f, dice, ch.condition.initiative_penalty)
            tie = self.dice.d6()
            ch.condition.turn = {"ran": False, "moved": False, "melee_by": []}
            entries.append((ch.id, score, f.reaction, tie))
            rolls[ch.id] = {"dice": dice, "reaction": f.reaction,
                            "wounds": -ch.condition.initiative_penalty, "initiative": score,
                            "phases": c.phases(score)}
        order = c.order(entries)
        self.log.record("initiative", turn=self.state.turn, rolls=rolls,
                        order=[[cid, at] for cid, at, _n in order],
                        rule="1d6 + Reaction, phases at 11/17/23, -7 each (seed 004 "
                             "l.1018-1050)")
        return [cid for cid, _at, _n in order]

    def refresh(self, ch: CharacterState) -> None:
        """His Action Phase opens: a move and an Action again, Dodge Pool back (l.1060)."""
        t = ch.condition.turn
        if ch.mp_spent > self.fighter(ch).speed + 1e-9:
            t["ran"] = True  # he ran in an earlier phase: once a turn (l.1100-1102)
        if ch.mp_spent > 0:
            t["moved"] = True
        t["dodge_used"] = 0
        t["rough"] = False
        super().refresh(ch)

    def running(self, ch: CharacterState) -> bool:
        return ch.mp_spent > self.fighter(ch).speed + 1e-9

    def allowance(self, ch: CharacterState) -> float:
        """Quickness metres; a run instead while he has not acted this phase nor run this
        turn (l.1084, l.1094-1106)."""
        if ch.condition.out:
            return 0.0
        f = self.fighter(ch)
        if ch.slots_spent == 0 and not ch.condition.turn.get("ran"):
            return f.run
        return f.speed

    def action_slots(self, ch: CharacterState) -> int:
        """One Action; none in a phase he runs (l.1074, l.1096-1098)."""
        return 0 if self.running(ch) else 1

    def cost(self, kind: str, ch: CharacterState, distance: int | None = None,
             weapon: Any = None) -> tuple[float, int]:
        if kind in ACTIONS:
            return 0.0, 1
        if kind in FREE:
            return 0.0, 0
        return super().cost(kind, ch, distance, weapon)

    def plan_actions(self, ch: CharacterState, kinds: tuple[str, ...],
                     distance: int | None = None, weapon: Any = None
                     ) -> list[tuple[str, ...]] | None:
        """One Action a phase: drawing a weapon is one Action and using it another, two
        Action Phases (l.1078); what does not fit this phase goes into his next ones."""
        return self.spread_plan(ch, kinds, distance, weapon)

    def grenade_reach(self, ch: CharacterState, weapon: Any) -> int:
        """Dots from the burst where its Power is down to 2, what one Body success or a
        point of armor stages away (l.1313-1322): 6M3 offensive, 8 m, 4 dots."""
        i = ch.weapons.index(weapon) if weapon in ch.weapons else None
        arm = self.arm_of(ch, i) if i is not None else None
        if arm is None or not arm.code:
            return super().grenade_reach(ch, weapon)
        code = arm.damage()
        dots = 1
        while True:
            got = c.blast_code(code, arm.payload, dots * METERS_PER_DOT)
            if got is None or got.power <= 2:
                return dots
            dots += 1

    def _do_open(self, feature: str, state: str = "open") -> None:
        """A Free Action, but a Quickness Test (TN 4) when combined with movement
        (l.1116-1118): on a failure the door stays as it was this phase."""
        m = self.mover
        if m.mp_spent > 0 and not m.condition.turn.get(f"open-{feature}"):
            m.condition.turn[f"open-{feature}"] = True
            roll = self._test("free action while moving", m, self.fighter(m).quickness,
                              FREE_ACTION_TN, rule="seed 004 l.1116-1118")
            if roll.successes == 0:
                return
        super()._do_open(feature, state)

    def _do_move(self, to: list[int] | tuple[int, ...]) -> None:
        m = self.mover
        frm = m.pos
        super()._do_move(to)
        if m.pos != frm and m.pos is not None:
            st = self.board.step(frm, m.pos, m.move_ratio)
            if st is not None and any(w.startswith(("obstacle", "rubble", "undergrowth"))
                                      for w in st.why):
                m.condition.turn["rough"] = True

    # ================================================================== dice
    def _test(self, purpose: str, who: CharacterState, pool: int, tn: int, auto: int = 0,
              event: str = "test", **context: Any) -> c.TestRoll:
        """A logged Success Test; ``success`` is at least one success.  Resistance Tests are
        ``resist`` events, so the play report credits a casualty to the attack before them."""
        roll = c.test(pool, tn, self.dice.d6, auto)
        self.log.record(event, purpose=purpose, who=who.id, **roll.to_data(),
                        success=roll.successes > 0, **context)
        return roll

    # ================================================================== shooting
    def _hard_cover(self, s: Sight) -> int:
        """Automatic successes of the hard cover on the line (l.1398)."""
        ratings = [h.get("hard_cover_rating") for h in s.details.get("hard_cover", [])]
        return sum(CLASSLESS_HARD_COVER if r is None else int(r) for r in ratings)

    def _shot_inputs(self, a: CharacterState, t: CharacterState, s: Sight, movement_fire: bool
                     ) -> tuple | None:
        """Everything a shot's figures are worked out from (:meth:`_numbers_of` reads nothing
        else, so a price kept by these is the price): the weapon, both characters' figures,
        the range, the line's cover, whether he moved (rough ground, melee attackers), his
        wounds, the target's Dodge Pool left and, for autofire, the rounds loaded.  None: no
        firearm or thrown weapon ready, or no range band for the range."""
        arm = self.arm_of(a)
        if arm is None or arm.kind not in ("firearm", "thrown"):
            return None
        ft = self.fighter(t)
        moved = movement_fire and a.mp_spent > 0
        turn_a = a.condition.turn
        dodge = 0 if t.out else max(ft.dodge_pool - t.condition.turn.get("dodge_used", 0), 0)
        rounds = None
        if arm.mode == "FA":
            w = a.ready_weapon
            if w is not None and w.loaded is not None:
                rounds = w.loaded
        # the ruleset's own measure (straight line, height included); 2 m a dot otherwise
        metres = float(s.details.get("range_m", s.range * METERS_PER_DOT))
        try:
            band = c.range_band(arm.range_row, metres)
        except ValueError:
            return None
        # (the metres last: the figures but "range_m" are the same over a range band)
        return (arm, self.fighter(a), ft, band, s.total, self._hard_cover(s), moved,
                a.condition.modifier, moved and bool(turn_a.get("rough")),
                len(turn_a.get("melee_by", [])) if moved else 0, dodge, rounds, metres)

    @staticmethod
    def _numbers_of(inputs: tuple) -> dict[str, Any] | None:
        """A shot's figures from its :meth:`_shot_inputs` alone; None when out of range."""
        (arm, f, ft, band, situational, hard, moved, wound, rough, melee, dodge,
         rounds, metres) = inputs
        base = c.base_tn(band)
        if base is None:
            return None
        skill = f.skill(arm.skill)
        code = arm.damage(f.strength)
        resist = ft.resist_dice + dodge
        auto = ft.ballistic + hard
        common = dict(situational=situational, moved=moved, wound=wound, rough=rough,
                      laser=arm.laser, melee_attackers=melee)
        shots = 1
        tn = c.target_number(base, **common)
        if arm.mode == "FA" and skill > 0:
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

    def _numbers(self, a: CharacterState, t: CharacterState, s: Sight, movement_fire: bool
                 ) -> dict[str, Any] | None:
        inputs = self._shot_inputs(a, t, s, movement_fire)
        return None if inputs is None else self._numbers_of(inputs)

    def plan_shot(self, a: CharacterState, t: CharacterState, movement_fire: bool
                  ) -> ShotPlan | None:
        line = self.line_of_fire(a, t)
        if line is None:
            return None
        n = self._numbers(a, t, line[0], movement_fire)
        if n is None:
            return None
        return self._plan(n)

    @staticmethod
    def _plan(n: dict[str, Any]) -> ShotPlan:
        text = n["damage_code"]
        code = _CODES.get(text)
        if code is None:
            code = _CODES[text] = c.parse_code(text)  # (a frozen DamageCode)
        p, e = c.expected_boxes(code, n["pool"], n["target_number"], n["resist_pool"],
                                n["armor"] + n["hard_cover"])
        k = n["shots"]
        return ShotPlan(1 - (1 - p) ** k, e * k, n)

    def shot_value(self, shooter: CharacterState, spos: tuple[int, int, int],
                   target: CharacterState, tpos: tuple[int, int, int], movement_fire: bool,
                   target_posture: str | None = None) -> float:
        """Expected boxes of one Action's fire from ``spos`` at ``tpos``: the dice odds."""
        s = self.shot_sight(shooter, spos, target, tpos, target_posture)
        if s is None:
            return 0.0
        inputs = self._shot_inputs(shooter, target, s, movement_fire)
        if inputs is None:
            return 0.0
        return self.priced(inputs)

    @classmethod
    def priced(cls, inputs: tuple) -> float:
        """Expected boxes of the shot of these :meth:`_shot_inputs`, kept by them but the
        metres (only the range band they fall in counts): the bots price tens of thousands
        of shots a game, most of them the same figures from another dot.  (The weapon's
        figures are keyed by value, each game makes its own; the fighters' by their ids,
        which the entry holds, so an id is not reused while it is kept.)"""
        f, ft = inputs[1], inputs[2]
        key = (inputs[0], id(f), id(ft), *inputs[3:-1])  # (not the metres: the band)
        got = _PRICES.get(key)
        if got is not None and got[0] is f and got[1] is ft:
            return got[2]
        n = cls._numbers_of(inputs)
        value = 0.0 if n is None else cls._plan(n).expected
        if len(_PRICES) > 65536:
            _PRICES.clear()
        _PRICES[key] = (f, ft, value)
        return value

    def reaction_hold(self, r: CharacterState, m: CharacterState, plan: ShotPlan
                      ) -> str | None:
        return None if plan.p_hit > 0.25 else f"P(hit) {plan.p_hit:.2f} too low"

    def resolve_shot(self, a: CharacterState, t: CharacterState, plan: ShotPlan,
                     reaction: bool) -> None:
        """Each bullet its own attack (l.1384): the Firearms Test, staging, the target's
        Resistance Test with Body and Dodge Pool dice, armor and hard cover (l.1340-1372)."""
        w = a.ready_weapon
        n = plan.numbers
        shots = n["shots"] if w.loaded is None else max(1, min(n["shots"], w.loaded))
        if w.loaded is not None:
            w.loaded -= shots
        w.fired_this_turn += 1
        code = c.parse_code(n["damage_code"])
        self.log.record("fire", attacker=a.id, target=t.id, weapon=w.name,
                        **{k: v for k, v in n.items() if k != "resist_pool"}, fired=shots)
        for i in range(shots):
            if t.out:
                break
            att = self._test("reaction fire" if reaction else "movement fire", a, n["pool"],
                             n["target_number"], target=t.id, attacker=a.id, shot=i + 1,
                             skill=n["skill"])
            if att.successes == 0:
                self.log.record("miss", attacker=a.id, target=t.id, shot=i + 1)
                continue
            self._resist_and_mark(a.id, t, code, att.successes, dodge=True,
                                  armor=self.fighter(t).ballistic, hard=n["hard_cover"],
                                  armor_key="ballistic")

    def _resist_and_mark(self, source: str, t: CharacterState, code: c.DamageCode,
                         attack_successes: int, dodge: bool, armor: int, hard: int,
                         armor_key: str, stage_up: bool = True, **detail: Any) -> None:
        ft = self.fighter(t)
        dodge_dice = 0
        if dodge:
            used = t.condition.turn.get("dodge_used", 0)
            dodge_dice = max(ft.dodge_pool - used, 0)  # the whole pool: "use it liberally"
            t.condition.turn["dodge_used"] = used + dodge_dice
        body = self._test("resistance", t, ft.resist_dice, code.power, auto=armor + hard,
                          event="resist", damage_code=str(code))
        dodged = self._test("dodge", t, dodge_dice, code.power, event="resist") \
            if dodge_dice else None
        total = body.successes + (dodged.successes if dodged else 0)
        st = c.stage(code, attack_successes, total, stage_up)
        clean = dodged is not None and c.dodged(code, st.level_after_attack, dodged.successes)
        info = {**st.to_data(), "armor": armor, "hard_cover": hard,
                "dodge_successes": dodged.successes if dodged else 0, **detail}
        if st.above_deadly and getattr(ft, armor_key) > 0:
            stats = t.condition.stats
            stats[armor_key] = max(int(stats.get(armor_key, 0)) - st.above_deadly, 0)
        if clean or st.level is None:
            self.log.record("no-damage", target=t.id, source=source,
                            why="successful dodge (l.1250)" if clean else "staged to nothing",
                            **info)
            return
        info.pop("boxes")
        self.damage(t, st.boxes, "stun" if code.stun else "physical", source, **info)

    # ================================================================== damage
    def damage(self, victim: CharacterState, amount: int, kind: str, source: str,
               **detail: Any) -> None:
        """Fill ``amount`` boxes of the Physical or Mental track (l.1372, l.1494-1498)."""
        if victim.condition.dead:
            return
        res = victim.condition.apply(int(amount), stun=kind == "stun")
        self.log.record("damage", target=victim.id, source=source, boxes=int(amount),
                        damage=kind, **res, **detail)
        self.consequences(victim, False)

    # ================================================================== melee
    def _melee_code(self, ch: CharacterState) -> tuple[c.DamageCode, int, int, str]:
        """(damage code, skill dice, reach, name) of his ready melee weapon or bare hands."""
        f = self.fighter(ch)
        w = ch.ready_weapon
        arm = self.arm_of(ch)
        if is_melee_weapon(w) and arm is not None and arm.kind == "melee":
            return arm.damage(f.strength), f.skill("armed_combat"), arm.reach, arm.name
        return c.unarmed_code(f.strength), f.skill("unarmed_combat"), 0, "unarmed"

    def resolve_melee(self, m: CharacterState, t: CharacterState) -> bool:
        """A defender not yet attacked in melee this turn counterattacks (an Opposed Test,
        both TN 4, l.1204-1216); one already attacked opposes with his Defense Pool only
        (l.1226-1236); one with no dice avoids it: an unopposed attack he resists with Body,
        Dodge Pool and Impact armor (l.1196-1200).  Superior reach is -1 TN (l.1196)."""
        code_a, dice_a, reach_a, name_a = self._melee_code(m)
        code_d, dice_d, reach_d, name_d = self._melee_code(t)
        before = list(t.condition.turn.get("melee_by", []))
        t.condition.turn.setdefault("melee_by", []).append(m.id)
        t.arcs = []
        tn_a = c.melee_tn(reach_a > reach_d, wound=m.condition.modifier).target_number
        if dice_d == 0 or t.posture == PRONE or t.out:
            att = self._test("melee", m, dice_a, tn_a, target=t.id, weapon=name_a,
                             procedure="defender avoiding (l.1194-1200)")
            if att.successes:
                self._resist_and_mark(m.id, t, code_a, att.successes, dodge=True,
                                      armor=self.fighter(t).impact, hard=0, armor_key="impact")
            return att.successes > 0
        procedure = ("more than two: Defense Pool (l.1226-1236)" if before
                     else "defender counterattacking (l.1204-1216)")
        tn_d = c.melee_tn(reach_d > reach_a, wound=t.condition.modifier).target_number
        att = self._test("melee", m, dice_a, tn_a, target=t.id, weapon=name_a,
                         procedure=procedure)
        dfn = self._test("counterattack", t, dice_d, tn_d, target=m.id, attacker=t.id,
                         weapon=name_d, procedure=procedure)
        who, net = c.opposed(att.successes, dfn.successes)
        self.log.record("melee", attacker=m.id, defender=t.id, winner=who, net=net)
        if who == "attacker":
            self._resist_and_mark(m.id, t, code_a, net, dodge=False,
                                  armor=self.fighter(t).impact, hard=0, armor_key="impact")
        elif who == "defender":
            self._resist_and_mark(t.id, m, code_d, net, dodge=False,
                                  armor=self.fighter(m).impact, hard=0, armor_key="impact")
        return who == "attacker"

    def melee_value(self, a: CharacterState, d: CharacterState) -> float:
        code, dice, reach, _n = self._melee_code(a)
        fd = self.fighter(d)
        tn = c.melee_tn(reach > self._melee_code(d)[2], wound=a.condition.modifier)
        return c.expected_boxes(code, dice, tn.target_number, fd.resist_dice, fd.impact)[1]

    def resolve_move_by(self, e: CharacterState, m: CharacterState) -> None:
        """Interception: a free melee attack at TN 5 (6 if he moved this turn), only his
        wounds modifying it (l.1086-1090); the mover resists as one avoiding combat."""
        code, dice, _reach, name = self._melee_code(e)
        moved = e.condition.turn.get("moved", False) or e.mp_spent > 0
        tn = c.interception_tn(moved, e.condition.modifier).target_number
        att = self._test("move-by attack", e, dice, tn, target=m.id, attacker=e.id,
                         weapon=name, rule="Interception (seed 004 l.1086-1090)",
                         assumed=c.ASSUMED["interception"])
        if att.successes:
            self._resist_and_mark(e.id, m, code, att.successes, dodge=True,
                                  armor=self.fighter(m).impact, hard=0, armor_key="impact")

    # ================================================================== grenades
    def resolve_throw(self, m: CharacterState, w: Any, at: tuple[int, int, int], dots: int,
                      s: Sight) -> tuple[tuple[int, int, int], bool]:
        """Max scatter 2d6/3d6/4d6 in a 1d6 direction, less 3 or 5 m per Throwing success
        against the range TN (l.1279-1309)."""
        arm = self.arm_of(m, m.weapons.index(w)) or c.arm(w.type, {}, w.name)
        f = self.fighter(m)
        kind = arm.scatter if arm.scatter in c.GRENADE_SCATTER else "non-aerodynamic"
        face = self.dice.d6()
        dice = [self.dice.d6() for _ in range(c.scatter_dice(kind))]
        band = c.grenade_band(f.strength, dots * METERS_PER_DOT)
        base = c.base_tn(band)
        if base is None:
            successes = 0
            tn_data: dict[str, Any] = {"range_band": band}
        else:
            tn = c.target_number(base, s.visibility, moved=m.mp_spent > 0,
                                 wound=m.condition.modifier)
            roll = self._test("throwing", m, f.skill(arm.skill), tn.target_number,
                              aimed=list(at), range_band=band,
                              modifiers=dict(tn.modifiers), assumed=c.ASSUMED["grenade-range"])
            successes = roll.successes
            tn_data = {"range_band": band, "target_number": tn.target_number}
        metres = c.scatter_metres(sum(dice), successes, kind)
        land = at
        if metres > 0:
            p, q = self.point(m.pos), self.point(at)
            base_dir = 0.0 if p == q else math.degrees(math.atan2(q[1] - p[1], q[0] - p[0]))
            steps = int(round(metres / METERS_PER_DOT))
            cr = step_towards(self.board.lattice, at[:2], base_dir + c.scatter_direction(face),
                              steps)
            land = (cr[0], cr[1], at[2])
        self.log.record("scatter", thrower=m.id, aimed=list(at), landed=list(land),
                        direction_roll=face, scatter_dice=dice, max_scatter_m=sum(dice),
                        successes=successes, scatter_m=metres, grenade=kind, **tn_data,
                        assumed=c.ASSUMED["scatter-direction"])
        return land, metres == 0

    def resolve_grenade(self, g: PendingGrenade) -> None:
        """The blast: everyone it reaches resists the code less 1 Power per 2 m (offensive)
        or per metre with Body dice, no Dodge, Ballistic armor free (l.1313-1332); walls in
        between stop it, hard cover adds its rating (assumed)."""
        thrower = self.state.characters.get(g.thrower)
        arm = None
        if thrower is not None:
            idx = next((i for i, w in enumerate(thrower.weapons) if w.type == g.type), None)
            arm = self.arm_of(thrower, idx) if idx is not None else None
        if arm is None or not arm.code or "smoke" in g.type:
            turn.lay_smoke(self, g)
            return
        code = arm.damage()
        self.log.record("blast", thrower=g.thrower, grenade=g.type, at=list(g.at),
                        damage_code=str(code), payload=arm.payload,
                        safe_distance_m=c.blast_radius(code, arm.payload))
        for ch in list(self.state.characters.values()):
            if ch.out or ch.pos is None or ch.pos[2] != g.at[2]:
                continue
            metres = self.board.lattice.distance(g.at[:2], ch.pos[:2]) * METERS_PER_DOT
            got = c.blast_code(code, arm.payload, metres)
            if got is None:
                continue
            hard = 0
            if ch.pos != g.at:
                s = self.board.sight(g.at, ch.pos, STANDING, ch.posture, "normal")
                if s.blocked:
                    self.log.record("blast-stopped", target=ch.id, by=s.details.get("blocked_by"),
                                    rule="impenetrable cover (l.1396)")
                    continue
                hard = self._hard_cover(s)
            self.log.record("test", purpose="grenade blast", target=ch.id, attacker=g.thrower,
                            damage_code=str(got), metres=metres, success=True,
                            rule="no attack test: the blast reaches him, and grenade damage "
                                 "does not stage up (seed 004 l.1311-1322)")
            self._resist_and_mark(g.thrower, ch, got, 0, dodge=False,
                                  armor=self.fighter(ch).ballistic, hard=hard,
                                  armor_key="ballistic", stage_up=False, metres=metres,
                                  **({"assumed": c.ASSUMED["grenade-cover"]} if hard else {}))
        obj_rules.check_eliminations(self.state, self.objectives, self.log)

    # ================================================================== barriers
    def breach_problem(self, m: CharacterState, b: BarrierInfo, w: Any) -> str | None:
        arm = self.arm_of(m)
        if arm is None or arm.kind != "firearm":
            return f"{m.id} has no firearm ready"
        band = c.range_band(arm.range_row, max(1, b.distance) * METERS_PER_DOT)
        if c.base_tn(band) is None:
            return f"{b.feature} is out of range of the {w.name}"
        return None

    def resolve_breach(self, m: CharacterState, b: BarrierInfo, w: Any) -> None:
        """A shot at a barrier (assumed: seed 004 gives hard cover ratings, not how they
        break): a hit whose staged Power beats the rating takes a point off it; at 0 it is
        holed."""
        arm = self.arm_of(m)
        f = self.fighter(m)
        band = c.range_band(arm.range_row, max(1, b.distance) * METERS_PER_DOT)
        tn = c.target_number(c.base_tn(band) or c.SHORT_BASE_TN, moved=m.mp_spent > 0,
                             wound=m.condition.modifier)
        if w.loaded is not None:
            w.loaded -= 1
        w.fired_this_turn += 1
        roll = self._test("fire at barrier", m, f.skill(arm.skill), tn.target_number,
                          barrier=b.feature, modifiers=dict(tn.modifiers))
        if roll.successes == 0:
            return
        st = self.state
        lost = st.barrier_damage.get(b.feature, 0)
        rating = max(b.barrier - lost, 0)
        code = arm.damage(f.strength)
        power = code.power + (roll.successes - 1) // code.staging
        res = c.barrier_hit(power, rating)
        self.log.record("barrier-damage", feature=b.feature, **res)
        if res["damaged"]:
            st.barrier_damage[b.feature] = lost + 1
        if res["holed"] and b.feature not in st.holes:
            st.holes.append(b.feature)
            self.board.open_hole(b.feature)
            self.log.record("hole", feature=b.feature)

    def fall(self, ch: CharacterState, stories: int) -> None:
        """Seed 004 has no falling rule: the fall is logged and does no damage."""
        self.log.record("fall-damage", who=ch.id, stories=stories, boxes=0,
                        rule="no falling rule in seed 004")

    def _do_arc(self, kind: str, direction: float) -> None:
        raise PlayError("sr1 has no reaction arcs: an enemy moving next to a character may "
                        "be intercepted instead (seed 004 l.1086-1090)")


__all__ = ["SR1Game"]
