"""The ``sprawlmap`` launcher: the engine's commands plus the editor's ``edit``.

``sprawlmap`` (the console script) and ``python -m editor.cli`` run :func:`main`, which hands
:func:`register` to :func:`engine.cli.main`; the engine itself never imports the editor.  Qt
is imported only when ``edit`` runs, so the other commands start as fast as the engine's.
"""

from __future__ import annotations

import argparse
import sys

from engine import cli as engine_cli


def cmd_edit(ns: argparse.Namespace) -> int:
    from editor.app import run

    return run(ns.file, screenshot=ns.screenshot)


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``edit [FILE] [--screenshot OUT.png]`` to the ``sprawlmap`` subcommands."""
    e = sub.add_parser("edit", help="open the editor")
    e.add_argument("file", nargs="?")
    e.add_argument("--screenshot", metavar="OUT.png", help="render the window to a PNG and exit")
    e.set_defaults(fn=cmd_edit)


def main(argv: list[str] | None = None) -> int:
    return engine_cli.main(argv, commands=[register])


if __name__ == "__main__":
    sys.exit(main())
