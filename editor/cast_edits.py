"""Pure edits of a scenario's settings, sides, characters and objectives for the scenario panel.

Each function takes the immutable :class:`engine.model.Scenario` and returns a new one, so the
panel pushes the result through :meth:`editor.document.Document.push` and undo gives back the
exact object it had.  Renaming a side's id also renames every objective (``side`` and
``target``) that refers to it, so the scenario stays consistent.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from editor.edits import fresh_id
from engine.model import Character, Deployment, Objective, Scenario, Side, Weapon

VICTORY_KEYS = ("most_points", "points", "last_standing")


def set_condition(sc: Scenario, key: str, value: Any) -> Scenario:
    """Set one ``conditions`` entry (light), keeping the others and their order."""
    items = [(k, v) for k, v in sc.conditions if k != key]
    pos = next((i for i, (k, _) in enumerate(sc.conditions) if k == key), len(items))
    items.insert(pos, (key, value))
    return replace(sc, conditions=tuple(items))


def set_victory(sc: Scenario, key: str, value: Any) -> Scenario:
    """Set or (value None/False) drop one victory condition, in the file format's key order."""
    d = dict(sc.victory)
    if value is None or value is False:
        d.pop(key, None)
    else:
        d[key] = value
    order = [k for k in VICTORY_KEYS if k in d] + [k for k in d if k not in VICTORY_KEYS]
    return replace(sc, victory=tuple((k, d[k]) for k in order))


# ------------------------------------------------------------------------------- sides


def add_side(sc: Scenario) -> tuple[Scenario, int]:
    sid = fresh_id("side", {s.id for s in sc.sides})
    side = Side(id=sid, name=sid.replace("-", " ").title())
    return replace(sc, sides=sc.sides + (side,)), len(sc.sides)


def remove_side(sc: Scenario, index: int) -> Scenario:
    """Drop a side and the objectives it owns (they would name a side that is gone)."""
    gone = sc.sides[index].id
    sides = sc.sides[:index] + sc.sides[index + 1:]
    return replace(sc, sides=sides, objectives=tuple(o for o in sc.objectives if o.side != gone))


def replace_side(sc: Scenario, index: int, side: Side) -> Scenario:
    old = sc.sides[index]
    sides = list(sc.sides)
    sides[index] = side
    obs = sc.objectives
    if side.id != old.id:
        obs = tuple(replace(o, side=side.id if o.side == old.id else o.side,
                            target=side.id if o.target == old.id else o.target) for o in obs)
    return replace(sc, sides=tuple(sides), objectives=obs)


def set_deployment_kind(side: Side, kind: str, bounds_edge: str = "west") -> Side:
    """``none`` or ``edge`` (a band along a board edge).  A ``polygon`` zone only exists once it
    is drawn with the Deploy tool, so asking for one leaves the side as it is."""
    dep = side.deployment
    level = dep.level if dep else 0
    if kind == "none":
        return replace(side, deployment=None)
    if kind == "edge":
        if dep is not None and dep.edge:
            return side
        return replace(side, deployment=Deployment(edge=bounds_edge, depth=3, level=level))
    return side


def deployment_kind(dep: Deployment | None) -> str:
    if dep is None:
        return "none"
    return "edge" if dep.edge else "polygon"


# ------------------------------------------------------------------------------- characters


def add_character(sc: Scenario, side_index: int, ch: Character) -> tuple[Scenario, int]:
    side = sc.sides[side_index]
    return (replace_side(sc, side_index, replace(side, characters=side.characters + (ch,))),
            len(side.characters))


def set_character(sc: Scenario, side_index: int, index: int, ch: Character | None) -> Scenario:
    side = sc.sides[side_index]
    chars = list(side.characters)
    if ch is None:
        del chars[index]
    else:
        chars[index] = ch
    return replace_side(sc, side_index, replace(side, characters=tuple(chars)))


def unique_name(base: str, taken: set[str]) -> str:
    """``base``, or ``base 2``, ``base 3``, ... when a character of that name exists."""
    if base not in taken:
        return base
    n = 2
    while f"{base} {n}" in taken:
        n += 1
    return f"{base} {n}"


def character_id(sc: Scenario, name: str) -> str:
    """A new character id from the name, unique in the scenario, as the loader makes them
    (``street-samurai``, ``street-samurai-2``): objectives may name it as their target."""
    base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "character"
    used = {c.id for s in sc.sides for c in s.characters}
    ident, n = base, 1
    while ident in used:
        n += 1
        ident = f"{base}-{n}"
    return ident


def parse_values(text: str) -> tuple[tuple[str, int], ...]:
    """``firearms 12, unarmed 20`` (or ``firearms=12``) -> (skill, value) pairs.

    Raises ValueError naming the part it could not read.
    """
    out: list[tuple[str, int]] = []
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        bits = part.replace("=", " ").replace(":", " ").split()
        if len(bits) != 2:
            raise ValueError(f"{part!r}: write a name and a number, e.g. 'firearms 12'")
        try:
            out.append((bits[0], int(bits[1])))
        except ValueError:
            raise ValueError(f"{part!r}: {bits[1]!r} is not a whole number") from None
    return tuple(out)


def format_values(pairs: tuple[tuple[str, int], ...]) -> str:
    return ", ".join(f"{k} {v}" for k, v in pairs)


def parse_success(text: str) -> tuple[int, ...]:
    """``24/22/20/18`` -> the success values at short, medium, long, extreme."""
    bits = [b for b in text.replace(",", "/").replace(" ", "/").split("/") if b]
    try:
        vals = tuple(int(b) for b in bits)
    except ValueError:
        raise ValueError(f"{text!r}: write up to four numbers, e.g. 24/22/20/18") from None
    if len(vals) > 4:
        raise ValueError(f"{text!r}: at most four range steps (short/medium/long/extreme)")
    return vals


def format_success(vals: tuple[int, ...]) -> str:
    return "/".join(str(v) for v in vals)


def set_weapon(ch: Character, index: int, w: Weapon | None) -> Character:
    ws = list(ch.weapons)
    if w is None:
        del ws[index]
    elif index == len(ws):
        ws.append(w)
    else:
        ws[index] = w
    return replace(ch, weapons=tuple(ws))


# ------------------------------------------------------------------------------- objectives


def add_objective(sc: Scenario, side_id: str, kind: str) -> tuple[Scenario, int]:
    """A new objective with no place yet ("place on map" puts it on a dot)."""
    oid = fresh_id("objective", {o.id for o in sc.objectives})
    ob = Objective(id=oid, side=side_id, kind=kind)
    return replace(sc, objectives=sc.objectives + (ob,)), len(sc.objectives)


def set_objective(sc: Scenario, index: int, ob: Objective | None) -> Scenario:
    obs = list(sc.objectives)
    if ob is None:
        del obs[index]
    else:
        obs[index] = ob
    return replace(sc, objectives=tuple(obs))


#: fields each objective kind takes besides id, side, kind, by_turn, points, note (file format)
KIND_FIELDS = {
    "reach": ("at",), "hold": ("area", "level", "turns"), "retrieve": ("at", "then"),
    "eliminate": ("target",), "exit": ("edge",), "protect": ("target",),
}
#: what an objective of each kind must have before the file can be saved
KIND_NEEDS = {k: v[0] for k, v in KIND_FIELDS.items()}
_CLEARED = {"at": None, "area": None, "level": 0, "turns": None, "then": None, "target": None,
            "edge": None}


def change_kind(ob: Objective, kind: str) -> Objective:
    """The objective as ``kind``: fields that kind does not take are cleared (the loader
    would refuse them), the ones it shares (a reach's dot for a retrieve) are kept."""
    keep = KIND_FIELDS.get(kind, ())
    return replace(ob, kind=kind, **{k: v for k, v in _CLEARED.items() if k not in keep})


def missing(ob: Objective) -> str | None:
    """The field an objective still lacks to be saved (``at``, ``area``, ...), or None."""
    need = KIND_NEEDS.get(ob.kind)
    return need if need is not None and getattr(ob, need) in (None, ()) else None
