"""``sprawlmap zone ...`` and zone files for ``validate`` (SPEC-zone section 4).

Registered from :mod:`engine.cli` with one line; exit codes as everywhere: 0 ok, 1 a valid
question with a negative answer (unreachable, validation errors), 2 bad input.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from engine.errors import QueryError

EXIT_OK, EXIT_NO, EXIT_BAD = 0, 1, 2


def _emit(obj: dict[str, Any]) -> None:
    print(json.dumps(obj, indent=None, separators=(",", ": ")))


def _load(path: str) -> Any:
    from engine.zone.io import load_zone

    return load_zone(path)


def _block(text: str, what: str = "block") -> tuple[int, int]:
    parts = text.replace(" ", "").split(",")
    try:
        c, r = (int(p) for p in parts)
    except ValueError:
        raise QueryError(f"{what} {text!r} is not C,R (two whole numbers)") from None
    return (c, r)


def zone_summary(z: Any) -> dict[str, Any]:
    """The zone as JSON: the file's data plus every player's resolved entries."""
    from engine.zone import rules
    from engine.zone.io import zone_to_data

    d = zone_to_data(z)
    d["entries"] = {p.id: [list(b) for b in rules.entries(z, p.id)] for p in z.players}
    d["river_blocks"] = [list(b) for b in z.river.blocks] if z.river else []
    return d


def cmd_show(ns: argparse.Namespace) -> int:
    from engine.zone.text import render_zone

    z = _load(ns.file)
    if ns.json:
        _emit(zone_summary(z))
    else:
        print(render_zone(z))
    return EXIT_OK


def cmd_adjacent(ns: argparse.Namespace) -> int:
    from engine.zone import rules

    z = _load(ns.file)
    b = _block(ns.block)
    nbs = rules.neighbours(z, b)
    if ns.json:
        _emit({"block": list(b), "neighbours": nbs})
    else:
        print(f"block {b[0]},{b[1]}: {len(nbs)} neighbour(s)")
        for n in nbs:
            extra = []
            if n["river"]:
                extra.append("River")
            if n["barrier"]:
                extra.append(f"barrier Body {n['barrier']['body']}")
            print(f"  {n['side']:<6} {n['block'][0]},{n['block'][1]}" + (f"  ({', '.join(extra)})" if extra else ""))
    return EXIT_OK


def cmd_path(ns: argparse.Namespace) -> int:
    from engine.zone import rules
    from engine.zone.text import render_zone

    z = _load(ns.file)
    a, b = rules.parse_end(z, ns.start), rules.parse_end(z, ns.goal)
    res = rules.path(z, a, b, vehicle=ns.vehicle, athletics=ns.athletics)
    if ns.json:
        _emit(res.to_dict())
    else:
        print(("path: " if res.reachable else "no path: ") + res.why)
        if res.reachable:
            print("  " + " -> ".join(f"{x[0]},{x[1]}" for x in res.blocks))
            print(render_zone(z, {x: "*" for x in res.blocks}))
    return EXIT_OK if res.reachable else EXIT_NO


def cmd_roll(ns: argparse.Namespace) -> int:
    from engine.zone.dice import roll

    z = _load(ns.file)
    if not 1 <= ns.turns <= 1000:
        raise QueryError("--turns must be between 1 and 1000")
    if not 1 <= ns.runners <= z.limits.runners_per_block:
        raise QueryError(f"--runners must be between 1 and {z.limits.runners_per_block} (runners_per_block)")
    table = "landslide" if ns.landslide else "growth"
    new, rolls = roll(z, table, ns.seed, ns.turns, ns.runners)
    if ns.json:
        _emit({"rolls": rolls, "zone": zone_summary(new)})
        return EXIT_OK
    enabled = z.landslide.enabled if table == "landslide" else z.growth.enabled
    if not enabled:
        print(f"note: {table} is not enabled in this zone ({table}.enabled: false); rolled anyway")
    for r in rolls:
        res = r["result"]
        dice = " ".join(map(str, r["dice"]))
        if table == "landslide":
            pushes = "; ".join(
                f"runner {p['runner']}: {p['die']} {p['direction']}"
                + (f" -> {p['to'][0]},{p['to'][1]}" if p.get("to") and p["direction"] != "stay" else "")
                + (" (edge: stays)" if p.get("off_edge") else "") + (" (to the safehouse)" if p.get("safehouse") else "")
                + (f", {p['damage']} damage" if p["damage"] else "") for p in res["pushes"])
            gone = "".join(f"; barrier {b['between'][0]}-{b['between'][1]} destroyed" for b in res["barriers_destroyed"])
            print(f"turn {r['turn']}: dice {dice}: landslide on block {res['block'][0]},{res['block'][1]}: {pushes}{gone}")
        elif res["grew"]:
            print(f"turn {r['turn']}: dice {dice}: the zone grows a {res['added']} on the {res['side']} "
                  f"-> {res['grid'][0]} x {res['grid'][1]}")
        else:
            print(f"turn {r['turn']}: dice {dice}: no growth ({res['why']})")
    return EXIT_OK


def cmd_compose(ns: argparse.Namespace) -> int:
    from engine.io import save_document
    from engine.zone.compose import composed_scenario

    z = _load(ns.file)
    sc = composed_scenario(z, Path(ns.file).resolve().parent, ns.file)
    save_document(sc, ns.output, layout_only=True)
    lay = sc.layout
    print(f"{ns.output}: {len(lay.pavement)} pavement sheet(s), {len(lay.placements)} building(s), "
          f"{sum(a.kind == 'water' for a in lay.extras.areas)} River block(s) of water, "
          f"{sum(ln.id.startswith('barrier-') for ln in lay.extras.lines)} barrier fence(s)")
    return EXIT_OK


def cmd_block(ns: argparse.Namespace) -> int:
    from engine.io import save_document
    from engine.zone.compose import block_scenario

    z = _load(ns.file)
    b = _block(ns.block)
    sc = block_scenario(z, b, Path(ns.file).resolve().parent, ns.file)
    save_document(sc, ns.output)
    print(f"{ns.output}: {sc.title}; " + "; ".join(f"{s.id} {s.note}" for s in sc.sides))
    return EXIT_OK


def cmd_validate_zone(ns: argparse.Namespace) -> int:
    """``sprawlmap validate ZONE``: zone findings, same shape and exit codes as layouts."""
    from engine.findings import has_errors, summary
    from engine.zone.validate import validate_zone

    z = _load(ns.file)
    findings = validate_zone(z, Path(ns.file).resolve().parent)
    if ns.json:
        _emit({"file": ns.file, "ok": not has_errors(findings), "findings": [f.to_dict() for f in findings]})
    else:
        for f in findings:
            blocks = f.where.get("blocks") or []
            where = (" at " + " ".join(f"{b[0]},{b[1]}" for b in blocks[:4])) if blocks else ""
            print(f"{ns.file}: {f.severity}: [{f.code}] {f.message}{where}")
        print(f"{ns.file}: {summary(findings)}")
    return EXIT_NO if has_errors(findings) else EXIT_OK


def register(sub: Any) -> None:
    """Add ``zone`` and its subcommands to the ``sprawlmap`` parser's subcommands."""
    z = sub.add_parser("zone", help="the block-scale zone of the card-game variant (seed 002)")
    zs = z.add_subparsers(dest="zone_cmd", required=True, parser_class=type(z))

    def cmd(name: str, fn: Any, help_: str) -> argparse.ArgumentParser:
        p = zs.add_parser(name, help=help_)
        p.add_argument("file", metavar="ZONE")
        p.set_defaults(fn=fn)
        return p

    p = cmd("show", cmd_show, "the grid as text: edges, river, barriers, blocks")
    p.add_argument("--json", action="store_true")
    p = cmd("adjacent", cmd_adjacent, "the orthogonal neighbours of a block")
    p.add_argument("block", metavar="C,R")
    p.add_argument("--json", action="store_true")
    p = cmd("path", cmd_path, "fewest moves between blocks or player edges")
    p.add_argument("start", metavar="FROM", help="a block C,R or a player id")
    p.add_argument("goal", metavar="TO", help="a block C,R or a player id")
    p.add_argument("--vehicle", action="store_true", help="the Runner has a vehicle (crosses the River)")
    p.add_argument("--athletics", action="store_true", help="the Runner has Athletics (swims the River)")
    p.add_argument("--json", action="store_true")
    p = cmd("roll", cmd_roll, "roll the landslide or growth table with a seed")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--landslide", action="store_true")
    g.add_argument("--growth", action="store_true")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--turns", type=int, default=1)
    p.add_argument("--runners", type=int, default=1, help="Runners on the landslide block (one D6 each)")
    p.add_argument("--json", action="store_true")
    p = cmd("compose", cmd_compose, "one dot-scale layout of every linked block")
    p.add_argument("-o", "--output", required=True, metavar="LAYOUT.yaml")
    p = cmd("block", cmd_block, "a dot-scale scenario for a fight in one block")
    p.add_argument("block", metavar="C,R")
    p.add_argument("-o", "--output", required=True, metavar="SCENARIO.yaml")
