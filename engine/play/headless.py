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
import math
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
from engine.play.bots import Bot, play_game
from engine.play.game import Game, PlayError
from engine.play.objectives import implicit_objectives, points
from engine.play.turn import DEFAULT_TURN_LIMIT

Z95 = 1.959963984540054

# set in the parent before the pool forks, so workers inherit them without pickling
_JOB: dict[str, Any] = {}


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_one(scenario: Scenario, make_view: Callable[[], BoardView], seed: int,
             turn_limit: int | None = None) -> dict[str, Any]:
    """One bot game; a small summary of it."""
    view = make_view()
    limit = turn_limit or scenario.turn_limit or DEFAULT_TURN_LIMIT
    game = Game.new(scenario, view, seed, turn_limit=limit)
    bots = {s.id: Bot(s.id) for s in scenario.sides}
    play_game(game, bots)
    st = game.state
    return {
        "seed": seed, "winner": st.winner, "turns": st.turn,
        "achieved": dict(st.achieved),
        "scores": dict(game.log.of_kind("finish")[-1]["scores"]) if st.finished else {},
        "out": sorted(c.id for c in st.characters.values() if c.condition.out),
    }


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


def _worker(seed: int) -> dict[str, Any]:
    return play_one(_JOB["scenario"], _JOB["make_view"], seed, _JOB.get("turn_limit"))


def run_games(scenario: Scenario, make_view: Callable[[], BoardView], games: int, seed: int,
              workers: int | None = None, progress: TextIO | None = None,
              turn_limit: int | None = None) -> list[dict[str, Any]]:
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
            for s in seeds:
                results.append(play_one(scenario, make_view, s, turn_limit))
                tick(len(results))
        else:
            _JOB.update(scenario=scenario, make_view=make_view, turn_limit=turn_limit)
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
           workers: int) -> dict[str, Any]:
    """The balance report: per-side win rates with 95% intervals, turns, objectives."""
    n = len(results)
    sides = [s.id for s in scenario.sides]
    objectives = list(scenario.objectives) or implicit_objectives(sides)
    side_rows = []
    for s in sides:
        wins = sum(1 for r in results if r["winner"] == s)
        lo, hi = wilson(wins, n)
        avg_pts = sum(r["scores"].get(s, 0) for r in results) / n if n else 0.0
        side_rows.append({"id": s, "wins": wins, "win_rate": wins / n if n else 0.0,
                          "ci95": [round(lo, 4), round(hi, 4)],
                          "average_points": round(avg_pts, 3)})
    draws = sum(1 for r in results if r["winner"] == "draw")
    obj_rows = []
    for o in objectives:
        got = sum(1 for r in results if o.id in r["achieved"])
        obj_rows.append({"id": o.id, "side": o.side, "kind": o.kind, "points": points(o),
                         "achieved": got, "rate": got / n if n else 0.0})
    return {
        "scenario": scenario.title, "games": n, "seeds": [seed, seed + n - 1] if n else [],
        "workers": workers,
        "sides": side_rows,
        "draws": draws, "draw_rate": draws / n if n else 0.0,
        "average_turns": round(sum(r["turns"] for r in results) / n, 3) if n else 0.0,
        "turn_limit": scenario.turn_limit or DEFAULT_TURN_LIMIT,
        "objectives": obj_rows,
    }


def format_report(rep: dict[str, Any]) -> str:
    seeds = f", seeds {rep['seeds'][0]}..{rep['seeds'][1]}" if rep["seeds"] else ""
    lines = [f"{rep['scenario']}: {rep['games']} bot games{seeds}, {rep['workers']} workers"]
    lines.append(f"  {'side':<16}{'wins':>6}{'win rate':>10}   95% interval    avg points")
    for s in rep["sides"]:
        lo, hi = s["ci95"]
        lines.append(f"  {s['id']:<16}{s['wins']:>6}{s['win_rate']:>10.1%}   "
                     f"{lo:.1%} - {hi:.1%}   {s['average_points']:>6.2f}")
    lines.append(f"  {'draw':<16}{rep['draws']:>6}{rep['draw_rate']:>10.1%}")
    lines.append(f"  average game length: {rep['average_turns']:.2f} turns "
                 f"(limit {rep['turn_limit']})")
    if rep["objectives"]:
        lines.append("  objectives achieved:")
        for o in rep["objectives"]:
            lines.append(f"    {o['id']} ({o['side']}, {o['kind']}, {o['points']} pts): "
                         f"{o['achieved']}/{rep['games']} = {o['rate']:.1%}")
    return "\n".join(lines)


def progress_line_open(stream: TextIO) -> bool:
    """A terminal's progress line is rewritten in place: end it before a message."""
    return bool(getattr(stream, "isatty", lambda: False)())


def engine_view_factory(scenario: Scenario, board: Any) -> Callable[[], BoardView]:
    """Fresh play views of a compiled board: each game gets its own copy of the features."""
    from engine.play.engine_board import EngineBoard, fork_board

    def make() -> BoardView:
        return EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)

    return make


def run_cli(scenario: Scenario, board: Any, bots: int, seed: int, json_out: bool,
            make_view: Callable[[], BoardView] | None = None,
            workers: int | None = None) -> int:
    """``sprawlmap play``: play ``bots`` games, print the report; the exit code."""
    if len(scenario.sides) < 2:
        print(f"play: the scenario {scenario.title!r} needs at least two sides to play",
              file=sys.stderr)
        return 2
    if not any(s.characters for s in scenario.sides):
        print("play: no side has any characters", file=sys.stderr)
        return 2
    if bots < 1:
        print("play: --bots must be at least 1", file=sys.stderr)
        return 2
    make_view = make_view or engine_view_factory(scenario, board)
    used = max(1, min(workers or os.cpu_count() or 1, bots))
    try:
        results = run_games(scenario, make_view, bots, seed, workers=used, progress=sys.stderr)
    except PlayError as e:
        print(f"play: {e}", file=sys.stderr)
        return 2
    except Stopped as e:
        if progress_line_open(sys.stderr):
            sys.stderr.write("\n")
        print(f"sprawlmap: {e}", file=sys.stderr)
        return e.exit_code
    rep = report(scenario, results, seed, used)
    if json_out:
        print(json.dumps(rep))
    else:
        print(format_report(rep))
    return 0
