"""Bots: deterministic players for balance testing (MegaMek Princess / Wesnoth RCA style).

A bot moves each of its characters in turn.  It stands up if knocked down, readies and
reloads, takes the good shots it has (focus fire: the enemy it is most likely to put out
first), fights in melee with its best melee weapon when that beats shooting, then picks where
to go.  Candidate dots are ranked by a score in MP: ground gained towards its goal (by real
path cost, not straight distance), minus the boxes it expects to take on the way
(:func:`engine.play.bot_odds.path_danger`: every reaction arc the path crosses, with the
referee's own sight lines and odds) and standing there, plus the boxes it can deal from there.
A wounded character falls back instead; one character of a team holds an arc on the danger
while the others move; grenades go where they are expected to hurt most; a character left in
the open drops prone.  The behaviour weights (cautious / reckless) change the balance between
ground, danger and damage.  Each choice is written to the game log as a ``why`` event with its
score, so "why this dot" can be read back; bots draw no random numbers, so a game's dice
alone decide it.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.play import actions as A
from engine.play import objectives as obj_rules
from engine.play.bot_magic import blind_shot, levitation, lift_friend, support_spell
from engine.play.bot_odds import best_offense, exposure, path_danger, shot_odds
from engine.play.bot_urgency import urgency
from engine.play.game import Game, PlayError
from engine.play.grenades import MAX_THROW
from engine.play.reaction import direction_to
from engine.play.referee_levels import may_stop_on
from engine.play.referee_melee import (
    is_melee_weapon,
    melee_attack,
    melee_attack_with,
    melee_contact,
    melee_weapon_index,
)
from engine.play.referee_spells import drain_risk, spell_value
from engine.play.state import PRONE, CharacterState
from engine.play.weapons import grenade_kind
from engine.rules import dmz1990_spells as spell_rules

#: expected boxes a shot must promise before a bot spends 3 MP on movement fire
GOOD_SHOT = 0.9
#: how many dots a mover scores in full (sight lines, danger, path), besides where he stands:
#: picked from the :data:`POOL` best-advancing ones, spread out (:meth:`Bot._candidates`)
CANDIDATES = 6
#: the best-advancing dots the candidates are picked from
POOL = 12
#: how many dots inside a held area a holder weighs for his post
POSTS = 12
#: how many of the nearest enemies a bot considers when judging exposure
WATCHED = 5
#: a guard stops this many dots from the objective he defends
GUARD_DISTANCE = 3
#: MP added to the cost of going into an area the enemy must hold (less than guarding a spot)
CONTEST_MP = 10
#: MP of path one point of an objective is worth when choosing a goal
POINT_MP = 4.0
#: the book's Movement Points of an unhurt character in one turn
MP_PER_TURN = 12
#: MP of progress one expected box of damage is worth (taken or dealt)
BOX_MP = 4.0
#: how many dots of the enemy's way into a held area its holders watch
WAY_IN = 6


@dataclass(frozen=True)
class Behaviour:
    """How a bot weighs ground gained, damage taken and damage dealt."""

    name: str = "balanced"
    danger: float = 1.0  # weight of boxes expected to be taken
    offense: float = 1.0  # weight of boxes expected to be dealt
    retreat_at: int = 3  # injury modifier at which a character falls back (99: never)
    prone_when_exposed: float = 1.2  # expected boxes standing that make him drop prone

    @classmethod
    def named(cls, name: str) -> Behaviour:
        if name in ("balanced", "", None):
            return cls()
        if name == "cautious":
            return cls("cautious", danger=2.0, offense=0.8, retreat_at=2, prone_when_exposed=0.6)
        if name == "reckless":
            return cls("reckless", danger=0.35, offense=1.3, retreat_at=99,
                       prone_when_exposed=99.0)
        raise ValueError(f"unknown behaviour {name!r} (cautious, reckless)")


class Bot:
    """Plays every character of one side."""

    kind = "smart"

    def __init__(self, side: str, behaviour: Behaviour | None = None) -> None:
        self.side = side
        self.behaviour = behaviour or Behaviour()
        #: actions the referee refused (kept out of the game log, which only holds the game)
        self.errors: list[str] = []
        #: (turn, character) holding an arc this turn while the others move
        self._holder: tuple[int, str] | None = None
        #: answers worked out since the bot last acted (:meth:`_asked`): the state they
        #: depend on changes only through an action, so each is asked once between two
        self._known: dict[tuple, Any] = {}
        self._playing = False  # kept only while it plays a character (a caller may edit state)
        #: per (board, objective): its area's dots, and which dots asked are inside it
        self._areas: dict[tuple[int, int], tuple] = {}
        #: per (board, key): facts of the map itself (:meth:`_asked_once`)
        self._facts: dict[tuple, tuple] = {}

    # ------------------------------------------------------------------ driving
    def play_phase(self, game: Game) -> None:
        """Move every character of the current team (which must be ours)."""
        st = game.state
        while not st.finished and st.active is None:
            team = st.current_team
            todo = [c for c in st.members(team) if not c.moved and not c.out]
            if not todo or todo[0].side != self.side:
                return
            self.play_character(game, self._next(game, todo))

    def _next(self, game: Game, todo: list[CharacterState]) -> CharacterState:
        """Movers first, the team's holder last (his arc then covers their advance)."""
        h = self._holder
        if h is not None and h[0] == game.state.turn and len(todo) > 1:
            rest = [c for c in todo if c.id != h[1]]
            if rest:
                return rest[0]
        return todo[0]

    def play_character(self, game: Game, ch: CharacterState) -> None:
        game.act(A.begin(ch.id))
        self._known.clear()
        self._playing = True
        try:
            self._turn(game, ch)
        except PlayError as e:  # a bot misjudged; note it and end the move cleanly
            self.errors.append(f"{ch.id}: {e}")
        finally:
            self._playing = False
            self._known.clear()
        if game.state.active == ch.id:
            self._end(game, ch)

    def _active(self, game: Game, ch: CharacterState) -> bool:
        return game.state.active == ch.id and not game.state.finished

    @staticmethod
    def _can(game: Game, ch: CharacterState, *kinds: str, reserve: float = 0,
             distance: int | None = None, weapon: Any = None) -> bool:
        """Can ``ch`` pay for the actions ``kinds`` one after the other and still keep
        ``reserve`` of his budget (the referee's ``cost`` hook says what each takes)?"""
        units = 0.0
        slots = 0
        for k in kinds:
            u, n = game.cost(k, ch, distance, weapon)
            units += u
            slots += n
        return ch.mp_left >= units + reserve and game.slots_left(ch) >= slots

    @staticmethod
    def _arc_reserve(game: Game, ch: CharacterState, keep: float) -> float:
        """Budget kept in hand for an arc at the end of the move (none without arcs)."""
        return keep if game.can_hold_arcs else 0

    @staticmethod
    def _narrow(game: Game, ch: CharacterState) -> float:
        """What a narrow arc costs (0 under a ruleset without arcs)."""
        return game.cost("arc-narrow", ch)[0] if game.can_hold_arcs else 0

    def _try(self, game: Game, ch: CharacterState, action: dict[str, Any]) -> bool:
        if not self._active(game, ch):
            return False
        # every action may change the state, even one the referee refuses part way (a step
        # that drew reaction fire): what the bot worked out before is asked again
        self._known.clear()
        try:
            game.act(action)
        except PlayError as e:
            self.errors.append(f"{ch.id}: {e}")
            return False
        finally:
            self._known.clear()
        return True

    def _asked(self, key: tuple, work: Any) -> Any:
        """``work()`` once between two of the bot's actions (the goal, the best shot, the
        ruleset's options are asked several times in one activation, nothing changed)."""
        if not self._playing:
            return work()
        try:
            return self._known[key]
        except KeyError:
            got = self._known[key] = work()
            return got

    def _end(self, game: Game, ch: CharacterState) -> None:
        # (the referee's own test first: a refused end is a misjudgement in ``errors``)
        if may_stop_on(game.state, game.board, ch, ch.pos) is None and \
                self._try(game, ch, A.end()):
            return
        # ended on a friend's dot: step aside if possible, else stop where he is (an arc
        # held is the last thing he does: no step after it)
        for n in ([] if ch.arcs else game.board.neighbours(ch.pos)):
            if game.state.occupant(n) is None:
                st = game.board.step(ch.pos, n, ch.move_ratio, crawl=ch.posture == PRONE)
                if st is not None and st.cost <= ch.mp_left:
                    if self._try(game, ch, A.move(n)) and self._try(game, ch, A.end()):
                        return
        if self._active(game, ch):
            game.act({"act": "end", "force": True})

    # ------------------------------------------------------------------ one character
    def _turn(self, game: Game, ch: CharacterState) -> None:
        if game.can_delay and self._wait(game, ch):
            return
        if ch.posture == PRONE and self._can(game, ch, "stand"):
            self._try(game, ch, A.stand())
        if self._primed(game, ch):  # the grenade he readied last phase: throw it now
            self._grenade(game, ch)
            w = ch.ready_weapon
            gun = self._gun_index(ch)
            if w is not None and w.is_grenade and gun is not None and self._can(game, ch, "ready"):
                self._try(game, ch, A.ready(gun))  # no throw from here: the gun again
        w = ch.ready_weapon
        if w is None or is_melee_weapon(w):
            gun = self._gun_index(ch)
            if gun is not None and self._can(game, ch, "ready") and \
                    not self._melee_first(game, ch):
                self._try(game, ch, A.ready(gun))
        w = ch.ready_weapon
        if w is not None and not w.is_grenade and w.loaded == 0 and w.clips > 0 and \
                self._can(game, ch, "reload"):
            self._try(game, ch, A.reload())
        goal, exit_edge = self.goal(game, ch)
        if exit_edge is not None and game.board.edge_of(ch.pos) == exit_edge:
            if self._can(game, ch, "exit") and self._try(game, ch, A.exit_()):
                return
        if self._aim(game, ch, goal) and game.slots_left(ch) == 0:
            return  # the aim took his whole action: the aimed shot comes next activation
        if self._holds(game, ch, goal):
            self._shoot(game, ch, keep=6)
            self._set_arc(game, ch)
            return
        if self._two_step(game, ch):
            # enemies bunched in sight: draw it now, throw it next (before the gun, and before
            # the move: a run would leave no Action; asked once, nothing below brings a target)
            self._grenade(game, ch)
        self._shoot(game, ch, keep=5)
        if self._active(game, ch):  # an invisible enemy a friend's Detect spell has found
            blind = blind_shot(game, ch, self._watched(game, ch))
            if blind is not None:
                self._try(game, ch, self._trace(game, ch, *blind))
        if not self._active(game, ch):
            return
        if not ch.carrying and ch.condition.modifier < self.behaviour.retreat_at and \
                self._ruleset_option(game, ch):
            return
        self._melee(game, ch)
        if ch.spells and self._active(game, ch):  # heal, armor or hide a friend
            best = support_spell(game, ch, self._watched(game, ch), self._narrow(game, ch),
                                 lambda c: self.goal(game, c)[0])
            if best is not None:
                self._try(game, ch, self._trace(game, ch, *best))
        if self._active(game, ch):
            wounded = ch.condition.modifier >= self.behaviour.retreat_at and not ch.carrying
            if self._is_vip(game, ch) and not ch.carrying:
                # the one his side must keep alive stays out of the fight: still where no
                # enemy can hit him, else back to where the fewest can
                if exposure(game, ch, ch.pos, self._watched(game, ch)) > 0:
                    wounded = True
                else:
                    goal = ch.pos
            if ch.spells and not wounded:  # a Levitate shortcut over a ledge (bot_magic)
                for _ in range(3):  # for himself, else for a friend
                    leg = levitation(game, ch, goal) or \
                        lift_friend(game, ch, lambda c: self.goal(game, c)[0])
                    if leg is None or not self._try(game, ch, self._trace(game, ch, *leg)) \
                            or leg[0]["act"] != "cast" or not self._active(game, ch):
                        break
            self._advance(game, ch, goal, exit_edge, retreat=wounded)
        if not self._active(game, ch) or ch.exited:
            return
        if exit_edge is not None and game.board.edge_of(ch.pos) == exit_edge and \
                self._can(game, ch, "exit"):
            if self._try(game, ch, A.exit_()):
                return
        self._grenade(game, ch)
        self._shoot(game, ch, keep=2)
        self._cover(game, ch)
        self._set_arc(game, ch)

    def _wait(self, game: Game, ch: CharacterState) -> bool:
        """Under a ruleset with delayed actions (sr3): on his goal, gun loaded and nothing
        worth a shot now, he holds his action for the first enemy who steps into his line
        (what a reaction arc does in DMZ).  True if he waits."""
        w = ch.ready_weapon
        if w is None or w.is_grenade or not w.can_fire() or ch.carrying:
            return False
        goal, _edge = self.goal(game, ch)
        if goal != ch.pos:
            return False
        shot = self.best_shot(game, ch)
        if shot is not None and shot[0] >= GOOD_SHOT or self._aim_option(game, ch, goal):
            return False
        return self._try(game, ch, self._trace(game, ch, A.delay(), {
            "holds": list(ch.pos), "best_shot": round(shot[0], 2) if shot else 0.0}))

    @staticmethod
    def _gun_index(ch: CharacterState) -> int | None:
        for i, w in enumerate(ch.weapons):
            if not w.is_grenade and not is_melee_weapon(w) and \
                    (w.loaded is None or w.loaded > 0 or w.clips > 0):
                return i
        return None

    def _trace(self, game: Game, ch: CharacterState, action: dict[str, Any],
               why: dict[str, Any]) -> dict[str, Any]:
        """The action with the bot's reasons attached; the referee logs them as a ``why``."""
        return {**action, "why": {"who": ch.id, "bot": self.kind,
                                  "behaviour": self.behaviour.name, **why}}

    # ------------------------------------------------------------------ goals
    def goal(self, game: Game, ch: CharacterState) -> tuple[tuple[int, int, int] | None,
                                                             str | None]:
        """Where this character heads, and the edge he means to leave by (if any): a carrier
        his exit; else the open objective (his side's to score, the enemy's to deny) with the
        best real path cost less :data:`POINT_MP` per point it is worth."""
        return self._asked(("goal", ch.id), lambda: self._goal(game, ch))

    def _goal(self, game: Game, ch: CharacterState) -> tuple[tuple[int, int, int] | None,
                                                             str | None]:
        st = game.state
        best: list[tuple[float, tuple[int, int, int], str | None]] = []
        lat = game.board.lattice
        for obj in game.objectives:  # a carrier takes the item out before anything else
            if obj.kind == "retrieve" and obj.id in ch.carrying and obj.id not in st.achieved:
                edge = obj_rules.exit_edge(obj)
                dot = self._edge_dot(game, ch, edge)
                if dot is not None:
                    return dot, edge
        # (what to add to the path cost, the objective's worth, its dot, the edge he leaves
        # by, the cost he must be there within): each objective's dot found first, its path
        # cost then asked only while it can still be the best (_ranked)
        asks: list[tuple[float, float, tuple[int, int, int], str | None, float | None]] = []
        for obj in game.objectives:
            if obj.id in st.achieved or not obj_rules.in_time(obj, st.turn):
                continue
            mine = obj.side == ch.side
            #: what the objective is worth, in MP of path: a 10-point objective 40 MP further
            #: away is as good as a 0-point one at hand (scoring or denying alike)
            worth = POINT_MP * obj_rules.points(obj)
            target: tuple[int, int, int] | None = None
            edge = None
            if mine:
                if obj.kind == "retrieve" and obj.id in ch.carrying:
                    edge = obj_rules.exit_edge(obj)
                    target = self._edge_dot(game, ch, edge)
                elif obj.kind == "reach":
                    target = obj_rules.at_dot(obj)
                elif obj.kind == "retrieve":
                    if not obj_rules.item_free(st, game.objectives, obj):
                        holder = obj_rules.carrier(st, game.objectives, obj)
                        if holder is None or holder.side == ch.side:
                            continue
                        target = holder.pos  # the enemy holds our item: take it back
                    else:
                        target = obj_rules.item_dot(st, obj)
                elif obj.kind == "exit":
                    edge = obj.edge
                    target = self._edge_dot(game, ch, edge)
                elif obj.kind == "hold":
                    target = self._post(game, ch, obj)
                elif obj.kind == "eliminate":
                    foes = [c for c in obj_rules.targets(st, obj.target) if not c.out]
                    target = self._nearest(game, ch, foes)
                elif obj.kind == "protect":
                    vip = [c for c in obj_rules.targets(st, obj.target) if not c.out]
                    if not vip or ch in vip:
                        continue
                    target = vip[0].pos  # escort: stay by the one to protect
                    if target is not None and lat.distance(target[:2], ch.pos[:2]) <= 2:
                        target = ch.pos
            else:
                # defend: stand off the spot the enemy wants
                if obj.kind in ("reach", "retrieve"):
                    holder = next((c for c in st.characters.values()
                                   if obj.id in c.carrying and not c.out), None)
                    target = holder.pos if holder is not None else \
                        obj_rules.item_dot(st, obj)
                    if holder is not None and target is not None:
                        # an enemy carrying it off: chasing him is worth the item itself
                        asks.append((0, worth, target, None, None))
                        continue
                elif obj.kind == "hold":
                    # a hold is broken only from inside the area: go in, do not stand off
                    target = self._area_dot(game, ch, obj)
                    if target is not None:
                        asks.append((CONTEST_MP, worth, target, None, None))
                    continue
                if target is not None and ch.pos is not None and \
                        lat.distance(target[:2], ch.pos[:2]) <= GUARD_DISTANCE:
                    target = ch.pos
            if target is None or not game.board.standable(target):
                continue
            # (None: no time limit; else it cannot be there in time beyond this cost)
            by = (obj.by_turn - st.turn + 1) * MP_PER_TURN \
                if mine and obj.by_turn is not None else None
            asks.append((0 if mine else 30, worth, target, edge, by))
        best = self._ranked(game, ch, asks)
        if best is not None:
            return best
        foes = [c for c in st.enemies_of(ch) if not c.out]
        return self._nearest(game, ch, foes), None

    def _ranked(self, game: Game, ch: CharacterState,
                asks: list[tuple[float, float, tuple[int, int, int], str | None, float | None]]
                ) -> tuple[tuple[int, int, int], str | None] | None:
        """The best of :meth:`_goal`'s objectives (dot and edge), None when no path reaches
        any: each scored its path cost plus what it adds less its worth, the lowest score
        first (then the lowest dot, then the first listed).  When the board gives a floor
        under path costs (``cost_floor``), the objectives are priced lowest floor first and
        one whose floor already scores worse than the best found is not priced: its path
        cost (a search of its own in each map state) could not make it the best.
        tests/play/test_goal_floor.py compares it with pricing every one."""
        floor = getattr(game.board, "cost_floor", None)
        order = list(range(len(asks)))
        lows: list[float] = []
        floors = None if floor is None else [floor(ch.pos, a[2], ch.move_ratio) for a in asks]
        if floors is not None and None not in floors:
            lows = [f + a[0] - a[1] for f, a in zip(floors, asks, strict=True)]
            order.sort(key=lambda k: (lows[k], k))
        else:
            floor = None
        best: list[tuple[float, tuple[int, int, int], int, str | None]] = []
        top = None
        for k in order:
            if top is not None and lows[k] > top:
                break  # (the rest are ranked by floor: none can score under the best)
            plus, worth, target, edge, by = asks[k]
            cost = self._cost_to(game, ch, target)
            if cost is None or (by is not None and cost > by):
                continue  # no way there, or not in time
            d = cost + plus - worth
            best.append((d, target, k, edge))
            if floor is not None and (top is None or d < top):
                top = d
        if not best:
            return None
        best.sort(key=lambda t: (t[0], t[1], t[2]))
        return best[0][1], best[0][3]

    @staticmethod
    def _cost_to(game: Game, ch: CharacterState, target) -> float | None:
        """The path cost from where he stands to ``target`` (None: no way there).  Standing
        on it costs nothing: a guard already in place or an escort beside his charge asked
        a whole-board search for that 0 (a third of Dark Conspiracy's goal searches)."""
        if target == ch.pos and game.board.standable(target):
            return 0
        return game.board.costs_to(target, ch.move_ratio, [ch.pos])[0]

    def _nearest(self, game: Game, ch: CharacterState, others: list[CharacterState]):
        lat = game.board.lattice
        live = [c for c in others if c.pos is not None]
        if not live:
            return None
        return min(live, key=lambda c: (lat.distance(c.pos[:2], ch.pos[:2]), c.id)).pos

    def _edge_dot(self, game: Game, ch: CharacterState, edge: str | None):
        if edge is None:
            return None
        board = game.board
        dots = self._asked_once(board, ("edge", edge), lambda: board.deploy_dots(None, 0, edge, 1))
        if not dots:
            return None
        # the edge dot nearest by path cost (walls and buildings in the way), not by crow flight
        near = board.cheapest_to(ch.pos, ch.move_ratio, dots)[1]
        if near:
            # among the cheapest, the one straight ahead: the lowest-numbered of a tie led
            # Street Ambush's carrier out of his smoke onto the open kerb
            return min(near, key=lambda d: (self._dist2(game, d, ch.pos), d))
        return min(dots, key=lambda d: (self._dist2(game, d, ch.pos), d))

    def _asked_once(self, board: Any, key: tuple, work: Any) -> Any:
        """``work()`` once per board (a fact of the map itself, as the dots along an edge)."""
        memo = self._facts.get((id(board), key))
        if memo is None or memo[0] is not board:
            if len(self._facts) > 64:
                self._facts.clear()
            memo = self._facts[(id(board), key)] = (board, work())
        return memo[1]

    @staticmethod
    def _dist2(game: Game, a, b) -> float:
        p, q = game.point(a), game.point(b)
        return (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2

    def _area_dot(self, game: Game, ch: CharacterState, obj):
        if obj.area is None:
            return obj_rules.at_dot(obj)
        return self._nearest_in_area(game, ch.pos, obj)

    def _nearest_in_area(self, game: Game, pos, obj):
        """The dot of ``obj``'s area nearest ``pos`` (the lowest dot of a tie; None: the area
        has none): a fact of the map, kept per dot asked (Police's holders and the runners
        who contest them stand on the same few dots activation after activation, and a
        holder asks it from each enemy's dot for that enemy's way in)."""
        memo = self._area_memo(game, obj)
        near = memo.get("near")
        if near is None:
            near = memo["near"] = {}
        pos = pos if pos.__class__ is tuple else tuple(pos)
        try:
            return near[pos]
        except KeyError:
            got = near[pos] = self._nearest_worked_out(game, pos, obj)
            return got

    def _nearest_worked_out(self, game: Game, pos, obj):
        """:meth:`_nearest_in_area` worked out: the lattice's distances to every dot of the
        area at once."""
        dots = self._area_dots(game, obj)
        if not dots:
            return None
        memo = self._area_memo(game, obj)
        cells = memo.get("cells")
        if cells is None:
            cells = memo["cells"] = np.array([d[:2] for d in dots], dtype=np.int64)
        far = game.board.lattice.distances(pos[:2], cells)
        return min(dots[k] for k in np.flatnonzero(far == far.min()).tolist())

    def _post(self, game: Game, ch: CharacterState, obj):
        """Where a holder of his side's ``hold`` area stands.  Outside it: the nearest dot
        in.  Inside it, he keeps to the area: under a ruleset where a waiting character
        fires first (``Game.holders_fire_first``: arcs, delays, aims), the dot within this
        move that best covers the enemy's way in (the referee's mean expected boxes of a
        shot at an enemy on each of its last dots) less what the enemies can put into him
        there; elsewhere (sr1) he stays where he is: walking to a better dot inside only
        hands the enemy the first shot."""
        if obj.area is None or not self._in_area(game, ch.pos, obj):
            return self._area_dot(game, ch, obj)
        foes = [c for c in game.state.enemies_of(ch) if not c.out and c.pos is not None]
        if not foes or not game.holders_fire_first:
            return ch.pos
        way = self._way_in(game, ch, obj, foes)
        if not way:
            return ch.pos
        budget = ch.mp_left - self._narrow(game, ch)
        if budget < game.min_step(ch):
            return ch.pos  # no step left in this move (after the arc he keeps MP for)
        here = game.board.reach(ch.pos, ch.move_ratio, budget)
        occupied = {c.pos for c in game.state.characters.values()
                    if not c.out and c is not ch and c.pos is not None}
        lat = game.board.lattice
        cands = sorted(d for d in here if d not in occupied and self._in_area(game, d, obj))
        cands.sort(key=lambda d: (lat.distance(d[:2], ch.pos[:2]), d))
        cands = cands[:POSTS]
        if ch.pos not in cands:
            cands.append(ch.pos)
        watched = self._watched(game, ch)
        foe = min(foes, key=lambda c: (lat.distance(c.pos[:2], way[0][:2]), c.id))
        # what each dot covers bounds its score from above (the risk there only subtracts):
        # the risk is weighed best bound first, and no further than a bound can still win
        bound = {}
        for a in way:  # (speed only: one fan from each dot of the way answers most lines)
            game.board.warm_blocked(a, cands, (ch.vision,))
        for d in cands:
            cover = self._covered(game, ch, d, foe, way)
            bound[d] = (round(cover, 6), d == ch.pos, d), cover
        best = None
        for d in sorted(cands, key=lambda d: bound[d][0], reverse=True):
            if best is not None and best[0] > bound[d][0]:
                break
            risk = exposure(game, ch, d, watched)
            score = (round(bound[d][1] - self.behaviour.danger * risk, 6), d == ch.pos, d)
            if best is None or score > best[0]:
                best = (score, d)
        return best[1] if best is not None else ch.pos

    @staticmethod
    def _covered(game: Game, ch: CharacterState, d, foe: CharacterState, way: list) -> float:
        """The mean expected boxes of ``ch``'s shot from ``d`` at ``foe`` on each dot of
        ``way`` (:meth:`_post`).  A line the fans already found blocked is 0.0 without asking
        the referee, as in ``exposure``: every ruleset's ``shot_value`` answers 0.0 there."""
        blocked, vision = game.board.known_blocked, ch.vision
        return sum([0.0 if blocked(d, a, vision) else shot_odds(game, ch, d, foe, a, False)
                    for a in way]) / len(way)

    def _area_memo(self, game: Game, obj) -> dict:
        """What is known of ``obj``'s area on this game's board: its dots and, per dot asked,
        whether it is inside (a polygon test each, ~100 a holder's decision: the same few
        areas and dots all game long)."""
        key = (id(game.board), id(obj))
        got = self._areas.get(key)
        if got is None or got[0] is not game.board or got[1] is not obj:
            if len(self._areas) > 64:
                self._areas.clear()
            got = self._areas[key] = (game.board, obj, {})
        return got[2]

    def _in_area(self, game: Game, d, obj) -> bool:
        """``game.board.in_area(d, obj.area, obj.level)``, each dot asked once."""
        memo = self._area_memo(game, obj)
        try:
            return memo[d]
        except KeyError:
            got = memo[d] = game.board.in_area(d, obj.area, obj.level)
            return got
        except TypeError:  # (a dot as a list)
            return game.board.in_area(d, obj.area, obj.level)

    def _area_dots(self, game: Game, obj) -> list:
        """``game.board.deploy_dots`` of ``obj``'s area, once (callers only read it)."""
        memo = self._area_memo(game, obj)
        got = memo.get("dots")  # (a dot is a tuple: never this key)
        if got is None:
            got = memo["dots"] = game.board.deploy_dots(obj.area, obj.level, None, None)
        return got

    def _held_area(self, game: Game, ch: CharacterState):
        """The open ``hold`` objective of his side whose area he stands in, if any."""
        for obj in game.objectives:
            if obj.kind == "hold" and obj.side == ch.side and obj.area is not None and \
                    obj.id not in game.state.achieved and self._in_area(game, ch.pos, obj):
                return obj
        return None

    def _way_in(self, game: Game, ch: CharacterState, obj, foes: list[CharacterState]
                ) -> list:
        """The last dots of the nearest enemy's cheapest way into the area (its first dot
        inside included), outside in: what a holder should cover."""
        board = game.board
        inside = self._area_dots(game, obj)
        if not inside:
            return []
        lat = board.lattice
        foe = min(foes, key=lambda c: (lat.distance(c.pos[:2], ch.pos[:2]), c.id))
        if self._in_area(game, foe.pos, obj):
            return [foe.pos]
        door = self._nearest_in_area(game, foe.pos, obj)
        path = board.path(foe.pos, door, foe.move_ratio) or []
        for i, d in enumerate(path):
            if self._in_area(game, d, obj):
                return path[max(0, i - WAY_IN):i + 1]
        return path[-WAY_IN:]

    # ------------------------------------------------------------------ team play
    def _holds(self, game: Game, ch: CharacterState, goal) -> bool:
        """One character a turn holds an arc on the danger while the team moves: the one
        with the best shot from where he stands, when he carries nothing and is not needed
        on an objective dot this turn."""
        st = game.state
        if self._holder is not None and self._holder[0] == st.turn:
            return self._holder[1] == ch.id
        team = [c for c in st.members(st.current_team) if not c.out and c.side == self.side]
        if len(team) < 2 or st.initiative == "character" or not game.can_hold_arcs:
            return False
        foes = self._watched(game, ch)
        if not foes:
            return False
        scored = []
        shooters = [c for c in team if not (c.carrying or c.moved or c.ready_weapon is None
                                            or c.ready_weapon.is_grenade)]
        for f in foes:  # (speed only: one fan from each enemy answers most of the lines)
            if not f.out and f.pos is not None:
                game.board.warm_blocked(f.pos, [c.pos for c in shooters],
                                        {c.vision for c in shooters})
        for c in shooters:
            off, _t = best_offense(game, c, c.pos, foes)
            scored.append((off, c.id))
        if not scored:
            return False
        scored.sort(reverse=True)
        off, cid = scored[0]
        if off < GOOD_SHOT * 0.5:
            return False  # nobody covers anything from where they stand
        self._holder = (st.turn, cid)
        return cid == ch.id

    # ------------------------------------------------------------------ moving
    def _advance(self, game: Game, ch: CharacterState, goal, exit_edge,
                 retreat: bool = False) -> None:
        board = game.board
        foes_left = any(not c.out for c in game.state.enemies_of(ch))
        budget = ch.mp_left - (self._narrow(game, ch) if foes_left else 0)  # a narrow arc
        if budget < game.min_step(ch) or (goal is None and not retreat) or \
                (goal == ch.pos and not retreat):
            return
        crawl = ch.posture == PRONE
        here = board.reach(ch.pos, ch.move_ratio, budget, crawl=crawl)
        if not here:
            return
        occupied = {c.pos for c in game.state.characters.values()
                    if not c.out and c is not ch and c.pos is not None}
        cands = [d for d in here if d not in occupied or d == ch.pos]
        if goal is not None:
            costs = board.costs_to(goal, ch.move_ratio, cands)
            to_goal = {d: c for d, c in zip(cands, costs, strict=True) if c is not None}
        else:
            to_goal = {}
        far = max(to_goal.values(), default=0) + 100
        start = to_goal.get(ch.pos, far)
        foes = self._watched(game, ch)
        beh = self.behaviour
        danger_w = beh.danger * (3.0 if self._is_vip(game, ch) else 1.0) * \
            self._urgency(game, ch)
        if retreat:
            # the furthest he can get from the enemies he watches (then by path)
            # (``_dist2`` to each enemy, his point worked out once, not once per dot)
            point = game.point
            spots = [point(f.pos) for f in foes]

            def away(d) -> float:
                p = point(d)
                return min([(p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 for q in spots],
                           default=0.0)
            keys = [(-away(d), -here[d], d) for d in cands]
        else:
            tg = to_goal.get
            keys = [(tg(d, far), here[d], d) for d in cands]
        keys.sort()  # (each key ends with its dot: no two alike, the order is total)
        top = self._candidates(game, ch, [k[2] for k in keys[:POOL + 1]], goal,
                               goal is not None and goal in cands)
        best, others = self._score_dots(game, ch, top, here, crawl, foes, goal, retreat,
                                        start, to_goal, far, danger_w)
        if best is None:
            return
        score, dest, path, taken, stay, dealt, gain = best
        if dest == ch.pos:
            return
        why = {"chose": list(dest), "score": score, "gain_mp": round(gain, 1),
               "danger_path": round(taken, 2), "danger_there": round(stay, 2),
               "damage_from_there": round(dealt, 2), "retreat": retreat,
               "goal": list(goal) if goal is not None else None,
               "others_at_most": others}
        first = True
        for d in path[1:]:
            occ = game.state.occupant(d)
            if occ is not None and occ.side != ch.side:
                return  # the way is held: stop here (melee or a shot may follow)
            act = A.move(d)
            if first:
                act = self._trace(game, ch, act, why)
                first = False
            elif not self._affords_step(game, ch, d):
                return
            if not self._active(game, ch) or not self._try(game, ch, act):
                return

    @staticmethod
    def _affords_step(game: Game, ch: CharacterState, d) -> bool:
        """Can he still take the next step of his path, as the referee would charge it?  A
        free attack on the way may have stopped him short (the step not taken: the next is
        no step from where he stands), knocked him prone (crawling costs more) or wounded
        him (a smaller budget): then the rest of the path is not his to walk."""
        st = game.board.step(ch.pos, d, ch.move_ratio, crawl=ch.posture == PRONE)
        return st is not None and game.step_charged(ch, st).cost <= ch.mp_left + 1e-9

    @staticmethod
    def _candidates(game: Game, ch: CharacterState, ranked: list, goal,
                    goal_reached: bool | None = None) -> list:
        """The dots scored in full: the goal if he can reach it (``goal_reached``; None:
        it is in ``ranked``), then of the :data:`POOL` best-ranked dots (``ranked``: the
        reach dots best first, or only the :data:`POOL` + 1 best of them) the best that
        stand two dots or more from those already taken (a spread of the ground ahead:
        neighbours of a dot share most of its lines and cover), filled up by rank to
        :data:`CANDIDATES`; and where he stands.  Replayed over 1 447
        decisions of the six samples scored in full, this keeps the choice of the 12 best
        in 95% of them and costs 0.13 MP of score on average (the 6 best alone: 0.22 MP)."""
        lat = game.board.lattice
        pool = [d for d in ranked[:POOL + 1] if d != ch.pos][:POOL]
        if goal_reached is None:
            goal_reached = goal is not None and goal in ranked
        top = [goal] if goal_reached and goal != ch.pos else []
        for d in pool:
            if len(top) >= CANDIDATES:
                break
            if d not in top and all(d[2] != e[2] or lat.distance(d[:2], e[:2]) >= 2
                                    for e in top):
                top.append(d)
        for d in pool:
            if len(top) >= CANDIDATES:
                break
            if d not in top:
                top.append(d)
        top.append(ch.pos)
        return top

    #: how many runners-up the ``why`` event names, each with the best score it could have
    SHOWN = 3

    def _score_dots(self, game: Game, ch: CharacterState, top: list, here: dict, crawl: bool,
                    foes: list[CharacterState], goal, retreat: bool, start: float,
                    to_goal: dict, far: float, danger_w: float) -> tuple[tuple | None, list]:
        """The best-scored candidate dot (score, dot, path, danger on the path, danger there,
        damage from there, gain), asking as few questions as that takes, and the
        :data:`SHOWN` runners-up as ``[dot, score at most]``.  Every term of a score but the
        gain is a count of expected boxes, and the danger terms only ever subtract, so a
        dot's score is bounded from above by its gain and what it can deal from there (one
        fan per enemy answers which of those lines are blocked), then more tightly once the
        exposure there is known, and is exact once the reaction fire along its path is
        weighed.  The dot with the best bound is refined one step at a time; when the best
        is exact it is the choice (every other dot's score is below its bound), the one
        scoring every dot in full would make.  The runners-up are left as bounded as they
        are then: ranking them exactly walked two to three more paths a decision."""
        beh = self.behaviour
        # a carrier's points are the way out: shots he could take from a dot do not draw him
        # there (Street Ambush's carrier left his smoke for a shot at the street)
        off = 0.0 if ch.carrying else beh.offense
        self._warm_lines(game, ch, foes, top)
        parts: dict = {}
        heap: list = []
        for d in top:
            dealt = best_offense(game, ch, d, foes)[0] if off else 0.0
            gain = 0.0 if retreat else start - to_goal.get(d, far)
            bonus = 25.0 if d == goal else 0.0
            parts[d] = (dealt, gain, bonus)
            # the score below with no danger at all (rounding is monotonic: a bound in floats)
            heap.append((-round(gain + bonus + BOX_MP * off * dealt, 3), d, 0, None))
        heapq.heapify(heap)
        memo: dict = {}  # (reactor, dot) -> in his arcs / his shot there: one decision's facts
        # no enemy holds an arc (always so under a ruleset without arcs): no path draws
        # reaction fire, so only the chosen dot's path is walked back (the runners-up are
        # named in the ``why``; a dot ``reach`` found has a path)
        arcs = any(r.arcs and not r.out and r.pos for r in game.state.enemies_of(ch))
        while heap:
            _b, d, stage, got = heapq.heappop(heap)
            dealt, gain, bonus = parts[d]
            if stage == 2:
                if got[2] is None:  # the choice: the way he will walk
                    path, _steps = self._path_back(game, ch, here, d, crawl)
                    if not path:
                        continue
                    got = (got[0], d, path, *got[3:])
                others = [[list(e[1]), -e[0]] for e in heapq.nsmallest(self.SHOWN, heap)]
                return got, others
            elif stage == 0:  # the danger of standing there; the walk's still unknown
                stay = exposure(game, ch, d, foes)
                heapq.heappush(heap, (-round(gain + bonus - BOX_MP * danger_w * (
                    0.0 + 0.5 * stay) + BOX_MP * off * dealt, 3), d, 1, stay))
            else:
                stay = got
                path = None
                taken = 0.0
                if arcs:
                    path, steps = self._path_back(game, ch, here, d, crawl)
                    if not path:
                        continue
                    taken = path_danger(game, ch, path, steps, game.min_chance, memo)
                score = gain + bonus - BOX_MP * danger_w * (taken + 0.5 * stay) + \
                    BOX_MP * off * dealt
                got = (round(score, 3), d, path, taken, stay, dealt, gain)
                heapq.heappush(heap, (-got[0], d, 2, got))
        return None, []

    def _urgency(self, game: Game, ch: CharacterState) -> float:
        """Danger counts less for a side behind on points as the turns run out
        (:mod:`engine.play.bot_urgency`); a protected VIP never hurries."""
        if self._is_vip(game, ch) or self.behaviour.retreat_at >= 99:
            return 1.0
        return urgency(game, ch.side)

    @staticmethod
    def _warm_lines(game: Game, ch: CharacterState, foes: list[CharacterState],
                    dots: list) -> None:
        """Speed only, no decision: one fan per enemy tells the board which of the lines the
        scoring asks are blocked (exposure and offense between each watched enemy and each
        of ``dots``), instead of tracing them one by one.  (Reaction fire along a path asks
        only the few dots of it inside an arc: single lines.)"""
        asks: dict = {}  # enemy's dot -> (dots, visions): one fan per enemy
        for f in foes:
            want, visions = asks.setdefault(f.pos, (set(), set()))
            want.update(dots)
            visions.update((f.vision, ch.vision))
        for at in sorted(asks):
            want, visions = asks[at]
            game.board.warm_blocked(at, sorted(want), visions)

    @staticmethod
    def _path_back(game: Game, ch: CharacterState, here: dict, dest, crawl: bool
                   ) -> tuple[list, list[float]]:
        """The cheapest path to ``dest`` and its step costs, walked back through the costs
        ``reach`` already found (no second search): each step back goes to a neighbour whose
        cost plus the step's is the dot's cost."""
        board = game.board
        path, steps = [dest], []
        cur = dest
        guard = len(here) + 1
        while cur != ch.pos and guard > 0:
            guard -= 1
            best = None
            top = here[cur] + 0.015  # (no step costs less than nothing: dearer dots can't lead)
            for n in board.neighbours(cur):
                c = here.get(n)
                if c is None or c > top:
                    continue
                st_ = board.step(n, cur, ch.move_ratio, crawl=crawl)
                # metres are rounded to the centimetre: allow for it
                if st_ is not None and abs(c + st_.cost - here[cur]) < 0.015:
                    if best is None or (here[n], n) < (here[best[0]], best[0]):
                        best = (n, st_.cost)
            if best is None:
                # no step whose cost matches exactly: Dark Conspiracy's reach counts every
                # other diagonal double (2 m, then 4 m) while a step alone costs 3 m, so the
                # walk back goes on through the neighbour that brings it closest to the
                # start, within that metre (an A* search here cost ~0.7 ms a decision)
                for n in board.neighbours(cur):
                    c = here.get(n)
                    if c is None or c >= here[cur]:
                        continue
                    st_ = board.step(n, cur, ch.move_ratio, crawl=crawl)
                    if st_ is not None and abs(c + st_.cost - here[cur]) < 1.015:
                        if best is None or (c, n) < (here[best[0]], best[0]):
                            best = (n, st_.cost)
            if best is None:
                return Bot._path_asked(game, ch, dest, crawl)
            path.append(best[0])
            steps.append(best[1])
            cur = best[0]
        path.reverse()
        steps.reverse()
        if len(path) > 1 and game.walk_cost(ch, path, steps) > here[dest] + 0.015:
            # pieced together through the 1 m allowance above, the walk back can take the
            # dear diagonals where the search took the cheap ones: ask for the path itself
            return Bot._path_asked(game, ch, dest, crawl)
        return path, steps

    @staticmethod
    def _path_asked(game: Game, ch: CharacterState, dest, crawl: bool
                    ) -> tuple[list, list[float]]:
        """The board's cheapest path to ``dest`` and its step costs (a search of its own)."""
        board = game.board
        found = board.path(ch.pos, dest, ch.move_ratio, crawl=crawl) or []
        costs = [board.step(a, b, ch.move_ratio, crawl=crawl) for a, b in zip(found, found[1:])]
        return found, [c.cost if c is not None else 99 for c in costs]

    def _is_vip(self, game: Game, ch: CharacterState) -> bool:
        return any(o.kind == "protect" and o.side == ch.side and
                   ch in obj_rules.targets(game.state, o.target) for o in game.objectives)

    def _watched(self, game: Game, ch: CharacterState) -> list[CharacterState]:
        return list(self._asked(("watched", ch.id), lambda: self._nearest_foes(game, ch)))

    @staticmethod
    def _nearest_foes(game: Game, ch: CharacterState) -> list[CharacterState]:
        lat = game.board.lattice
        foes = [c for c in game.state.enemies_of(ch) if not c.out and c.pos is not None]
        foes.sort(key=lambda c: (lat.distance(c.pos[:2], ch.pos[:2]), c.id))
        return foes[:WATCHED]

    def _cover(self, game: Game, ch: CharacterState) -> None:
        """Left standing where the enemy can hit him and with nothing to shoot: drop prone
        (1 MP; +1 against shots from beyond one dot) before the arc."""
        if not self._active(game, ch) or ch.posture == PRONE or \
                not self._can(game, ch, "prone"):
            return
        foes = self._watched(game, ch)
        standing = exposure(game, ch, ch.pos, foes)
        if standing < self.behaviour.prone_when_exposed:
            return
        prone = exposure(game, ch, ch.pos, foes, posture=PRONE)
        dealt, _t = best_offense(game, ch, ch.pos, foes)
        if prone < standing * 0.8 and dealt < GOOD_SHOT:
            self._try(game, ch, self._trace(game, ch, A.prone(), {
                "exposed_standing": round(standing, 2), "exposed_prone": round(prone, 2)}))

    # ------------------------------------------------------------------ fighting
    def best_shot(self, game: Game, ch: CharacterState) -> tuple[float, CharacterState] | None:
        """The target worth most: expected boxes, more for a target near going down (focus
        fire), less when his arc answers first."""
        return self._asked(("shot", ch.id), lambda: self._best_shot(game, ch))

    def _best_shot(self, game: Game, ch: CharacterState
                   ) -> tuple[float, CharacterState] | None:
        w = ch.ready_weapon
        if w is None or w.is_grenade or not w.can_fire():
            return None
        best = None
        for f in self._watched(game, ch):
            plan = game.plan_shot(ch, f, movement_fire=True)
            if plan is None:
                continue
            value = plan.expected
            lowest = f.condition.lowest
            if lowest is not None:
                value *= 1.0 + (12 - lowest) / 12  # focus fire on the wounded
            if game.in_arcs(f, ch.pos):
                value -= shot_odds(game, f, f.pos, ch, ch.pos, False)
            if best is None or value > best[0]:
                best = (value, f)
        return best

    def _shoot(self, game: Game, ch: CharacterState, keep: int) -> None:
        for _ in range(3):
            if not self._active(game, ch) or \
                    not self._can(game, ch, "fire", reserve=self._arc_reserve(game, ch, keep)):
                return
            shot = self.best_shot(game, ch)
            magic = self.best_spell(game, ch) if ch.spells else None
            if magic is not None and magic[0] >= GOOD_SHOT and \
                    (shot is None or magic[0] > shot[0]):
                value, t, key, level = magic
                act = self._trace(game, ch, {"act": "cast", "spell": key, "target": t.id,
                                             "force": level},
                                  {"target": t.id, "spell": key, "force": level,
                                   "expected_boxes": round(value, 2)})
                if not self._try(game, ch, act):
                    return
                continue
            if shot is None or shot[0] < GOOD_SHOT:
                return
            act = self._trace(game, ch, A.fire(shot[1].id), {
                "target": shot[1].id, "expected_boxes": round(shot[0], 2)})
            if not self._try(game, ch, act):
                return

    def best_spell(self, game: Game, ch: CharacterState
                   ) -> tuple[float, CharacterState, str, str] | None:
        """The single-target combat spell worth most (expected boxes dealt less the stun
        boxes its Drain is expected to cost him), at Maximum or Minimum Force: (value, target,
        spell, "max"|"min")."""
        best = None
        for sp, level, f in spell_rules.castings(ch.spells):
            if sp.area:
                continue
            cost = drain_risk(ch, sp, f)
            for t in self._watched(game, ch):
                value = spell_value(game, ch, t, sp, f) - cost
                if best is None or value > best[0]:
                    best = (value, t, sp.key, level)
        return best

    def _melee_first(self, game: Game, ch: CharacterState) -> bool:
        return any(melee_contact(game.board, ch.pos, f.pos) for f in self._watched(game, ch))

    def _melee(self, game: Game, ch: CharacterState) -> None:
        if not self._can(game, ch, "melee", reserve=self._narrow(game, ch)):
            return
        for f in self._watched(game, ch):
            if not melee_contact(game.board, ch.pos, f.pos):
                continue
            att = melee_attack(ch)
            idx = melee_weapon_index(ch)
            if idx is not None and idx != ch.ready:
                better = melee_attack_with(ch, ch.weapons[idx])
                if better.success > att.success and self._can(game, ch, "ready", "melee"):
                    if self._try(game, ch, A.ready(idx)):
                        att = better
            odds = game.melee_value(ch, f)
            shot = self.best_shot(game, ch)
            if odds >= GOOD_SHOT and (shot is None or shot[0] < odds):
                self._try(game, ch, self._trace(game, ch, A.melee(f.id), {
                    "target": f.id, "weapon": att.name, "expected_boxes": round(odds, 2)}))
            return

    def _grenade(self, game: Game, ch: CharacterState) -> None:
        idx = next((i for i, w in enumerate(ch.weapons)
                    if w.is_grenade and (w.loaded is None or w.loaded > 0)), None)
        if idx is None:
            return
        gk = grenade_kind(ch.weapons[idx].type)
        if gk.kind == "smoke":
            self._smoke(game, ch, idx)
            return
        lat = game.board.lattice
        foes = [c for c in game.state.enemies_of(ch) if not c.out and c.pos is not None]
        friends = [c for c in game.state.characters.values()
                   if c.side == ch.side and not c.out and c.pos is not None]
        gun_shot = self.best_shot(game, ch)
        gun = gun_shot[0] if gun_shot is not None else 0.0
        reach = game.grenade_reach(ch, ch.weapons[idx])
        best = None
        for f in foes:
            dots = lat.distance(f.pos[:2], ch.pos[:2])
            if dots > MAX_THROW or dots < reach or f.pos[2] != ch.pos[2]:
                continue
            near = sum(1 for g in foes if g.pos[2] == f.pos[2]
                       and lat.distance(g.pos[:2], f.pos[:2]) <= 1)
            if any(lat.distance(c.pos[:2], f.pos[:2]) <= reach for c in friends):
                continue
            if near < 2 and gun >= GOOD_SHOT * 1.5:
                continue  # one enemy the gun handles as well
            kinds = ("throw",) if ch.ready == idx else ("ready", "throw")
            # the referee says when he can: now, or ready now and throw next phase
            plan = game.plan_actions(ch, kinds, distance=dots, weapon=ch.weapons[idx])
            if not plan or not plan[0] or (len(plan) > 1 and near < 2 and gun >= GOOD_SHOT):
                continue
            s = game.board.sight(ch.pos, f.pos, ch.posture, "standing", ch.vision)
            if s.blocked:
                continue
            if best is None or near > best[0]:
                best = (near, f, len(plan))
        if best is None:
            return
        gun_i = ch.ready
        if best[2] > 1:  # two activations: draw it now, throw it in his next one
            self._try(game, ch, self._trace(game, ch, A.ready(idx), {
                "grenade_next_phase": best[1].id, "enemies_in_blast": best[0],
                "gun_instead": round(gun, 2)}))
            return
        if ch.ready != idx and not self._try(game, ch, A.ready(idx)):
            return
        act = self._trace(game, ch, A.throw(best[1].pos), {
            "target": best[1].id, "enemies_in_blast": best[0], "gun_instead": round(gun, 2)})
        if not self._try(game, ch, act):
            return
        if gun_i is not None and gun_i != idx and \
                self._can(game, ch, "ready", reserve=self._narrow(game, ch)):
            self._try(game, ch, A.ready(gun_i))

    @staticmethod
    def _primed(game: Game, ch: CharacterState) -> bool:
        """A grenade in hand as his activation opens, under a referee where drawing and
        throwing it take two activations: he drew it last time to throw it now."""
        w = ch.ready_weapon
        if w is None or not w.is_grenade or (w.loaded is not None and w.loaded <= 0):
            return False
        plan = game.plan_actions(ch, ("ready", "throw"), weapon=w)
        return plan is not None and len(plan) > 1

    @staticmethod
    def _two_step(game: Game, ch: CharacterState) -> bool:
        """He has a grenade to draw, and the referee spreads drawing and throwing it over
        two activations, the first this one."""
        w = next((w for w in ch.weapons if w.is_grenade and (w.loaded is None or w.loaded > 0)),
                 None)
        if w is None or ch.ready_weapon is w:
            return False
        plan = game.plan_actions(ch, ("ready", "throw"), weapon=w)
        return plan is not None and len(plan) > 1 and bool(plan[0])

    def _smoke(self, game: Game, ch: CharacterState, idx: int) -> None:
        """Smoke between the team and the enemy arc that most endangers where he stands."""
        foes = [f for f in self._watched(game, ch) if f.arcs]
        # a ready and a throw of some six dots (3 MP in DMZ) must be in hand
        if not foes or not self._can(game, ch, "ready", "throw", distance=6,
                                     weapon=ch.weapons[idx]):
            return
        worst = max(foes, key=lambda f: shot_odds(game, f, f.pos, ch, ch.pos, False))
        if shot_odds(game, worst, worst.pos, ch, ch.pos, False) < GOOD_SHOT:
            return
        lat = game.board.lattice
        a, b = game.point(ch.pos), game.point(worst.pos)
        mid = lat.dot_at(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        at = (mid[0], mid[1], ch.pos[2])
        dots = lat.distance(at[:2], ch.pos[:2])
        if dots < 2 or dots > MAX_THROW or not game.board.standable(at):
            return
        if ch.ready != idx and not self._try(game, ch, A.ready(idx)):
            return
        self._try(game, ch, self._trace(game, ch, A.throw(at), {"smoke_against": worst.id}))

    def _aim_option(self, game: Game, ch: CharacterState, goal
                    ) -> tuple[float, dict[str, Any], dict[str, Any]] | None:
        """The ruleset's best aim (sr3 Take Aim, darkcon aimed fire) when it beats shooting
        now: its value (what the aim adds, in boxes comparable with one shot now, from the
        referee's own odds) is more than the best shot's, the aimed shot is worth a good
        shot, and the ground it may cost is worth less: a second action is left for the
        shot in this activation, or he is where he means to be, or (not falling back
        wounded) the aim is worth a good shot on its own, the bar any ruleset action must
        clear to take the place of his move (:meth:`_ruleset_option`)."""
        if not self._active(game, ch) or ch.carrying:
            return None
        opts = [o for o in self._options(game, ch, False, "aim") if o[1].get("act") == "aim"]
        if not opts:
            return None
        value, act, why = opts[0]
        if why.get("aimed_shot", 2 * value) < GOOD_SHOT:
            return None
        if game.slots_left(ch) < 2 and goal != ch.pos and \
                (value < GOOD_SHOT or ch.condition.modifier >= self.behaviour.retreat_at):
            return None
        shot = self.best_shot(game, ch)
        if shot is not None and shot[0] >= value:
            return None
        return value, act, {**why, "best_shot_now": round(shot[0], 2) if shot else 0.0}

    def _aim(self, game: Game, ch: CharacterState, goal) -> bool:
        """Take aim when it beats shooting now (:meth:`_aim_option`); True if he did."""
        opt = self._aim_option(game, ch, goal)
        return opt is not None and self._try(game, ch, self._trace(game, ch, opt[1], opt[2]))

    def _options(self, game: Game, ch: CharacterState, holding: bool,
                 only: str | None = None) -> list:
        """The ruleset's actions for the bot (:meth:`Game.bot_options`), best first.  All of
        them are each act's, sorted (:attr:`Game.bot_acts`): an act priced already since
        the last action (the aims, weighed first) is not priced again."""
        acts = game.bot_acts
        if only is None and acts:
            def merged() -> list:
                out = [o for act in acts for o in self._options(game, ch, holding, act)]
                game.sort_options(out)
                return out

            return self._asked(("options", ch.id, holding, None), merged)
        return self._asked(("options", ch.id, holding, only),
                           lambda: game.bot_options(ch, holding, only=only))

    def _ruleset_option(self, game: Game, ch: CharacterState, holding: bool = False) -> bool:
        """The ruleset's own best action (darkcon: charge, aim) when it is worth a good shot
        and more than the best shot now; when ``holding`` (the action unspent at the end),
        anything worth more than nothing."""
        opts = self._options(game, ch, holding) if self._active(game, ch) else []
        if not opts:
            return False
        value, act, why = opts[0]
        shot = self.best_shot(game, ch)
        if value <= 0 or (not holding and value < GOOD_SHOT) or \
                (shot is not None and shot[0] >= value):
            return False
        return self._try(game, ch, self._trace(game, ch, act, why))

    def _set_arc(self, game: Game, ch: CharacterState) -> None:
        if self._active(game, ch) and not game.can_hold_arcs:
            self._ruleset_option(game, ch, holding=True)
        if not self._active(game, ch) or not game.can_hold_arcs:
            return
        w = ch.ready_weapon
        if w is None or w.is_grenade:
            gun = self._gun_index(ch)
            if gun is None or ch.posture == PRONE or \
                    not self._can(game, ch, "ready", "arc-narrow"):
                return
            if not self._try(game, ch, A.ready(gun)):
                return
        foes = self._watched(game, ch)
        if not foes:
            return
        p = game.point(ch.pos)
        target = foes[0].pos
        held = self._held_area(game, ch)
        if held is not None and not any(shot_odds(game, ch, ch.pos, f, f.pos, False) > 0
                                        for f in foes):
            # a holder who sees nobody watches the enemy's way into the area he holds
            way = self._way_in(game, ch, held, foes)
            if len(way) >= 2:
                target = way[-2]
        direction = direction_to(p, game.point(target))
        def can(k: str) -> bool:
            return self._can(game, ch, f"arc-{k}")

        if ch.posture == PRONE:
            kind = "narrow" if can("narrow") else None
        else:
            kind = "wide" if can("wide") else "intermediate" if can("intermediate") else \
                "narrow" if can("narrow") else None
        if kind is not None:
            self._try(game, ch, A.arc(kind, round(direction, 1)))


def play_game(game: Game, bots: dict[str, Bot], max_actions: int = 20000) -> Game:
    """Let the bots play a game to its end (or until ``max_actions``)."""
    st = game.state
    guard = 0
    while not st.finished and guard < max_actions:
        team = st.current_team
        members = st.members(team)
        side = members[0].side if members else None
        bot = bots.get(side)
        if bot is None:
            raise PlayError(f"no bot plays side {side!r}")
        before = len(game.actions)
        bot.play_phase(game)
        guard += 1
        if len(game.actions) == before and not st.finished:
            raise PlayError(f"the {side} bot made no move")
    return game
