"""The one renderer's Qt half: a QPainter backend for :mod:`engine.render.display` lists.

The editor canvas and the legend paint with :func:`paint_items`; PNG exports and the image in a
VTT file are drawn by :mod:`editor.render.raster`, which registers itself with the engine's
:mod:`engine.render.backend` on import.  This package imports the engine and PySide6, never the
rest of the editor, so headless exports do not pull the application in.
"""

from editor.render.painter import paint_item, paint_items
from editor.render.raster import install

install()

__all__ = ["install", "paint_item", "paint_items"]
