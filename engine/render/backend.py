"""Where the raster backend plugs in: the engine asks, the Qt side (``editor.render``) answers.

The engine never imports Qt.  Raster pictures (PNG, the image inside a VTT file) are drawn by a
backend registered here from outside the engine; ``sprawlmap export`` loads it through the
command registry before exporting.
"""

from __future__ import annotations

from typing import Protocol

from engine.errors import SprawlmapError


class RasterBackend(Protocol):
    def png(self, scene: object, px_per_dot: float, map_only: bool = False,
            dpi: float | None = None, box: tuple[float, float, float, float] | None = None
            ) -> bytes: ...


_backend: RasterBackend | None = None


def register_raster(backend: RasterBackend) -> None:
    """Install the backend that turns a display-list scene into PNG bytes."""
    global _backend
    _backend = backend


def raster() -> RasterBackend:
    if _backend is None:
        raise SprawlmapError("PNG and VTT pictures need the Qt renderer (editor.render), "
                             "which is not loaded")
    return _backend


__all__ = ["RasterBackend", "raster", "register_raster"]
