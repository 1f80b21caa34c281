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
import atexit
import gc
import json
import math
import os
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from engine import __version__, cli_library, limits
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


def _load(path: str, freeze: bool = True):
    """The document at ``path`` and its compiled board, kept out of the collector's sight.

    What the imports made and what is loaded here (a 16x16-block city: ~150k objects in the
    sheets, the compiled units and the board) live as long as the command, so they are frozen
    (``gc.freeze``): without that the collections set off by the checks walk them all again,
    ~0.2 s of a city's ``validate`` that frees nothing.  :func:`main` unfreezes them at its end.
    ``freeze=False`` for ``play``: its games freeze the heap themselves and set their own young
    threshold (:mod:`engine.play.heap`), which they leave alone under a caller's freeze.
    """
    from engine.io import load_board

    p = Path(path)
    if not p.exists():
        raise CliError(f"{path}: no such file")
    if not freeze:
        return load_board(p)
    gc.freeze()
    loaded = load_board(p)
    gc.freeze()
    return loaded


#: a dot with a negative column ("-3,4") looks like an option to argparse
_NEG_DOT = re.compile(r"^-\d+(?:\s*,\s*-?\d+)+$")


def shield_negative_dots(argv: list[str]) -> list[str]:
    """Prefix a space to arguments like ``-3,4`` so argparse takes them for dots, not options
    (:func:`parse_dot` ignores spaces)."""
    return [" " + a if _NEG_DOT.match(a) else a for a in argv]


def whole(option: str, raw: Any, lo: int, hi: int, how: str = "") -> int:
    """``raw`` as a whole number in ``lo..hi``, else a one-line refusal naming the range."""
    try:
        value = int(str(raw).strip())
    except ValueError:
        value = None
    if value is None or not lo <= value <= hi:
        raise CliError(f"{option} must be a whole number from {lo} to {hi}{how}, not {raw!r}")
    return value


def _check_args(ns: argparse.Namespace) -> None:
    """Every argument that can be checked without the board, before the (slow) compile."""
    for key, what in (("a", "A"), ("b", "B")):
        if isinstance(getattr(ns, key, None), str):
            setattr(ns, f"dot_{key}", parse_dot(getattr(ns, key), what))
            setattr(ns, key, getattr(ns, key).strip())
    if getattr(ns, "move_ratio", None) is not None:
        ns.move_ratio = whole("--move-ratio", ns.move_ratio, *limits.MOVE_RATIO_RANGE)
    if getattr(ns, "mp", None) is not None:
        ns.mp = whole("--mp", ns.mp, *limits.MP_RANGE)
    if ns.cmd == "play":
        games = limits.LIMITS["games"]
        ns.bots = whole("--bots", ns.bots, 1, games.value(),
                        f" (the games limit; set {games.env}=N to raise it)")
        ns.seed = whole("--seed", ns.seed, -(2**63), 2**63 - 1)
    for opt in ("metres", "rate"):
        v = getattr(ns, opt, None)
        if v is not None and not 0 <= v <= limits.METRES_MAX:
            raise CliError(f"--{opt} must be a number from 0 to {limits.METRES_MAX:g}, not {v:g}")
    if getattr(ns, "weapon", None) is not None and not ns.weapon.strip():
        raise CliError("--weapon must name a weapon (leave it out for none)")
    if getattr(ns, "dot_mm", None) is not None:
        lo, hi = limits.DOT_MM_RANGE
        try:
            mm = float(ns.dot_mm)
        except ValueError:
            mm = math.nan
        if not lo <= mm <= hi:
            raise CliError(f"--dot-mm must be a number of millimetres from {lo:g} to {hi:g} "
                           f"(a DMZ dot is 25.4), not {ns.dot_mm!r}")
        ns.dot_mm = mm


def board_extent(board: Any) -> tuple[int, int, int, int, int, int]:
    """(c0, c1, r0, r1, l0, l1): the box of the board's dots over every level."""
    levels = [lv for lv in board.levels if len(board.dots(lv))]
    if not levels:
        return (0, -1, 0, -1, 0, -1)
    cs = [board.dots(lv)[:, 0] for lv in levels]
    rs = [board.dots(lv)[:, 1] for lv in levels]
    return (int(min(c.min() for c in cs)), int(max(c.max() for c in cs)),
            int(min(r.min() for r in rs)), int(max(r.max() for r in rs)),
            min(levels), max(levels))


def on_board(board: Any, dot: tuple[int, int, int], text: str, what: str) -> None:
    """Refuse a dot outside the box of the board's dots (LOS ends need not be standable, but
    they must be on the map)."""
    c0, c1, r0, r1, l0, l1 = board_extent(board)
    c, r, lv = dot
    if not (c0 <= c <= c1 and r0 <= r <= r1 and l0 <= lv <= l1):
        raise CliError(f"{what} {text} is off the board "
                       f"(columns {c0}..{c1}, rows {r0}..{r1}, levels {l0}..{l1})")


def _emit(obj: dict[str, Any]) -> None:
    print(json.dumps(obj, indent=None, separators=(",", ": ")))


# ------------------------------------------------------------------------------ los
VISIONS = ("normal", "low-light", "thermographic", "low-light-natural", "thermographic-natural")


def cmd_los(ns: argparse.Namespace) -> int:
    from engine.sight import sight
    from engine.textmap import crossed_dots, render

    scenario, board = _load(ns.file)
    a, b = ns.dot_a, ns.dot_b
    on_board(board, a, ns.a, "A")
    on_board(board, b, ns.b, "B")
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
    a, b = ns.dot_a, ns.dot_b
    on_board(board, a, ns.a, "A")
    on_board(board, b, ns.b, "B")
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
    a = ns.dot_a
    on_board(board, a, ns.a, "A")
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
    from engine.io.locate import finding_line
    from engine.io.reader import read_yaml

    scenario, board = _load(ns.file)
    findings = validate(board, scenario)
    located = read_yaml(ns.file)  # the model keeps no lines; the reader's data does
    lines = [finding_line(located, f.where) for f in findings]
    if ns.json:
        _emit({"file": ns.file, "ok": not has_errors(findings),
               "findings": [{**f.to_dict(), **({"line": n} if n else {})}
                            for f, n in zip(findings, lines, strict=True)]})
    else:
        for f, n in zip(findings, lines, strict=True):
            where = ""
            dots = f.where.get("dots")
            if dots:
                where = " at " + " ".join(",".join(map(str, d)) for d in dots[:4])
            at = f"{ns.file}:{n}" if n else ns.file
            print(f"{at}: {f.severity}: [{f.code}] {f.message}{where}")
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
        from engine.cli_play import run_play
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("engine.play"):
            raise CliError("play is not available in this build") from None
        raise
    scenario, board = _load(ns.file, freeze=False)
    refused = _play_refusal(ns, scenario, board)
    if refused:
        print(f"sprawlmap: {ns.file}: {refused}", file=sys.stderr)
        return EXIT_NO
    return run_play(ns, scenario, board)


def _play_refusal(ns: argparse.Namespace, scenario: Any, board: Any) -> str | None:
    """Why ``play`` will not run a scenario ``validate`` rejects (None with ``--force``)."""
    import engine.scenario_checks  # noqa: F401  (registers the scenario checks)
    from engine.validate import ERROR, validate

    errors = [f for f in validate(board, scenario) if f.severity == ERROR]
    if not errors or ns.force:
        return None
    first = errors[0]
    return (f"play refused: validation found {len(errors)} error(s), first [{first.code}] "
            f"{first.message} (see `sprawlmap validate`; --force plays anyway)")


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
    pa.add_argument("--move-ratio", help="dmz1990: the character's move ratio "
                    "(required); sr3, sr1, darkcon move in metres")
    pa.add_argument("--crawl", action="store_true")
    pa.add_argument("--json", action="store_true")
    pa.set_defaults(fn=cmd_path)

    r = sub.add_parser("reach", help="every dot within reach")
    r.add_argument("file")
    r.add_argument("a", metavar="A")
    r.add_argument("--move-ratio", help="dmz1990: the character's move ratio (required)")
    r.add_argument("--mp", default=12, help="dmz1990: MP to spend")
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
    x.add_argument("--page", choices=("a4", "letter", "a3", "tabloid"), default="a4")
    x.add_argument("--levels", default="all", metavar="0,2|all",
                   help="levels to export (default: all)")
    x.add_argument("--player-safe", action="store_true",
                   help="leave deployment zones and objectives out of the pictures")
    x.add_argument("--dot-mm", default=25.4, help="dot spacing on paper, in mm")
    x.add_argument("--force", action="store_true", help="export even with validation errors")
    x.set_defaults(fn=cmd_export)

    pl = sub.add_parser("play", help="headless bot-vs-bot games: a balance report")
    pl.add_argument("file")
    pl.add_argument("--bots", default=20, help="number of games (at most the games limit, "
                    "docs/limits.md)")
    pl.add_argument("--seed", default=1)
    pl.add_argument("--force", action="store_true",
                    help="play even when validation finds errors")
    pl.add_argument("--json", action="store_true")
    pl.set_defaults(fn=cmd_play)
    from engine.cli_play import add_options as add_play_options
    from engine.cli_play import add_parsers as add_play_merge
    add_play_options(pl)
    add_play_merge(sub)
    register_zone(sub)

    from engine.cli_analyse import add_parser as add_analyse
    add_analyse(sub)
    cli_library.register(sub)
    return p


def main(argv: list[str] | None = None, commands: Iterable[Register] = ()) -> int:
    """Run one command; ``commands`` registers the commands of layers above the engine."""
    parser = build_parser(commands)
    ns = parser.parse_args(shield_negative_dots(sys.argv[1:] if argv is None else list(argv)))
    try:
        _check_args(ns)
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
    finally:
        gc.unfreeze()  # (main may run again in this process: what _load froze can go again)


def exit_now(code: int) -> None:
    """End the process of a one-shot command with ``code`` once its output is out, without
    tearing the interpreter down: freeing a loaded city's objects one by one and a last full
    collection (~0.25 s at 16x16 blocks) change nothing the user sees.  The exit handlers
    still run and the standard streams are flushed first.  A process that loaded Qt (the
    editor, or its painter for an export) ends the usual way, Qt's own teardown included."""
    if any(name == "PySide6" or name.startswith("PySide6.") for name in sys.modules):
        raise SystemExit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, ValueError):  # the reader left, or the stream is closed
            pass
    os._exit(code)


if __name__ == "__main__":
    exit_now(main())
