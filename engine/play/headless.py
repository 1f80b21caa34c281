"""Headless bot-vs-bot games: the balance report of ``sprawlmap play FILE --bots N --seed S``.

Game ``i`` is played with seed ``S + i`` by one :class:`~engine.play.bots.Bot` per side, so any
single game of a report can be replayed alone.  Games run in a process pool over every core;
each worker forks with the compiled board already in memory and plays on its own copy of it
(play opens doors and lays smoke).  Progress goes to stderr; the report (text, or one JSON
object) to stdout.  Win rates carry a 95% Wilson score interval, which stays sensible for
small samples and for rates near 0 or 1.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

from engine.model import Scenario
from engine.play.board_view import BoardView
from engine.play.bot_kinds import make_bot
from engine.play.bots import play_game
from engine.play.game import Game, PlayError
from engine.play.heap import games_heap, settle
from engine.play.records import game_record, header
from engine.play.referees import new_game
from engine.play.report import Z95, build_report, wilson
from engine.play.report import format_report as format_report
from engine.play.turn import DEFAULT_TURN_LIMIT

__all__ = ["Z95", "wilson", "play_one", "run_games", "report", "format_report", "run_cli"]

# set in the parent before the pool forks, so workers inherit them without pickling
_JOB: dict[str, Any] = {}


def play_one(scenario: Scenario, make_view: Callable[[], BoardView], seed: int,
             turn_limit: int | None = None, bots: dict[str, str] | None = None,
             behaviours: dict[str, str] | None = None) -> dict[str, Any]:
    """One bot game; its record (:func:`engine.play.records.game_record`).  ``bots`` maps a
    side to smart|random|hold (smart when not given), ``behaviours`` to cautious|reckless."""
    game = play_game_of(scenario, make_view, seed, turn_limit, bots, behaviours)
    kinds = {s.id: (bots or {}).get(s.id, "smart") + (
        f"/{(behaviours or {})[s.id]}" if (behaviours or {}).get(s.id) else "")
        for s in scenario.sides}
    return game_record(game, seed, kinds)


def play_game_of(scenario: Scenario, make_view: Callable[[], BoardView], seed: int,
                 turn_limit: int | None = None, bots: dict[str, str] | None = None,
                 behaviours: dict[str, str] | None = None) -> Game:
    """One bot game played to its end (the whole game, log included)."""
    view = make_view()
    limit = turn_limit or scenario.turn_limit or DEFAULT_TURN_LIMIT
    game = new_game(scenario, view, seed, turn_limit=limit)
    players = {s.id: make_bot((bots or {}).get(s.id, "smart"), s.id, seed,
                              (behaviours or {}).get(s.id, "balanced")) for s in scenario.sides}
    play_game(game, players)
    return game


class Stopped(Exception):
    """SIGTERM or Ctrl-C ended a run; every worker has been stopped."""

    def __init__(self, how: str, done: int, games: int):
        super().__init__(f"play stopped by {how} after {done} of {games} games")
        self.how, self.done, self.games = how, done, games

    @property
    def exit_code(self) -> int:
        return 143 if self.how == "SIGTERM" else 130


class _Term(BaseException):
    """Raised in the parent by its SIGTERM handler (a BaseException, like KeyboardInterrupt)."""


def _on_sigterm(signum: int, frame: Any) -> None:
    raise _Term()


def _worker_init() -> None:
    """In each worker: Ctrl-C reaches the whole process group, but only the parent acts on it
    (it stops the pool); SIGTERM from the parent's pool shutdown ends the worker at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    settle()  # the board it forked with lives as long as the worker (engine.play.heap)


def _worker(seed: int) -> dict[str, Any]:
    return play_one(_JOB["scenario"], _JOB["make_view"], seed, _JOB.get("turn_limit"),
                    _JOB.get("bots"), _JOB.get("behaviours"))


def run_games(scenario: Scenario, make_view: Callable[[], BoardView], games: int, seed: int,
              workers: int | None = None, progress: TextIO | None = None,
              turn_limit: int | None = None, bots: dict[str, str] | None = None,
              behaviours: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Play ``games`` games with seeds ``seed .. seed+games-1``; results in seed order."""
    workers = workers or os.cpu_count() or 1
    workers = max(1, min(workers, games))
    seeds = list(range(seed, seed + games))
    results: list[dict[str, Any]] = []
    t0 = time.monotonic()

    def tick(done: int) -> None:
        if progress is None:
            return
        step = max(1, games // 20)
        if done == games or done % step == 0:
            rate = done / max(time.monotonic() - t0, 1e-9)
            tty = getattr(progress, "isatty", lambda: False)()
            line = f"played {done}/{games} games ({rate:.1f}/s, {workers} workers)"
            progress.write(f"\r{line}" + ("\n" if done == games else "") if tty else line + "\n")
            progress.flush()

    main = threading.current_thread() is threading.main_thread()
    old_term = signal.signal(signal.SIGTERM, _on_sigterm) if main else None
    try:
        if workers == 1 or "fork" not in mp.get_all_start_methods():
            with games_heap():  # the compiled board is not walked by every collection
                for s in seeds:
                    results.append(play_one(scenario, make_view, s, turn_limit, bots,
                                            behaviours))
                    tick(len(results))
        else:
            _JOB.update(scenario=scenario, make_view=make_view, turn_limit=turn_limit,
                        bots=bots, behaviours=behaviours)
            # leaving the with-block terminates the pool: no worker outlives a stopped run
            with mp.get_context("fork").Pool(workers, initializer=_worker_init) as pool:
                for r in pool.imap_unordered(_worker, seeds, chunksize=max(1, games // (8 * workers))):
                    results.append(r)
                    tick(len(results))
    except _Term:
        raise Stopped("SIGTERM", len(results), games) from None
    except KeyboardInterrupt:
        raise Stopped("Ctrl-C", len(results), games) from None
    finally:
        _JOB.clear()
        if main:
            signal.signal(signal.SIGTERM, old_term)
    results.sort(key=lambda r: r["seed"])
    return results


def report(scenario: Scenario, results: list[dict[str, Any]], seed: int,
           workers: int, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The balance report (:mod:`engine.play.report`) of games played here."""
    return build_report(header(scenario, extra), results, workers)


def progress_line_open(stream: TextIO) -> bool:
    """A terminal's progress line is rewritten in place: end it before a message."""
    return bool(getattr(stream, "isatty", lambda: False)())


def engine_view_factory(scenario: Scenario, board: Any) -> Callable[[], BoardView]:
    """Fresh play views of a compiled board: each game gets its own copy of the features."""
    from engine.play.engine_board import EngineBoard, fork_board

    def make() -> BoardView:
        return EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)

    return make


def _estimates(scenario: Scenario, make_view: Callable[[], BoardView]) -> dict[str, Any]:
    from engine.play.estimates import unopposed_turns

    try:
        return {"unopposed": unopposed_turns(scenario, make_view())}
    except (PlayError, ValueError, KeyError, AttributeError):
        return {}


def run_cli(scenario: Scenario, board: Any, bots: int, seed: int, json_out: bool,
            make_view: Callable[[], BoardView] | None = None,
            workers: int | None = None, bot_kinds: dict[str, str] | None = None,
            behaviours: dict[str, str] | None = None, records: str | None = None,
            heatmap: str | None = None, against: tuple[Scenario, Any] | None = None,
            against_view: Callable[[], BoardView] | None = None) -> int:
    """``sprawlmap play``: play ``bots`` games, print the report; the exit code."""
    for sc in (scenario, *([against[0]] if against else [])):
        if len(sc.sides) < 2:
            print(f"play: the scenario {sc.title!r} needs at least two sides to play",
                  file=sys.stderr)
            return 2
        if not any(s.characters for s in sc.sides):
            print("play: no side has any characters", file=sys.stderr)
            return 2
    if bots < 1:
        print("play: --bots must be at least 1", file=sys.stderr)
        return 2
    sides = {s.id for s in scenario.sides}
    for what, given in (("--bot", bot_kinds or {}), ("--behaviour", behaviours or {})):
        unknown = sorted(set(given) - sides)
        if unknown:
            print(f"play: {what} names no side of the scenario: {', '.join(unknown)} "
                  f"(sides: {', '.join(sorted(sides))})", file=sys.stderr)
            return 2
    make_view = make_view or engine_view_factory(scenario, board)
    used = max(1, min(workers or os.cpu_count() or 1, bots))
    try:
        results = run_games(scenario, make_view, bots, seed, workers=used, progress=sys.stderr,
                            bots=bot_kinds, behaviours=behaviours)
        other = None
        if against is not None:
            view_b = against_view or engine_view_factory(against[0], against[1])
            other = run_games(against[0], view_b, bots, seed, workers=used,
                              progress=sys.stderr, bots=bot_kinds, behaviours=behaviours)
    except PlayError as e:
        print(f"play: {e}", file=sys.stderr)
        return 2
    except Stopped as e:
        if progress_line_open(sys.stderr):
            sys.stderr.write("\n")
        print(f"sprawlmap: {e}", file=sys.stderr)
        return e.exit_code
    extra = _estimates(scenario, make_view)
    rep = report(scenario, results, seed, used, extra)
    if records:
        from engine.play.records import write_records

        write_records(records, header(scenario, extra), results)
    if heatmap:
        from engine.play.heatmap import write_heatmap

        write_heatmap(heatmap, scenario, board, results)
    out: dict[str, Any] = rep
    text = format_report(rep)
    if against is not None and other is not None:
        from engine.play.report import delta_report, format_delta

        view_b = against_view or engine_view_factory(against[0], against[1])
        rep_b = report(against[0], other, seed, used, _estimates(against[0], view_b))
        dl = delta_report(rep, results, rep_b, other)
        out = {"a": rep, "b": rep_b, "delta": dl}
        text = "\n\n".join([text, format_report(rep_b), format_delta(dl)])
    print(json.dumps(out) if json_out else text)
    return 0


def merge_cli(paths: list[str], json_out: bool) -> int:
    """``sprawlmap play-merge``: the report of the games in one or more records files."""
    from engine.play.records import RecordsError, read_records

    try:
        head, games = read_records(paths)
    except RecordsError as e:
        print(f"play-merge: {e}", file=sys.stderr)
        return 2
    rep = build_report(head, games)
    print(json.dumps(rep) if json_out else format_report(rep))
    return 0
