"""``sprawlmap play`` and ``sprawlmap play-merge``: bot games and their balance report.

``play FILE --bots N --seed S`` plays N games (seeds S..S+N-1); ``--bot SIDE=smart|random|hold``
and ``--behaviour SIDE=cautious|reckless`` choose each side's player, ``--records OUT.jsonl``
keeps every game's record for ``play-merge``, ``--heatmap OUT.png`` draws where the fighting
happened, ``--against B.yaml`` plays B on the same seeds and prints the balance delta.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.errors import SprawlmapError


class PlayArgError(SprawlmapError):
    """A bad ``--bot``/``--behaviour`` value."""


def _pairs(values: list[str] | None, allowed: tuple[str, ...], flag: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for v in values or []:
        side, sep, kind = v.partition("=")
        if not sep or not side or kind not in allowed:
            raise PlayArgError(f"{flag} {v!r}: expected SIDE={'|'.join(allowed)}")
        out[side] = kind
    return out


def _load(path: str):
    from engine.io import load_board

    if not Path(path).exists():
        raise SprawlmapError(f"{path}: no such file")
    return load_board(Path(path))


def run_play(ns: argparse.Namespace, scenario, board) -> int:
    """``play`` with its options, once ``engine.cli`` has checked the file and ``--bots``."""
    from engine.play.bot_kinds import BEHAVIOURS, KINDS
    from engine.play.headless import run_cli

    bots = _pairs(ns.bot, KINDS, "--bot")
    behaviours = _pairs(ns.behaviour, BEHAVIOURS, "--behaviour")
    for out in (ns.records, ns.heatmap):
        if out and not Path(out).resolve().parent.is_dir():
            raise SprawlmapError(f"{out}: no such directory")
    if ns.heatmap:
        from engine.render.backend import raster

        raster()  # no picture backend: say so before playing, not after
    against = _load(ns.against) if ns.against else None
    return run_cli(scenario, board, ns.bots, ns.seed, ns.json, bot_kinds=bots,
                   behaviours=behaviours, records=ns.records, heatmap=ns.heatmap,
                   against=against)


def cmd_play_merge(ns: argparse.Namespace) -> int:
    from engine.play.headless import merge_cli

    return merge_cli(ns.records, ns.json)


def add_options(pl: argparse.ArgumentParser) -> None:
    """The options ``play`` takes beyond FILE, --bots, --seed, --force and --json."""
    pl.add_argument("--bot", action="append", metavar="SIDE=smart|random|hold",
                    help="the player of a side (default smart); repeat for each side")
    pl.add_argument("--behaviour", action="append", metavar="SIDE=cautious|reckless",
                    help="the smart bot's weights for a side")
    pl.add_argument("--records", metavar="OUT.jsonl", help="write every game's record")
    pl.add_argument("--heatmap", metavar="OUT.png",
                    help="draw casualties, shots and positions held over the map")
    pl.add_argument("--against", metavar="B.yaml",
                    help="also play B on the same seeds and report the balance delta")


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """``play-merge``."""
    pm = sub.add_parser("play-merge", help="one balance report from play --records files")
    pm.add_argument("records", nargs="+", metavar="RECORDS.jsonl")
    pm.add_argument("--json", action="store_true")
    pm.set_defaults(fn=cmd_play_merge)
