"""The zone on one printed page: the engine's zone picture (:mod:`engine.zone.picture`) drawn by
the editor's painter into an A4 PDF, scaled to fit; SVG and PNG come from the engine."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QMarginsF
from PySide6.QtGui import QPageLayout, QPageSize, QPainter, QPdfWriter

from editor.render import paint_items
from engine.zone.model import Zone
from engine.zone.picture import write_picture, zone_scene


def print_pdf(z: Zone, path: str | os.PathLike[str]) -> Path:
    """One A4 page (landscape when the zone is wider than tall) holding the whole zone."""
    out = Path(path)
    sc = zone_scene(z)
    x0, y0, x1, y1 = sc.canvas
    w, h = x1 - x0, y1 - y0
    tmp = out.with_name(f".{out.name}.tmp")
    writer = QPdfWriter(str(tmp))
    writer.setTitle(sc.title)
    orient = QPageLayout.Orientation.Landscape if w > h else QPageLayout.Orientation.Portrait
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), orient, QMarginsF(10, 10, 10, 10)))
    writer.setResolution(300)
    p = QPainter(writer)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    area = writer.pageLayout().paintRectPixels(writer.resolution())
    k = min(area.width() / w, area.height() / h)
    p.translate((area.width() - w * k) / 2, (area.height() - h * k) / 2)
    p.scale(k, k)
    p.translate(-x0, -y0)
    paint_items(p, sc.items)
    paint_items(p, sc.frame)
    p.end()
    os.replace(tmp, out)
    return out


def print_zone(z: Zone, path: str | os.PathLike[str]) -> Path:
    """PDF, SVG or PNG by the file's suffix."""
    if Path(path).suffix.lower() == ".pdf":
        return print_pdf(z, path)
    return write_picture(z, path)



