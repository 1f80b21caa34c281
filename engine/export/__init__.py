"""Export a scenario: a self-contained YAML bundle, SVG/PNG pictures, a printable PDF at table
scale, or Universal VTT files (see docs/export.md).

Export refuses a scenario whose validation has errors unless ``force`` is given; the editor's
File menu and ``sprawlmap export`` both come through :func:`export`.  Every file is written
atomically.  Per-level formats (svg, png, uvtt) write ``OUT`` for level 0 and ``OUT-L<k>`` (same
extension) for level k.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from engine import limits
from engine import model as m
from engine.atomic_file import atomic_write
from engine.board import Board
from engine.errors import SprawlmapError
from engine.export.files import level_path

FORMATS = ("yaml", "svg", "png", "pdf", "uvtt")
#: pixels per dot of the PNG export
PNG_PX_PER_DOT = 32
Progress = Callable[[int, int], None] | None


class ExportRefused(SprawlmapError):
    """Validation found errors and ``force`` was not given; ``findings`` lists them all."""

    def __init__(self, findings: list[Any]):
        self.findings = findings
        errs = [f for f in findings if f.severity == "error"]
        super().__init__(f"export refused: validation found {len(errs)} error(s) "
                         f"(use --force to export anyway)")


def check(board: Board, scenario: m.Scenario | None) -> list[Any]:
    """Every finding of the layout and scenario checks."""
    import engine.scenario_checks  # noqa: F401  (registers the scenario checks)
    from engine.validate import validate

    return validate(board, scenario)


def export(scenario: m.Scenario, board: Board, fmt: str, out: str | os.PathLike[str],
           page: str = "a4", dot_mm: float = 25.4, force: bool = False,
           progress: Progress = None, sheets: Mapping[str, m.Sheet] | None = None,
           base_dir: str | os.PathLike[str] | None = None,
           findings: list[Any] | None = None, levels: list[int] | None = None,
           player_safe: bool = False) -> list[Path]:
    """Write ``scenario`` in format ``fmt`` to ``out``; return the files written.

    ``levels`` picks the levels drawn (default: all); ``player_safe`` leaves deployment zones
    and objectives out of every picture (and the PDF briefing).

    ``progress(done, total)`` is called as work proceeds (for a progress bar).  ``sheets``
    (id -> Sheet) are inlined into a yaml bundle; when absent they are looked up the way the
    loader does, from ``base_dir`` and the project's library.  Raises :class:`ExportRefused`
    when validation has errors and ``force`` is false (``findings``, when given, are used
    instead of validating again).
    """
    from engine.validate import has_errors

    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r} (one of {', '.join(FORMATS)})")
    if not dot_mm > 0:
        raise ValueError(f"--dot-mm must be a positive number of millimetres, not {dot_mm:g}")
    if fmt != "yaml" and board.node_count == 0:
        raise ValueError("nothing to draw: the layout has no pavement or buildings")
    check_levels(board, levels)
    try:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SprawlmapError(f"cannot make the folder: {e.strerror or e}", os.fspath(out)) from None
    if findings is None:
        findings = check(board, scenario)
    if has_errors(findings) and not force:
        raise ExportRefused(findings)
    if fmt == "yaml":
        from engine.export.bundle import write_bundle

        if sheets is None:
            from engine.io import resolve_sheets

            sheets = resolve_sheets(scenario.layout, base_dir)
        path = write_bundle(scenario, sheets, out)
        _tick(progress, 1, 1)
        return [path]

    from engine.render.display import build_scenes

    # a VTT scene stacks its levels: one frame (origin and size) for all of them
    scenes = build_scenes(board, scenario, levels, player_safe=player_safe,
                          shared_frame=fmt == "uvtt")
    if fmt == "pdf":
        from engine.export.pdf import page_count, render_pdf

        limits.check("pages", page_count(scenes, page, dot_mm), os.fspath(out))

        data = render_pdf(scenes, scenario.title or "sprawlmap", page, dot_mm, progress,
                          scenario=scenario, player_safe=player_safe)
        atomic_write(out, data)
        return [Path(out)]
    written: list[Path] = []
    n = len(scenes)
    for k, sc in enumerate(scenes):
        _tick(progress, k * 100, n * 100)  # a chance to cancel before each file
        path = level_path(out, sc.level)
        if fmt == "svg":
            from engine.export.svg import render_svg

            data = render_svg(sc, dot_mm).encode("utf-8")
        elif fmt == "png":
            from engine.render.backend import raster

            dpi = 25.4 / dot_mm * PNG_PX_PER_DOT
            data = raster().png(sc, PNG_PX_PER_DOT, dpi=dpi)
        else:
            from engine.export.uvtt import uvtt_bytes

            data = uvtt_bytes(board, sc, scenario.light)
        atomic_write(path, data)
        written.append(path)
        _tick(progress, (k + 1) * 100, n * 100)
    return written


def _tick(progress: Progress, done: int, total: int) -> None:
    if progress is not None:
        progress(done, total)


def check_levels(board: Board, levels: list[int] | None) -> None:
    if levels is not None:
        missing = [lv for lv in levels if lv not in board.levels]
        if missing or not levels:
            have = ", ".join(map(str, board.levels))
            raise ValueError(f"level {missing[0] if missing else '(none)'} is not on this map "
                             f"(levels: {have})")


def parse_levels(text: str | None) -> list[int] | None:
    """``all`` (None) or a comma-separated list of levels, e.g. ``0,2``."""
    if text is None or text.strip().lower() == "all":
        return None
    try:
        out = [int(p) for p in text.replace(" ", "").split(",") if p != ""]
    except ValueError:
        raise ValueError(f"--levels {text!r} is not 'all' or a list like 0,2") from None
    if not out:
        raise ValueError(f"--levels {text!r} names no level")
    return sorted(set(out))


def export_cli(ns: Any, scenario: m.Scenario, board: Board) -> int:
    """``sprawlmap export``: 0 when written, 1 when refused for validation errors."""
    from engine.validate import ERROR

    base = Path(ns.file).resolve().parent if getattr(ns, "file", None) else None
    levels = parse_levels(getattr(ns, "levels", "all"))
    check_levels(board, levels)  # bad input first: exit 2 before any validation output
    findings = check(board, scenario)
    errors = [f for f in findings if f.severity == ERROR]
    tail = " (exported anyway: --force)" if ns.force else ""
    for f in errors:
        print(f"{ns.file}: error: [{f.code}] {f.message}{tail}", file=sys.stderr)
    try:
        paths = export(scenario, board, ns.format, ns.output, page=ns.page, dot_mm=ns.dot_mm,
                       force=ns.force, base_dir=base, findings=findings,
                       levels=levels,
                       player_safe=getattr(ns, "player_safe", False))
    except ExportRefused as exc:
        print(f"sprawlmap: {ns.file}: {exc}", file=sys.stderr)
        return 1
    for p in paths:
        print(f"wrote {p}")
    return 0


__all__ = ["FORMATS", "ExportRefused", "check", "export", "export_cli", "parse_levels"]
