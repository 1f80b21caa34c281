"""A printable PDF at table scale: the map of every level tiled over A4 or Letter pages.

Page 1 is the assembly sheet: the title, how to print and assemble, and for every level the
whole drawing (with its legend) with the tile grid laid over it and each tile's label.  Then,
level by level, one page per tile: the map at ``dot_mm`` millimetres per dot (25.4 by default,
the DMZ sheets' one-inch dots), clipped to the page's printable area, with the overlap band
towards each neighbour marked by a dashed line, corner marks, the tile label and its
neighbours' labels in the margins, and a 50 mm check bar to confirm the printer did not scale.

Tiling: a page keeps ``MARGIN_MM`` on every side; neighbouring tiles overlap by ``OVERLAP_MM``,
so a W x H mm map needs ceil((W - o) / (w - o)) x ceil((H - o) / (h - o)) pages whose
printable area is w x h (at least one each way); per level, the orientation (portrait or
landscape) with fewer pages wins, portrait on a tie.

The map is drawn once per level as a Form XObject that every tile places, so the file stays
small; the writer is hand-made, deterministic (no dates, no random ids) and vector throughout.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from engine.render.display import Cells, Circle, Dots, Item, Path, Poly, Scene, Text
from engine.render.metrics import text_width

MM = 72.0 / 25.4  # points per millimetre
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN_MM = 10.0
OVERLAP_MM = 10.0
KAPPA = 0.5522847498
_CAP = {"flat": 0, "round": 1, "square": 2}


@dataclass(frozen=True)
class Tiling:
    cols: int
    rows: int
    landscape: bool
    page_mm: tuple[float, float]  # width, height of the page as printed

    @property
    def count(self) -> int:
        return self.cols * self.rows

    @property
    def area_mm(self) -> tuple[float, float]:
        return (self.page_mm[0] - 2 * MARGIN_MM, self.page_mm[1] - 2 * MARGIN_MM)

    @property
    def step_mm(self) -> tuple[float, float]:
        w, h = self.area_mm
        return (w - OVERLAP_MM, h - OVERLAP_MM)


def _tiles_along(length: float, area: float) -> int:
    if length <= area + 1e-9:
        return 1
    return math.ceil((length - OVERLAP_MM) / (area - OVERLAP_MM) - 1e-9)


def tiling(width_mm: float, height_mm: float, paper: str = "a4") -> Tiling:
    """How a map of ``width_mm`` x ``height_mm`` is cut into pages of ``paper``."""
    pw, ph = PAPERS[paper]
    best = None
    for landscape in (False, True):
        w, h = (ph, pw) if landscape else (pw, ph)
        t = Tiling(_tiles_along(width_mm, w - 2 * MARGIN_MM),
                   _tiles_along(height_mm, h - 2 * MARGIN_MM), landscape, (w, h))
        if best is None or t.count < best.count:
            best = t
    assert best is not None
    return best


def level_tiling(sc: Scene, paper: str, dot_mm: float) -> Tiling:
    x0, y0, x1, y1 = sc.map_box
    return tiling((x1 - x0) * dot_mm, (y1 - y0) * dot_mm, paper)


def page_count(scenes: list[Scene], paper: str = "a4", dot_mm: float = 25.4) -> int:
    """Pages of the printable PDF: the assembly sheet plus every level's tiles."""
    return 1 + sum(level_tiling(s, paper, dot_mm).count for s in scenes)


def col_name(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s


def tile_label(level: int, col: int, row: int) -> str:
    base = f"{col_name(col)}{row + 1}"
    return base if level == 0 else f"L{level}-{base}"


# --------------------------------------------------------------------------- PDF content


def _f(v: float) -> str:
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _rgb(c: str) -> str:
    c = c.lstrip("#")
    return " ".join(_f(int(c[i:i + 2], 16) / 255) for i in (0, 2, 4))


def _pdf_text(s: str) -> str:
    b = s.encode("latin-1", "replace").decode("latin-1")
    return "(" + b.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


class Content:
    """PDF content operators for scene items, in a frame where one unit is one dot, y down."""

    def __init__(self, alphas: dict[float, str]):
        self.ops: list[str] = []
        self.alphas = alphas

    def gs(self, alpha: float) -> None:
        a = round(alpha, 2)
        name = self.alphas.setdefault(a, f"GA{len(self.alphas)}")
        self.ops.append(f"/{name} gs")

    def _ring(self, r: np.ndarray) -> None:
        self.ops.append(f"{_f(r[0][0])} {_f(r[0][1])} m " + " ".join(
            f"{_f(x)} {_f(y)} l" for x, y in r[1:]) + " h")

    def _line(self, p: np.ndarray) -> None:
        self.ops.append(f"{_f(p[0][0])} {_f(p[0][1])} m " + " ".join(
            f"{_f(x)} {_f(y)} l" for x, y in p[1:]))

    def _stroke_style(self, colour: str, width: float, dash: tuple[float, float] | None,
                      cap: str = "round") -> None:
        self.ops.append(f"{_rgb(colour)} RG {_f(width)} w")
        if dash:
            self.ops.append(f"0 J [{_f(dash[0])} {_f(dash[1])}] 0 d")
        else:
            self.ops.append(f"{_CAP.get(cap, 1)} J [] 0 d")

    def _circle(self, cx: float, cy: float, r: float) -> None:
        k = KAPPA * r
        self.ops.append(
            f"{_f(cx + r)} {_f(cy)} m "
            f"{_f(cx + r)} {_f(cy + k)} {_f(cx + k)} {_f(cy + r)} {_f(cx)} {_f(cy + r)} c "
            f"{_f(cx - k)} {_f(cy + r)} {_f(cx - r)} {_f(cy + k)} {_f(cx - r)} {_f(cy)} c "
            f"{_f(cx - r)} {_f(cy - k)} {_f(cx - k)} {_f(cy - r)} {_f(cx)} {_f(cy - r)} c "
            f"{_f(cx + k)} {_f(cy - r)} {_f(cx + r)} {_f(cy - k)} {_f(cx + r)} {_f(cy)} c h")

    def item(self, it: Item) -> None:
        o = self.ops
        if isinstance(it, Poly):
            if it.fill:
                o.append("q")
                if it.alpha < 1:
                    self.gs(it.alpha)
                o.append(f"{_rgb(it.fill)} rg")
                for r in it.rings:
                    self._ring(r)
                o.append("f* Q")
            if it.stroke and it.width > 0:
                self._stroke_style(it.stroke, it.width, it.dash)
                for r in it.rings:
                    self._ring(r)
                o.append("S")
        elif isinstance(it, Path):
            o.append("q")
            if it.alpha < 1:
                self.gs(it.alpha)
            self._stroke_style(it.stroke, it.width, it.dash, it.cap)
            self._line(it.points)
            o.append("S Q")
        elif isinstance(it, Dots):
            o.append(f"q {_rgb(it.color)} RG {_f(2 * it.radius)} w 1 J [] 0 d")
            for x, y in it.points:
                o.append(f"{_f(x)} {_f(y)} m {_f(x)} {_f(y)} l")
            o.append("S Q")
        elif isinstance(it, Cells):
            h = it.size / 2
            o.append("q")
            self.gs(it.alpha)
            for (x, y), rgb in zip(it.points, it.colours.tolist()):
                o.append(f"{' '.join(_f(v / 255) for v in rgb)} rg "
                         f"{_f(x - h)} {_f(y - h)} {_f(it.size)} {_f(it.size)} re f")
            o.append("Q")
        elif isinstance(it, Circle):
            if it.fill:
                o.append(f"{_rgb(it.fill)} rg")
                self._circle(it.center[0], it.center[1], it.radius)
                o.append("f")
            if it.stroke and it.width > 0:
                o.append(f"{_rgb(it.stroke)} RG {_f(it.width)} w [] 0 d")
                self._circle(it.center[0], it.center[1], it.radius)
                o.append("S")
        elif isinstance(it, Text):
            size = it.size
            w = text_width(it.text, size, it.bold)
            x = it.pos[0] - {"start": 0.0, "middle": w / 2, "end": w}.get(it.anchor, 0.0)
            font = "F2" if it.bold else "F1"
            if it.halo:  # white outline first (render mode 1: stroke only), then the letters
                o.append(f"q BT /{font} {_f(size)} Tf 1 1 1 RG {_f(it.size * 0.22)} w 1 j 1 Tr "
                         f"1 0 0 -1 {_f(x)} {_f(it.pos[1])} Tm {_pdf_text(it.text)} Tj ET Q")
            o.append(f"BT /{font} {_f(size)} Tf {_rgb(it.color)} rg "
                     f"1 0 0 -1 {_f(x)} {_f(it.pos[1])} Tm {_pdf_text(it.text)} Tj ET")

    def text(self, x: float, y: float, s: str, size: float, bold: bool = False,
             anchor: str = "start", colour: str = "#202020") -> None:
        """Text in page points (y up)."""
        w = text_width(s, size, bold)
        x -= {"start": 0.0, "middle": w / 2, "end": w}.get(anchor, 0.0)
        self.ops.append(f"BT /{'F2' if bold else 'F1'} {_f(size)} Tf {_rgb(colour)} rg "
                        f"{_f(x)} {_f(y)} Td {_pdf_text(s)} Tj ET")

    def data(self) -> bytes:
        return ("\n".join(self.ops) + "\n").encode("latin-1")


# ------------------------------------------------------------------------------- writer


class _Pdf:
    def __init__(self) -> None:
        self.objs: list[bytes | None] = []

    def reserve(self) -> int:
        self.objs.append(None)
        return len(self.objs)

    def put(self, num: int, body: bytes) -> None:
        self.objs[num - 1] = body

    def add(self, body: bytes) -> int:
        n = self.reserve()
        self.put(n, body)
        return n

    def stream(self, dictionary: str, data: bytes) -> bytes:
        z = zlib.compress(data, 6)
        return (f"<< {dictionary} /Length {len(z)} /Filter /FlateDecode >>\nstream\n".encode()
                + z + b"\nendstream")

    def write(self, root: int) -> bytes:
        out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for i, body in enumerate(self.objs, 1):
            offsets.append(len(out))
            out += f"{i} 0 obj\n".encode() + (body or b"null") + b"\nendobj\n"
        xref = len(out)
        out += f"xref\n0 {len(self.objs) + 1}\n0000000000 65535 f \n".encode()
        for off in offsets:
            out += f"{off:010d} 00000 n \n".encode()
        out += (f"trailer\n<< /Size {len(self.objs) + 1} /Root {root} 0 R >>\n"
                f"startxref\n{xref}\n%%EOF\n").encode()
        return bytes(out)


def render_pdf(scenes: list[Scene], title: str, paper: str = "a4", dot_mm: float = 25.4,
               progress: Callable[[int, int], None] | None = None) -> bytes:
    """The whole printable PDF as bytes."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r} (a4 or letter)")
    if not dot_mm > 0:
        raise ValueError("dot spacing must be a positive number of millimetres")
    pdf = _Pdf()
    catalog = pdf.reserve()
    pages_obj = pdf.reserve()
    f1 = pdf.add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
                 b"/Encoding /WinAnsiEncoding >>")
    f2 = pdf.add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold "
                 b"/Encoding /WinAnsiEncoding >>")
    alphas: dict[float, str] = {}
    gstate_obj = pdf.reserve()
    s = dot_mm * MM  # points per dot at table scale
    tilings = [level_tiling(sc, paper, dot_mm) for sc in scenes]
    total = 1 + sum(t.count for t in tilings)
    res = (f"/Resources << /Font << /F1 {f1} 0 R /F2 {f2} 0 R >> "
           f"/ExtGState {gstate_obj} 0 R >>")

    # one map form (items) and one canvas form (map + frame) per level, in table-scale points
    map_forms, canvas_forms = [], []
    for sc in scenes:
        x0, y0, x1, y1 = sc.map_box
        c = Content(alphas)
        c.ops.append(f"{_f(s)} 0 0 {_f(-s)} {_f(-x0 * s)} {_f(y1 * s)} cm 1 j")
        for it in sc.items:
            c.item(it)
        mf = pdf.add(pdf.stream(
            f"/Type /XObject /Subtype /Form /BBox [0 0 {_f((x1 - x0) * s)} {_f((y1 - y0) * s)}] "
            + res, c.data()))
        map_forms.append(mf)
        cx0, cy0, cx1, cy1 = sc.canvas
        c = Content(alphas)
        c.ops.append(f"1 1 1 rg 0 0 {_f((cx1 - cx0) * s)} {_f((cy1 - cy0) * s)} re f")
        c.ops.append(f"q 1 0 0 1 {_f((x0 - cx0) * s)} {_f((cy1 - y1) * s)} cm /M Do Q")
        c.ops.append(f"{_f(s)} 0 0 {_f(-s)} {_f(-cx0 * s)} {_f(cy1 * s)} cm 1 j")
        for it in sc.frame:
            c.item(it)
        canvas_forms.append(pdf.add(pdf.stream(
            f"/Type /XObject /Subtype /Form /BBox [0 0 {_f((cx1 - cx0) * s)} "
            f"{_f((cy1 - cy0) * s)}] /Resources << /Font << /F1 {f1} 0 R /F2 {f2} 0 R >> "
            f"/ExtGState {gstate_obj} 0 R /XObject << /M {mf} 0 R >> >>", c.data())))

    kids: list[int] = []
    done = 0

    def page(content: Content, size: tuple[float, float], xobjects: dict[str, int]) -> None:
        nonlocal done
        xo = " ".join(f"/{k} {v} 0 R" for k, v in xobjects.items())
        cs = pdf.add(pdf.stream("", content.data()))
        kids.append(pdf.add(
            f"<< /Type /Page /Parent {pages_obj} 0 R /MediaBox [0 0 {_f(size[0] * MM)} "
            f"{_f(size[1] * MM)}] /Contents {cs} 0 R /Resources << /Font << /F1 {f1} 0 R "
            f"/F2 {f2} 0 R >> /ExtGState {gstate_obj} 0 R /XObject << {xo} >> >> >>".encode()))
        done += 1
        if progress is not None:
            progress(done, total)

    # ---- page 1: assembly sheet
    pw, ph = PAPERS[paper]
    c = Content(alphas)
    top = (ph - MARGIN_MM) * MM
    c.text(MARGIN_MM * MM, top - 14, title, 16, bold=True)
    info = [
        f"Printable map at table scale: 1 dot = {dot_mm:g} mm (2 m on the ground). "
        f"{total - 1} tile page(s) on {paper.upper()}.",
        "Print at 100% / actual size (no 'fit to page'); check the 50 mm bar on every page.",
        f"Tiles overlap by {OVERLAP_MM:g} mm: trim a tile's top and left margins along its "
        "corner marks,",
        "lay it on its left/upper neighbour so its edge meets the dashed line, and tape.",
    ]
    for i, line in enumerate(info):
        c.text(MARGIN_MM * MM, top - 32 - 12 * i, line, 9)
    area_top = top - 32 - 12 * len(info) - 8
    n = len(scenes)
    ncol = 1 if n == 1 else 2
    nrow = math.ceil(n / ncol)
    cell_w = (pw - 2 * MARGIN_MM) * MM / ncol
    cell_h = (area_top - MARGIN_MM * MM) / nrow
    xobj: dict[str, int] = {}
    for k, sc in enumerate(scenes):
        t = tilings[k]
        cx0, cy0, cx1, cy1 = sc.canvas
        cw, chh = (cx1 - cx0) * s, (cy1 - cy0) * s
        fit = min((cell_w - 12) / cw, (cell_h - 12) / chh)
        ox = MARGIN_MM * MM + (k % ncol) * cell_w + 6
        oy = area_top - (k // ncol) * cell_h - 6 - chh * fit
        name = f"C{k}"
        xobj[name] = canvas_forms[k]
        c.ops.append(f"q {_f(fit)} 0 0 {_f(fit)} {_f(ox)} {_f(oy)} cm /{name} Do Q")
        # tile grid over the map box
        x0, y0, x1, y1 = sc.map_box
        mx = ox + (x0 - cx0) * s * fit
        my_top = oy + (cy1 - y0) * s * fit
        sx, sy = t.step_mm
        aw, ah = t.area_mm
        c.ops.append("q 0.75 0.15 0.15 RG 0.6 w [3 2] 0 d")
        for j in range(t.rows):
            for i in range(t.cols):
                rx0 = mx + i * sx * MM * fit
                ry1 = my_top - j * sy * MM * fit
                rw = min(aw, (x1 - x0) * dot_mm - i * sx) * MM * fit
                rh = min(ah, (y1 - y0) * dot_mm - j * sy) * MM * fit
                c.ops.append(f"{_f(rx0)} {_f(ry1 - rh)} {_f(rw)} {_f(rh)} re S")
        c.ops.append("Q")
        for j in range(t.rows):
            for i in range(t.cols):
                rx = mx + (i * sx + min(aw, (x1 - x0) * dot_mm - i * sx) / 2) * MM * fit
                ry = my_top - (j * sy + min(ah, (y1 - y0) * dot_mm - j * sy) / 2) * MM * fit
                c.text(rx, ry - 3, tile_label(sc.level, i, j), 8, bold=True, anchor="middle",
                       colour="#b02020")
    c.text(MARGIN_MM * MM, MARGIN_MM * MM * 0.5, f"page 1/{total}", 7)
    page(c, (pw, ph), xobj)

    # ---- tiles
    for k, sc in enumerate(scenes):
        t = tilings[k]
        x0, y0, x1, y1 = sc.map_box
        wmm, hmm = (x1 - x0) * dot_mm, (y1 - y0) * dot_mm
        pgw, pgh = t.page_mm
        aw, ah = t.area_mm
        sx, sy = t.step_mm
        m = MARGIN_MM * MM
        for j in range(t.rows):
            for i in range(t.cols):
                c = Content(alphas)
                tx = m - i * sx * MM
                ty = pgh * MM - m - (hmm - j * sy) * MM
                c.ops.append(f"q {_f(m)} {_f(m)} {_f(aw * MM)} {_f(ah * MM)} re W n "
                             f"1 0 0 1 {_f(tx)} {_f(ty)} cm /M Do Q")
                _tile_marks(c, sc.level, i, j, t, wmm, hmm, title, len(kids) + 1, total,
                            dot_mm)
                page(c, (pgw, pgh), {"M": map_forms[k]})

    gs = " ".join(f"/{name} << /Type /ExtGState /ca {_f(a)} /CA {_f(a)} >>"
                  for a, name in sorted(alphas.items(), key=lambda kv: kv[1]))
    pdf.put(gstate_obj, f"<< {gs} >>".encode())
    pdf.put(pages_obj, f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] "
                       f"/Count {len(kids)} >>".encode())
    pdf.put(catalog, f"<< /Type /Catalog /Pages {pages_obj} 0 R >>".encode())
    return pdf.write(catalog)


def _tile_marks(c: Content, level: int, i: int, j: int, t: Tiling, wmm: float, hmm: float,
                title: str, number: int, total: int, dot_mm: float) -> None:
    """Overlap lines, corner marks, labels and the check bar of one tile page."""
    m = MARGIN_MM * MM
    pgh = t.page_mm[1] * MM
    aw, ah = t.area_mm[0] * MM, t.area_mm[1] * MM
    sx, sy = t.step_mm[0] * MM, t.step_mm[1] * MM
    top, right = pgh - m, m + aw
    ops = c.ops
    ops.append("q 0.45 0.45 0.45 RG 0.5 w [4 3] 0 d")
    if i + 1 < t.cols:
        ops.append(f"{_f(m + sx)} {_f(m)} m {_f(m + sx)} {_f(top)} l S")
    if j + 1 < t.rows:
        ops.append(f"{_f(m)} {_f(top - sy)} m {_f(right)} {_f(top - sy)} l S")
    ops.append("Q q 0 0 0 RG 0.4 w [] 0 d")
    g, ln = 1.5 * MM, 6 * MM  # corner marks in the margin, pointing at the area's corners
    for cx, dx in ((m, -1), (right, 1)):
        for cy, dy in ((m, -1), (top, 1)):
            ops.append(f"{_f(cx + dx * g)} {_f(cy)} m {_f(cx + dx * (g + ln))} {_f(cy)} l S")
            ops.append(f"{_f(cx)} {_f(cy + dy * g)} m {_f(cx)} {_f(cy + dy * (g + ln))} l S")
    ops.append("Q")
    label = tile_label(level, i, j)
    lvl = "street level" if level == 0 else f"level {level}"
    c.text(m + 8 * MM, top + 3.5 * MM, f"{label}   {title} - {lvl} - column {i + 1}/{t.cols}, "
           f"row {j + 1}/{t.rows}", 8, bold=True)
    mid_y = m + ah / 2
    mid_x = m + aw / 2
    if i > 0:
        c.text(m / 2, mid_y, tile_label(level, i - 1, j), 7, anchor="middle")
    if i + 1 < t.cols:
        c.text(right + m / 2, mid_y, tile_label(level, i + 1, j), 7, anchor="middle")
    if j > 0:
        c.text(mid_x + 40 * MM, top + 3.5 * MM, "above: " + tile_label(level, i, j - 1), 7)
    if j + 1 < t.rows:
        c.text(mid_x, m / 2 - 2, "below: " + tile_label(level, i, j + 1), 7, anchor="middle")
    # 50 mm check bar and page number in the bottom margin
    bx, by = m + 8 * MM, m / 2
    c.ops.append(f"q 0 0 0 RG 0.6 w {_f(bx)} {_f(by)} m {_f(bx + 50 * MM)} {_f(by)} l S "
                 f"{_f(bx)} {_f(by - 2)} m {_f(bx)} {_f(by + 2)} l S "
                 f"{_f(bx + 50 * MM)} {_f(by - 2)} m {_f(bx + 50 * MM)} {_f(by + 2)} l S Q")
    c.text(bx + 52 * MM, by - 2.5, f"50 mm   (1 dot = {dot_mm:g} mm)", 6.5)
    c.text(right, by - 2.5, f"page {number}/{total}", 7, anchor="end")
