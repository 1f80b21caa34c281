"""A small anti-aliased rasteriser (numpy) and PNG encoder (zlib) for scenes; no Qt, no PIL.

Shapes are filled by exact-in-x, 4-times-supersampled-in-y scanline coverage, computed for all
scanlines at once with a difference array; strokes are turned into polygons by shapely's
buffer first, so walls, hatching and the stroke-font text all go through the same filler.
The dot grid is stamped: one anti-aliased disc, copied to every dot with fancy indexing.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable

import numpy as np
from shapely.geometry import Point

from engine.export.font import text_paths
from engine.export.scene import Circle, Dots, Item, Path, Poly, Scene, Text

SS = 4  # sub-scanlines per pixel row
CHUNK = 256  # pixel rows per accumulation block


def rgb(colour: str) -> np.ndarray:
    c = colour.lstrip("#")
    return np.array([int(c[i:i + 2], 16) for i in (0, 2, 4)], dtype=np.float32)


class Raster:
    """An RGB image with world-to-pixel mapping ``px = (x - ox) * scale``."""

    def __init__(self, width: int, height: int, ox: float, oy: float, scale: float,
                 background: str = "#ffffff"):
        self.w, self.h = width, height
        self.ox, self.oy, self.s = ox, oy, scale
        self.img = np.empty((height, width, 3), dtype=np.uint8)
        self.img[:] = rgb(background).astype(np.uint8)

    # --------------------------------------------------------------------- coordinates
    def px(self, pts: np.ndarray) -> np.ndarray:
        p = np.asarray(pts, dtype=float).reshape(-1, 2)
        return np.column_stack([(p[:, 0] - self.ox) * self.s, (p[:, 1] - self.oy) * self.s])

    # ------------------------------------------------------------------------- filling
    def fill_rings(self, rings: list[np.ndarray], colour: str, alpha: float = 1.0) -> None:
        """Even-odd fill of rings given in pixel coordinates."""
        if len(rings) == 1 and self._fill_box(np.asarray(rings[0], dtype=float), colour, alpha):
            return
        segs = []
        for r in rings:
            r = np.asarray(r, dtype=float)
            if len(r) < 3:
                continue
            if not np.allclose(r[0], r[-1]):
                r = np.vstack([r, r[:1]])
            segs.append(np.column_stack([r[:-1], r[1:]]))
        if not segs:
            return
        e = np.concatenate(segs)  # x0 y0 x1 y1
        e = e[e[:, 1] != e[:, 3]]
        if not len(e):
            return
        ymin = np.minimum(e[:, 1], e[:, 3])
        ymax = np.maximum(e[:, 1], e[:, 3])
        # sub-scanline centres: y = (k + 0.5) / SS, k integer
        k0 = np.ceil(ymin * SS - 0.5).astype(np.int64)
        k1 = np.ceil(ymax * SS - 0.5).astype(np.int64)  # exclusive
        k0 = np.clip(k0, 0, self.h * SS)
        k1 = np.clip(k1, 0, self.h * SS)
        n = np.maximum(k1 - k0, 0)
        if n.sum() == 0:
            return
        ei = np.repeat(np.arange(len(e)), n)
        k = np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n) + k0[ei]
        yc = (k + 0.5) / SS
        x0, y0, x1, y1 = e[ei, 0], e[ei, 1], e[ei, 2], e[ei, 3]
        xs = x0 + (yc - y0) * (x1 - x0) / (y1 - y0)
        order = np.lexsort((xs, k))
        k, xs = k[order], xs[order]
        a, b, rows = xs[0::2], xs[1::2], k[0::2]
        a = np.clip(a, 0, self.w)
        b = np.clip(b, 0, self.w)
        keep = b > a
        a, b, rows = a[keep], b[keep], rows[keep]
        if not len(a):
            return
        col = rgb(colour)
        xlo = int(np.floor(a.min()))
        xhi = min(int(np.ceil(b.max())) + 1, self.w)
        width = xhi - xlo + 2
        r_first = int(rows.min()) // SS
        r_last = int(rows.max()) // SS + 1
        for top in range(r_first, r_last, CHUNK):
            bot = min(top + CHUNK, r_last)
            lo = np.searchsorted(rows, top * SS)
            hi = np.searchsorted(rows, bot * SS)
            if lo == hi:
                continue
            ra = a[lo:hi] - xlo
            rb = b[lo:hi] - xlo
            rr = rows[lo:hi] - top * SS
            d = np.zeros(((bot - top) * SS, width), dtype=np.float32)
            ia, ib = np.floor(ra).astype(np.int64), np.floor(rb).astype(np.int64)
            fa, fb = ra - ia, rb - ib
            flat = d.reshape(-1)
            base = rr * width
            np.add.at(flat, base + ib, fb - 1)
            np.add.at(flat, base + np.minimum(ib + 1, width - 1), -fb)
            np.add.at(flat, base + ia, -(fa - 1))
            np.add.at(flat, base + np.minimum(ia + 1, width - 1), fa)
            cov = np.cumsum(d, axis=1)
            cov = cov.reshape(bot - top, SS, width).sum(axis=1) / SS
            cov = np.clip(cov[:, : xhi - xlo], 0, 1) * alpha
            self._blend(top, bot, xlo, xhi, cov, col)

    def _fill_box(self, r: np.ndarray, colour: str, alpha: float) -> bool:
        """Fast exact fill of an axis-aligned rectangle (pavements, floors, zones); False if
        the ring is not one."""
        if len(r) not in (4, 5):
            return False
        pts = [(float(x), float(y)) for x, y in r]
        if len(pts) == 5:
            if abs(pts[0][0] - pts[4][0]) > 1e-9 or abs(pts[0][1] - pts[4][1]) > 1e-9:
                return False
            pts = pts[:4]
        for (ax, ay), (bx, by) in zip(pts, pts[1:] + pts[:1]):
            if abs(ax - bx) > 1e-9 and abs(ay - by) > 1e-9:
                return False
        xs = sorted({round(x, 9) for x, _ in pts})
        ys = sorted({round(y, 9) for _, y in pts})
        if len(xs) != 2 or len(ys) != 2:
            return False
        x0, x1 = min(max(xs[0], 0), self.w), min(max(xs[1], 0), self.w)
        y0, y1 = min(max(ys[0], 0), self.h), min(max(ys[1], 0), self.h)
        if x1 <= x0 or y1 <= y0:
            return True
        c0, c1 = int(np.floor(x0)), min(int(np.ceil(x1)), self.w)
        r0, r1 = int(np.floor(y0)), min(int(np.ceil(y1)), self.h)
        ic, ir = np.arange(c0, c1), np.arange(r0, r1)
        cx = np.clip(np.minimum(ic + 1, x1) - np.maximum(ic, x0), 0, 1)
        cy = np.clip(np.minimum(ir + 1, y1) - np.maximum(ir, y0), 0, 1)
        col = rgb(colour)
        if alpha >= 0.998:  # opaque: assign the inside, blend only the anti-aliased rim
            fx, fy = np.nonzero(cx >= 0.998)[0], np.nonzero(cy >= 0.998)[0]
            if len(fx) and len(fy):
                ia0, ia1, ja0, ja1 = fy[0], fy[-1] + 1, fx[0], fx[-1] + 1
                self.img[r0 + ia0:r0 + ia1, c0 + ja0:c0 + ja1] = col.astype(np.uint8)
                for rs, cs in (((0, ia0), (0, len(cx))), ((ia1, len(cy)), (0, len(cx))),
                               ((ia0, ia1), (0, ja0)), ((ia0, ia1), (ja1, len(cx)))):
                    if rs[1] > rs[0] and cs[1] > cs[0]:
                        self._blend(r0 + rs[0], r0 + rs[1], c0 + cs[0], c0 + cs[1],
                                    np.outer(cy[rs[0]:rs[1]], cx[cs[0]:cs[1]]).astype(np.float32),
                                    col)
                return True
        self._blend(r0, r1, c0, c1, (np.outer(cy, cx) * alpha).astype(np.float32), col)
        return True

    def _blend(self, r0: int, r1: int, c0: int, c1: int, a: np.ndarray, col: np.ndarray
               ) -> None:
        """Composite ``col`` with coverage ``a`` over a block: opaque pixels are assigned,
        only the partly covered ones are blended (most of a big fill is opaque)."""
        view = self.img[r0:r1, c0:c1]
        full = a >= 0.998
        part = (a > 1e-3) & ~full
        if full.any():
            view[full] = col.astype(np.uint8)
        if part.any():
            px = view[part].astype(np.float32)
            px += (col - px) * a[part][:, None]
            view[part] = np.rint(px).astype(np.uint8)

    def fill_geom(self, g: object, colour: str, alpha: float = 1.0) -> None:
        """Fill a shapely (multi)polygon given in pixel coordinates, all parts in one pass."""
        rings = []
        for p in getattr(g, "geoms", [g]):
            if p.geom_type != "Polygon" or p.is_empty:
                continue
            rings.append(np.asarray(p.exterior.coords))
            rings += [np.asarray(r.coords) for r in p.interiors]
        if rings:
            self.fill_rings(rings, colour, alpha)

    # ------------------------------------------------------------------------ stroking
    def stroke(self, pts: np.ndarray, width_px: float, colour: str, alpha: float = 1.0,
               dash: tuple[float, float] | None = None, round_cap: bool = True) -> None:
        """Stroke a polyline given in pixel coordinates.

        Coverage is the distance to the nearest segment (a capsule per segment: round caps
        and joins), accumulated with ``max`` over the stroke's box so joints are not painted
        twice, then composited once.
        """
        pts = np.asarray(pts, dtype=float)
        if len(pts) < 1 or width_px <= 0:
            return
        width_px = max(width_px, 0.8)
        segs = _dash_segments(pts, dash) if dash else np.column_stack([pts[:-1], pts[1:]]) \
            if len(pts) > 1 else np.array([[*pts[0], *pts[0]]])
        if not len(segs):
            return
        h = width_px / 2
        lo = np.floor(np.minimum(segs[:, :2], segs[:, 2:]).min(axis=0) - h - 1).astype(int)
        hi = np.ceil(np.maximum(segs[:, :2], segs[:, 2:]).max(axis=0) + h + 1).astype(int)
        c0, r0 = max(lo[0], 0), max(lo[1], 0)
        c1, r1 = min(hi[0], self.w), min(hi[1], self.h)
        if c1 <= c0 or r1 <= r0:
            return
        cov = np.zeros((r1 - r0, c1 - c0), dtype=np.float32)
        for ax, ay, bx, by in segs:
            sc0 = max(int(np.floor(min(ax, bx) - h - 1)), c0)
            sc1 = min(int(np.ceil(max(ax, bx) + h + 1)), c1)
            sr0 = max(int(np.floor(min(ay, by) - h - 1)), r0)
            sr1 = min(int(np.ceil(max(ay, by) + h + 1)), r1)
            if sc1 <= sc0 or sr1 <= sr0:
                continue
            x = np.arange(sc0, sc1, dtype=np.float32)[None, :] + 0.5
            y = np.arange(sr0, sr1, dtype=np.float32)[:, None] + 0.5
            dx, dy = bx - ax, by - ay
            ll = dx * dx + dy * dy
            if ll > 1e-12:
                t = np.clip(((x - ax) * dx + (y - ay) * dy) / ll, 0, 1)
            else:
                t = np.zeros((1, 1), dtype=np.float32)
            d = np.hypot(x - (ax + t * dx), y - (ay + t * dy))
            c = np.clip(h + 0.5 - d, 0, 1)
            sub = cov[sr0 - r0:sr1 - r0, sc0 - c0:sc1 - c0]
            np.maximum(sub, c, out=sub)
        self._blend(r0, r1, c0, c1, cov * alpha, rgb(colour))

    # ----------------------------------------------------------------------------- dots
    def dots(self, pts_px: np.ndarray, radius_px: float, colour: str) -> None:
        if not len(pts_px):
            return
        radius_px = max(radius_px, 0.9)
        col = rgb(colour)
        q = np.round(pts_px * 4) / 4
        ip = np.floor(q).astype(np.int64)
        frac = q - ip
        keys = np.round(frac * 4).astype(np.int64)
        key = keys[:, 0] * 8 + keys[:, 1]
        R = int(np.ceil(radius_px)) + 1
        for kv in np.unique(key):
            sel = key == kv
            fx, fy = (kv // 8) / 4, (kv % 8) / 4
            stamp = _disc(radius_px, fx, fy, R)
            for dy in range(-R, R + 1):
                for dx in range(-R, R + 1):
                    c = stamp[dy + R, dx + R]
                    if c <= 1e-3:
                        continue
                    ys = ip[sel, 1] + dy
                    xs = ip[sel, 0] + dx
                    ok = (ys >= 0) & (ys < self.h) & (xs >= 0) & (xs < self.w)
                    ys, xs = ys[ok], xs[ok]
                    px = self.img[ys, xs].astype(np.float32)
                    px += (col - px) * c
                    self.img[ys, xs] = np.rint(px).astype(np.uint8)

    # ------------------------------------------------------------------------- drawing
    def draw(self, it: Item) -> None:
        s = self.s
        if isinstance(it, Poly):
            rings = [self.px(r) for r in it.rings]
            if it.fill:
                self.fill_rings(rings, it.fill, it.alpha)
            if it.stroke and it.width > 0:
                for r in rings:
                    self.stroke(r, it.width * s, it.stroke, 1.0, _scaled(it.dash, s))
        elif isinstance(it, Path):
            self.stroke(self.px(it.points), it.width * s, it.stroke, it.alpha,
                        _scaled(it.dash, s), round_cap=it.dash is None)
        elif isinstance(it, Dots):
            self.dots(self.px(it.points), it.radius * s, it.color)
        elif isinstance(it, Circle):
            c = self.px(np.array([it.center]))[0]
            disc = Point(c).buffer(it.radius * s, 16)
            if it.fill:
                self.fill_geom(disc, it.fill)
            if it.stroke and it.width > 0:
                self.stroke(np.asarray(disc.exterior.coords), it.width * s, it.stroke)
        elif isinstance(it, Text):
            w = it.size * (0.16 if it.bold else 0.11) * s
            paths = [self.px(p) for p in
                     text_paths(it.text, it.pos[0], it.pos[1], it.size, it.anchor)]
            if it.halo:
                for p in paths:
                    self.stroke(p, w + it.size * 0.3 * s, "#ffffff")
            for p in paths:
                self.stroke(p, w, it.color)


def _dash_segments(pts: np.ndarray, dash: tuple[float, float]) -> np.ndarray:
    """The 'on' pieces of a dashed polyline as segments (x0, y0, x1, y1).

    Dash k covers arc length [k * period, k * period + on); each polyline segment is cut by
    the dashes that overlap it, so corners keep the rhythm of the pattern.
    """
    on, off = dash
    period = max(on + off, 1e-6)
    out = []
    start = 0.0
    for a, b in zip(pts[:-1], pts[1:]):
        seg = float(np.hypot(*(b - a)))
        if seg < 1e-12:
            continue
        u = (b - a) / seg
        end = start + seg
        for k in range(int(start // period), int(end // period) + 1):
            s0, s1 = max(k * period, start), min(k * period + on, end)
            if s1 > s0:
                out.append((*(a + u * (s0 - start)), *(a + u * (s1 - start))))
        start = end
    return np.array(out, dtype=float).reshape(-1, 4)


def _scaled(dash: tuple[float, float] | None, s: float) -> tuple[float, float] | None:
    return None if dash is None else (dash[0] * s, dash[1] * s)


def _disc(r: float, fx: float, fy: float, R: int) -> np.ndarray:
    """Coverage of a disc of radius r centred at (fx, fy) inside the centre pixel's frame."""
    n = 4
    off = (np.arange(n) + 0.5) / n
    ys, xs = np.mgrid[-R:R + 1, -R:R + 1]
    cov = np.zeros(ys.shape, dtype=np.float32)
    for oy in off:
        for ox in off:
            cov += ((xs + ox - fx) ** 2 + (ys + oy - fy) ** 2 <= r * r)
    return cov / (n * n)


def render_scene(sc: Scene, px_per_dot: float, map_only: bool = False,
                 progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """RGB pixels of a scene (the whole canvas, or only the map box for a VTT)."""
    x0, y0, x1, y1 = sc.map_box if map_only else sc.canvas
    w = int(np.ceil((x1 - x0) * px_per_dot - 1e-6))
    h = int(np.ceil((y1 - y0) * px_per_dot - 1e-6))
    r = Raster(w, h, x0, y0, px_per_dot)
    items = sc.items if map_only else sc.items + sc.frame
    n = len(items)
    for i, it in enumerate(items):
        r.draw(it)
        if progress is not None and (i % 200 == 0 or i == n - 1):
            progress(i + 1, n)
    return r.img


def encode_png(img: np.ndarray, dpi: float | None = None) -> bytes:
    """PNG bytes of an (H, W, 3) uint8 image (filter: Sub, deflate level 6)."""
    h, w, _ = img.shape
    flat = img.reshape(h, w * 3).astype(np.int16)
    sub = flat.copy()
    sub[:, 3:] = flat[:, 3:] - flat[:, :-3]
    raw = np.empty((h, w * 3 + 1), dtype=np.uint8)
    raw[:, 0] = 1  # filter type Sub
    raw[:, 1:] = (sub & 0xFF).astype(np.uint8)

    def chunk(tag: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + tag + data
                + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF))

    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    if dpi:
        ppm = int(round(dpi / 0.0254))
        out += chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1))
    out += chunk(b"IDAT", zlib.compress(raw.tobytes(), 6)) + chunk(b"IEND", b"")
    return out
