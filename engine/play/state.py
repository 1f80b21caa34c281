"""Game state: every character's position, posture, MP, condition, weapons and arcs, plus the
map changes play makes (smoke, opened doors, damaged barriers) and the objectives' progress.

Everything here converts to and from plain data (``to_data``/``from_data``) so a game in
progress saves as JSON or YAML and resumes exactly.  Character statistics are copied in from
the scenario, so a saved game does not depend on later edits of the scenario's roster.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.lattice import Dot3
from engine.model import Character, Scenario, Weapon
from engine.play.condition import Condition, ConditionMonitor, condition_from_data
from engine.play.reaction import Arc, ReactionTally
from engine.play.weapons import default_damage, grenade_kind, max_shots_per_turn

STANDING = "standing"
PRONE = "prone"

#: Defense and Success Values assumed when a character sheet leaves one out
DEFAULT_DEFENSE = {"ballistic": 8, "impact": 8, "physical_spell": 6, "mana_spell": 6}
DEFAULT_SUCCESS = {"firearms": 10, "unarmed": 12, "armed": 10, "throwing": 10}


#: what a weapon type string is, worked out once per type
_IS_GRENADE: dict[str, bool] = {}
_RATE_OF_FIRE: dict[str, int] = {}


@dataclass
class WeaponState:
    """A carried weapon: its figures, the rounds in it and the spare clips."""

    type: str
    name: str = ""
    success: tuple[int, ...] = ()
    damage: int = 3
    clip: int | None = None  # rounds (or bursts) per clip; None = unlimited
    loaded: int | None = None
    clips: int = 0  # spare clips
    fired_this_turn: int = 0

    @property
    def is_grenade(self) -> bool:
        got = _IS_GRENADE.get(self.type)
        if got is None:  # (a regex per type, asked for every weapon the bots weigh)
            got = _IS_GRENADE[self.type] = grenade_kind(self.type) is not None
        return got

    @property
    def rate_of_fire(self) -> int:
        got = _RATE_OF_FIRE.get(self.type)
        if got is None:
            got = _RATE_OF_FIRE[self.type] = max_shots_per_turn(self.type)
        return got

    @property
    def spent(self) -> bool:
        """Nothing left to fire: the clip is empty and no spare clip remains."""
        return self.loaded is not None and self.loaded <= 0 and self.clips <= 0

    def can_fire(self) -> bool:
        has_ammo = self.loaded is None or self.loaded > 0
        return has_ammo and self.fired_this_turn < self.rate_of_fire

    @classmethod
    def from_model(cls, w: Weapon) -> WeaponState:
        grenade = grenade_kind(w.type) is not None
        clip = w.shots
        return cls(
            type=w.type, name=w.name or w.type, success=tuple(w.success),
            damage=w.damage if w.damage is not None else (4 if grenade else default_damage(w.type)),
            clip=clip, loaded=clip, clips=w.clips if w.clips is not None else (0 if grenade else 2),
        )

    def to_data(self) -> dict[str, Any]:
        return {
            "type": self.type, "name": self.name, "success": list(self.success),
            "damage": self.damage, "clip": self.clip, "loaded": self.loaded,
            "clips": self.clips, "fired_this_turn": self.fired_this_turn,
        }

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> WeaponState:
        return cls(
            type=d["type"], name=d.get("name", ""), success=tuple(d.get("success", ())),
            damage=d.get("damage", 3), clip=d.get("clip"), loaded=d.get("loaded"),
            clips=d.get("clips", 0), fired_this_turn=d.get("fired_this_turn", 0),
        )


@dataclass
class CharacterState:
    """One character on the board."""

    id: str
    side: str
    name: str
    move_ratio: int
    fire_ratio: int
    vision: str = "normal"
    metatype: str = "human"
    success: dict[str, int] = field(default_factory=dict)
    defense: dict[str, int] = field(default_factory=dict)
    weapons: list[WeaponState] = field(default_factory=list)
    spells: dict[str, int] = field(default_factory=dict)  # spell -> Maximum Force
    ready: int | None = None  # index of the ready weapon
    pos: Dot3 | None = None  # None: not on the board (not deployed, or exited)
    posture: str = STANDING
    mp_spent: float = 0  # of the movement budget, in the ruleset's units (MP, metres)
    moved: bool = False  # has had his Movement Phase this turn
    movement_ended: bool = False  # damage cut his MP below what he had spent
    condition: Condition = field(default_factory=ConditionMonitor)
    arcs: list[Arc] = field(default_factory=list)
    exited: str | None = None  # edge he left the map by
    carrying: list[str] = field(default_factory=list)  # retrieved objective ids
    slots_spent: int = 0  # actions used this activation that are not paid from the budget
    #: spells he Sustains: {"spell", "target", "force", ...} (engine.play.referee_sustain)
    sustained: list[dict[str, Any]] = field(default_factory=list)
    invisible: bool = False  # under an Invisibility spell: unseen without thermographic eyes
    #: other spells on him (engine.play.referee_effects): spell -> Target Value modifier of
    #: his own tests (Chaos 2), or "petrified" -> 1
    under: dict[str, int] = field(default_factory=dict)
    #: the referee's ``allowance`` hook (set by :class:`engine.play.game.Game`); None: DMZ MP
    allowance_of: Callable[[CharacterState], float] | None = field(
        default=None, repr=False, compare=False)

    # ---------------------------------------------------------------- derived
    @property
    def out(self) -> bool:
        """Out of the fight: unconscious, dead, or gone off the map."""
        return self.condition.out or self.exited is not None or self.pos is None or \
            "petrified" in self.under

    @property
    def mp(self) -> float:
        """Movement budget of one activation, in the ruleset's units (``Game.allowance``)."""
        f = self.allowance_of
        return self.condition.mp if f is None else f(self)

    @property
    def mp_left(self) -> float:
        return max(0, self.mp - self.mp_spent)

    def success_value(self, skill: str) -> int:
        return self.success.get(skill, DEFAULT_SUCCESS.get(skill, 10))

    def defense_value(self, kind: str) -> int:
        return self.defense.get(kind, DEFAULT_DEFENSE.get(kind, 8))

    @property
    def ready_weapon(self) -> WeaponState | None:
        return None if self.ready is None else self.weapons[self.ready]

    @classmethod
    def from_model(cls, side: str, ch: Character, index: int) -> CharacterState:
        weapons = [WeaponState.from_model(w) for w in ch.weapons]
        firearm = next((i for i, w in enumerate(weapons) if not w.is_grenade), None)
        return cls(
            id=ch.id or f"{side}/{ch.name or index}", side=side, name=ch.name,
            move_ratio=ch.move_ratio, fire_ratio=ch.fire_ratio, vision=ch.vision,
            metatype=ch.metatype, success=dict(ch.success), defense=dict(ch.defense),
            weapons=weapons, ready=firearm, spells=dict(ch.spells),
        )

    def to_data(self) -> dict[str, Any]:
        magic: dict[str, Any] = {}  # only a mage's data carries it (older saves stay the same)
        if self.sustained:
            magic["sustained"] = [dict(x) for x in self.sustained]
        if self.invisible:
            magic["invisible"] = True
        if self.under:
            magic["under"] = dict(self.under)
        return {
            "id": self.id, "side": self.side, "name": self.name,
            "move_ratio": self.move_ratio, "fire_ratio": self.fire_ratio,
            "vision": self.vision, "metatype": self.metatype,
            "success": dict(self.success), "defense": dict(self.defense),
            "weapons": [w.to_data() for w in self.weapons], "ready": self.ready,
            "spells": dict(self.spells),
            "pos": list(self.pos) if self.pos is not None else None,
            "posture": self.posture, "mp_spent": self.mp_spent, "moved": self.moved,
            "movement_ended": self.movement_ended, "condition": self.condition.to_data(),
            "arcs": [a.to_data() for a in self.arcs], "exited": self.exited,
            "carrying": list(self.carrying), "slots_spent": self.slots_spent, **magic,
        }

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> CharacterState:
        return cls(
            id=d["id"], side=d["side"], name=d.get("name", ""),
            move_ratio=d["move_ratio"], fire_ratio=d["fire_ratio"],
            vision=d.get("vision", "normal"), metatype=d.get("metatype", "human"),
            success=dict(d.get("success", {})), defense=dict(d.get("defense", {})),
            weapons=[WeaponState.from_data(w) for w in d.get("weapons", [])],
            spells=dict(d.get("spells", {})),
            ready=d.get("ready"), pos=tuple(d["pos"]) if d.get("pos") is not None else None,
            posture=d.get("posture", STANDING), mp_spent=d.get("mp_spent", 0),
            moved=d.get("moved", False), movement_ended=d.get("movement_ended", False),
            condition=condition_from_data(d.get("condition", {})),
            arcs=[Arc.from_data(a) for a in d.get("arcs", [])], exited=d.get("exited"),
            carrying=list(d.get("carrying", [])), slots_spent=d.get("slots_spent", 0),
            sustained=[dict(x) for x in d.get("sustained", [])],
            invisible=bool(d.get("invisible", False)), under=dict(d.get("under", {})),
        )


@dataclass
class PendingGrenade:
    """A grenade that has landed and goes off at the end of its team's phase."""

    thrower: str
    side: str
    type: str
    at: Dot3
    aimed: Dot3
    on_target: bool

    def to_data(self) -> dict[str, Any]:
        return {"thrower": self.thrower, "side": self.side, "type": self.type,
                "at": list(self.at), "aimed": list(self.aimed), "on_target": self.on_target}

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> PendingGrenade:
        return cls(d["thrower"], d["side"], d["type"], tuple(d["at"]), tuple(d["aimed"]),
                   d["on_target"])


@dataclass
class GameState:
    """The whole game at one moment."""

    title: str = ""
    turn: int = 1
    turn_limit: int | None = None
    initiative: str = "team"  # team | character
    order: list[str] = field(default_factory=list)  # team keys in move order
    phase: int = 0  # index into order
    characters: dict[str, CharacterState] = field(default_factory=dict)
    active: str | None = None  # character moving now
    tallies: dict[str, dict[str, Any]] = field(default_factory=dict)  # reactor -> tally data
    left_arc: list[str] = field(default_factory=list)  # reactors whose arc the mover left
    melee_passed: list[str] = field(default_factory=list)  # defenders who had a move-by attack
    grenades: list[PendingGrenade] = field(default_factory=list)
    smoke: list[Dot3] = field(default_factory=list)
    #: areas spells hold on the map (Poltergeist, Barriers: engine.play.referee_areas)
    spell_areas: list[dict[str, Any]] = field(default_factory=list)
    #: retrieve items lying where a carrier fell (objective id -> dot), off their ``at``
    items: dict[str, list[int]] = field(default_factory=dict)
    openings: dict[str, str] = field(default_factory=dict)  # feature id -> open | closed
    barrier_damage: dict[str, int] = field(default_factory=dict)  # feature id -> boxes
    holes: list[str] = field(default_factory=list)  # feature ids broken open
    held: dict[str, int] = field(default_factory=dict)  # hold objective -> turns held
    achieved: dict[str, str] = field(default_factory=dict)  # objective id -> side
    finished: bool = False
    winner: str | None = None  # side id, "draw", or None while playing
    #: ids of two characters of different sides last seen in the fight: what the turn
    #: sequence asks first after each action (a hint it checks, never saved)
    fighting: tuple[str, str] | None = field(default=None, repr=False, compare=False)

    # ---------------------------------------------------------------- queries
    def team_of(self, ch: CharacterState) -> str:
        return ch.id if self.initiative == "character" else ch.side

    @property
    def current_team(self) -> str | None:
        return self.order[self.phase] if self.order else None

    def sides(self) -> list[str]:
        seen: list[str] = []
        for ch in self.characters.values():
            if ch.side not in seen:
                seen.append(ch.side)
        return seen

    def members(self, team: str) -> list[CharacterState]:
        return [c for c in self.characters.values() if self.team_of(c) == team]

    def enemies_of(self, ch: CharacterState) -> list[CharacterState]:
        return [c for c in self.characters.values() if c.side != ch.side]

    def occupant(self, dot: Dot3) -> CharacterState | None:
        for c in self.characters.values():
            if c.pos == dot and not c.out:
                return c
        return None

    def tally(self, reactor: str) -> ReactionTally | None:
        d = self.tallies.get(reactor)
        return None if d is None else ReactionTally.from_data(d)

    # ---------------------------------------------------------------- data
    def to_data(self) -> dict[str, Any]:
        areas = {"spell_areas": [dict(a) for a in self.spell_areas]} if self.spell_areas else {}
        if self.items:
            areas["items"] = {k: list(v) for k, v in self.items.items()}
        return {
            "title": self.title, "turn": self.turn, "turn_limit": self.turn_limit,
            "initiative": self.initiative, "order": list(self.order), "phase": self.phase,
            "characters": [c.to_data() for c in self.characters.values()],
            "active": self.active, "tallies": {k: dict(v) for k, v in self.tallies.items()},
            "left_arc": list(self.left_arc), "melee_passed": list(self.melee_passed),
            "grenades": [g.to_data() for g in self.grenades],
            "smoke": [list(d) for d in self.smoke], "openings": dict(self.openings),
            "barrier_damage": dict(self.barrier_damage), "holes": list(self.holes),
            "held": dict(self.held), "achieved": dict(self.achieved),
            "finished": self.finished, "winner": self.winner, **areas,
        }

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> GameState:
        chars = [CharacterState.from_data(c) for c in d.get("characters", [])]
        return cls(
            title=d.get("title", ""), turn=d.get("turn", 1), turn_limit=d.get("turn_limit"),
            initiative=d.get("initiative", "team"), order=list(d.get("order", [])),
            phase=d.get("phase", 0), characters={c.id: c for c in chars},
            active=d.get("active"), tallies={k: dict(v) for k, v in d.get("tallies", {}).items()},
            left_arc=list(d.get("left_arc", [])), melee_passed=list(d.get("melee_passed", [])),
            grenades=[PendingGrenade.from_data(g) for g in d.get("grenades", [])],
            smoke=[tuple(x) for x in d.get("smoke", [])], openings=dict(d.get("openings", {})),
            barrier_damage=dict(d.get("barrier_damage", {})), holes=list(d.get("holes", [])),
            held=dict(d.get("held", {})), achieved=dict(d.get("achieved", {})),
            finished=d.get("finished", False), winner=d.get("winner"),
            spell_areas=[dict(a) for a in d.get("spell_areas", [])],
            items={k: list(v) for k, v in d.get("items", {}).items()},
        )


def named_dot(at: Any, level: int) -> Dot3:
    """The dot an action names, as [x, y] (on ``level``, the actor's) or [x, y, level]."""
    d = tuple(int(x) for x in at)
    return (d[0], d[1], level) if len(d) == 2 else d  # type: ignore[return-value]


def initial_state(scenario: Scenario,
                  condition_for: Callable[[Character], Condition] | None = None) -> GameState:
    """Characters from the scenario's sides, not yet deployed (``pos`` None), each with the
    condition ``condition_for`` gives (the referee's hook; default a DMZ Condition Monitor)."""
    chars: dict[str, CharacterState] = {}
    for side in scenario.sides:
        for i, ch in enumerate(side.characters):
            cs = CharacterState.from_model(side.id, ch, i)
            if condition_for is not None:
                cs.condition = condition_for(ch)
            if cs.id in chars:
                cs.id = f"{cs.id}#{i}"
            chars[cs.id] = cs
    return GameState(
        title=scenario.title, turn_limit=scenario.turn_limit,
        initiative=scenario.initiative if scenario.initiative in ("team", "character") else "team",
        characters=chars,
    )
