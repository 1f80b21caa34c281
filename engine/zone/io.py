"""``format: sprawlmap/zone@1`` files <-> :class:`engine.zone.model.Zone` (SPEC-zone section 1).

As strict as the other formats: every unknown key, wrong type or block off the grid is one
:class:`LoadError` naming the file and line.  Blocks, river blocks, barrier ends and entries
must lie on the grid and on a ``#`` of ``shape``; whether the River bisects the zone, barriers
join neighbours and players have entries are findings (:mod:`engine.zone.validate`), so a
designer can save a zone that is still being laid out.
"""

from __future__ import annotations

import os
from typing import Any

from engine.errors import LoadError
from engine.io.fields import At, Rec, boolean, choice, describe, feature_id, integer, put, seq, text
from engine.io.reader import parse_text, read_yaml
from engine.io.writer import atomic_write, dump_text
from engine.zone.model import (
    CARDS,
    CROSSINGS,
    GROWTH_SIDES,
    OFF_EDGE,
    RIVER_PRESETS,
    SIDES,
    Block,
    Growth,
    Landslide,
    Limits,
    Player,
    River,
    Zone,
    ZoneBarrier,
    ZoneBlock,
)

FORMAT = "sprawlmap/zone@1"
ZONE_KEYS = ("format", "title", "grid", "shape", "block_size", "players", "river", "barriers",
             "blocks", "limits", "growth", "landslide", "notes")
PLAYER_KEYS = ("id", "name", "safehouse", "entries", "note")
RIVER_KEYS = ("preset", "blocks", "crossing")
BARRIER_KEYS = ("between", "body", "note")
BLOCK_KEYS = ("at", "layout", "label", "card", "note")
LIMITS_KEYS = ("runners_per_block", "events_per_block")
GROWTH_KEYS = ("enabled", "trigger", "side")
LANDSLIDE_KEYS = ("enabled", "stay_damage", "off_edge")
#: a zone bigger than this is refused (a city is a few dozen blocks, not millions)
MAX_SIDE = 64

PathLike = str | os.PathLike[str]


def is_zone_data(data: Any) -> bool:
    return isinstance(data, dict) and str(data.get("format", "")).startswith("sprawlmap/zone@")


def is_zone_file(path: PathLike) -> bool:
    """True when the file's ``format`` says it is a zone (reads only the head of the file)."""
    if not os.path.isfile(path):  # a FIFO or device is never opened here (it could hang)
        return False
    try:
        with open(os.fspath(path), "rb") as fh:
            head = fh.read(4096).decode("utf-8", "replace")
    except OSError:
        return False
    return any(line.split("#")[0].strip().replace(" ", "").startswith("format:sprawlmap/zone@")
               for line in head.splitlines())


def _items(r: Rec, key: str) -> list[tuple[Any, At]]:
    if key not in r:
        return []
    at = r.at(key)
    items = seq(r.raw(key), at)
    return [(x, at.item(items, i)) for i, x in enumerate(items)]


def _pair(lo: int, hi: int, what: str) -> Any:
    def read(v: Any, at: At) -> tuple[int, int]:
        if not isinstance(v, list | tuple) or len(v) != 2:
            at.fail(f"'{at.name}' must be {what}, not {describe(v)}")
        return (integer(lo, hi)(v[0], at), integer(lo, hi)(v[1], at))

    return read


_block_xy = _pair(-10_000, 10_000, "a block [col, row]")


class _Reader:
    def __init__(self, file: str | None):
        self.file = file
        self.grid = (0, 0)
        self.shape: tuple[str, ...] | None = None

    def block(self, v: Any, at: At, what: str) -> Block:
        b = _block_xy(v, at)
        cols, rows = self.grid
        if not (0 <= b[0] < cols and 0 <= b[1] < rows):
            at.fail(f"{what} [{b[0]}, {b[1]}] is outside the {cols} x {rows} grid")
        if self.shape is not None and self.shape[b[1]][b[0]] != "#":
            at.fail(f"{what} [{b[0]}, {b[1]}] lies on a '.' of 'shape' (no block there)")
        return b

    def blocks(self, v: Any, at: At, what: str) -> tuple[Block, ...]:
        items = seq(v, at, "a list of blocks [[col, row], ...]")
        out: list[Block] = []
        for i, x in enumerate(items):
            b = self.block(x, at.item(items, i), what)
            if b in out:
                at.item(items, i).fail(f"{what} [{b[0]}, {b[1]}] is listed twice")
            out.append(b)
        return tuple(out)

    def zone(self, data: Any) -> Zone:
        at = At(self.file, getattr(data, "line", None), "zone")
        if not isinstance(data, dict):
            at.fail(f"expected a mapping with 'format: {FORMAT}' at the top, not {describe(data)}")
        fmt = data.get("format")
        fline = getattr(data, "value_lines", {}).get("format", at.line)
        if fmt != FORMAT:
            if isinstance(fmt, str) and fmt.startswith("sprawlmap/zone@"):
                at.fail(f"format {fmt} is not understood (this sprawlmap reads {FORMAT})", fline)
            at.fail(f"this is not a zone file: 'format' must be {FORMAT}, not {describe(fmt)}", fline)
        r = Rec(data, at, "zone", ZONE_KEYS, ("format", "grid"))
        self.grid = r.get("grid", _pair(1, MAX_SIDE, "[cols, rows] of whole numbers"))
        self.shape = r.get("shape", self.read_shape)
        return Zone(
            title=r.get("title", text, ""),
            grid=self.grid,
            shape=self.shape,
            block_size=r.get("block_size", _pair(4, 10_000, "[width, height] in dots"), (96, 64)),
            players=self.players(r),
            river=r.get("river", self.river),
            barriers=self.barriers(r),
            blocks=self.zone_blocks(r),
            limits=r.get("limits", self.limits, Limits()),
            growth=r.get("growth", self.growth, Growth()),
            landslide=r.get("landslide", self.landslide, Landslide()),
            notes=r.get("notes", text, ""),
        )

    def read_shape(self, v: Any, at: At) -> tuple[str, ...]:
        items = seq(v, at, "a list of row strings ('#' block, '.' no block)")
        cols, rows = self.grid
        if len(items) != rows:
            at.fail(f"'shape' has {len(items)} rows, the grid has {rows}")
        out = []
        for i, row in enumerate(items):
            ra = at.item(items, i)
            if not isinstance(row, str) or set(row) - {"#", "."}:
                ra.fail(f"each row of 'shape' must be text of '#' and '.', not {describe(row)}")
            if len(row) != cols:
                ra.fail(f"row {i} of 'shape' has {len(row)} columns, the grid has {cols}")
            out.append(row)
        if not any("#" in row for row in out):
            at.fail("'shape' has no block ('#') at all")
        return tuple(out)

    def players(self, r: Rec) -> tuple[Player, ...]:
        out: list[Player] = []
        for item, at in _items(r, "players"):
            p = Rec(item, at, "player", PLAYER_KEYS, ("id", "safehouse"))
            pid = p.get("id", feature_id)
            if any(q.id == pid for q in out):
                p.at("id").fail(f"duplicate player id '{pid}'")
            entries = None
            if "entries" in p:
                entries = self.blocks(p.raw("entries"), p.at("entries"), "entry")
            out.append(Player(id=pid, name=p.get("name", text, ""),
                              safehouse=p.get("safehouse", choice(SIDES)), entries=entries,
                              note=p.get("note", text, "")))
        if len(out) > 4:
            r.at("players").fail(f"a zone has at most 4 players (one per edge), not {len(out)}")
        return tuple(out)

    def river(self, v: Any, at: At) -> River:
        rr = Rec(v, at, "river", RIVER_KEYS)
        if ("preset" in rr) == ("blocks" in rr):
            rr.fail("river needs either 'preset: 1|2' or 'blocks: [[c, r], ...]' (one of them)")
        crossing = rr.get("crossing", self.crossing, CROSSINGS)
        if "preset" in rr:
            preset = rr.get("preset", integer(1, 2))
            blocks = RIVER_PRESETS[preset]
            for b in blocks:
                if not self._ok(b):
                    rr.at("preset").fail(
                        f"river preset {preset} needs block [{b[0]}, {b[1]}], which is not in the zone "
                        "(the presets are drawn on the seed's 4 x 4 zone)")
            return River(blocks=blocks, preset=preset, crossing=crossing)
        return River(blocks=self.blocks(rr.raw("blocks"), rr.at("blocks"), "river block"),
                     crossing=crossing)

    def _ok(self, b: Block) -> bool:
        cols, rows = self.grid
        return 0 <= b[0] < cols and 0 <= b[1] < rows and (self.shape is None or self.shape[b[1]][b[0]] == "#")

    @staticmethod
    def crossing(v: Any, at: At) -> tuple[str, ...]:
        items = seq(v, at, "a list of vehicle | athletics")
        out = []
        for i, x in enumerate(items):
            word = choice(CROSSINGS)(x, at.item(items, i))
            if word not in out:
                out.append(word)
        return tuple(out)

    def barriers(self, r: Rec) -> tuple[ZoneBarrier, ...]:
        out: list[ZoneBarrier] = []
        for item, at in _items(r, "barriers"):
            b = Rec(item, at, "barrier", BARRIER_KEYS, ("between", "body"))
            ends = b.raw("between")
            bat = b.at("between")
            if not isinstance(ends, list | tuple) or len(ends) != 2:
                bat.fail(f"'between' must be two blocks [[c, r], [c, r]], not {describe(ends)}")
            a, c = (self.block(e, bat, "barrier end") for e in ends)
            if a == c:
                bat.fail(f"a barrier needs two different blocks, not [{a[0]}, {a[1]}] twice")
            if any(x.joins(a, c) for x in out):
                bat.fail(f"a second barrier between [{a[0]}, {a[1]}] and [{c[0]}, {c[1]}]")
            out.append(ZoneBarrier(between=(a, c), body=b.get("body", integer(0, 1000)),
                                   note=b.get("note", text, "")))
        return tuple(out)

    def zone_blocks(self, r: Rec) -> tuple[ZoneBlock, ...]:
        out: list[ZoneBlock] = []
        for item, at in _items(r, "blocks"):
            b = Rec(item, at, "block", BLOCK_KEYS, ("at",))
            where = self.block(b.raw("at"), b.at("at"), "block")
            if any(x.at == where for x in out):
                b.at("at").fail(f"block [{where[0]}, {where[1]}] is listed twice")
            out.append(ZoneBlock(at=where, layout=b.get("layout", text), label=b.get("label", text, ""),
                                 card=b.get("card", choice(CARDS)), note=b.get("note", text, "")))
        return tuple(out)

    @staticmethod
    def limits(v: Any, at: At) -> Limits:
        r = Rec(v, at, "limits", LIMITS_KEYS)
        return Limits(r.get("runners_per_block", integer(1, 100), 6), r.get("events_per_block", integer(0, 100), 6))

    @staticmethod
    def growth(v: Any, at: At) -> Growth:
        r = Rec(v, at, "growth", GROWTH_KEYS)
        return Growth(r.get("enabled", boolean, False), r.get("trigger", integer(1, 7), 5),
                      r.get("side", choice(GROWTH_SIDES), "die"))

    @staticmethod
    def landslide(v: Any, at: At) -> Landslide:
        r = Rec(v, at, "landslide", LANDSLIDE_KEYS)
        return Landslide(r.get("enabled", boolean, False), r.get("stay_damage", integer(0, 100), 1),
                         r.get("off_edge", choice(OFF_EDGE), "stay"))


def zone_from_data(data: Any, file: str | None = None) -> Zone:
    """Read located (or plain) data into a Zone; bad input is a one-line LoadError."""
    return _Reader(file).zone(data)


def _xy(b: Block) -> list[int]:
    return [int(b[0]), int(b[1])]


def zone_to_data(z: Zone) -> dict[str, Any]:
    """Plain data in file order; defaults are left out so saved files stay short."""
    d: dict[str, Any] = {"format": FORMAT}
    put(d, "title", z.title, "")
    d["grid"] = list(z.grid)
    if z.shape is not None:
        d["shape"] = list(z.shape)
    d["block_size"] = list(z.block_size)
    players = []
    for p in z.players:
        item: dict[str, Any] = {"id": p.id}
        put(item, "name", p.name, "")
        item["safehouse"] = p.safehouse
        if p.entries is not None:
            item["entries"] = [_xy(b) for b in p.entries]
        put(item, "note", p.note, "")
        players.append(item)
    put(d, "players", players)
    if z.river is not None:
        rv: dict[str, Any] = {}
        if z.river.preset is not None:
            rv["preset"] = z.river.preset
        else:
            rv["blocks"] = [_xy(b) for b in z.river.blocks]
        rv["crossing"] = list(z.river.crossing)
        d["river"] = rv
    bars = []
    for br in z.barriers:
        item = {"between": [_xy(br.between[0]), _xy(br.between[1])], "body": br.body}
        put(item, "note", br.note, "")
        bars.append(item)
    put(d, "barriers", bars)
    blocks = []
    for zb in z.blocks:
        item = {"at": _xy(zb.at)}
        put(item, "layout", zb.layout)
        put(item, "label", zb.label, "")
        put(item, "card", zb.card)
        put(item, "note", zb.note, "")
        blocks.append(item)
    put(d, "blocks", blocks)
    if z.limits != Limits():
        d["limits"] = {"runners_per_block": z.limits.runners_per_block,
                       "events_per_block": z.limits.events_per_block}
    d["growth"] = {"enabled": z.growth.enabled, "trigger": z.growth.trigger, "side": z.growth.side}
    d["landslide"] = {"enabled": z.landslide.enabled, "stay_damage": z.landslide.stay_damage,
                      "off_edge": z.landslide.off_edge}
    put(d, "notes", z.notes, "")
    return d


def load_zone(path: PathLike) -> Zone:
    """Read a zone file (``format: sprawlmap/zone@1``)."""
    file = os.fspath(path)
    return zone_from_data(read_yaml(file), file)


def zone_text(z: Zone) -> str:
    """The YAML text of a zone, checked by reading it back with the strict loader."""
    text_out = dump_text(zone_to_data(z))
    try:
        zone_from_data(parse_text(text_out, None), None)
    except LoadError as e:
        raise LoadError(f"not saved: {e.message}") from None
    return text_out


def save_zone(z: Zone, path: PathLike) -> None:
    """Write a zone atomically; a zone that would not load again is refused, the file untouched."""
    file = os.fspath(path)
    if not isinstance(z, Zone):
        raise LoadError(f"not saved: not a Zone but {type(z).__name__}", file)
    try:
        body = zone_text(z)
    except LoadError as e:
        raise LoadError(e.message, file) from None
    atomic_write(file, body)
