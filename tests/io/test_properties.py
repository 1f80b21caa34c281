"""Property tests: any valid sheet or scenario survives save -> load unchanged."""

from __future__ import annotations

import dataclasses
import os
import tempfile
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.io import load_document, load_sheet, save_document, save_sheet
from engine.model import (
    AREA_KINDS,
    DARKNESS,
    LINE_KINDS,
    LOS_EFFECTS,
    STANDABLE,
    WALL_CLASSES,
    WINDOW_CLASSES,
    Area,
    Barrier,
    Character,
    Climb,
    Defaults,
    Deployment,
    Elevator,
    Extras,
    Layout,
    Level,
    Line,
    Objective,
    Opening,
    Piece,
    Placement,
    Scenario,
    Sheet,
    Side,
    Stair,
    Tree,
    Wall,
    Weapon,
)

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TRICKY = ["09", "1e5", "on", "yes", "~", "12:30", "a: b", "- x", "line\nbreak", " lead", "trail ", "\x85"]
notes = st.one_of(st.just(""), st.sampled_from(TRICKY), st.text(st.characters(blacklist_categories=("Cs",)), max_size=24))
words = st.text("abcdefghijklmnopqrstuvwxyz-", min_size=1, max_size=10).filter(lambda s: s[0] != "-")
halves = st.integers(-10, 30).map(lambda k: k / 2)
lengths = st.integers(1, 12).map(lambda k: k / 2)


class Ids:
    """Unique explicit ids, or "" (left for the loader to generate)."""

    def __init__(self, draw: Any):
        self.draw, self.n = draw, 0

    def __call__(self) -> str:
        if self.draw(st.booleans()):
            return ""
        self.n += 1
        return f"f{self.n}"


def wall_class(names):
    return st.one_of(st.none(), st.sampled_from(names),
                     st.builds(Barrier, st.integers(0, 30), st.integers(0, 5)))


@st.composite
def axis_path(draw, max_points=4):
    x, y = draw(halves), draw(halves)
    pts = [(x, y)]
    for _ in range(draw(st.integers(1, max_points - 1))):
        d = draw(lengths) * draw(st.sampled_from([1, -1]))
        x, y = (x + d, y) if draw(st.booleans()) else (x, y + d)
        pts.append((x, y))
    return tuple(pts)


@st.composite
def rect(draw):
    x, y, w, h = draw(halves), draw(halves), draw(lengths), draw(lengths)
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


@st.composite
def opening_on(draw, walls, kind, ids):
    w = draw(st.sampled_from(walls))
    i = draw(st.integers(0, len(w.path) - 2))
    (x0, y0), (x1, y1) = w.path[i], w.path[i + 1]
    t0, t1 = sorted(draw(st.lists(st.integers(0, 4), min_size=2, max_size=2, unique=True)))
    a = (x0 + (x1 - x0) * t0 / 4, y0 + (y1 - y0) * t0 / 4)
    b = (x0 + (x1 - x0) * t1 / 4, y0 + (y1 - y0) * t1 / 4)
    if kind == "hole":
        return Opening(kind="hole", span=(a, b), id=ids(), note=draw(notes))
    names = WINDOW_CLASSES if kind == "window" else WALL_CLASSES
    return Opening(kind=kind, span=(a, b), state=draw(st.sampled_from(["open", "closed"])),
                   cls=draw(wall_class(names)), id=ids(), note=draw(notes))


@st.composite
def area(draw, ids):
    kind = draw(st.sampled_from(AREA_KINDS))
    opt = lambda s: draw(st.one_of(st.none(), s))  # noqa: E731
    kw: dict[str, Any] = {}
    if kind == "obstacle":
        kw = dict(cost=opt(st.integers(0, 6)), los=opt(st.sampled_from(LOS_EFFECTS)),
                  standable=opt(st.sampled_from(STANDABLE)))
    elif kind == "dark":
        kw = dict(darkness=opt(st.sampled_from(DARKNESS)), target_modifier=opt(st.integers(-3, 3)))
    elif kind == "modifier":
        kw = dict(target_modifier=draw(st.integers(-3, 3)))
    elif kind == "hazard":
        kw = dict(effect=opt(st.text("abc d6", min_size=1, max_size=12)))
    return Area(kind=kind, polygon=draw(rect()), id=ids(), note=draw(notes), **kw)


@st.composite
def line(draw, ids):
    kind = draw(st.sampled_from(LINE_KINDS))
    kw: dict[str, Any] = {}
    if kind == "low-wall":
        kw = dict(cost=draw(st.one_of(st.none(), st.integers(0, 4))),
                  los=draw(st.one_of(st.none(), st.sampled_from(LOS_EFFECTS))))
    elif kind == "fence":
        kw = dict(cls=draw(wall_class(WALL_CLASSES)))
    return Line(kind=kind, path=draw(axis_path()), id=ids(), note=draw(notes), **kw)


@st.composite
def tree(draw, ids):
    canopy = draw(st.one_of(st.just(()), rect()))
    return Tree(trunk=(draw(halves), draw(halves)), canopy=canopy, id=ids(), note=draw(notes))


@st.composite
def level(draw, k, height, ids):
    walls = tuple(Wall(path=draw(axis_path()), cls=draw(wall_class(WALL_CLASSES)),
                       exterior=draw(st.booleans()), id=ids(), note=draw(notes))
                  for _ in range(draw(st.integers(0, 3))))
    ops = {"door": (), "window": (), "hole": ()}
    if walls:
        for kind in ops:
            ops[kind] = tuple(draw(opening_on(walls, kind, ids)) for _ in range(draw(st.integers(0, 2))))
    others = [x for x in range(height + 1) if x != k]
    stairs = climbs = elevators = ()
    if others:
        stairs = tuple(Stair(at=(draw(halves), draw(halves)), to=draw(st.sampled_from(others)), id=ids(),
                             note=draw(notes)) for _ in range(draw(st.integers(0, 2))))
        climbs = tuple(Climb(at=(draw(halves), draw(halves)), to=draw(st.sampled_from(others)),
                             assisted=draw(st.booleans()), id=ids()) for _ in range(draw(st.integers(0, 1))))
        served = sorted({k, *draw(st.lists(st.sampled_from(others), min_size=1, max_size=3))})
        elevators = tuple(Elevator(at=(draw(halves), draw(halves)), levels=tuple(served), id=ids())
                          for _ in range(draw(st.integers(0, 1))))
    return Level(
        level=k, walls=walls, doors=ops["door"], windows=ops["window"], holes=ops["hole"],
        areas=tuple(draw(area(ids)) for _ in range(draw(st.integers(0, 3)))),
        lines=tuple(draw(line(ids)) for _ in range(draw(st.integers(0, 2)))),
        trees=tuple(draw(tree(ids)) for _ in range(draw(st.integers(0, 1)))),
        stairs=stairs, elevators=elevators, climbs=climbs, note=draw(notes),
    )


@st.composite
def sheets(draw):
    ids = Ids(draw)
    kind = draw(st.sampled_from(["building", "pavement"]))
    height = draw(st.integers(1, 4)) if kind == "building" else 0
    w, h = draw(st.integers(1, 40)), draw(st.integers(1, 40))
    ks = draw(st.lists(st.integers(0, height), max_size=3, unique=True))
    return Sheet(
        id=draw(words.filter(lambda s: s[0] != "-")), title=draw(notes.filter(bool) | st.just("T")),
        kind=kind, lattice=draw(st.sampled_from(["square", "hex"])), size=(w, h),
        outline=((-0.5, -0.5), (w - 0.5, -0.5), (w - 0.5, h - 0.5), (-0.5, h - 0.5)),
        height=height,
        defaults=Defaults(draw(st.sampled_from(WALL_CLASSES)), draw(wall_class(WALL_CLASSES).filter(bool)),
                          draw(st.sampled_from(WINDOW_CLASSES))),
        levels=tuple(draw(level(k, height, ids)) for k in ks),
        notes=draw(notes),
    )


def blank_generated(original: Any, loaded: Any) -> Any:
    """``loaded`` with ids blanked wherever ``original`` left them for the loader to generate."""
    if isinstance(original, tuple) and isinstance(loaded, tuple) and len(original) == len(loaded):
        return tuple(blank_generated(o, v) for o, v in zip(original, loaded, strict=True))
    if dataclasses.is_dataclass(original) and type(original) is type(loaded):
        changes = {}
        for f in dataclasses.fields(original):
            o, v = getattr(original, f.name), getattr(loaded, f.name)
            if f.name == "id" and o == "" and v:
                changes["id"] = ""
            elif dataclasses.is_dataclass(o) or isinstance(o, tuple):
                changes[f.name] = blank_generated(o, v)
        return dataclasses.replace(loaded, **changes)
    return loaded


@SETTINGS
@given(sheets())
def test_any_valid_sheet_round_trips(sheet):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "s.yaml")
        save_sheet(sheet, path)
        loaded = load_sheet(path)
        assert blank_generated(sheet, loaded) == sheet
        # generated ids are saved: a second round trip changes nothing at all
        save_sheet(loaded, path)
        assert load_sheet(path) == loaded


@st.composite
def scenarios(draw):
    ids = Ids(draw)
    lattice = draw(st.sampled_from(["square", "hex"]))
    step = 90 if lattice == "square" else 60
    sheet_ids = draw(st.lists(words, min_size=1, max_size=3, unique=True))
    pieces = tuple(Piece(id=f"{s}-cut", sheet=s, polygon=draw(rect()), note=draw(notes))
                   for s in sheet_ids if draw(st.booleans()))

    def placement():
        sheet = draw(st.sampled_from(sheet_ids))
        own = [p.id for p in pieces if p.sheet == sheet]
        return Placement(sheet=sheet, at=(draw(st.integers(-5, 60)), draw(st.integers(-5, 60))),
                         piece=draw(st.one_of(st.none(), st.sampled_from(own))) if own else None,
                         rotation=step * draw(st.integers(0, 5)), mirror=draw(st.booleans()),
                         id=ids(), note=draw(notes))

    layout = Layout(
        lattice=lattice,
        pavement=tuple(placement() for _ in range(draw(st.integers(0, 2)))),
        placements=tuple(placement() for _ in range(draw(st.integers(0, 3)))),
        pieces=pieces,
        extras=Extras(areas=tuple(draw(area(ids)) for _ in range(draw(st.integers(0, 2)))),
                      lines=tuple(draw(line(ids)) for _ in range(draw(st.integers(0, 2)))),
                      trees=tuple(draw(tree(ids)) for _ in range(draw(st.integers(0, 1))))),
    )
    side_ids = draw(st.lists(words, min_size=1, max_size=3, unique=True))
    people = Ids(draw)

    def character():
        return Character(
            name=draw(st.text("ABCXYZ abc", min_size=1, max_size=8).filter(str.strip)),
            archetype=draw(st.sampled_from(["", "decker", "street-samurai"])),
            move_ratio=draw(st.integers(1, 4)), fire_ratio=draw(st.integers(1, 4)),
            vision=draw(st.sampled_from(["normal", "low-light", "thermographic"])),
            metatype=draw(st.sampled_from(["human", "elf", "dwarf", "ork", "troll"])),
            success=tuple(draw(st.dictionaries(words, st.integers(2, 20), max_size=3)).items()),
            defense=tuple(draw(st.dictionaries(words, st.integers(2, 20), max_size=4)).items()),
            weapons=tuple(Weapon(type=draw(words), success=tuple(draw(st.lists(st.integers(2, 20), max_size=4))),
                                 shots=draw(st.one_of(st.none(), st.integers(0, 30))), name=draw(notes),
                                 damage=draw(st.one_of(st.none(), st.integers(1, 6))))
                          for _ in range(draw(st.integers(0, 2)))),
            id=people(), note=draw(notes),
        )

    def deployment():
        if draw(st.booleans()):
            return Deployment(polygon=draw(rect()), level=draw(st.integers(0, 3)))
        return Deployment(edge=draw(st.sampled_from(["north", "south", "east", "west"])),
                          depth=draw(st.one_of(st.none(), st.integers(1, 5))))

    sides = tuple(Side(id=s, name=draw(notes), deployment=draw(st.one_of(st.none(), st.builds(deployment))),
                       characters=tuple(character() for _ in range(draw(st.integers(0, 2)))), note=draw(notes))
                  for s in side_ids)

    def objective():
        side = draw(st.sampled_from(side_ids))
        kind = draw(st.sampled_from(["reach", "hold", "retrieve", "eliminate", "exit", "protect"]))
        kw: dict[str, Any] = {}
        dot = (draw(st.integers(0, 40)), draw(st.integers(0, 40)))
        if kind == "reach":
            kw = dict(at=dot + ((draw(st.integers(0, 3)),) if draw(st.booleans()) else ()))
        elif kind == "hold":
            kw = dict(area=draw(rect()), level=draw(st.integers(0, 2)), turns=draw(st.one_of(st.none(), st.integers(1, 4))))
        elif kind == "retrieve":
            kw = dict(at=dot, then=draw(st.one_of(st.none(), st.just("exit-west"))))
        elif kind in ("eliminate", "protect"):
            kw = dict(target=draw(st.sampled_from(side_ids)))
        else:
            kw = dict(edge=draw(st.sampled_from(["north", "east"])))
        return Objective(id=ids(), side=side, kind=kind, by_turn=draw(st.one_of(st.none(), st.integers(1, 9))),
                         points=draw(st.one_of(st.none(), st.integers(0, 20))), note=draw(notes), **kw)

    light = draw(st.sampled_from(["day", "partial-darkness", "full-darkness"]))
    return Scenario(
        title=draw(notes.filter(bool) | st.just("T")), layout=layout,
        ruleset=draw(st.sampled_from(["dmz1990", "sr3", "sr1", "darkcon"])),
        conditions=(("light", light),), turn_limit=draw(st.one_of(st.none(), st.integers(1, 12))),
        initiative=draw(st.sampled_from(["team", "character"])), sides=sides,
        objectives=tuple(objective() for _ in range(draw(st.integers(0, 3)))),
        victory=tuple(draw(st.dictionaries(st.sampled_from(["most_points", "last_standing"]), st.booleans())).items()),
        notes=draw(notes),
    )


@SETTINGS
@given(scenarios())
def test_any_valid_scenario_round_trips(doc):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "doc.yaml")
        save_document(doc, path)
        loaded = load_document(path)
        assert blank_generated(doc, loaded) == doc
        save_document(loaded, path)
        assert load_document(path) == loaded
