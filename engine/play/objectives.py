"""Scenario objectives during play: who has achieved what, and who wins.

Each objective scores its ``points`` (1 when not given) for its side once achieved, before its
``by_turn`` when one is set.  ``reach``: a character of the side stands on the dot.
``retrieve``: a character picks the item up on its dot and, when ``then`` names an exit
(``exit-west``), leaves the map by that edge carrying it; a carrier put out of the fight drops
it where he lies, for anyone to pick up, and two retrieve objectives on one dot are one item.  ``exit``: a character leaves by the
edge.  ``hold``: at the end of ``turns`` game turns (1 if not given) running the side had someone
in the area and the enemy had no one; a turn end without that starts the count again, unless
the objective sets ``consecutive: false`` (then held turns add up).  ``eliminate``: every character of the target side (or the
target character) is unconscious or dead.  ``protect``: the target character is still conscious
when the game ends.  A scenario without objectives is a fight: each side scores for
eliminating the others.  The side with most points wins; equal points are a draw.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from engine.lattice import Dot3
from engine.model import Objective
from engine.play.state import CharacterState, GameState


def implicit_objectives(sides: list[str]) -> list[Objective]:
    return [
        Objective(id=f"eliminate-{other}", side=side, kind="eliminate", target=other)
        for side in sides for other in sides if other != side
    ]


def points(obj: Objective) -> int:
    return obj.points if obj.points is not None else 1


def at_dot(obj: Objective) -> Dot3 | None:
    if obj.at is None:
        return None
    at = tuple(obj.at)
    return (at[0], at[1], at[2] if len(at) > 2 else 0)


def exit_edge(obj: Objective) -> str | None:
    """The edge a retrieve's ``then`` or an exit objective names."""
    if obj.kind == "exit":
        return obj.edge
    if obj.then and obj.then.startswith("exit-"):
        return obj.then[len("exit-"):]
    return None


def in_time(obj: Objective, turn: int) -> bool:
    return obj.by_turn is None or turn <= obj.by_turn


def targets(state: GameState, target: str | None) -> list[CharacterState]:
    """Characters an eliminate/protect objective names: a side id, a character id or name."""
    chars = list(state.characters.values())
    by_side = [c for c in chars if c.side == target]
    if by_side:
        return by_side
    return [c for c in chars if target in (c.id, c.name)]


def achieve(state: GameState, obj: Objective, why: str, log) -> None:
    if obj.id in state.achieved or not in_time(obj, state.turn):
        return
    state.achieved[obj.id] = obj.side
    log.record("objective", objective=obj.id, side=obj.side, kind=obj.kind, why=why,
               points=points(obj), turn=state.turn)


def check_position(state: GameState, objectives: list[Objective], ch: CharacterState,
                   log) -> None:
    """After a character moves: reach, retrieve pick-ups."""
    if ch.pos is None or ch.out:
        return
    for obj in objectives:
        if obj.side != ch.side or obj.id in state.achieved:
            continue
        if obj.kind == "reach" and at_dot(obj) == ch.pos:
            achieve(state, obj, f"{ch.id} reached {list(ch.pos)}", log)
        elif obj.kind == "retrieve" and item_dot(state, obj) == ch.pos and \
                obj.id not in ch.carrying and item_free(state, objectives, obj):
            ch.carrying.append(obj.id)
            state.items.pop(obj.id, None)
            log.record("pickup", objective=obj.id, who=ch.id)
            if exit_edge(obj) is None:
                achieve(state, obj, f"{ch.id} picked it up", log)


def same_item(a: Objective, b: Objective) -> bool:
    """Two retrieve objectives on one dot name one item (Street Ambush's case: the runners
    carry it off west, the escort east): whoever holds it, the other side cannot take it."""
    return a.kind == b.kind == "retrieve" and at_dot(a) == at_dot(b)


def item_dot(state: GameState, obj: Objective) -> Dot3 | None:
    """Where a retrieve item lies now: where its last carrier fell, else its ``at``."""
    dot = state.items.get(obj.id)
    return tuple(dot) if dot is not None else at_dot(obj)


def carrier(state: GameState, objectives: list[Objective], obj: Objective
            ) -> CharacterState | None:
    """Who holds the item of ``obj`` now (of either side), if anyone still in the fight.
    (The objectives naming that item are found once, not once per character: the bots ask
    at every goal they weigh.)"""
    ids = [o.id for o in objectives if same_item(o, obj)]
    for c in state.characters.values():
        if not c.out and any(i in c.carrying for i in ids):
            return c
    return None


def item_free(state: GameState, objectives: list[Objective], obj: Objective) -> bool:
    """Is the item of ``obj`` lying on the map (nobody holds it, it has not left the map)?"""
    for o in objectives:
        if not same_item(o, obj):
            continue
        if o.id in state.achieved and exit_edge(o) is not None:
            return False  # carried off the map
        if any(o.id in c.carrying for c in state.characters.values()):
            return False
    return True


def drop_items(state: GameState, objectives: list[Objective], log) -> None:
    """A carrier put out of the fight drops what he carries on his dot, where anyone may
    pick it up (a carrier who left the map keeps it: that was the objective)."""
    for ch in state.characters.values():
        if not ch.carrying or not ch.condition.out or ch.exited is not None or ch.pos is None:
            continue
        for oid in list(ch.carrying):
            obj = next((o for o in objectives if o.id == oid), None)
            if obj is None or (oid in state.achieved and exit_edge(obj) is None):
                continue  # picking it up was the objective: it stays scored
            ch.carrying.remove(oid)
            for o in objectives:
                if same_item(o, obj):
                    state.items[o.id] = list(ch.pos)
            log.record("item-dropped", objective=oid, who=ch.id, at=list(ch.pos))


def check_exit(state: GameState, objectives: list[Objective], ch: CharacterState, edge: str,
               log) -> None:
    for obj in objectives:
        if obj.side != ch.side or exit_edge(obj) != edge:
            continue
        if obj.kind == "exit" or (obj.kind == "retrieve" and obj.id in ch.carrying):
            achieve(state, obj, f"{ch.id} left by the {edge} edge", log)


def check_eliminations(state: GameState, objectives: list[Objective], log) -> None:
    drop_items(state, objectives, log)
    for obj in objectives:
        if obj.kind != "eliminate" or obj.id in state.achieved:
            continue
        tg = targets(state, obj.target)
        if tg and all(c.condition.out for c in tg):
            achieve(state, obj, f"{obj.target} eliminated", log)


def check_holds(state: GameState, objectives: list[Objective], board, log) -> None:
    """End of a game turn: count turns held."""
    for obj in objectives:
        if obj.kind != "hold" or obj.id in state.achieved or obj.area is None:
            continue
        inside = {c.side for c in state.characters.values()
                  if not c.out and board.in_area(c.pos, obj.area, obj.level)}
        if inside == {obj.side}:
            state.held[obj.id] = state.held.get(obj.id, 0) + 1
            if state.held[obj.id] >= (obj.turns or 1):
                run = "running" if getattr(obj, "consecutive", True) else "in all"
                achieve(state, obj, f"held for {state.held[obj.id]} turns {run}", log)
        elif getattr(obj, "consecutive", True) and state.held.get(obj.id):
            log.record("hold-broken", objective=obj.id, after=state.held[obj.id],
                       sides_inside=sorted(inside))
            state.held[obj.id] = 0


def check_end(state: GameState, objectives: list[Objective], log) -> None:
    """When the game ends: protect objectives."""
    for obj in objectives:
        if obj.kind == "protect" and obj.id not in state.achieved:
            tg = targets(state, obj.target)
            if tg and not any(c.condition.out for c in tg):
                achieve(state, obj, f"{obj.target} kept safe", log)


def scores(state: GameState, objectives: list[Objective]) -> dict[str, int]:
    out = {s: 0 for s in state.sides()}
    by_id = {o.id: o for o in objectives}
    for oid, side in state.achieved.items():
        out[side] = out.get(side, 0) + points(by_id[oid]) if oid in by_id else out.get(side, 0)
    return out


def winner(state: GameState, objectives: list[Objective]) -> str:
    sc = scores(state, objectives)
    best = max(sc.values(), default=0)
    top = [s for s, v in sc.items() if v == best]
    return top[0] if len(top) == 1 else "draw"


def objective_to_data(obj: Objective) -> dict[str, Any]:
    d = asdict(obj)
    for k in ("at", "area"):
        if d.get(k) is not None:
            d[k] = [list(p) if isinstance(p, tuple) else p for p in d[k]]
    return d


def objective_from_data(d: dict[str, Any]) -> Objective:
    d = dict(d)
    if d.get("at") is not None:
        d["at"] = tuple(d["at"])
    if d.get("area") is not None:
        d["area"] = tuple(tuple(p) for p in d["area"])
    return Objective(**d)
