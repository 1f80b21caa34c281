"""Test-wide set-up: the Qt painter is the raster backend of PNG and VTT pictures.

The ``sprawlmap`` launcher registers it for real runs; tests that call :func:`engine.cli.main`
or :func:`engine.export.export` directly get it here.  Off screen, so no display is needed.
"""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import editor.render  # noqa: E402, F401  (registers the Qt raster backend)
