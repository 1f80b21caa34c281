"""The ``sprawlmap`` command (SPEC section 6): the engine's commands.

Commands of other layers register themselves: :func:`main` and :func:`build_parser` take
``commands``, functions that each add their subcommands to the subparsers.  The editor's
``edit`` is added that way by the launcher :mod:`editor.cli` (the ``sprawlmap`` script), so
the engine never imports the editor; ``python -m engine.cli`` has the engine's commands only.

Exit codes: 0 success, 1 a valid question with a negative answer (blocked, unreachable,
validation errors), 2 bad input.  Bad input is always one line naming the file, the line and the
problem; a traceback is a bug.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from engine import __version__, cli_library
from engine.cli_zone import register as register_zone
from engine.errors import QueryError, SprawlmapError

EXIT_OK, EXIT_NO, EXIT_BAD = 0, 1, 2


class CliError(SprawlmapError):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, like every other bad input
        self.exit(EXIT_BAD, f"sprawlmap: {message}\n")


def parse_dot(text: str, what: str = "dot") -> tuple[int, int, int]:
    parts = text.replace(" ", "").split(",")
    try:
        vals = [int(p) for p in parts]
    except ValueError:
        raise CliError(f"{what} {text!r} is not c,r or c,r,l (whole numbers)") from None
    if len(vals) == 2:
        vals.append(0)
    if len(vals) != 3:
        raise CliError(f"{what} {text!r} is not c,r or c,r,l")
    return (vals[0], vals[1], vals[2])


def _load(path: str):
    from engine.io import load_board

    p = Path(path)
    if not p.exists():
        raise CliError(f"{path}: no such file")
    return load_board(p)


def _emit(obj: dict[str, Any]) -> None:
    print(json.dumps(obj, indent=None, separators=(",", ": ")))


# ------------------------------------------------------------------------------ los
VISIONS = ("normal", "low-light", "thermographic", "low-light-natural", "thermographic-natural")


def cmd_los(ns: argparse.Namespace) -> int:
    from engine.sight import sight
    from engine.textmap import crossed_dots, render

    scenario, board = _load(ns.file)
    a, b = parse_dot(ns.a, "A"), parse_dot(ns.b, "B")
    if ns.all_rulesets:  # the designer's lenses (engine/cli_analyse.py)
        from engine.cli_analyse import los_all_rulesets
        return los_all_rulesets(ns, board, scenario, a, b)
    if ns.profile:
        from engine.cli_analyse import write_profile
        write_profile(ns, board, scenario, a, b)
    v = sight(board, a, b, ruleset=scenario.ruleset, posture_a=ns.posture_a,
              posture_b=ns.posture_b, vision=ns.vision, weapon=ns.weapon, light=scenario.light)
    facts, mods, blocked = v.facts, v.mods, v.blocked
    if ns.json:
        _emit(v.to_json())
    else:
        verdict = v.result.upper()
        print(f"LOS {ns.a} -> {ns.b}: {verdict}  [{v.ruleset}]")
        rows = [("range", f"{facts.range} dots, {v.range_m:g} m"),
                ("elevation", f"{facts.elevation_stories} stories ({mods['elevation']:+d})"),
                ("cover", f"{facts.cover} crossed ({mods['cover']:+d})"),
                ("prone", f"{mods['prone']:+d}"),
                ("visibility", f"{mods['visibility_result']} for {ns.vision} vision"
                 + (f" ({', '.join(facts.visibility)})" if facts.visibility else "")
                 + (f" ({mods['visibility']:+d})" if mods["visibility"] else "")),
                ("area modifier", f"{mods['target_modifier']:+d}"),
                ("target modifier", "no shot" if blocked else f"{mods['total']:+d}")]
        for key, label in (("range_band", "range band"),
                           ("base_target_number", "base TN"), ("target_number", "target number"),
                           ("blind_fire_target_number", "blind-fire TN"),
                           ("barrier_rating", "barrier rating"),
                           ("range_modifier", "range modifier"), ("hit_modifier", "hit modifier"),
                           ("cover_type", "cover type"), ("covered_locations", "covered")):
            if mods.get(key) not in (None, [], ""):
                val = mods[key]
                rows.append((label, ", ".join(val) if isinstance(val, list) else str(val)))
        rows += [("why", r) for r in v.reasons]
        rows += [("note", n) for n in mods.get("notes", [])]
        for k, val in rows:
            print(f"  {k:<16}{val}")
        if facts.dead_zone:
            print("  target is in a dead zone")
        if a[2] == b[2]:
            marks = {d: "*" for d in crossed_dots(board, a, b)}
            if facts.blocked_by and facts.blocked_by.get("point"):
                bx, by = facts.blocked_by["point"]
                marks[board.lattice.dot_at((bx, by))] = "X"
            marks[(a[0], a[1])] = "A"
            marks[(b[0], b[1])] = "B"
            pic = render(board, a[2], marks, [a[:2], b[:2]])
            if pic:
                print(pic)
    return EXIT_NO if blocked else EXIT_OK


# ----------------------------------------------------------------------------- path
def _movement(ns: argparse.Namespace, scenario: Any) -> tuple[str, Any]:
    """(ruleset name, its Movement); dmz1990 needs a move ratio, the others move in metres."""
    from engine.rules import get_ruleset

    rs = get_ruleset(scenario.ruleset)
    if rs.movement.units == "MP":
        if ns.move_ratio is None:
            raise CliError(f"{ns.file}: --move-ratio is required under {rs.name}")
        if ns.move_ratio < 1:
            raise CliError("--move-ratio must be 1 or more")
    return rs.name, rs.movement


def cmd_path(ns: argparse.Namespace) -> int:
    from engine.movement import cheapest_path
    from engine.textmap import render

    scenario, board = _load(ns.file)
    a, b = parse_dot(ns.a, "A"), parse_dot(ns.b, "B")
    name, mv = _movement(ns, scenario)
    res = cheapest_path(board, a, b, ns.move_ratio or 1, crawl=ns.crawl, ruleset=name)
    if ns.json:
        _emit({"reachable": res.reachable, "cost": res.cost, "units": res.units,
               "length_m": res.length_m, "ruleset": name, "dots": [list(d) for d in res.dots],
               "steps": [{"to": list(s.to), "cost": s.cost, "why": s.why} for s in res.steps]})
    else:
        if not res.reachable:
            print(f"no path from {ns.a} to {ns.b}")
            return EXIT_NO
        how = (f"move ratio {ns.move_ratio}{', crawling' if ns.crawl else ''}" if res.units == "MP"
               else mv.rule)
        print(f"path {ns.a} -> {ns.b}: {res.cost:g} {res.units} in {len(res.steps)} steps, "
              f"{res.length_m:g} m walked [{name}] ({how})")
        total: float = 0
        print(f"  {'to':<12}{res.units:>6}{'total':>8}  why")
        for s in res.steps:
            total += s.cost
            print(f"  {','.join(map(str, s.to)):<12}{s.cost:>6g}{total:>8g}  {'; '.join(s.why)}")
        for lv in sorted({d[2] for d in res.dots}):
            marks = {(d[0], d[1]): "o" for d in res.dots if d[2] == lv}
            if a[2] == lv:
                marks[(a[0], a[1])] = "A"
            if b[2] == lv:
                marks[(b[0], b[1])] = "B"
            pic = render(board, lv, marks, [(d[0], d[1]) for d in res.dots if d[2] == lv])
            if pic:
                print(pic)
    return EXIT_OK if res.reachable else EXIT_NO


def cmd_reach(ns: argparse.Namespace) -> int:
    from engine.movement import reach
    from engine.textmap import render

    scenario, board = _load(ns.file)
    a = parse_dot(ns.a, "A")
    name, mv = _movement(ns, scenario)
    if mv.units == "MP":
        budget: float = ns.mp
        what = f"{ns.mp} MP at move ratio {ns.move_ratio}"
    else:
        rates = dict(mv.rates)
        if ns.pace not in rates:
            raise CliError(f"--pace {ns.pace!r} is not one of {', '.join(rates)} under {name}")
        rate = ns.rate if ns.rate is not None else getattr(get_rules(name), "base_rate", None)
        if ns.metres is not None:
            budget, what = ns.metres, f"{ns.metres:g} m"
        elif rate is None:
            raise CliError(f"{ns.file}: under {name} give --rate (the character's Quickness) "
                           f"or --metres")
        else:
            budget = rate * rates[ns.pace]
            what = f"{budget:g} m ({ns.pace}: {rate:g} x {rates[ns.pace]:g}; {mv.rule})"
    got = reach(board, a, ns.move_ratio or 1, mp=budget, crawl=ns.crawl, ruleset=name)
    items = sorted(got.items(), key=lambda kv: (kv[1], kv[0]))
    if ns.json:
        _emit({"units": mv.units, "budget": budget, "ruleset": name,
               "dots": [{"dot": list(d), "cost": c} for d, c in items]})
    else:
        print(f"reach from {ns.a} with {what}: {len(items) - 1} dots [{name}]")
        lv = a[2]
        scale = 1.0 if mv.units == "MP" else 2.0  # metres: one digit per 2 m
        marks = {(d[0], d[1]): _cost_char(int(c // scale)) for d, c in items if d[2] == lv}
        marks[(a[0], a[1])] = "A"
        pic = render(board, lv, marks, [(d[0], d[1]) for d, _ in items if d[2] == lv])
        if pic:
            print(pic)
            print("  digits: MP spent (0-9), + : 10 or more" if mv.units == "MP"
                  else "  digits: metres walked / 2 (0-9), + : 20 m or more")
        others = sorted({d[2] for d, _ in items} - {lv})
        for o in others:
            n = sum(1 for d, _ in items if d[2] == o)
            print(f"  also {n} dots on level {o}")
    return EXIT_OK


def get_rules(name: str) -> Any:
    from engine.rules import get_ruleset

    return get_ruleset(name)


def _cost_char(c: int) -> str:
    return str(c) if c < 10 else "+"


# ------------------------------------------------------------------------- validate
def cmd_validate(ns: argparse.Namespace) -> int:
    from engine.validate import has_errors, summary, validate
    from engine.zone.io import is_zone_file

    if is_zone_file(ns.file):  # zone files have their own findings (engine/cli_zone.py)
        from engine.cli_zone import cmd_validate_zone

        return cmd_validate_zone(ns)
    scenario, board = _load(ns.file)
    findings = validate(board, scenario)
    if ns.json:
        _emit({"file": ns.file, "ok": not has_errors(findings),
               "findings": [f.to_dict() for f in findings]})
    else:
        for f in findings:
            where = ""
            dots = f.where.get("dots")
            if dots:
                where = " at " + " ".join(",".join(map(str, d)) for d in dots[:4])
            print(f"{ns.file}: {f.severity}: [{f.code}] {f.message}{where}")
        print(f"{ns.file}: {summary(findings)}")
    return EXIT_NO if has_errors(findings) else EXIT_OK


# --------------------------------------------------------------------------- others
def cmd_export(ns: argparse.Namespace) -> int:
    try:
        from engine.export import export_cli
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("engine.export"):
            raise CliError("export is not available in this build") from None
        raise
    scenario, board = _load(ns.file)
    return export_cli(ns, scenario, board)


def cmd_play(ns: argparse.Namespace) -> int:
    try:
        from engine.play.headless import run_cli
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("engine.play"):
            raise CliError("play is not available in this build") from None
        raise
    scenario, board = _load(ns.file)
    return run_cli(scenario, board, ns.bots, ns.seed, ns.json)


#: a command registration: adds subcommands (with ``set_defaults(fn=...)``) to the subparsers
Register = Callable[[argparse._SubParsersAction], None]


def build_parser(commands: Iterable[Register] = ()) -> argparse.ArgumentParser:
    p = _Parser(prog="sprawlmap", description="DMZ-style scenario editor and rules engine")
    p.add_argument("--version", action="version", version=f"sprawlmap {__version__}")
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    for register in commands:  # other layers' commands (the editor's edit) come first
        register(sub)

    v = sub.add_parser("validate", help="check a layout or scenario")
    v.add_argument("file")
    v.add_argument("--json", action="store_true")
    v.set_defaults(fn=cmd_validate)

    los = sub.add_parser("los", help="line of sight between two dots")
    los.add_argument("file")
    los.add_argument("a", metavar="A")
    los.add_argument("b", metavar="B")
    los.add_argument("--posture-a", choices=("standing", "prone"), default="standing")
    los.add_argument("--posture-b", choices=("standing", "prone"), default="standing")
    los.add_argument("--vision", choices=VISIONS, default="normal",
                     help="the *-natural columns are sr3's natural (metahuman) vision")
    los.add_argument("--weapon", help="dmz1990: the advanced Elevation Table row for this weapon type; "
                     "sr3/sr1: the range-table weapon (bow:STR); darkcon: the printed short range in m")
    los.add_argument("--json", action="store_true")
    los.set_defaults(fn=cmd_los)
    from engine.cli_analyse import add_los_options
    add_los_options(los)

    pa = sub.add_parser("path", help="cheapest path between two dots")
    pa.add_argument("file")
    pa.add_argument("a", metavar="A")
    pa.add_argument("b", metavar="B")
    pa.add_argument("--move-ratio", type=int, help="dmz1990: the character's move ratio "
                    "(required); sr3, sr1, darkcon move in metres")
    pa.add_argument("--crawl", action="store_true")
    pa.add_argument("--json", action="store_true")
    pa.set_defaults(fn=cmd_path)

    r = sub.add_parser("reach", help="every dot within reach")
    r.add_argument("file")
    r.add_argument("a", metavar="A")
    r.add_argument("--move-ratio", type=int, help="dmz1990: the character's move ratio (required)")
    r.add_argument("--mp", type=int, default=12, help="dmz1990: MP to spend")
    r.add_argument("--metres", type=float, help="sr3/sr1/darkcon: metres to walk")
    r.add_argument("--rate", type=float, help="sr3/sr1: Quickness (metres a phase); darkcon: "
                   "movement rate (default 8 m)")
    r.add_argument("--pace", default="walk", help="sr3/sr1: walk, run, run-dwarf, run-troll; "
                   "darkcon: crawl, walk, trot, run")
    r.add_argument("--crawl", action="store_true")
    r.add_argument("--json", action="store_true")
    r.set_defaults(fn=cmd_reach)

    x = sub.add_parser("export", help="export a bundle, picture, printable PDF or UVTT")
    x.add_argument("file")
    x.add_argument("--format", required=True, choices=("yaml", "svg", "png", "pdf", "uvtt"))
    x.add_argument("-o", "--output", required=True, metavar="OUT")
    x.add_argument("--page", choices=("a4", "letter"), default="a4")
    x.add_argument("--dot-mm", type=float, default=25.4, help="dot spacing on paper, in mm")
    x.add_argument("--force", action="store_true", help="export even with validation errors")
    x.set_defaults(fn=cmd_export)

    pl = sub.add_parser("play", help="headless bot-vs-bot games: a balance report")
    pl.add_argument("file")
    pl.add_argument("--bots", type=int, default=20, help="number of games")
    pl.add_argument("--seed", type=int, default=1)
    pl.add_argument("--json", action="store_true")
    pl.set_defaults(fn=cmd_play)
    register_zone(sub)

    from engine.cli_analyse import add_parser as add_analyse
    add_analyse(sub)
    cli_library.register(sub)
    return p


def main(argv: list[str] | None = None, commands: Iterable[Register] = ()) -> int:
    """Run one command; ``commands`` registers the commands of layers above the engine."""
    parser = build_parser(commands)
    ns = parser.parse_args(argv)
    try:
        return int(ns.fn(ns) or 0)
    except QueryError as exc:
        where = getattr(ns, "file", None)
        print(f"sprawlmap: {where + ': ' if where else ''}{exc}", file=sys.stderr)
        return EXIT_BAD
    except SprawlmapError as exc:
        print(f"sprawlmap: {exc}", file=sys.stderr)
        return EXIT_BAD
    except BrokenPipeError:  # `sprawlmap reach ... | head`: the reader left, nothing to say
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except (ValueError, OSError) as exc:
        where = getattr(ns, "file", None)
        prefix = f"{where}: " if where else ""
        print(f"sprawlmap: {prefix}{exc}".splitlines()[0], file=sys.stderr)
        return EXIT_BAD
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
