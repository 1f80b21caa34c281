"""Bots: simple, deterministic players for balance testing.

A bot moves each of its characters in turn: it stands up if knocked down, reloads an empty
gun, takes a good shot if one is there, then advances towards its side's next objective
(or, with none left, towards the enemy's objective or the nearest enemy), choosing among the
dots it can reach the one that gains most ground while being seen by fewest enemies and lying
in fewest enemy arcs.  It throws a grenade at a cluster of two or more enemies when no friend
is near it, takes another shot if it still can, and spends what is left on a reaction arc
pointed at the nearest enemy.  Bots draw no random numbers, so a game's dice alone decide it.
"""

from __future__ import annotations

from typing import Any

from engine.play import actions as A
from engine.play import objectives as obj_rules
from engine.play.game import Game, PlayError
from engine.play.grenades import MAX_THROW, throw_mp
from engine.play.reaction import direction_to
from engine.play.referee_melee import is_melee_weapon, melee_attack, melee_contact
from engine.play.state import PRONE, CharacterState
from engine.play.weapons import grenade_kind

#: success chance a bot wants before spending 3 MP on movement fire
GOOD_SHOT = 4
#: how many of the best-advancing dots get the (costlier) exposure check
CANDIDATES = 6
#: how many of the nearest enemies a bot considers when judging exposure
WATCHED = 4
#: a guard stops this many dots from the objective he defends
GUARD_DISTANCE = 3


class Bot:
    """Plays every character of one side."""

    def __init__(self, side: str) -> None:
        self.side = side
        #: actions the referee refused (kept out of the game log, which only holds the game)
        self.errors: list[str] = []

    # ------------------------------------------------------------------ driving
    def play_phase(self, game: Game) -> None:
        """Move every character of the current team (which must be ours)."""
        st = game.state
        while not st.finished and st.active is None:
            team = st.current_team
            todo = [c for c in st.members(team) if not c.moved and not c.out]
            if not todo or todo[0].side != self.side:
                return
            self.play_character(game, todo[0])

    def play_character(self, game: Game, ch: CharacterState) -> None:
        game.act(A.begin(ch.id))
        try:
            self._turn(game, ch)
        except PlayError as e:  # a bot misjudged; note it and end the move cleanly
            self.errors.append(f"{ch.id}: {e}")
        if game.state.active == ch.id:
            self._end(game, ch)

    def _active(self, game: Game, ch: CharacterState) -> bool:
        return game.state.active == ch.id and not game.state.finished

    def _try(self, game: Game, ch: CharacterState, action: dict[str, Any]) -> bool:
        if not self._active(game, ch):
            return False
        try:
            game.act(action)
        except PlayError as e:
            self.errors.append(f"{ch.id}: {e}")
            return False
        return True

    def _end(self, game: Game, ch: CharacterState) -> None:
        if self._try(game, ch, A.end()):
            return
        # ended on a friend's dot: step aside if possible, else stop where he is
        for n in game.board.neighbours(ch.pos):
            if game.state.occupant(n) is None:
                st = game.board.step(ch.pos, n, ch.move_ratio, crawl=ch.posture == PRONE)
                if st is not None and st.cost <= ch.mp_left:
                    if self._try(game, ch, A.move(n)) and self._try(game, ch, A.end()):
                        return
        if self._active(game, ch):
            game.act({"act": "end", "force": True})

    # ------------------------------------------------------------------ one character
    def _turn(self, game: Game, ch: CharacterState) -> None:
        if ch.posture == PRONE and ch.mp_left >= 2:
            self._try(game, ch, A.stand())
        w = ch.ready_weapon
        if w is None:
            gun = self._gun_index(ch)
            if gun is not None and ch.mp_left >= 3:
                self._try(game, ch, A.ready(gun))
        w = ch.ready_weapon
        if w is not None and not w.is_grenade and w.loaded == 0 and w.clips > 0:
            self._try(game, ch, A.reload())
        goal, exit_edge = self.goal(game, ch)
        if exit_edge is not None and game.board.edge_of(ch.pos) == exit_edge:
            if ch.mp_left >= ch.move_ratio and self._try(game, ch, A.exit_()):
                return
        self._shoot(game, ch, keep=5)
        if not self._active(game, ch):
            return
        self._melee(game, ch)
        if goal is not None and self._active(game, ch):
            self._advance(game, ch, goal, exit_edge)
        if not self._active(game, ch) or ch.exited:
            return
        if exit_edge is not None and game.board.edge_of(ch.pos) == exit_edge and \
                ch.mp_left >= ch.move_ratio:
            if self._try(game, ch, A.exit_()):
                return
        self._grenade(game, ch)
        self._shoot(game, ch, keep=2)
        self._set_arc(game, ch)

    @staticmethod
    def _gun_index(ch: CharacterState) -> int | None:
        for i, w in enumerate(ch.weapons):
            if not w.is_grenade and not is_melee_weapon(w) and \
                    (w.loaded is None or w.loaded > 0 or w.clips > 0):
                return i
        return None

    # ------------------------------------------------------------------ goals
    def goal(self, game: Game, ch: CharacterState) -> tuple[tuple[int, int, int] | None,
                                                             str | None]:
        """Where this character heads, and the edge he means to leave by (if any)."""
        st = game.state
        best: list[tuple[int, tuple[int, int, int], str | None]] = []
        lat = game.board.lattice
        for obj in game.objectives:
            if obj.id in st.achieved or not obj_rules.in_time(obj, st.turn):
                continue
            mine = obj.side == ch.side
            target: tuple[int, int, int] | None = None
            edge = None
            if mine:
                if obj.kind == "retrieve" and obj.id in ch.carrying:
                    edge = obj_rules.exit_edge(obj)
                    target = self._edge_dot(game, ch, edge)
                elif obj.kind in ("reach", "retrieve"):
                    if any(obj.id in c.carrying for c in st.characters.values()):
                        continue
                    target = obj_rules.at_dot(obj)
                elif obj.kind == "exit":
                    edge = obj.edge
                    target = self._edge_dot(game, ch, edge)
                elif obj.kind == "hold":
                    target = self._area_dot(game, ch, obj)
                elif obj.kind == "eliminate":
                    foes = [c for c in obj_rules.targets(st, obj.target) if not c.out]
                    target = self._nearest(game, ch, foes)
                elif obj.kind == "protect":
                    continue
            else:
                # defend: stand off the spot the enemy wants
                if obj.kind in ("reach", "retrieve"):
                    target = obj_rules.at_dot(obj)
                elif obj.kind == "hold":
                    target = self._area_dot(game, ch, obj)
                if target is not None and ch.pos is not None and \
                        lat.distance(target[:2], ch.pos[:2]) <= GUARD_DISTANCE:
                    target = ch.pos
            if target is None or not game.board.standable(target):
                continue
            d = lat.distance(target[:2], ch.pos[:2]) + (0 if mine else 1000)
            best.append((d, target, edge))
        if best:
            best.sort(key=lambda t: (t[0], t[1]))
            return best[0][1], best[0][2]
        foes = [c for c in st.enemies_of(ch) if not c.out]
        return self._nearest(game, ch, foes), None

    def _nearest(self, game: Game, ch: CharacterState, others: list[CharacterState]):
        lat = game.board.lattice
        live = [c for c in others if c.pos is not None]
        if not live:
            return None
        return min(live, key=lambda c: (lat.distance(c.pos[:2], ch.pos[:2]), c.id)).pos

    def _edge_dot(self, game: Game, ch: CharacterState, edge: str | None):
        if edge is None:
            return None
        dots = game.board.deploy_dots(None, 0, edge, 1)
        if not dots:
            return None
        return min(dots, key=lambda d: (self._dist2(game, d, ch.pos), d))

    @staticmethod
    def _dist2(game: Game, a, b) -> float:
        p, q = game.point(a), game.point(b)
        return (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2

    def _area_dot(self, game: Game, ch: CharacterState, obj):
        if obj.area is None:
            return obj_rules.at_dot(obj)
        dots = game.board.deploy_dots(obj.area, obj.level, None, None)
        if not dots:
            return None
        lat = game.board.lattice
        return min(dots, key=lambda d: (lat.distance(d[:2], ch.pos[:2]), d))

    # ------------------------------------------------------------------ moving
    def _advance(self, game: Game, ch: CharacterState, goal, exit_edge) -> None:
        board = game.board
        foes_left = any(not c.out for c in game.state.enemies_of(ch))
        budget = ch.mp_left - (2 if foes_left else 0)  # keep a narrow arc in hand
        if budget < ch.move_ratio or goal == ch.pos:
            return
        crawl = ch.posture == PRONE
        here = board.reach(ch.pos, ch.move_ratio, budget, crawl=crawl)
        if not here:
            return
        occupied = {c.pos for c in game.state.characters.values()
                    if not c.out and c is not ch and c.pos is not None}
        cands = [d for d in here if d not in occupied or d == ch.pos]
        costs = board.costs_to(goal, ch.move_ratio, cands)
        to_goal = {d: c for d, c in zip(cands, costs, strict=True) if c is not None}
        far = max(to_goal.values(), default=0) + 100
        if goal in cands:
            dest = goal
        else:
            cands.sort(key=lambda d: (to_goal.get(d, far), here[d], d))
            top = [d for d in cands if d != ch.pos][:CANDIDATES] or [ch.pos]
            foes = self._watched(game, ch)
            dest = min(top, key=lambda d: (to_goal.get(d, far) + 4 * self._exposure(game, ch, d,
                                                                                      foes), d))
        if dest == ch.pos:
            return
        path = board.path(ch.pos, dest, ch.move_ratio, crawl=crawl)
        if not path:
            return
        for d in path[1:]:
            occ = game.state.occupant(d)
            if occ is not None and occ.side != ch.side:
                return  # the way is held: stop here (melee or a shot may follow)
            if not self._active(game, ch) or not self._try(game, ch, A.move(d)):
                return

    def _watched(self, game: Game, ch: CharacterState) -> list[CharacterState]:
        lat = game.board.lattice
        foes = [c for c in game.state.enemies_of(ch) if not c.out and c.pos is not None]
        foes.sort(key=lambda c: (lat.distance(c.pos[:2], ch.pos[:2]), c.id))
        return foes[:WATCHED]

    def _exposure(self, game: Game, ch: CharacterState, dot, foes) -> int:
        n = 0
        for f in foes:
            s = game.board.sight(f.pos, dot, f.posture, ch.posture, f.vision)
            if s.blocked:
                continue
            n += 1
            if game.in_arcs(f, dot):
                n += 2
            n -= min(s.total, 2) if s.total > 0 else 0
        return n

    # ------------------------------------------------------------------ fighting
    def best_shot(self, game: Game, ch: CharacterState) -> tuple[int, CharacterState] | None:
        w = ch.ready_weapon
        if w is None or w.is_grenade or not w.can_fire():
            return None
        best = None
        for f in self._watched(game, ch):
            plan = game.plan_shot(ch, f, movement_fire=True)
            if plan is None:
                continue
            chance = plan[0] - plan[1]
            # reaction fire answers first: prefer targets without an arc on us
            if game.in_arcs(f, ch.pos):
                chance -= 2
            if best is None or chance > best[0]:
                best = (chance, f)
        return best

    def _shoot(self, game: Game, ch: CharacterState, keep: int) -> None:
        for _ in range(3):
            if not self._active(game, ch) or ch.mp_left < 3 + keep:
                return
            shot = self.best_shot(game, ch)
            if shot is None or shot[0] < GOOD_SHOT:
                return
            if not self._try(game, ch, A.fire(shot[1].id)):
                return

    def _melee(self, game: Game, ch: CharacterState) -> None:
        if ch.mp_left < 4 + 2:
            return
        for f in self._watched(game, ch):
            if melee_contact(game.board, ch.pos, f.pos):
                odds = melee_attack(ch).success - f.defense_value("impact")
                shot = self.best_shot(game, ch)
                if odds >= 4 and (shot is None or shot[0] < odds):
                    self._try(game, ch, A.melee(f.id))
                return

    def _grenade(self, game: Game, ch: CharacterState) -> None:
        idx = next((i for i, w in enumerate(ch.weapons)
                    if w.is_grenade and (w.loaded is None or w.loaded > 0)), None)
        if idx is None:
            return
        gk = grenade_kind(ch.weapons[idx].type)
        if gk.kind == "smoke":
            return
        lat = game.board.lattice
        foes = [c for c in game.state.enemies_of(ch) if not c.out and c.pos is not None]
        friends = [c for c in game.state.characters.values()
                   if c.side == ch.side and not c.out and c.pos is not None]
        best = None
        for f in foes:
            dots = lat.distance(f.pos[:2], ch.pos[:2])
            if dots > MAX_THROW or dots < 3 or f.pos[2] != ch.pos[2]:
                continue
            near = sum(1 for g in foes if g.pos[2] == f.pos[2]
                       and lat.distance(g.pos[:2], f.pos[:2]) <= 1)
            if near < 2 or any(lat.distance(c.pos[:2], f.pos[:2]) <= 3 for c in friends):
                continue
            cost = (0 if ch.ready == idx else 3) + throw_mp(dots, gk.aerodynamic)
            if cost > ch.mp_left:
                continue
            s = game.board.sight(ch.pos, f.pos, ch.posture, "standing", ch.vision)
            if s.blocked:
                continue
            if best is None or near > best[0]:
                best = (near, f)
        if best is None:
            return
        gun = ch.ready
        if ch.ready != idx and not self._try(game, ch, A.ready(idx)):
            return
        if not self._try(game, ch, A.throw(best[1].pos)):
            return
        if gun is not None and gun != idx and ch.mp_left >= 3 + 2:
            self._try(game, ch, A.ready(gun))

    def _set_arc(self, game: Game, ch: CharacterState) -> None:
        if not self._active(game, ch):
            return
        w = ch.ready_weapon
        if w is None or w.is_grenade:
            return
        foes = self._watched(game, ch)
        if not foes:
            return
        p = game.point(ch.pos)
        target = foes[0].pos
        direction = direction_to(p, game.point(target))
        left = ch.mp_left
        if ch.posture == PRONE:
            kind = "narrow" if left >= 2 else None
        else:
            kind = "wide" if left >= 6 else "intermediate" if left >= 4 else \
                "narrow" if left >= 2 else None
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
