"""Where the raster backend plugs in: the engine asks, the Qt side (``editor.render``) answers.

The engine never imports Qt.  Raster pictures (PNG, the image inside a VTT file, lens maps) are
drawn by a backend registered here from outside the engine: either directly
(:func:`register_raster`, which importing :mod:`editor.render` does) or lazily
(:func:`register_raster_loader`, which the ``sprawlmap`` launcher does, so commands that draw
nothing never pay for importing Qt).  Installed distributions also advertise the backend under
the ``sprawlmap.render`` entry-point group.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from engine.errors import SprawlmapError


class RasterBackend(Protocol):
    def png(self, scene: object, px_per_dot: float, map_only: bool = False,
            dpi: float | None = None, box: tuple[float, float, float, float] | None = None
            ) -> bytes: ...


_backend: RasterBackend | None = None
_loaders: list[Callable[[], object]] = []


def register_raster(backend: RasterBackend) -> None:
    """Install the backend that turns a display-list scene into PNG bytes."""
    global _backend
    _backend = backend


def register_raster_loader(loader: Callable[[], object]) -> None:
    """``loader()`` is called the first time a raster is needed; it registers the backend."""
    _loaders.append(loader)


def raster() -> RasterBackend:
    if _backend is None:
        for loader in list(_loaders):
            loader()
            if _backend is not None:
                break
    if _backend is None:
        from importlib.metadata import entry_points

        for ep in entry_points(group="sprawlmap.render"):
            ep.load()()
            if _backend is not None:
                break
    if _backend is None:
        raise SprawlmapError("PNG and VTT pictures need the Qt renderer (editor.render); "
                             "run them through the sprawlmap command")
    return _backend


__all__ = ["RasterBackend", "raster", "register_raster", "register_raster_loader"]
