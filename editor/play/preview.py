"""What an action would do, worked out before it is taken (no Qt, no dice).

The play mode shows these before the player commits: the cheapest path to a dot with its
running MP and the enemy arcs it enters (with the reaction attacks the Fire Ratio tally would
earn there), and the success chance of a shot.  Everything comes from the same
:class:`engine.play.game.Game` and board the action will use, so the preview and the
outcome cannot disagree; nothing here rolls a die or changes the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.lattice import Dot3
from engine.play.game import FIRE_MP, Game
from engine.play.reaction import ReactionTally
from engine.play.shots import ShotPlan
from engine.play.state import PRONE, CharacterState

#: a plan's bookkeeping the shot box leaves out (the barriers' ids and ratings, once more)
HIDDEN_NUMBERS = ("blind_through",)


@dataclass
class ArcEntry:
    """The path enters ``reactor``'s arc at step ``index`` (a dot of the path)."""

    reactor: str
    index: int
    dot: Dot3
    attacks: int  # attacks the tally earns along the path (before holds for range/chance)
    chance: int | None  # the reactor's chance against the mover at ``dot`` (None: no shot)
    inside: bool = False  # the mover stands in the arc already

    def text(self) -> str:
        c, r = self.dot[0], self.dot[1]
        shot = (f"no line of fire at {c},{r}" if self.chance is None
                else f"chance {self.chance} at {c},{r}")
        n = f"{self.attacks} attack{'s' if self.attacks != 1 else ''}"
        where = f"inside {self.reactor}'s arc" if self.inside else \
            f"enters {self.reactor}'s arc at {c},{r}"
        return f"{where}: {n}, {shot}"


@dataclass
class PathPreview:
    """The cheapest path from the mover to a dot, costed step by step."""

    mover: str
    dots: list[Dot3]
    costs: list[int]  # MP of each step (len(dots) - 1)
    running: list[int]  # MP spent this phase after each step
    mp_left: int
    entries: list[ArcEntry] = field(default_factory=list)
    blocked_by: str | None = None  # an enemy on the path

    @property
    def total(self) -> int:
        return sum(self.costs)

    @property
    def affordable(self) -> bool:
        return self.total <= self.mp_left and self.blocked_by is None

    @property
    def warning(self) -> str:
        """Empty when the path enters no enemy arc."""
        if not self.entries:
            return ""
        text = "; ".join(e.text() for e in self.entries)
        return text[0].upper() + text[1:]


def path_preview(game: Game, mover: CharacterState, target: Dot3) -> PathPreview | None:
    """The cheapest path ``mover`` can take to ``target`` now, or None when there is none."""
    if mover.pos is None or tuple(target) == mover.pos:
        return None
    crawl = mover.posture == PRONE
    dots = game.board.path(mover.pos, tuple(target), mover.move_ratio, crawl=crawl)
    if not dots or len(dots) < 2:
        return None
    costs: list[int] = []
    for a, b in zip(dots, dots[1:], strict=False):
        st = game.board.step(a, b, mover.move_ratio, crawl=crawl)
        if st is None:
            return None
        costs.append(st.cost)
    running, acc = [], mover.mp_spent
    for c in costs:
        acc += c
        running.append(acc)
    pv = PathPreview(mover.id, [tuple(d) for d in dots], costs, running, mover.mp_left)
    for d in pv.dots[1:]:
        occ = game.state.occupant(d)
        if occ is not None and occ.side != mover.side:
            pv.blocked_by = occ.id
            break
    pv.entries = _arc_entries(game, mover, pv)
    return pv


def _arc_entries(game: Game, mover: CharacterState, pv: PathPreview) -> list[ArcEntry]:
    """Each enemy arc the path enters, with the attacks his Fire Ratio tally earns."""
    out: list[ArcEntry] = []
    for r in game.reactors(mover):
        tally = game.state.tally(r.id) or ReactionTally(r.fire_ratio)
        inside = game.in_arcs(r, mover.pos)
        first: int | None = None
        for i, d in enumerate(pv.dots[1:], start=1):
            if game.in_arcs(r, d):
                if first is None:
                    first = i
                tally.spend(pv.costs[i - 1])
        if first is None:
            # he began inside and walks out without drawing fire: the free attack, fired at
            # the last dot inside
            if tally.started_in_arc or (game.state.active != mover.id
                                        and game.in_arcs(r, mover.pos)):
                gone = next((i for i, d in enumerate(pv.dots) if not game.in_arcs(r, d)), None)
                if gone is not None and tally.attacks == 0 and not tally.free_used:
                    at = pv.dots[gone - 1]
                    out.append(ArcEntry(r.id, gone - 1, at, 1, _chance_at(game, r, mover, at),
                                        inside=True))
            continue
        out.append(ArcEntry(r.id, first, pv.dots[first], tally.attacks,
                            _chance_at(game, r, mover, pv.dots[first]), inside=inside))
    return out


def _chance_at(game: Game, reactor: CharacterState, mover: CharacterState,
               dot: Dot3) -> int | None:
    """The reactor's success chance against the mover standing on ``dot``."""
    here = mover.pos
    try:
        mover.pos = dot  # plan_shot reads positions only; restored at once
        plan = game.plan_shot(reactor, mover, movement_fire=False)
    finally:
        mover.pos = here
    return None if plan is None else plan[0] - plan[1]


@dataclass
class ShotPreview:
    """A movement-fire shot as the referee will resolve it."""

    attacker: str
    target: str
    weapon: str
    success_value: int
    target_value: int
    modifiers: dict[str, int]
    mp: float = FIRE_MP
    #: the referee's plan; under a ruleset other than DMZ its ``numbers`` are what is shown
    plan: ShotPlan | None = None
    units: str = "MP"

    @property
    def dmz(self) -> bool:
        return self.plan is None or "success_value" in self.plan.numbers

    @property
    def chance(self) -> int:
        return self.success_value - self.target_value

    @property
    def probability(self) -> float:
        return success_probability(self.chance) if self.dmz else self.plan.p_hit

    def headline(self) -> str:
        """The shot in a few words, for the status bar."""
        return f"chance {self.chance}" if self.dmz else f"{self.probability:.0%} to hit"

    def text(self) -> str:
        if not self.dmz:
            nums = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in self.plan.numbers.items()
                             if k not in HIDDEN_NUMBERS)
            cost = f", {self.mp:g} {self.units}" if self.mp else ""
            return (f"{self.attacker} → {self.target} with the {self.weapon}: {nums}; "
                    f"{self.probability:.0%} to hit, {self.plan.expected:.1f} damage expected"
                    f"{cost}")
        mods = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in self.modifiers.items())
        return (f"{self.attacker} → {self.target} with the {self.weapon}: SV "
                f"{self.success_value} − TV {self.target_value} ({mods}) = chance "
                f"{self.chance} ({self.probability:.0%} on 2D6), {self.mp} MP")


def shot_preview(game: Game, attacker: CharacterState, target: CharacterState,
                 **choice: Any) -> ShotPreview | None:
    """The shot ``attacker`` would take at ``target`` now, or None (no line, out of range).
    ``choice``: the fire mode, rounds and called shot of a ruleset with modes (sr3)."""
    plan = game.plan_shot(attacker, target, movement_fire=True, **choice)
    if plan is None:
        return None
    cost = game.cost("fire", attacker)[0]
    n = plan.numbers
    if "success_value" not in n:
        return ShotPreview(attacker.id, target.id, attacker.ready_weapon.name, 0, 0, {},
                           cost, plan, game.units)
    return ShotPreview(attacker.id, target.id, attacker.ready_weapon.name, n["success_value"],
                       n["target_value"], dict(n["modifiers"]), cost, plan, game.units)


def success_probability(chance: int) -> float:
    """P(success) of the 2D6 Success Test: total <= chance, 2 always and 12 never succeeds,
    nothing below a chance of -10."""
    if chance < -10:
        return 0.0
    ways = {t: 6 - abs(t - 7) for t in range(2, 13)}
    ok = sum(n for t, n in ways.items() if t == 2 or (t != 12 and t <= chance))
    return ok / 36


@dataclass
class ThrowPreview:
    """A grenade throw at a dot: its MP and its accuracy test, as the referee will make it."""

    thrower: str
    at: Dot3
    dots: int
    mp: int
    success_value: int
    target_value: int
    cover: int

    @property
    def chance(self) -> int:
        return self.success_value - self.target_value

    def text(self) -> str:
        return (f"Throw at {self.at[0]},{self.at[1]}: {self.dots} dots, {self.mp} MP; accuracy "
                f"SV {self.success_value} − TV {self.target_value} (range {self.mp}, cover "
                f"{self.cover}) = chance {self.chance} "
                f"({success_probability(self.chance):.0%}); a miss scatters")


def throw_preview(game: Game, thrower: CharacterState, at: Dot3) -> ThrowPreview | None:
    """The throw of the ready grenade at ``at``, or None (no grenade, no sight, too far)."""
    from engine.play.grenades import MAX_THROW, accuracy_target_value, throw_mp
    from engine.play.state import STANDING
    from engine.play.weapons import grenade_kind

    w = thrower.ready_weapon
    gk = grenade_kind(w.type) if w is not None else None
    if gk is None or thrower.pos is None:
        return None
    dots = game.board.lattice.distance(thrower.pos[:2], at[:2])
    if dots > MAX_THROW:
        return None
    s = game.board.sight(thrower.pos, tuple(at), thrower.posture, STANDING, thrower.vision)
    if s.blocked:
        return None
    cover = s.total - s.visibility
    return ThrowPreview(thrower.id, tuple(at), dots, throw_mp(dots, gk.aerodynamic),
                        thrower.success_value("throwing"),
                        accuracy_target_value(dots, cover, gk.aerodynamic), cover)
