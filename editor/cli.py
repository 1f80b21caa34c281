"""The ``sprawlmap`` launcher: the engine's commands plus the editor's ``edit``, and the Qt
painter that draws the engine's PNG and VTT pictures (loaded only when a picture is drawn).

``sprawlmap`` (the console script) and ``python -m editor.cli`` run :func:`main` (through
:func:`script`), which hands
:func:`register` to :func:`engine.cli.main`; the engine itself never imports the editor.  Qt
is imported only when ``edit`` runs, so the other commands start as fast as the engine's.
"""

from __future__ import annotations

import argparse

from editor import desktop
from engine import cli as engine_cli
from engine.render.backend import register_raster_loader


def cmd_edit(ns: argparse.Namespace) -> int:
    from editor.app import run

    return run(ns.file, screenshot=ns.screenshot)


def load_raster() -> None:
    """Import the Qt painter, which registers itself as the engine's raster backend."""
    import editor.render  # noqa: F401


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``edit [FILE] [--screenshot OUT.png]`` to the ``sprawlmap`` subcommands, and let
    ``export`` and ``analyse`` draw pictures with the Qt painter."""
    register_raster_loader(load_raster)
    e = sub.add_parser("edit", help="open the editor")
    e.add_argument("file", nargs="?")
    e.add_argument("--screenshot", metavar="OUT.png", help="render the window to a PNG and exit")
    e.set_defaults(fn=cmd_edit)


def main(argv: list[str] | None = None) -> int:
    return engine_cli.main(argv, commands=[register, desktop.register])


def script() -> None:
    """The ``sprawlmap`` console script: :func:`main`, then the process ends as
    :func:`engine.cli.exit_now` ends a one-shot command (the usual way once Qt is loaded)."""
    engine_cli.exit_now(main())


def gui_main() -> int:
    """``sprawlmap-editor [FILE]``: the editor alone, for desktop launchers (a ``gui-scripts``
    entry: no console window on Windows; a file it cannot open is shown in a message box)."""
    from editor.app import run

    parser = argparse.ArgumentParser(prog="sprawlmap-editor", description="the sprawlmap editor")
    parser.add_argument("file", nargs="?")
    parser.add_argument("--screenshot", metavar="OUT.png", help="render the window to a PNG and exit")
    ns = parser.parse_args()
    return run(ns.file, screenshot=ns.screenshot, error_dialog=True)


if __name__ == "__main__":
    script()
