"""The one renderer's Qt-free half: the style table and the display list of a compiled board.

:mod:`engine.render.display` turns a board (and a scenario) into primitives coloured by
:mod:`engine.render.style`; the editor's Qt painter, the SVG writer and the PDF writer draw
those primitives.  Pictures that need a raster (PNG, the VTT image) go through the painter the
editor registers with :mod:`engine.render.backend`, so this package never imports Qt.
"""
