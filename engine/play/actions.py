"""Actions a moving character can take, as plain data, with their MP costs.

An action is a dict ``{"act": kind, ...}`` so that a game's actions save, load and replay as
they are.  The costs are the book's Special Actions and Movement Cost tables; the step costs
of moving come from the board.
"""

from __future__ import annotations

from typing import Any

from engine.play.grenades import throw_mp
from engine.play.reaction import arc_cost
from engine.rules.dmz1990 import MOVEMENT_COSTS

#: fixed MP costs of the special actions
COSTS: dict[str, int] = {
    "prone": 1,  # drop prone
    "stand": 2,
    "ready": 3,  # ready, change or pick up a weapon
    "reload": 3,
    "fire": 3,  # movement fire, +2 to the Target Value
    "melee": 4,
    "open-door": MOVEMENT_COSTS["open-door"],  # the one opening-cost table (dmz1990)
    "open-window": MOVEMENT_COSTS["open-window"],
}


def cost_of_arc(kind: str) -> int:
    return arc_cost(kind)


def cost_of_throw(dots: int, aerodynamic: bool = False) -> int:
    return throw_mp(dots, aerodynamic)


def begin(who: str) -> dict[str, Any]:
    return {"act": "begin", "who": who}


def move(to: tuple[int, ...]) -> dict[str, Any]:
    """One step to an adjoining dot (a crawl when prone)."""
    return {"act": "move", "to": list(to)}


def prone() -> dict[str, Any]:
    return {"act": "prone"}


def stand() -> dict[str, Any]:
    return {"act": "stand"}


def open_(feature: str, state: str = "open") -> dict[str, Any]:
    """Open (or close) a door or window next to the mover."""
    return {"act": "open", "feature": feature, "state": state}


def ready(weapon: int) -> dict[str, Any]:
    return {"act": "ready", "weapon": weapon}


def reload() -> dict[str, Any]:
    return {"act": "reload"}


def fire(target: str, mode: str | None = None, rounds: int | None = None,
         called: bool | None = None) -> dict[str, Any]:
    """Fire at ``target``; under sr3 also the fire mode (SS/SA/BF/FA), full-auto rounds and a
    called shot (left out: the referee takes the one worth most)."""
    act: dict[str, Any] = {"act": "fire", "target": target}
    extra = {"mode": mode, "rounds": rounds, "called": called}
    act.update({k: v for k, v in extra.items() if v is not None})
    return act


def aim(target: str) -> dict[str, Any]:
    """Take Aim at ``target`` (sr3: a Simple Action, -1 TN on the next shot at him)."""
    return {"act": "aim", "target": target}


def delay() -> dict[str, Any]:
    """Hold the action to take it when an enemy acts in the line of fire (sr3)."""
    return {"act": "delay"}


def breach(feature: str) -> dict[str, Any]:
    """Movement fire at a barrier (a key from ``BoardView.barriers_near``)."""
    return {"act": "breach", "feature": feature}


def melee(target: str) -> dict[str, Any]:
    return {"act": "melee", "target": target}


def throw(at: tuple[int, ...]) -> dict[str, Any]:
    return {"act": "throw", "at": list(at)}


def arc(kind: str, direction: float) -> dict[str, Any]:
    return {"act": "arc", "kind": kind, "direction": float(direction)}


def exit_() -> dict[str, Any]:
    return {"act": "exit"}


def end() -> dict[str, Any]:
    return {"act": "end"}
