"""A game in play: state + board + dice + log, changed only by actions.

:class:`Game` is the referee.  Callers (the editor's play mode, the bots, the tests) hand it
one action at a time (:mod:`engine.play.actions` builds them); it checks the action is legal,
charges its MP, lets every reacting character whose arc holds the mover fire first, then
carries the action out, and writes every roll and modifier to the log.  The turn sequence
itself (initiative, team phases, grenades at the end of a phase) is :mod:`engine.play.turn`.

Everything random comes from :class:`engine.play.dice.Dice`, so the same seed and the same
actions replay the same game; :meth:`Game.to_data` saves a game in progress.

``Game`` is also the skeleton every ruleset plays through: the DMZ rules sit behind the hook
methods listed under "hooks" below, and ``engine/play/<ruleset>_game.py`` subclasses override
them (Shadowrun's metres, initiative passes, target numbers and staged damage...).  Build games
through :mod:`engine.play.referees`, which picks the class by the scenario's ruleset.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from engine.atomic_file import atomic_write
from engine.model import Character, Objective, Scenario
from engine.play import objectives as obj_rules
from engine.play import turn
from engine.play.actions import COSTS
from engine.play.board_view import BarrierInfo, BoardView, Sight
from engine.play.condition import FULL_MP, PHYSICAL, Condition, ConditionMonitor
from engine.play.cover import character_cover
from engine.play.dice import Dice
from engine.play.errors import PlayError
from engine.play.events import EventLog
from engine.play.grenades import MAX_THROW, accuracy_target_value, scatter_point, throw_mp
from engine.play.reaction import (
    ARCS,
    Arc,
    ReactionTally,
    arc_cost,
    arcs_allowed,
    owes_free_shot,
    spend_tally,
)
from engine.play.referee_areas import across, across_dots
from engine.play.referee_areas import restore as restore_areas
from engine.play.referee_blind import blind_fire
from engine.play.referee_effects import burden
from engine.play.referee_levels import (
    fall_damage,
    fall_target_value,
    fall_targets,
    may_stop_on,
    riders,
)
from engine.play.referee_levitate import levitate
from engine.play.referee_melee import melee_attack, melee_contact
from engine.play.referee_spells import cast as cast_spell
from engine.play.referee_spells import react_with_spell
from engine.play.referee_sustain import drop as drop_spell
from engine.play.referee_sustain import drop_all, sees, tick
from engine.play.shots import ShotPlan, p_success
from engine.play.state import PRONE, STANDING, CharacterState, GameState, PendingGrenade, named_dot
from engine.play.weapons import (
    defense_type,
    grenade_kind,
    minimum_range_penalty,
    range_limit,
    range_step,
)
from engine.rules.base import METERS_PER_DOT

FORMAT = "sprawlmap/game@1"

PRONE_MP = COSTS["prone"]
STAND_MP = COSTS["stand"]
READY_MP = COSTS["ready"]
FIRE_MP = COSTS["fire"]
MELEE_MP = COSTS["melee"]
MOVEMENT_FIRE_MODIFIER = 2
OPEN_MP = {"door": COSTS["open-door"], "window": COSTS["open-window"]}
HOLE_AFTER = 6  # boxes a barrier takes before a hole opens
#: action kinds whose cost is :data:`engine.play.actions.COSTS`'s fixed MP under DMZ
FIXED_COST = {"fire": "fire", "breach": "fire", "ready": "ready", "reload": "reload",
              "prone": "prone", "stand": "stand", "melee": "melee",
              "open-door": "open-door", "open-window": "open-window"}


def _num(x: float) -> str:
    """A budget figure as the player reads it: 3 (MP), 7.5 (metres)."""
    return f"{x:g}" if isinstance(x, float) else str(x)


class Game:
    """Referee of one game: the DMZ rules, and the skeleton other rulesets subclass.

    Hooks (override in ``engine/play/<ruleset>_game.py``; DMZ behaviour here):

    * ``ruleset_name``, ``units``, ``can_hold_arcs``, ``per_character_initiative``: class facts.
    * :meth:`condition_for` the condition track of a new character.
    * :meth:`new_turn_order` the activation order, asked at the start of every turn.
    * :meth:`refresh` one character's reset when his team's phase (activation) opens.
    * :meth:`allowance` movement budget of one activation, in ``units``.
    * :meth:`action_slots` actions per activation not paid from the movement budget.
    * :meth:`cost` / :meth:`affords` what an action takes; whether a character has it left.
    * :meth:`plan_shot` a :class:`~engine.play.shots.ShotPlan` (odds, expected damage, numbers).
    * :meth:`reaction_hold` why a reacting character holds his fire (None: he shoots).
    * :meth:`resolve_shot` roll a planned shot and apply its damage.
    * :meth:`shot_value` expected damage of one shot from/to any dots (the bots' odds).
    * :meth:`damage` mark a victim's condition, with its consequences.
    * :meth:`damage_barrier` damage to a wall/door/window (holes).
    * :meth:`breach_problem` / :meth:`resolve_breach` fire at a barrier: may he; the roll.
    * :meth:`resolve_melee` a melee attack (and the defender's answer); :meth:`resolve_move_by`
      the free blow at a mover slipping past.
    * :meth:`resolve_throw` where a thrown grenade lands (accuracy, scatter).
    * :meth:`resolve_grenade` a landed grenade going off (called by ``turn.resolve_grenades``).
    * :meth:`fall` the test and damage of a fall of ``stories``.
    * :meth:`melee_value` expected damage of a melee attack (the bots' odds).
    """

    #: the ruleset this referee plays (``scenario.ruleset``); saved with the game
    ruleset_name: str = "dmz1990"
    #: units of the movement budget, the board's step costs and the log's ``spend`` events
    units: str = "MP"
    #: reaction arcs exist (DMZ); a ruleset without them refuses the ``arc`` action
    can_hold_arcs: bool = True
    #: a character may hold his action to take it when an enemy acts (Shadowrun's delayed
    #: action, the ``delay`` action); the bots ask before they wait with one
    can_delay: bool = False
    #: a character may Take Aim at a target (the ``aim`` action, sr3)
    can_aim: bool = False
    #: a character who waits fires at an enemy stepping into his line before that enemy
    #: acts (DMZ's arcs, sr3's delays, darkcon's aims); the bots' holders then post where
    #: they cover the way in, and stay out of sight where nothing of the kind exists
    holders_fire_first: bool = True
    #: every character is his own team in the turn order, whatever ``initiative:`` says
    per_character_initiative: bool = False

    def __init__(self, state: GameState, board: BoardView, dice: Dice,
                 objectives: list[Objective], min_chance: int = 3) -> None:
        self.state = state
        self.board = board
        self.dice = dice
        self.log = dice.log
        self.objectives = objectives
        #: reacting characters hold their fire below this success chance (saves ammunition)
        self.min_chance = min_chance
        self.actions: list[dict[str, Any]] = []
        self.wire()

    def wire(self) -> None:
        """Let every character's ``mp`` ask this referee's :meth:`allowance`."""
        allowance = None if type(self).allowance is Game.allowance else self.allowance
        for ch in self.state.characters.values():
            ch.allowance_of = allowance

    # ================================================================== hooks
    def condition_for(self, ch_model: Character) -> Condition:
        """The condition track a character of the scenario starts with (DMZ: 13 boxes)."""
        return ConditionMonitor()

    def new_turn_order(self) -> list[str]:
        """Activation order of the turn that starts now (team ids; with per-character
        initiative character ids, one listed again per extra pass).  DMZ: rolled in the
        first turn, kept after."""
        if self.state.order:
            return list(self.state.order)
        return turn.initiative_order(self)

    def refresh(self, ch: CharacterState) -> None:
        """His team's phase opens: arcs come down, the budget and actions are his again."""
        if ch.arcs:
            self.log.record("arcs-removed", who=ch.id, why="own team moves again")
        ch.arcs = []
        ch.mp_spent = 0
        ch.slots_spent = 0
        ch.moved = False
        ch.movement_ended = False
        for w in ch.weapons:
            w.fired_this_turn = 0
        if ch.sustained:
            tick(self, ch)

    def allowance(self, ch: CharacterState) -> float:
        """Movement budget of one activation in :attr:`units` (DMZ: the Condition Monitor's
        MP).  Must not read ``ch.mp``/``ch.mp_left`` (they ask this)."""
        return ch.condition.mp

    def action_slots(self, ch: CharacterState) -> int:
        """Actions of one activation not paid from the budget (DMZ: 0, all cost MP)."""
        return 0

    def fire_modes(self, ch: CharacterState) -> list[str]:
        """Fire modes the ``fire`` action may ask of ``ch``'s ready gun (DMZ: none)."""
        return []

    def slots_left(self, ch: CharacterState) -> int:
        return self.action_slots(ch) - ch.slots_spent

    def cost(self, kind: str, ch: CharacterState, distance: int | None = None,
             weapon: Any = None) -> tuple[float, int]:
        """(budget units, action slots) an action of ``kind`` takes: fire, ready, reload,
        prone, stand, melee, throw (``distance`` in dots; ``weapon`` the grenade, else the
        ready one), open-door, open-window, arc-narrow / arc-intermediate / arc-wide, exit,
        breach."""
        if kind in FIXED_COST:
            return COSTS[FIXED_COST[kind]], 0
        if kind.startswith("arc-"):
            return arc_cost(kind[4:]), 0
        if kind == "exit":
            return self.min_step(ch), 0  # DMZ: the move ratio
        if kind == "throw":
            w = weapon if weapon is not None else ch.ready_weapon
            gk = grenade_kind(w.type) if w is not None else None
            return throw_mp(distance or 0, gk.aerodynamic if gk else False), 0
        raise PlayError(f"no cost for {kind!r}")

    def affords(self, ch: CharacterState, kind: str, distance: int | None = None,
                weapon: Any = None) -> bool:
        """Has ``ch`` the budget and actions left for ``kind`` (bots and the UI ask)?
        Never an arc under a ruleset without them."""
        if kind.startswith("arc-") and not self.can_hold_arcs:
            return False
        units, slots = self.cost(kind, ch, distance, weapon)
        return ch.mp_left >= units and self.slots_left(ch) >= slots

    def plan_actions(self, ch: CharacterState, kinds: tuple[str, ...],
                     distance: int | None = None, weapon: Any = None
                     ) -> list[tuple[str, ...]] | None:
        """The activations, this one first, in which ``ch`` can take the actions ``kinds`` one
        after the other (a bot's plan, e.g. ready a grenade then throw it), or None.  DMZ: all
        in this activation or not at all (a weapon readied stays ready, but DMZ's bots never
        plan across turns); a ruleset whose actions are counted per phase spreads them."""
        units = slots = 0.0
        for k in kinds:
            u, n = self.cost(k, ch, distance, weapon)
            units += u
            slots += n
        if ch.mp_left >= units and self.slots_left(ch) >= slots:
            return [tuple(kinds)]
        return None

    def spread_plan(self, ch: CharacterState, kinds: tuple[str, ...],
                    distance: int | None = None, weapon: Any = None
                    ) -> list[tuple[str, ...]] | None:
        """:meth:`plan_actions` for a ruleset with one action an activation (sr1's Action
        Phases, darkcon's Combat Actions): what fits this activation goes in it, the rest one
        a later activation; None when an action costs movement or fits in no activation."""
        plan: list[list[str]] = [[]]
        left = self.slots_left(ch)
        for k in kinds:
            units, n = self.cost(k, ch, distance, weapon)
            if units > 0:
                return None
            if n > left:
                n = self.slots_when_fresh(k, ch, n, distance, weapon)
                if n is None or n > 1:
                    return None
                plan.append([])
                left = 1
            plan[-1].append(k)
            left -= n
        return [tuple(p) for p in plan]

    def slots_when_fresh(self, kind: str, ch: CharacterState, slots: int,
                         distance: int | None = None, weapon: Any = None) -> int | None:
        """Action slots ``kind`` takes at the start of a later activation, ``slots`` now;
        None if never (:meth:`spread_plan`)."""
        return slots

    def grenade_reach(self, ch: CharacterState, weapon: Any) -> int:
        """Dots from the burst a bot keeps its friends beyond and throws no nearer than (DMZ:
        3, the bots' rule of thumb for a blast)."""
        return 3

    def min_step(self, ch: CharacterState) -> float:
        """What the cheapest step costs in :attr:`units` (DMZ: the move ratio; a metre
        ruleset: one dot, 2 m): less budget than this and a character stays put."""
        return ch.move_ratio if self.units == "MP" else METERS_PER_DOT

    @classmethod
    def turn_budget(cls, ch_model: Character) -> float:
        """Movement a character of the scenario has in a whole turn, unhurt, in
        :attr:`units` (DMZ: 12 MP): what the report's unopposed estimate walks with."""
        return FULL_MP

    # ================================================================== creation
    @classmethod
    def new(cls, scenario: Scenario, board: BoardView, seed: int,
            deployment: dict[str, tuple[int, int, int]] | None = None,
            turn_limit: int | None = None) -> Game:
        """Set up a game: characters deployed, initiative rolled, first phase begun."""
        from engine.play.state import initial_state

        log = EventLog()
        dice = Dice(seed, log)
        sides = [s.id for s in scenario.sides]
        objectives = list(scenario.objectives) or obj_rules.implicit_objectives(sides)
        game = cls(GameState(), board, dice, objectives)
        game.read_conditions(dict(scenario.conditions))
        state = initial_state(scenario, game.condition_for)
        if turn_limit is not None:
            state.turn_limit = turn_limit
        if state.turn_limit is None:
            state.turn_limit = turn.DEFAULT_TURN_LIMIT
        if cls.per_character_initiative:
            state.initiative = "character"
        game.state = state
        game.wire()
        log.record("start", title=scenario.title, seed=seed, sides=sides)
        turn.deploy(game, scenario, deployment or {})
        turn.start_turn(game)
        return game

    def read_conditions(self, conditions: dict[str, Any]) -> None:
        """Take what the referee needs from the scenario's ``conditions:`` before the first
        turn is set up (darkcon: the side in ambush).  DMZ: nothing."""

    # ================================================================== lookups
    def char(self, cid: str) -> CharacterState:
        try:
            return self.state.characters[cid]
        except KeyError:
            raise PlayError(f"no character {cid!r}") from None

    @property
    def mover(self) -> CharacterState:
        if self.state.active is None:
            raise PlayError("no character is moving; begin one first")
        return self.state.characters[self.state.active]

    def movable(self) -> list[str]:
        """Characters who may begin their Movement Phase now (for a play-mode UI)."""
        st = self.state
        if st.finished or st.active is not None:
            return []
        return [c.id for c in st.members(st.current_team) if not c.moved and not c.out]

    def point(self, dot: tuple[int, int, int]) -> tuple[float, float]:
        return self.board.lattice.point(dot[:2])

    def in_arcs(self, reactor: CharacterState, dot: tuple[int, int, int] | None) -> bool:
        arcs = reactor.arcs
        if dot is None or not arcs:  # (asked of every reactor at every step: no generator)
            return False
        p = self.point(dot)
        for a in arcs:
            if a.contains(p):
                return True
        return False

    def reactors(self, mover: CharacterState) -> list[CharacterState]:
        """The enemies of ``mover`` holding an arc (``enemies_of``, filtered in one pass: the
        referee asks at every step and every action of every mover)."""
        side = mover.side
        return [c for c in self.state.characters.values()
                if c.side != side and c.arcs and not c.out]

    # ================================================================== actions
    def act(self, action: dict[str, Any]) -> None:
        """Carry out one action (see :mod:`engine.play.actions`)."""
        if self.state.finished:
            raise PlayError("the game is over")
        kind = action.get("act")
        handler = getattr(self, f"_do_{kind}", None) if isinstance(kind, str) else None
        if handler is None:
            raise PlayError(f"unknown action {kind!r}")
        args = {k: v for k, v in action.items() if k not in ("act", "why")}
        if isinstance(action.get("why"), dict):
            # a bot's reasons for this action ("why this dot"): logged, replayed with it
            self.log.record("why", act=kind, **action["why"])
        handler(**args)
        self.actions.append(dict(action))
        if self.state.active is not None:
            m = self.state.characters[self.state.active]
            if m.out or m.movement_ended:
                self._finish_mover()
        turn.advance(self)

    # ------------------------------------------------------------------ begin / end
    def _do_begin(self, who: str) -> None:
        if self.state.active is not None:
            raise PlayError(f"{self.state.active} is still moving")
        ch = self.char(who)
        if self.state.team_of(ch) != self.state.current_team:
            raise PlayError(f"{who} is not in the team whose phase it is")
        if ch.moved or ch.out:
            raise PlayError(f"{who} cannot move this phase")
        self.state.active = who
        self.state.left_arc = []
        self.state.melee_passed = []
        self.state.tallies = {}
        for r in self.reactors(ch):
            t = ReactionTally(r.fire_ratio, started_in_arc=self.in_arcs(r, ch.pos))
            self.state.tallies[r.id] = t.to_data()
        self.log.record("begin", who=who, pos=list(ch.pos), mp=ch.mp,
                        in_arcs=[k for k, v in self.state.tallies.items() if v["started_in_arc"]],
                        **self._units())

    def _do_end(self, force: bool = False) -> None:
        """End the mover's phase.  He may not stop on another character's dot; ``force`` is
        the way out for a mover stuck there (interrupted or out of MP), and is logged."""
        m = self.mover
        why = may_stop_on(self.state, self.board, m, m.pos) if m.pos is not None else None
        if why:
            if not force:
                raise PlayError(why)
            occ = next(c for c in self.state.characters.values()
                       if c is not m and not c.out and c.pos == m.pos)
            self.log.record("stacked", who=m.id, on=occ.id)
        self._finish_mover()

    def _finish_mover(self) -> None:
        m = self.mover
        # a mover who began in an arc and drew no attack still draws one (the arcs asked
        # only of a tally that still owes it)
        for rid in list(self.state.tallies):
            t = self.state.tallies.get(rid)
            if t is None or not owes_free_shot(t):
                continue
            r = self.state.characters[rid]
            if not m.out and self.in_arcs(r, m.pos):
                self._free_shot(r, m)
        m.moved = True
        self.log.record("end", who=m.id, mp_spent=m.mp_spent,
                        pos=list(m.pos) if m.pos else None, **self._units())
        self.state.active = None
        self.state.tallies = {}
        obj_rules.check_position(self.state, self.objectives, m, self.log)

    # ------------------------------------------------------------------ MP and reaction
    def _need(self, m: CharacterState, cost: tuple[float, int], what: str) -> None:
        units, slots = cost
        if m.mp_left < units:
            raise PlayError(f"{m.id} has {_num(m.mp_left)} {self.units} left, {what} costs "
                            f"{_num(units)}")
        if slots and self.slots_left(m) < slots:
            raise PlayError(f"{m.id} has {self.slots_left(m)} action(s) left, {what} takes "
                            f"{slots}")
        if m.arcs and what != "reaction arc":
            raise PlayError("reaction arcs are the last thing a character does")

    @staticmethod
    def _upright(m: CharacterState, what: str) -> None:
        """A prone character may only crawl, stand, fire or set one narrow arc."""
        if m.posture == PRONE:
            raise PlayError(f"{m.id} is prone: stand up before {what}")

    def _spend(self, m: CharacterState, cost: tuple[float, int], what: str) -> bool:
        """Charge ``cost`` and let reacting characters fire.  True if the action goes ahead."""
        self._charge(m, cost, what)
        return self._react(m, cost[0])

    def _charge(self, m: CharacterState, cost: tuple[float, int], what: str) -> None:
        units, slots = cost
        m.mp_spent += units
        if slots:
            m.slots_spent += slots
            self.log.record("spend", who=m.id, mp=units, what=what, spent=m.mp_spent, of=m.mp,
                            slots=slots, slots_spent=m.slots_spent, **self._units())
        else:
            self.log.record("spend", who=m.id, mp=units, what=what, spent=m.mp_spent, of=m.mp,
                            **self._units())

    def _units(self) -> dict[str, str]:
        """``units`` for the log's budget events when they are not DMZ's MP."""
        return {} if self.units == "MP" else {"units": self.units}

    def _react(self, m: CharacterState, mp: int) -> bool:
        """Every reacting character whose arc holds the mover counts ``mp`` against his
        Fire Ratio and takes the attacks it earns, before the mover's action happens."""
        for r in self.reactors(m):
            if not self.in_arcs(r, m.pos):
                continue
            # (the tally's data counted in place: ReactionTally.spend without the object)
            tallies = self.state.tallies
            tally = tallies.get(r.id)
            if tally is None:
                tally = ReactionTally(r.fire_ratio).to_data()
            shots = spend_tally(tally, mp)
            tallies[r.id] = tally
            self.log.record("reaction-count", reactor=r.id, mover=m.id, mp=mp,
                            unresolved=tally["unresolved"], attacks=shots)
            if shots:
                self._reaction_attacks(r, m, shots)
        return not (m.out or m.movement_ended)

    def _reaction_attacks(self, r: CharacterState, m: CharacterState, shots: int) -> None:
        """``shots`` reaction attacks of ``r`` at ``m`` in a row.  An attack he holds changes
        nothing but the log (no roll, no ammunition, no spell), so the next one would hold for
        the same reason: it is logged again without planning the shot again (a fifth of the
        DMZ samples' reaction attacks are such repeats, most of them "no line of fire")."""
        held = None
        for _ in range(shots):
            if m.out:
                break
            if held is None:
                held = self._reaction_attack(r, m)
            else:
                self.log.record("reaction-hold", reactor=r.id, target=m.id, why=held)

    def _free_shot(self, r: CharacterState, m: CharacterState) -> None:
        tally = self.state.tally(r.id)
        if tally is None:
            return
        if tally.free_shot():
            self.state.tallies[r.id] = tally.to_data()
            self.log.record("reaction-free", reactor=r.id, mover=m.id)
            self._reaction_attack(r, m)

    def _reaction_attack(self, r: CharacterState, m: CharacterState) -> str | None:
        """One reaction attack of ``r`` at ``m``; the reason logged if he held his fire (the
        attack then changed nothing else), None if he fired, cast, or had no attack."""
        if r.out or not r.arcs:
            return None
        if r.spells and react_with_spell(self, r, m):
            return None  # a mage cast a combat spell into his arc instead (seed 000 l.1461)
        w = r.ready_weapon
        if w is None or w.is_grenade or not w.can_fire():
            why = "no shot in the gun"
        else:
            plan = self.plan_shot(r, m, movement_fire=False)
            if plan is None:
                why = "no line of fire"
            else:
                why = self.reaction_hold(r, m, plan)
                if not why:
                    self.resolve_shot(r, m, plan, reaction=True)
                    return None
        self.log.record("reaction-hold", reactor=r.id, target=m.id, why=why)
        return why

    def reaction_hold(self, r: CharacterState, m: CharacterState, plan: ShotPlan
                      ) -> str | None:
        """Why a reacting character saves his ammunition (None: he fires).  DMZ: a chance
        (Success - Target Value) below ``min_chance``."""
        chance = plan.numbers["success_value"] - plan.numbers["target_value"]
        if chance < self.min_chance:
            return f"chance {chance} too low"
        return None

    # ------------------------------------------------------------------ shooting
    def sight(self, a: CharacterState, b: CharacterState) -> tuple[Sight, int, list[str]]:
        """LOS from ``a`` to ``b`` plus characters in the way: (sight, cover, reasons)."""
        s = self.board.sight(a.pos, b.pos, a.posture, b.posture, a.vision)
        if s.blocked:
            return s, 0, []
        if b.invisible and not sees(a, b):
            return Sight(True, s.range, details={"blocked_by": "invisibility"}), 0, []
        others = [(c.pos, c.posture, c.metatype) for c in self.state.characters.values()
                  if c is not a and c is not b and not c.out and c.pos is not None]
        blocked, cover, why = character_cover(self.board.lattice, a.pos, b.pos, b.posture,
                                              b.metatype, others)
        if blocked:
            s = Sight(True, s.range, details={"blocked_by": why[0]})
        return s, cover, why

    def line_of_fire(self, a: CharacterState, t: CharacterState) -> tuple[Sight, int] | None:
        """(sight, cover from characters in the way) of a shot ``a``'s ready weapon could take
        at ``t``; None when it is no shot at all (no weapon, a grenade, someone off the board,
        no line).  Every referee's ``plan_shot`` asks this first."""
        w = a.ready_weapon
        if w is None or w.is_grenade or a.pos is None or t.pos is None:
            return None
        if self.board.known_blocked(a.pos, t.pos, a.vision):
            return None  # (a fan the bots had traced says so: the same answer, untraced)
        s, chars, _why = self.sight(a, t)
        return None if s.blocked else (s, chars)

    def plan_shot(self, a: CharacterState, t: CharacterState, movement_fire: bool,
                  ) -> ShotPlan | None:
        """The shot ``a``'s ready weapon has at ``t`` (None: no line of fire or out of
        range).  DMZ numbers: ``success_value``, ``target_value`` and ``modifiers``."""
        line = self.line_of_fire(a, t)
        if line is None:
            return None
        s, chars = line
        w = a.ready_weapon
        step = range_step(w.type, s.range)
        if step is None or step >= len(w.success):
            return None
        mods: dict[str, int] = {"defense": t.defense_value(defense_type(w.type))}
        mods.update({k: v for k, v in s.modifiers.items() if v})
        if chars:
            mods["characters"] = chars
        if movement_fire:
            mods["movement_fire"] = MOVEMENT_FIRE_MODIFIER
        if a.condition.modifier:
            mods["injury"] = a.condition.modifier
        burdens = burden(self, a)  # spells he sustains or suffers (seed 000 l.1495, l.1735)
        mods.update(burdens)
        mr = minimum_range_penalty(w.type, s.range)
        if mr:
            mods["minimum_range"] = mr
        lift = riders(self.state, self.board, a)
        if lift:
            mods["elevator"] = lift
        if self.state.spell_areas:  # a Physical Barrier between them (seed 000 l.1796)
            wall = across(self, a, t, (defense_type(w.type),))
            if wall:
                mods["barrier_spell"] = wall
                lift += wall
        tv = mods["defense"] + s.total + chars + mods.get("movement_fire", 0) + \
            mods.get("injury", 0) + sum(burdens.values()) + mr + lift
        sv = w.success[step]
        p = p_success(sv - tv)
        return ShotPlan(p, p * w.damage,
                        {"success_value": sv, "target_value": tv, "modifiers": mods})

    def resolve_shot(self, a: CharacterState, t: CharacterState, plan: ShotPlan,
                     reaction: bool) -> None:
        """Roll a planned shot through ``self.dice`` and apply its damage (ammunition and
        rate of fire are counted here too)."""
        w = a.ready_weapon
        if w.loaded is not None:
            w.loaded -= 1
        w.fired_this_turn += 1
        n = plan.numbers
        res = self.dice.test("reaction fire" if reaction else "movement fire",
                             n["success_value"], n["target_value"], n["modifiers"],
                             attacker=a.id, target=t.id, weapon=w.name)
        if res.success:
            self.damage(t, w.damage, PHYSICAL, source=a.id)

    def play_buttons(self) -> list[tuple[str, str, str, str]]:
        """The ruleset's own actions the play panel offers as buttons, each then taking a
        click: (act, label, tooltip, picks) with picks ``enemy`` (``target``) or
        ``enemy-or-dot`` (``target`` or ``at``).  DMZ: none (arcs are dragged)."""
        return []

    def hold_words(self, ch: CharacterState) -> str:
        """What ``ch`` holds ready for the enemy's move, in the ruleset's words (DMZ: arcs)."""
        arcs = ", ".join(f"{a.kind} {a.direction:.0f}°" for a in ch.arcs) or "no arc"
        return f"arcs: {arcs}"

    #: the acts :meth:`bot_options` offers, in the order it lists them: all its options
    #: (``only=None``) are each act's (``only=act``) one after the other, put in order by
    #: :meth:`sort_options` (a bot that has priced one act this activation keeps it)
    bot_acts: tuple[str, ...] = ()

    def bot_options(self, ch: CharacterState, holding: bool = False, only: str | None = None
                    ) -> list[tuple[float, dict[str, Any], dict[str, Any]]]:
        """A ruleset's own actions for the bots, best first, each as (expected damage it is
        worth now, the action, the reasons to log); ``holding``: at the end of an activation,
        in place of a reaction arc; ``only``: just the options of that act (a bot weighing
        an aim need not price every charge).  DMZ: none (its arcs and melee are the bots'
        own)."""
        return []

    @staticmethod
    def sort_options(options: list[tuple[float, dict[str, Any], dict[str, Any]]]) -> None:
        """Put :meth:`bot_options`' options best first (a stable sort: ties stay in the order
        they were listed)."""
        options.sort(key=lambda o: -o[0])

    def shot_sight(self, shooter: CharacterState, spos: tuple[int, int, int],
                   target: CharacterState, tpos: tuple[int, int, int],
                   target_posture: str | None = None) -> Sight | None:
        """The sight a ``shot_value`` estimate works from: None when the shooter has no
        firearm with a round left or no line to ``tpos`` (every ruleset's first question)."""
        w = shooter.ready_weapon
        if w is None or w.is_grenade or w.spent or not sees(shooter, target):
            return None
        if self.board.known_blocked(spos, tpos, shooter.vision):
            return None  # (a fan already traced says so: no single line to trace)
        s = self.board.sight(spos, tpos, shooter.posture, target_posture or target.posture,
                             shooter.vision)
        return None if s.blocked else s

    def shot_value(self, shooter: CharacterState, spos: tuple[int, int, int],
                   target: CharacterState, tpos: tuple[int, int, int], movement_fire: bool,
                   target_posture: str | None = None) -> float:
        """Expected damage one shot of ``shooter``'s ready firearm does from ``spos`` at
        ``target`` on ``tpos`` (0: no shot).  What the bots rank by; it skips characters in
        the way, as a quick estimate."""
        w = shooter.ready_weapon
        if w is None or not w.success:
            return 0.0
        s = self.shot_sight(shooter, spos, target, tpos, target_posture)
        if s is None:
            return 0.0
        step = range_step(w.type, s.range)
        if step is None or step >= len(w.success):
            return 0.0
        tv = target.defense_value(defense_type(w.type)) + s.total + \
            shooter.condition.modifier + minimum_range_penalty(w.type, s.range) + \
            (MOVEMENT_FIRE_MODIFIER if movement_fire else 0)
        if shooter.sustained or shooter.under or self.state.spell_areas:
            tv += sum(burden(self, shooter).values())
        if self.state.spell_areas:  # a Physical Barrier between the dots, as in plan_shot
            tv += across_dots(self, spos, tpos, (defense_type(w.type),))
        return p_success(w.success[step] - tv) * w.damage

    def _fire(self, a: CharacterState, t: CharacterState, movement_fire: bool,
              reaction: bool) -> None:
        plan = self.plan_shot(a, t, movement_fire)
        if plan is None:
            return
        self.resolve_shot(a, t, plan, reaction)

    # ------------------------------------------------------------------ damage
    def damage(self, victim: CharacterState, amount: int, kind: str, source: str,
               **detail: Any) -> None:
        """Roll the damage location and mark the Condition Monitor, with its consequences
        (out, knocked prone, movement ended); ``detail`` goes into the log's event."""
        if victim.condition.dead:
            return
        loc = self.dice.roll_2d6("damage location", target=victim.id)
        res = victim.condition.apply(amount, loc, kind)
        self.log.record("damage", target=victim.id, source=source, boxes=amount, damage=kind,
                        location=loc, **res.to_data(), **detail)
        self.consequences(victim, res.knocked_prone)

    def consequences(self, victim: CharacterState, knocked_prone: bool) -> None:
        """What a hit leaves: out of the fight, knocked prone (arcs down), movement ended."""
        if victim.condition.out:
            victim.arcs = []
            victim.posture = PRONE
            self.log.record("out", who=victim.id, dead=victim.condition.dead)
            obj_rules.check_eliminations(self.state, self.objectives, self.log)
            if victim.sustained:
                drop_all(self, victim, "out of the fight")
        elif knocked_prone:
            victim.posture = PRONE
            if victim.arcs:
                victim.arcs = []
                self.log.record("arcs-removed", who=victim.id, why="knocked prone")
            self.log.record("knocked-prone", who=victim.id)
        if victim.id == self.state.active and victim.mp < victim.mp_spent:
            victim.movement_ended = True
            self.log.record("movement-ended", who=victim.id, mp=victim.mp,
                            spent=victim.mp_spent)

    def damage_barrier(self, b: BarrierInfo, boxes: int) -> None:
        """Damage less the barrier's armor; six boxes open a hole (Breaking Through)."""
        st = self.state
        got = max(0, boxes - b.armor)
        total = st.barrier_damage.get(b.feature, 0) + got
        st.barrier_damage[b.feature] = total
        self.log.record("barrier-damage", feature=b.feature, boxes=got, armor=b.armor,
                        total=total)
        if total >= HOLE_AFTER and b.feature not in st.holes:
            st.holes.append(b.feature)
            self.board.open_hole(b.feature)
            self.log.record("hole", feature=b.feature)

    def _do_breach(self, feature: str) -> None:
        """Movement fire at a wall, fence, door or window to break it open."""
        m = self.mover
        w = m.ready_weapon
        if w is None or w.is_grenade:
            raise PlayError(f"{m.id} has no firearm ready")
        if not w.can_fire():
            raise PlayError(f"{m.id}'s {w.name} cannot fire (empty or at its rate of fire)")
        if feature in self.state.holes:
            raise PlayError(f"{feature} is already broken open")
        reach = max(range_limit(w.type), 1)
        b = next((x for x in self.board.barriers_near(m.pos, reach) if x.feature == feature),
                 None)
        if b is None:
            raise PlayError(f"no barrier {feature!r} within range of {m.id}")
        why = self.breach_problem(m, b, w)
        if why:
            raise PlayError(why)
        # aim at the near face: the dot just in front of it must be in sight
        me = self.point(m.pos)
        dx, dy = me[0] - b.point[0], me[1] - b.point[1]
        n = max((dx * dx + dy * dy) ** 0.5, 1e-9)
        front = self.board.lattice.dot_at((b.point[0] + 0.75 * dx / n, b.point[1] + 0.75 * dy / n))
        front3 = (front[0], front[1], m.pos[2])
        if front3 != m.pos:
            s = self.board.sight(m.pos, front3, m.posture, STANDING, m.vision)
            if s.blocked:
                raise PlayError(f"{m.id} cannot see {feature}")
        cost = self.cost("breach", m)
        self._need(m, cost, "movement fire")
        if not self._spend(m, cost, "movement fire"):
            return
        self.resolve_breach(m, b, w)

    def breach_problem(self, m: CharacterState, b: BarrierInfo, w: Any) -> str | None:
        """Why ``m`` cannot fire ``w`` at barrier ``b`` (None: he can); DMZ: out of range."""
        step = range_step(w.type, max(1, b.distance))
        if step is None or step >= len(w.success):
            return f"{b.feature} is out of range of the {w.name}"
        return None

    def resolve_breach(self, m: CharacterState, b: BarrierInfo, w: Any) -> None:
        """Fire at a barrier (paid for): the roll and the damage it takes."""
        step = range_step(w.type, max(1, b.distance))
        feature = b.feature
        mods = {"barrier": b.barrier, "movement_fire": MOVEMENT_FIRE_MODIFIER}
        if m.condition.modifier:
            mods["injury"] = m.condition.modifier
        if w.loaded is not None:
            w.loaded -= 1
        w.fired_this_turn += 1
        res = self.dice.test("fire at barrier", w.success[step], sum(mods.values()), mods,
                             attacker=m.id, barrier=feature, weapon=w.name)
        if res.success:
            self.damage_barrier(b, w.damage)

    # ------------------------------------------------------------------ movement
    def _do_move(self, to: list[int] | tuple[int, ...]) -> None:
        m = self.mover
        to = named_dot(to, m.pos[2])
        crawl = m.posture == PRONE
        st = self.board.step(m.pos, to, m.move_ratio, crawl=crawl)
        if st is None:
            raise PlayError(f"{m.id} cannot step from {list(m.pos)} to {list(to)}")
        occ = self.state.occupant(to)
        if occ is not None and occ.side != m.side:
            raise PlayError(f"{list(to)} is held by {occ.id}; attack him in melee instead")
        st = self.step_charged(m, st)
        self._need(m, (st.cost, 0), "crawling" if crawl else "moving")
        frm = m.pos
        # leaving an arc he began in without drawing fire: the free attack, where he stands
        # (the arcs asked only of a tally that still owes it: most drew an attack already)
        for rid, t in list(self.state.tallies.items()):
            if owes_free_shot(t):
                r = self.state.characters[rid]
                if self.in_arcs(r, frm) and not self.in_arcs(r, to):
                    self._free_shot(r, m)
        if m.out or m.movement_ended or m.posture != (PRONE if crawl else STANDING):
            return  # the free attack stopped him (the step is not taken, no MP spent)
        self._move_by_attacks(m, frm)
        if m.out or m.movement_ended or m.posture != (PRONE if crawl else STANDING):
            return
        m.pos = to
        for op in self.board.openings_on(frm, to):
            if op.state == "closed":
                self._set_opening(op.feature, "open", m.id)
        self.log.record("move", who=m.id, frm=list(frm), to=list(to), cost=st.cost,
                        why=list(st.why), crawl=crawl, **self._units())
        self._spend(m, (st.cost, 0), "crawl" if crawl else "move")
        obj_rules.check_position(self.state, self.objectives, m, self.log)

    def step_charged(self, m: CharacterState, st: Any) -> Any:
        """The step ``m`` is about to take as the referee charges it: the board's cost of that
        one step (a ruleset whose step costs depend on the steps before it says otherwise)."""
        return st

    def walk_cost(self, m: CharacterState, path: list, steps: list[float]) -> float:
        """What walking ``path`` (``steps``: the board's cost of each step alone) would charge
        ``m`` from here, as :meth:`step_charged` prices each step: a bot checks a path it
        pieced together against his budget before he sets out."""
        return float(sum(steps))

    def _move_by_attacks(self, m: CharacterState, frm: tuple[int, int, int]) -> None:
        """Slipping past an adjacent enemy without engaging him gives him a free blow."""
        for e in self.state.enemies_of(m):
            # (the level first: most enemies are nowhere near, and ``out`` costs more)
            if e.pos is None or e.pos[2] != frm[2] or e.id in self.state.melee_passed or \
                    e.out:
                continue
            if e.posture != PRONE and melee_contact(self.board, e.pos, frm):
                self.state.melee_passed.append(e.id)
                self.resolve_move_by(e, m)
                if m.out or m.movement_ended:
                    return

    def resolve_move_by(self, e: CharacterState, m: CharacterState) -> None:
        """The free blow ``e`` gets at ``m`` slipping past him."""
        att = melee_attack(e)
        mods = self.melee_mods(e, m)
        res = self.dice.test("move-by attack", att.success, sum(mods.values()), mods,
                             attacker=e.id, target=m.id, weapon=att.name)
        if res.success:
            self.damage(m, att.damage, att.kind, source=e.id)

    def _do_prone(self) -> None:
        m = self.mover
        if m.posture == PRONE:
            raise PlayError(f"{m.id} is already prone")
        cost = self.cost("prone", m)
        self._need(m, cost, "dropping prone")
        if self._spend(m, cost, "drop prone"):
            m.posture = PRONE
            self.log.record("posture", who=m.id, posture=PRONE)

    def _do_stand(self) -> None:
        m = self.mover
        if m.posture != PRONE:
            raise PlayError(f"{m.id} is already standing")
        cost = self.cost("stand", m)
        self._need(m, cost, "standing up")
        if self._spend(m, cost, "stand"):
            m.posture = STANDING
            self.log.record("posture", who=m.id, posture=STANDING)

    def _do_exit(self) -> None:
        m = self.mover
        self._upright(m, "leaving the map")
        edge = self.board.edge_of(m.pos)
        if edge is None:
            raise PlayError(f"{m.id} is not on an edge of the map")
        cost = self.cost("exit", m)
        self._need(m, cost, "leaving the map")
        if self._spend(m, cost, "exit"):
            m.exited = edge
            m.arcs = []
            self.log.record("exit", who=m.id, edge=edge)
            obj_rules.check_exit(self.state, self.objectives, m, edge, self.log)

    # ------------------------------------------------------------------ doors, weapons
    def _set_opening(self, feature: str, state: str, who: str) -> None:
        self.state.openings[feature] = state
        self.board.set_opening(feature, state)
        self.log.record("opening", feature=feature, state=state, who=who)

    def _do_open(self, feature: str, state: str = "open") -> None:
        m = self.mover
        self._upright(m, "opening or closing anything")
        ops = {o.feature: o for o in self.board.openings_near(m.pos)}
        op = ops.get(feature)
        if op is None or op.kind not in OPEN_MP:
            raise PlayError(f"no door or window {feature!r} next to {m.id}")
        if op.state == state:
            raise PlayError(f"{feature} is already {state}")
        cost = self.cost(f"open-{op.kind}", m)
        self._need(m, cost, f"to {state} a {op.kind}")
        if self._spend(m, cost, f"{state} {op.kind}"):
            self._set_opening(feature, state, m.id)

    def _do_ready(self, weapon: int) -> None:
        m = self.mover
        self._upright(m, "readying a weapon")
        if not 0 <= weapon < len(m.weapons):
            raise PlayError(f"{m.id} has no weapon #{weapon}")
        if m.ready == weapon:
            raise PlayError(f"{m.weapons[weapon].name} is already ready")
        cost = self.cost("ready", m)
        self._need(m, cost, "readying a weapon")
        if self._spend(m, cost, "ready"):
            m.ready = weapon
            self.log.record("ready", who=m.id, weapon=m.weapons[weapon].name)

    def _do_reload(self) -> None:
        m = self.mover
        self._upright(m, "reloading")
        w = m.ready_weapon
        if w is None or w.clip is None or w.is_grenade:
            raise PlayError(f"{m.id} has nothing to reload")
        if w.clips <= 0:
            raise PlayError(f"{m.id} has no spare clip for the {w.name}")
        cost = self.cost("reload", m)
        self._need(m, cost, "reloading")
        if self._spend(m, cost, "reload"):
            w.clips -= 1
            w.loaded = w.clip
            self.log.record("reload", who=m.id, weapon=w.name, clips_left=w.clips)

    # ------------------------------------------------------------------ attacks
    def _do_fire(self, target: str) -> None:
        m = self.mover
        t = self.char(target)
        if t.side == m.side or t.out:
            raise PlayError(f"{target} is not a target")
        w = m.ready_weapon
        if w is None or w.is_grenade:
            raise PlayError(f"{m.id} has no firearm ready")
        if not w.can_fire():
            raise PlayError(f"{m.id}'s {w.name} cannot fire (empty or at its rate of fire)")
        if self.plan_shot(m, t, movement_fire=True) is None:
            raise PlayError(f"{m.id} has no line of fire to {target} in range")
        cost = self.cost("fire", m)
        self._need(m, cost, "movement fire")
        if self._spend(m, cost, "movement fire") and not t.out:
            self._fire(m, t, movement_fire=True, reaction=False)

    def melee_mods(self, attacker: CharacterState, defender: CharacterState) -> dict[str, int]:
        """Target Value modifiers of a melee blow: Impact Defense, injury, elevator crowding."""
        mods = {"defense": defender.defense_value("impact")}
        if attacker.condition.modifier:
            mods["injury"] = attacker.condition.modifier
        mods.update(burden(self, attacker))
        lift = riders(self.state, self.board, attacker)
        if lift:
            mods["elevator"] = lift
        return mods

    def _do_melee(self, target: str) -> None:
        m = self.mover
        self._upright(m, "a melee attack")
        t = self.char(target)
        if t.side == m.side or t.out:
            raise PlayError(f"{target} is not a target")
        if not melee_contact(self.board, m.pos, t.pos):
            raise PlayError(f"{target} is not on an adjoining dot {m.id} can reach")
        cost = self.cost("melee", m)
        self._need(m, cost, "a melee attack")
        self._charge(m, cost, "melee")
        self.state.melee_passed.append(t.id)
        if not self.resolve_melee(m, t):
            # melee is settled first; only a failed attack draws reaction fire for its cost
            self._react(m, cost[0])

    def resolve_melee(self, m: CharacterState, t: CharacterState) -> bool:
        """``m``'s melee attack on ``t`` (paid for) and ``t``'s answer (DMZ: defend or
        counterattack).  True if the attack landed."""
        counter = self.counterattacks(m, t)
        att = melee_attack(m)
        mods_a = self.melee_mods(m, t)
        a_res = self.dice.test("melee", att.success, sum(mods_a.values()), mods_a,
                               attacker=m.id, target=t.id, weapon=att.name)
        if counter:
            dfn = melee_attack(t)
            mods_d = self.melee_mods(t, m)
            d_res = self.dice.test("counterattack", dfn.success, sum(mods_d.values()), mods_d,
                                   attacker=t.id, target=m.id, weapon=dfn.name)
            t.arcs = []
            w = t.ready_weapon
            if w is not None and not w.is_grenade and w.success and \
                    range_limit(w.type) > 0:
                t.ready = None  # a counterattacker no longer has a ready firearm
            self.log.record("melee", attacker=m.id, defender=t.id, choice="counterattack",
                            attacker_hit=a_res.success, defender_hit=d_res.success)
            if a_res.success and not d_res.success:
                self.damage(t, att.damage, att.kind, source=m.id)
            elif d_res.success and not a_res.success:
                self.damage(m, dfn.damage, dfn.kind, source=t.id)
        else:
            self.log.record("melee", attacker=m.id, defender=t.id, choice="defend",
                            attacker_hit=a_res.success)
            if a_res.success:
                t.arcs = []
                self.damage(t, att.damage, att.kind, source=m.id)
        return a_res.success

    def melee_value(self, a: CharacterState, d: CharacterState) -> float:
        """Expected damage of ``a``'s melee attack with his ready weapon on ``d`` (bots)."""
        att = melee_attack(a)
        return p_success(att.success - d.defense_value("impact")) * att.damage

    def counterattacks(self, attacker: CharacterState, defender: CharacterState) -> bool:
        """The defender's choice: counterattack when his odds are at least the attacker's."""
        if defender.out or defender.posture == PRONE:
            return False
        mine = melee_attack(defender).success - attacker.defense_value("impact")
        theirs = melee_attack(attacker).success - defender.defense_value("impact")
        return mine >= theirs

    def _do_cast(self, spell: str, target: str | None = None,
                 at: list[int] | None = None, force: str = "max", extra: int = 0) -> None:
        """Cast a spell: combat as Movement Fire, Non-Combat for 3 MP and more
        (:mod:`engine.play.referee_spells`, :mod:`engine.play.referee_sustain`)."""
        cast_spell(self, spell, target, at, force, extra)

    def _do_drop(self, spell: str, target: str | None = None) -> None:
        """Drop a Sustained spell: free, its effect ends (seed 000 l.1437)."""
        drop_spell(self, self.mover, spell, target=target)

    def _do_levitate(self, target: str, to: list[int] | tuple[int, ...]) -> None:
        """Move the character the mover holds up by Levitate (seed 000 l.1758)."""
        levitate(self, target, to)

    def _do_blind(self, target: str) -> None:
        """Blind Fire at an enemy he cannot see but knows is there (seed 000 l.993-1005)."""
        blind_fire(self, target)

    def _do_jump(self, to: list[int] | tuple[int, ...]) -> None:
        """An uncontrolled fall off an edge: free, ends Prone, may hurt (seed 000 l.584)."""
        m = self.mover
        self._upright(m, "jumping")
        to = tuple(int(x) for x in to)
        stories = fall_targets(self.board, m.pos).get(to)
        if stories is None:
            raise PlayError(f"{m.id} cannot fall from {list(m.pos)} to {list(to)}")
        if self.state.occupant(to) is not None:
            raise PlayError(f"{list(to)} is taken; nobody lands on another character")
        if m.arcs:
            raise PlayError("reaction arcs are the last thing a character does")
        frm = m.pos
        m.pos = to
        m.posture = PRONE
        self.log.record("fall", who=m.id, frm=list(frm), to=list(to), stories=stories)
        self.fall(m, stories)
        obj_rules.check_position(self.state, self.objectives, m, self.log)

    def fall(self, ch: CharacterState, stories: int) -> None:
        """The test and damage of a fall of ``stories`` (he has landed, prone)."""
        mods = {"stories": fall_target_value(stories)}
        res = self.dice.test("fall", ch.defense_value("impact"), sum(mods.values()), mods,
                             who=ch.id)
        if not res.success:
            self.damage(ch, fall_damage(stories), PHYSICAL, source="fall")

    def _do_throw(self, at: list[int] | tuple[int, ...]) -> None:
        m = self.mover
        self._upright(m, "throwing")
        w = m.ready_weapon
        gk = grenade_kind(w.type) if w is not None else None
        if gk is None or (w.loaded is not None and w.loaded <= 0):
            raise PlayError(f"{m.id} has no grenade ready")
        at = named_dot(at, m.pos[2])
        dots = self.board.lattice.distance(m.pos[:2], at[:2])
        if dots > MAX_THROW:
            raise PlayError(f"{dots} dots is further than anyone throws ({MAX_THROW})")
        s = self.board.sight(m.pos, at, m.posture, STANDING, m.vision)
        if s.blocked:
            raise PlayError(f"{m.id} cannot see {list(at)} to throw there")
        if across_dots(self, m.pos, at, ("impact",)):
            raise PlayError("a Physical Barrier lets nothing bigger than a molecule through "
                            "(seed 000 l.1794)")
        cost = self.cost("throw", m, dots)
        self._need(m, cost, "the throw")
        if not self._spend(m, cost, "throw"):
            return
        land, on_target = self.resolve_throw(m, w, at, dots, s)
        if w.loaded is not None:
            w.loaded -= 1
        self.state.grenades.append(PendingGrenade(m.id, m.side, w.type, land, at, on_target))
        self.log.record("grenade-lands", thrower=m.id, grenade=w.type, at=list(land))
        if w.loaded is not None and w.loaded <= 0:
            m.ready = None

    def resolve_throw(self, m: CharacterState, w: Any, at: tuple[int, int, int], dots: int,
                      s: Sight) -> tuple[tuple[int, int, int], bool]:
        """Where a grenade ``m`` threw (paid for) lands, and whether on the aimed dot: DMZ's
        accuracy test (range = the MP of the throw, cover) and a scatter on a miss."""
        gk = grenade_kind(w.type)
        cover = s.total - s.visibility
        tv = accuracy_target_value(dots, cover, gk.aerodynamic)
        rng = self.cost("throw", m, dots, w)[0]
        mods = {"range": rng, "cover": cover}
        burdens = burden(self, m)
        if burdens:
            tv += sum(burdens.values())
            mods.update(burdens)
        res = self.dice.test("grenade accuracy", m.success_value("throwing"), tv,
                             mods, thrower=m.id, aimed=list(at))
        land = at
        if not res.success:
            roll = self.dice.roll_2d6("scatter direction", thrower=m.id)
            c, r = scatter_point(self.board.lattice, m.pos[:2], at[:2], roll, dots)
            land = (c, r, at[2])
            self.log.record("scatter", thrower=m.id, aimed=list(at), landed=list(land),
                            direction_roll=roll, distance=dots // 2)
        return land, res.success

    def resolve_grenade(self, g: PendingGrenade) -> None:
        """A grenade thrown this phase goes off (smoke, or a blast at characters and
        barriers); called by :func:`engine.play.turn.resolve_grenades`."""
        turn.explode(self, g)

    def _do_arc(self, kind: str, direction: float) -> None:
        m = self.mover
        if not self.can_hold_arcs:
            raise PlayError(f"{self.ruleset_name} has no reaction arcs")
        if kind not in ARCS:
            raise PlayError(f"unknown arc {kind!r} (narrow, intermediate, wide)")
        w = m.ready_weapon
        if w is None or w.is_grenade:
            raise PlayError("a reaction arc is set for a ready firearm")
        allowed = 1 if m.posture == PRONE else arcs_allowed(m.move_ratio)
        if m.posture == PRONE and kind != "narrow":
            raise PlayError("a prone character may only set a narrow (2 MP) arc")
        if len(m.arcs) >= allowed:
            raise PlayError(f"{m.id} may hold {allowed} arc(s)")
        cost = self.cost(f"arc-{kind}", m)
        if m.mp_left < cost[0]:
            raise PlayError(f"{m.id} has {_num(m.mp_left)} {self.units} left, the arc costs "
                            f"{_num(cost[0])}")
        if self._spend(m, cost, "reaction arc"):
            m.arcs.append(Arc(kind, self.point(m.pos), float(direction)))
            self.log.record("arc", who=m.id, kind=kind, direction=float(direction),
                            at=list(m.pos))

    # ================================================================== save / load
    def to_data(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "ruleset": self.ruleset_name,
            "seed": self.dice.seed, "rng": self.dice.get_state(),
            "min_chance": self.min_chance, "state": self.state.to_data(),
            "objectives": [obj_rules.objective_to_data(o) for o in self.objectives],
            "actions": [dict(a) for a in self.actions], "log": self.log.to_data(),
        }

    @classmethod
    def from_data(cls, data: dict[str, Any], board: BoardView) -> Game:
        if data.get("format") != FORMAT:
            raise PlayError(f"not a saved game ({data.get('format')!r}, expected {FORMAT})")
        saved = data.get("ruleset", "dmz1990")
        if saved != cls.ruleset_name:
            raise PlayError(f"the game was saved under {saved}, not {cls.ruleset_name}; "
                            "load it through engine.play.referees.load_game")
        log = EventLog.from_data(data.get("log", []))
        dice = Dice(data["seed"], log)
        dice.set_state(data["rng"])
        state = GameState.from_data(data["state"])
        objectives = [obj_rules.objective_from_data(o) for o in data.get("objectives", [])]
        game = cls(state, board, dice, objectives, data.get("min_chance", 3))
        game.actions = [dict(a) for a in data.get("actions", [])]
        # the board must show the map changes play has made so far
        for feature, st in state.openings.items():
            board.set_opening(feature, st)
        if state.smoke:
            board.add_smoke(list(state.smoke))
        if state.spell_areas:
            restore_areas(game)
        for feature in state.holes:
            board.open_hole(feature)
        return game

    def save(self, path: str | Path) -> None:
        path = Path(path)
        data = self.to_data()
        if path.suffix in (".yaml", ".yml"):
            text = yaml.safe_dump(data, sort_keys=False)
        else:
            text = json.dumps(data)
        atomic_write(path, text)

    @classmethod
    def load(cls, path: str | Path, board: BoardView) -> Game:
        path = Path(path)
        text = path.read_text(encoding="utf-8")
        data = yaml.safe_load(text) if path.suffix in (".yaml", ".yml") else json.loads(text)
        return cls.from_data(data, board)

