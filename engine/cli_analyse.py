"""``sprawlmap analyse FILE --side SIDE --map exposure|tempo|lead``: a designer's lens as JSON,
a summary or a PNG (docs/analysis.md).

JSON: ``{side, map, level, dots: [[c, r, l, value], ...], ...}`` with every standable dot of
the level asked (or of every level); ``value`` is ``null`` where the lens has no answer (a dot
no enemy set-up dot sees, a dot the side cannot reach).  Extra keys hold more per-dot columns,
in the order of ``dots``: exposure ``cover`` (least cover of the lines that see it) and
``open`` (lines with no cover), tempo ``slowest`` (the slowest character's turn) and ``mp``.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import numpy as np

MAPS = ("exposure", "tempo", "lead")


def add_parser(sub: argparse._SubParsersAction) -> None:
    a = sub.add_parser("analyse", help="a designer's lens: exposure, tempo or lead map of a side")
    a.add_argument("file")
    a.add_argument("--side", required=True)
    a.add_argument("--map", required=True, choices=MAPS, dest="lens")
    a.add_argument("--level", type=int, help="one level (default: every level)")
    a.add_argument("-o", "--output", metavar="OUT.png",
                   help="draw the map as a PNG (one level: --level, default street level)")
    a.add_argument("--json", action="store_true")
    a.set_defaults(fn=cmd_analyse)


def compute(board, scenario, side: str, lens: str, level: int | None):
    from engine.analysis.exposure import exposure
    from engine.analysis.tempo import lead, tempo

    fn = {"exposure": exposure, "tempo": tempo, "lead": lead}[lens]
    return fn(board, scenario, side, level)


def load(path: str):
    """The scenario and board of ``path`` (a missing file is bad input, like every command)."""
    from engine.errors import SprawlmapError
    from engine.io import load_board

    if not Path(path).exists():
        raise SprawlmapError(f"{path}: no such file")
    return load_board(Path(path))


def cmd_analyse(ns: argparse.Namespace) -> int:
    from engine.analysis.lens import LensError

    scenario, board = load(ns.file)
    try:
        m = compute(board, scenario, ns.side, ns.lens, ns.level)
    except LensError as exc:
        raise LensError(exc.message, ns.file) from None
    if ns.output:
        from engine.analysis.picture import lens_png
        from engine.export.files import atomic_write

        atomic_write(ns.output, lens_png(board, scenario, m, 0 if ns.level is None else ns.level))
    if ns.json:
        print(json.dumps(m.to_json(ns.level), separators=(",", ":")))
    else:
        _summary(ns, m)
        if ns.output:
            print(f"wrote {ns.output}")
    return 0


def _summary(ns: argparse.Namespace, m) -> None:
    where = "every level" if ns.level is None else f"level {ns.level}"
    print(f"{ns.lens} map of side {m.side} on {where}: {len(m.dots)} standable dots")
    ok = ~np.isnan(m.values)
    if m.kind == "exposure":
        print(f"  seen by at least one of {m.info['sources']} enemy set-up dots: {int(ok.sum())}"
              f"; in the open (no cover): {int((m.extra['cover'] == 0).sum())}; unseen: "
              f"{int((~ok).sum())}")
        if ok.any():
            i = int(np.nanargmax(m.values))
            print(f"  most exposed: {','.join(map(str, m.dots[i]))} seen from "
                  f"{int(m.values[i])} set-up dots")
    else:
        counts = Counter(int(v) for v in m.values[ok])
        label = "turn" if m.kind == "tempo" else "lead"
        for k in sorted(counts):
            print(f"  {label} {k:+d}: {counts[k]} dots" if m.kind == "lead"
                  else f"  {label} {k}: {counts[k]} dots")
        if (~ok).any():
            print(f"  never reached: {int((~ok).sum())} dots")


# ------------------------------------------------------------- los --profile / --all-rulesets
def add_los_options(los: argparse.ArgumentParser) -> None:
    los.add_argument("--profile", metavar="OUT.png", help="also draw the side view of the line")
    los.add_argument("--all-rulesets", action="store_true",
                     help="the same line under dmz1990, sr3, sr1 and darkcon side by side")


def write_profile(ns: argparse.Namespace, board, scenario, a, b) -> None:
    """``los --profile OUT.png``: the side view, written whole or not at all."""
    from engine.analysis.profile import profile
    from engine.analysis.profile_picture import profile_png
    from engine.export.files import atomic_write

    p = profile(board, a, b, posture_a=ns.posture_a, posture_b=ns.posture_b,
                light=scenario.light)
    atomic_write(ns.profile, profile_png(p))
    if not ns.json:
        print(f"wrote {ns.profile}")


def los_all_rulesets(ns: argparse.Namespace, board, scenario, a, b) -> int:
    """``los --all-rulesets``: one column per ruleset; exit 1 when the line is blocked."""
    from engine.analysis.compare import compare, fmt

    t = compare(board, a, b, posture_a=ns.posture_a, posture_b=ns.posture_b,
                light=scenario.light, vision=ns.vision, weapon=ns.weapon)
    if ns.profile:
        write_profile(ns, board, scenario, a, b)
    if ns.json:
        print(json.dumps({k: v for k, v in t.items() if k != "rows"}, separators=(",", ":")))
    else:
        names = list(t["rulesets"])
        cells = [[fmt(t["rulesets"][n].get(k)) for n in names] for k, _ in t["rows"]]
        width = [max([len(n)] + [len(r[i]) for r in cells]) + 2 for i, n in enumerate(names)]
        lab = max(len(lab) for _, lab in t["rows"]) + 2
        print(f"LOS {ns.a} -> {ns.b} under every ruleset (range {t['range_dots']} dots, "
              f"{t['cover']} crossed)")
        print(" " * lab + "".join(n.ljust(w) for n, w in zip(names, width)))
        for (_k, label), row in zip(t["rows"], cells):
            print(label.ljust(lab) + "".join(c.ljust(w) for c, w in zip(row, width)).rstrip())
        for n in names:
            for note in t["rulesets"][n].get("notes", []):
                print(f"  {n}: {note}")
    return 1 if t["blocked"] else 0
