"""The DMZ turn sequence.

Initiative is rolled once, at the start: each team (or, with ``initiative: character``, each
character as a team of one) rolls 2D6, highest first, ties re-rolled among the tied.  A turn
is one Movement Phase per team in that order.  A team's phase opens by taking down the arcs
its members set last turn and giving them their MP afresh; its members then move one at a
time; it closes by setting off the grenades the team threw.  The game ends after the turn
limit, or as soon as at most one side still has a character in the fight.

The skeleton is the same under every ruleset: each turn starts by asking the referee's
``new_turn_order`` hook (DMZ keeps the order rolled in turn 1; Shadowrun rolls initiative
every turn and lists a character once per pass), each phase opens with its ``refresh`` hook
on every member, and grenades go off through its ``resolve_grenade`` hook.
"""

from __future__ import annotations

from typing import Protocol

from engine.model import Objective, Scenario
from engine.play import objectives as obj_rules
from engine.play.board_view import BarrierInfo, BoardView
from engine.play.dice import Dice
from engine.play.errors import PlayError
from engine.play.events import EventLog
from engine.play.grenades import grenade_type, smoke_dots
from engine.play.referee_areas import across_dots
from engine.play.state import CharacterState, GameState, PendingGrenade
from engine.play.weapons import grenade_kind


class Game(Protocol):
    """What the turn sequence needs of the referee (:class:`engine.play.game.Game`), which
    drives it: the state, board, dice and log, the objectives, and damage to characters and
    barriers (grenades)."""

    state: GameState
    board: BoardView
    dice: Dice
    log: EventLog
    objectives: list[Objective]

    def damage(self, victim: CharacterState, amount: int, kind: str, source: str,
               **detail: object) -> None: ...

    def damage_barrier(self, b: BarrierInfo, boxes: int) -> None: ...

    def new_turn_order(self) -> list[str]: ...

    def refresh(self, ch: CharacterState) -> None: ...

    def resolve_grenade(self, g: PendingGrenade) -> None: ...


#: where a side without a deployment zone starts, by its order in the scenario
FALLBACK_EDGES = ("west", "east", "north", "south")
FALLBACK_DEPTH = 3
#: turn limit of a scenario that sets none
DEFAULT_TURN_LIMIT = 10


def deploy(game: Game, scenario: Scenario, explicit: dict) -> None:
    """Put every character on a dot of his side's zone (random, seeded, unless given)."""
    taken: set = set()
    for i, side in enumerate(scenario.sides):
        dep = side.deployment
        if dep is not None and (dep.polygon is not None or dep.edge is not None):
            zone = game.board.deploy_dots(dep.polygon, dep.level, dep.edge, dep.depth)
        else:
            zone = game.board.deploy_dots(None, 0, FALLBACK_EDGES[i % 4], FALLBACK_DEPTH)
        zone = sorted(zone)
        game.dice.rng.shuffle(zone)
        members = [c for c in game.state.characters.values() if c.side == side.id]
        for ch in members:
            if ch.id in explicit:
                ch.pos = tuple(explicit[ch.id])
                if len(ch.pos) == 2:
                    ch.pos = (ch.pos[0], ch.pos[1], 0)
            else:
                free = [d for d in zone if d not in taken]
                if not free:
                    raise PlayError(f"side {side.id!r} has no room left to deploy {ch.name}")
                ch.pos = free[0]
            taken.add(ch.pos)
            game.log.record("deploy", who=ch.id, side=ch.side, at=list(ch.pos))


def initiative_order(game: Game) -> list[str]:
    """DMZ initiative: every team rolls 2D6, highest first, ties re-rolled (logged)."""
    st = game.state
    teams: list[str] = []
    for ch in st.characters.values():
        t = st.team_of(ch)
        if t not in teams:
            teams.append(t)
    rolls = {t: game.dice.roll_2d6("initiative", team=t) for t in teams}
    order = _order(game, teams, rolls)
    game.log.record("initiative", order=order, rolls=rolls)
    return order


def roll_initiative(game: Game) -> None:
    st = game.state
    st.order = initiative_order(game)
    st.phase = 0


def start_turn(game: Game) -> None:
    """A turn begins: the referee gives the activation order, the first phase opens."""
    st = game.state
    st.order = game.new_turn_order()
    st.phase = 0
    start_phase(game)


def _order(game: Game, teams: list[str], rolls: dict[str, int]) -> list[str]:
    out: list[str] = []
    for value in sorted(set(rolls[t] for t in teams), reverse=True):
        tied = [t for t in teams if rolls[t] == value]
        if len(tied) == 1:
            out.extend(tied)
        else:
            again = {t: game.dice.roll_2d6("initiative tie", team=t) for t in tied}
            out.extend(_order(game, tied, again))
    return out


def start_phase(game: Game) -> None:
    st = game.state
    team = st.current_team
    for ch in st.members(team):
        game.refresh(ch)
    game.log.record("phase", turn=st.turn, team=team)


def in_fight(game: Game) -> list[str]:
    return sorted({c.side for c in game.state.characters.values() if not c.out})


def _fight_left(game: Game) -> list[str] | None:
    """:func:`in_fight` when at most one side is left in it, None when two or more are.  The
    referee asks after every action: two characters of different sides found in the fight
    last time are asked first (still in it: the answer, two questions instead of one per
    character); else every character, and the two that show it are kept for next time."""
    st = game.state
    chars = st.characters
    hint = st.fighting
    if hint is not None:
        a, b = chars.get(hint[0]), chars.get(hint[1])
        if a is not None and b is not None and a.side != b.side and not a.out and not b.out:
            return None
    first = None
    for c in chars.values():
        if c.out:
            continue
        if first is None:
            first = c
        elif c.side != first.side:
            st.fighting = (first.id, c.id)
            return None
    st.fighting = None
    return [] if first is None else [first.side]


def open_objectives(game: Game, side: str) -> bool:
    """Has ``side`` objectives it can still achieve by moving (a lone side plays them out)?"""
    st = game.state
    return any(o.side == side and o.id not in st.achieved and obj_rules.in_time(o, st.turn)
               and o.kind in ("reach", "retrieve", "exit", "hold") for o in game.objectives)


def advance(game: Game) -> None:
    """Move the sequence on as far as it goes without a decision by a player."""
    st = game.state
    while not st.finished:
        left = _fight_left(game)
        if left is not None and not (left and open_objectives(game, left[0])):
            finish(game, "one side left in the fight" if left else "no one left in the fight")
            return
        if st.active is not None:
            return
        if any(not c.moved and not c.out for c in st.members(st.current_team)):
            return
        end_phase(game)


def end_phase(game: Game) -> None:
    st = game.state
    resolve_grenades(game, st.current_team)
    obj_rules.check_eliminations(st, game.objectives, game.log)
    st.phase += 1
    if st.phase >= len(st.order):
        obj_rules.check_holds(st, game.objectives, game.board, game.log)
        game.log.record("turn-end", turn=st.turn)
        st.phase = 0
        st.turn += 1
        if st.turn_limit is not None and st.turn > st.turn_limit:
            st.turn -= 1
            finish(game, "turn limit")
            return
        start_turn(game)
        return
    start_phase(game)


def finish(game: Game, why: str) -> None:
    st = game.state
    obj_rules.check_end(st, game.objectives, game.log)
    st.finished = True
    st.active = None
    st.winner = obj_rules.winner(st, game.objectives)
    game.log.record("finish", why=why, turn=st.turn, winner=st.winner,
                    scores=obj_rules.scores(st, game.objectives),
                    achieved=dict(st.achieved))


def resolve_grenades(game: Game, team: str) -> None:
    """Grenades thrown by ``team`` go off at the end of its phase."""
    st = game.state
    mine = [g for g in st.grenades if st.team_of(st.characters[g.thrower]) == team]
    st.grenades = [g for g in st.grenades if g not in mine]
    for g in mine:
        game.resolve_grenade(g)


def lay_smoke(game: Game, g: PendingGrenade) -> None:
    """Smoke fills the landing dot and its neighbours for the rest of the game."""
    st = game.state
    new = [d for d in smoke_dots(game.board.lattice, g.at) if d not in st.smoke]
    st.smoke.extend(new)
    game.board.add_smoke(new)
    game.log.record("smoke", at=list(g.at), dots=len(new))


def explode(game: Game, g: PendingGrenade) -> None:
    """DMZ: smoke, or one Blast test against every character and barrier in reach."""
    gk = grenade_kind(g.type)
    gt = grenade_type(gk.kind)
    if gt.per_dot is None:
        lay_smoke(game, g)
        return
    sv = gt.success_value(gk.ipe)
    game.log.record("blast", thrower=g.thrower, grenade=g.type, at=list(g.at))
    _blast_characters(game, g.at, gt, sv)
    _blast_barriers(game, g.at, gt, sv)


def _blast_characters(game: Game, at, gt, sv: int) -> None:
    lat = game.board.lattice
    for ch in list(game.state.characters.values()):
        if ch.out or ch.pos is None or ch.pos[2] != at[2]:
            continue
        dist = lat.distance(at[:2], ch.pos[:2])
        defense = ch.defense_value("impact")
        if sv - (defense + gt.per_dot * dist) < -10:
            continue  # beyond the blast
        cover = 0
        if dist > 0:
            s = game.board.sight(at, ch.pos, "standing", ch.posture, "thermographic")
            # a ruleset with a blast-against-barrier rule (sr3) may let it through what hides
            past = game.board.blast_through(at, ch.pos, gt.name) if s.blocked else None
            if s.blocked and not (past and past["reaches"]):
                game.log.record("blast-shielded", target=ch.id, why=s.details.get("blocked_by"))
                continue
            if past:
                game.log.record("blast-through", target=ch.id, power=past["power"],
                                barriers=[b["effect"] for b in past["barriers"]])
            cover = s.cover_without_visibility
        mods = {"defense": defense, "cover": cover, "distance": gt.per_dot * dist}
        wall = across_dots(game, at, ch.pos, ("impact",))  # a Physical Barrier spell
        if wall:
            mods["barrier_spell"] = wall
        res = game.dice.test("grenade blast", sv, sum(mods.values()), mods, target=ch.id,
                             dots_from_ground_zero=dist)
        if res.success:
            game.damage(ch, gt.damage, gt.damage_kind, source="grenade")


def _blast_barriers(game: Game, at, gt, sv: int) -> None:
    st = game.state
    radius = max(0, (sv + 10 - 6) // gt.per_dot)
    for b in game.board.barriers_near(at, radius):
        if b.feature in st.holes:
            continue
        mods = {"barrier": b.barrier, "distance": gt.per_dot * b.distance}
        res = game.dice.test("grenade blast", sv, sum(mods.values()), mods, barrier=b.feature)
        if not res.success:
            continue
        game.damage_barrier(b, gt.damage)
