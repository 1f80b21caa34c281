"""A printable PDF at table scale: a briefing page, then per level an overview and its tiles.

Page 1 is the briefing: title, rules, light, turn limit, the sides (by name, in their colours,
with their characters and deployment), the objectives, the scenario notes, and how to print
and assemble the tiles.  Then, level by level, an overview page (the whole drawing with its
legend, fitted to the page, the tile grid and every tile's label laid over it) and one page per
tile that has something on it: the map at ``dot_mm`` millimetres per dot (25.4 by default, the
DMZ sheets' one-inch dots), clipped to the page's printable area, with the overlap band towards
each neighbour marked by a dashed line, corner marks, the tile label, its neighbours' labels,
the dot coordinates along the top and left edges, the buildings on the tile, and a 50 mm check
bar to confirm the printer did not scale.  The file asks viewers not to scale when printing
(``/PrintScaling /None``).

Tiling: a page keeps ``MARGIN_MM`` on every side; neighbouring tiles overlap by ``OVERLAP_MM``,
so a W x H mm map needs ceil((W - o) / (w - o)) x ceil((H - o) / (h - o)) pages whose
printable area is w x h (at least one each way); per level, the orientation (portrait or
landscape) with fewer pages wins, portrait on a tie.  A tile with nothing of its level on it
(no floor, no pavement) is not printed; the overview shows it greyed.

The map is drawn once per level as a Form XObject that every tile places, so the file stays
small; the writer is hand-made, deterministic (no dates, no random ids), vector throughout, and
sets text in the standard Helvetica fonts (WinAnsi), laid out with their real metrics.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from shapely.geometry import box

from engine import model as m
from engine.render import style as st
from engine.render.display import Cells, Circle, Dots, Item, Path, Poly, Scene, Text
from engine.render.metrics import text_width

MM = 72.0 / 25.4  # points per millimetre
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0),
          "tabloid": (279.4, 431.8)}
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


def printed_tiles(sc: Scene, t: Tiling, dot_mm: float) -> list[tuple[int, int]]:
    """(col, row) of the tiles of a level that have something of the level on them."""
    x0, y0, x1, y1 = sc.map_box
    sx, sy = (v / dot_mm for v in t.step_mm)
    aw, ah = (v / dot_mm for v in t.area_mm)
    out = []
    for j in range(t.rows):
        for i in range(t.cols):
            tb = box(x0 + i * sx, y0 + j * sy, min(x1, x0 + i * sx + aw), min(y1, y0 + j * sy + ah))
            if sc.content is None or sc.content.intersection(tb).area > 1e-3:
                out.append((i, j))
    return out


def page_count(scenes: list[Scene], paper: str = "a4", dot_mm: float = 25.4) -> int:
    """Pages of the printable PDF: the briefing, and per level its overview and printed tiles
    (a long briefing may take more than one page)."""
    return 1 + sum(1 + len(printed_tiles(s, level_tiling(s, paper, dot_mm), dot_mm))
                   for s in scenes)


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
    b = s.encode("cp1252", "replace").decode("latin-1")  # WinAnsiEncoding is cp1252
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
        out = bytearray(b"%PDF-1.6\n%\xe2\xe3\xcf\xd3\n")
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


def wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """Lines of ``text`` that fit ``width`` points at ``size`` (paragraphs kept)."""
    out: list[str] = []
    for para in text.splitlines() or [""]:
        line = ""
        for word in para.split():
            cand = f"{line} {word}" if line else word
            if line and text_width(cand, size, bold) > width:
                out.append(line)
                line = word
            else:
                line = cand
        out.append(line)
    return out


def _where(o: m.Objective) -> str:
    if o.at is not None:
        lv = o.at[2] if len(o.at) > 2 else 0
        return f"at {o.at[0]},{o.at[1]} on {'street level' if lv == 0 else f'level {lv}'}"
    if o.area is not None:
        return f"hold the marked area on {'street level' if o.level == 0 else f'level {o.level}'}"
    if o.edge:
        return f"leave by the {o.edge} edge"
    if o.target:
        return f"target: {o.target}"
    return ""


def briefing_lines(scenario: m.Scenario | None, title: str, player_safe: bool
                   ) -> list[tuple[str, float, bool, str]]:
    """(text, size, bold, colour) lines of the briefing; empty text is a gap."""
    L: list[tuple[str, float, bool, str]] = [(title, 18, True, st.INK), ("", 6, False, st.INK)]
    if scenario is None:
        return L
    facts = [f"Rules: {scenario.ruleset}", f"Light: {scenario.light.replace('-', ' ')}"]
    if scenario.turn_limit:
        facts.append(f"Turn limit: {scenario.turn_limit}")
    facts.append(f"Initiative: by {scenario.initiative}")
    L.append(("   -   ".join(facts), 10, False, st.INK))
    L.append(("", 8, False, st.INK))
    if scenario.sides:
        L.append(("Sides", 12, True, st.INK))
    for i, s in enumerate(scenario.sides):
        col = st.side_colour(i)
        L.append((s.name or s.id, 11, True, col))
        dep = s.deployment
        if dep is not None and not player_safe:
            where = (f"along the {dep.edge} edge, {dep.depth or 3} dots deep" if dep.polygon is None
                     else f"in the marked zone on "
                          f"{'street level' if dep.level == 0 else f'level {dep.level}'}")
            L.append((f"Sets up {where}.", 9.5, False, st.INK))
        for c in s.characters:
            bits = [c.archetype.replace("-", " ") if c.archetype else "",
                    f"move {c.move_ratio}", f"fire {c.fire_ratio}",
                    c.vision + " vision" if c.vision != "normal" else "",
                    c.metatype if c.metatype != "human" else ""]
            weapons = ", ".join(w.name or w.type for w in c.weapons)
            line = f"  {c.name}: " + ", ".join(b for b in bits if b)
            L.append((line + (f"; {weapons}" if weapons else ""), 9, False, st.INK))
        if s.note:
            L.append((f"  {s.note}", 9, False, st.MUTED))
    names = {s.id: s.name or s.id for s in scenario.sides}
    if scenario.objectives and not player_safe:
        L.append(("", 6, False, st.INK))
        L.append(("Objectives", 12, True, st.INK))
        for o in scenario.objectives:
            bits = [f"{names.get(o.side, o.side)}: {o.id} ({o.kind})", _where(o)]
            if o.turns:
                bits.append(f"for {o.turns} turns")
            if o.then:
                bits.append(f"then {o.then.replace('-', ' ')}")
            if o.by_turn:
                bits.append(f"by turn {o.by_turn}")
            if o.points:
                bits.append(f"{o.points} points")
            L.append(("- " + ", ".join(b for b in bits if b), 9.5, False, st.INK))
            if o.note:
                L.append((f"  {o.note}", 9, False, st.MUTED))
    if scenario.notes:
        L.append(("", 6, False, st.INK))
        L.append(("Notes", 12, True, st.INK))
        L.append((scenario.notes.strip(), 9.5, False, st.INK))
    return L


def render_pdf(scenes: list[Scene], title: str, paper: str = "a4", dot_mm: float = 25.4,
               progress: Callable[[int, int], None] | None = None,
               scenario: m.Scenario | None = None, player_safe: bool = False) -> bytes:
    """The whole printable PDF as bytes."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r} ({', '.join(PAPERS)})")
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
    printed = [printed_tiles(sc, t, dot_mm) for sc, t in zip(scenes, tilings)]
    fonts = f"/Font << /F1 {f1} 0 R /F2 {f2} 0 R >> /ExtGState {gstate_obj} 0 R"
    pw, ph = PAPERS[paper]
    m_pt = MARGIN_MM * MM

    # the briefing, paginated
    text_w = (pw - 2 * MARGIN_MM) * MM
    lines: list[tuple[str, float, bool, str]] = []
    for text, size, bold, col in briefing_lines(scenario, title, player_safe):
        lines += [(t, size, bold, col) for t in (wrap(text, size, text_w, bold) if text else [""])]
    n_lv = len(scenes)
    howto = [
        ("How to print", 12, True, st.INK),
        (f"Table scale: 1 dot = {dot_mm:g} mm = 2 m on the ground. Paper: {paper.upper()}.", 9.5,
         False, st.INK),
        ("Print at 100 % / actual size (the file asks for no scaling); check the 50 mm bar on "
         "every tile.", 9.5, False, st.INK),
        (f"Tiles overlap by {OVERLAP_MM:g} mm: trim a tile's top and left margins along its corner "
         "marks, lay it on its left and upper neighbours so the trimmed edge meets their dashed "
         "line, and tape.", 9.5, False, st.INK),
        ("Contents:", 9.5, True, st.INK),
    ]
    for text, size, bold, col in howto:
        lines += [("", 5, False, col)] if text == "How to print" else []
        lines += [(t, size, bold, col) for t in wrap(text, size, text_w, bold)]
    content_at = len(lines)
    lines += [("", 9.5, False, st.INK)] * n_lv  # filled in once page numbers are known
    pages_text: list[list[tuple[str, float, bool, str]]] = [[]]
    y = 0.0
    avail = (ph - 2 * MARGIN_MM) * MM - 14
    for ln in lines:
        h = ln[1] * 1.3
        if y + h > avail and pages_text[-1]:
            pages_text.append([])
            y = 0.0
        pages_text[-1].append(ln)
        y += h
    brief_pages = len(pages_text)
    total = brief_pages + sum(1 + len(p) for p in printed)
    first_page: list[int] = []
    k = brief_pages + 1
    for p in printed:
        first_page.append(k)
        k += 1 + len(p)
    contents = []
    for sc, t, p, fp in zip(scenes, tilings, printed, first_page):
        lvl = "Street level" if sc.level == 0 else f"Level {sc.level}"
        skipped = t.count - len(p)
        contents.append((f"  {lvl}: overview on page {fp}, {len(p)} tile(s) on pages {fp + 1}-"
                         f"{fp + len(p)}" + (f" ({skipped} blank tile(s) not printed)" if skipped
                                             else ""), 9.5, False, st.INK))
    flat = [ln for pg in pages_text for ln in pg]
    flat[content_at:content_at + n_lv] = contents
    it = iter(flat)
    pages_text = [[next(it) for _ in pg] for pg in pages_text]

    kids: list[int] = []
    done = 0

    def page(content: Content, size: tuple[float, float], xobjects: dict[str, int]) -> None:
        nonlocal done
        xo = " ".join(f"/{k} {v} 0 R" for k, v in xobjects.items())
        cs = pdf.add(pdf.stream("", content.data()))
        kids.append(pdf.add(
            f"<< /Type /Page /Parent {pages_obj} 0 R /MediaBox [0 0 {_f(size[0] * MM)} "
            f"{_f(size[1] * MM)}] /Contents {cs} 0 R /Resources << {fonts} "
            f"/XObject << {xo} >> >> >>".encode()))
        done += 1
        if progress is not None:
            progress(done, total)

    for pg in pages_text:
        c = Content(alphas)
        y = (ph - MARGIN_MM) * MM
        for text, size, bold, col in pg:
            y -= size * 1.3
            if text:
                if bold and col != st.INK:  # a side: a swatch of its colour
                    c.ops.append(f"q {_rgb(col)} rg {_f(m_pt)} {_f(y - 1)} {_f(size * 0.8)} "
                                 f"{_f(size * 0.8)} re f Q")
                    c.text(m_pt + size * 1.2, y, text, size, bold, colour=col)
                else:
                    c.text(m_pt, y, text, size, bold, colour=col)
        c.text(pw * MM - m_pt, m_pt * 0.5, f"page {len(kids) + 1}/{total}", 7, anchor="end")
        page(c, (pw, ph), {})

    for k, sc in enumerate(scenes):
        x0, y0, x1, y1 = sc.map_box
        c = Content(alphas)
        c.ops.append(f"{_f(s)} 0 0 {_f(-s)} {_f(-x0 * s)} {_f(y1 * s)} cm 1 j")
        for item in sc.items:
            c.item(item)
        mf = pdf.add(pdf.stream(
            f"/Type /XObject /Subtype /Form /BBox [0 0 {_f((x1 - x0) * s)} {_f((y1 - y0) * s)}] "
            f"/Resources << {fonts} >>", c.data()))
        _overview(pdf, page, alphas, sc, tilings[k], printed[k], mf, fonts, paper, dot_mm,
                  title, len(kids) + 1, total)
        t = tilings[k]
        for i, j in printed[k]:
            c = Content(alphas)
            pgw, pgh = t.page_mm
            sx, sy = t.step_mm
            aw, ah = t.area_mm
            hmm = (y1 - y0) * dot_mm
            tx = m_pt - i * sx * MM
            ty = pgh * MM - m_pt - (hmm - j * sy) * MM
            c.ops.append(f"q {_f(m_pt)} {_f(m_pt)} {_f(aw * MM)} {_f(ah * MM)} re W n "
                         f"1 0 0 1 {_f(tx)} {_f(ty)} cm /M Do Q")
            _tile_marks(c, sc, i, j, t, printed[k], title, len(kids) + 1, total, dot_mm)
            page(c, (pgw, pgh), {"M": mf})

    gs = " ".join(f"/{name} << /Type /ExtGState /ca {_f(a)} /CA {_f(a)} >>"
                  for a, name in sorted(alphas.items(), key=lambda kv: kv[1]))
    pdf.put(gstate_obj, f"<< {gs} >>".encode())
    pdf.put(pages_obj, f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] "
                       f"/Count {len(kids)} >>".encode())
    pdf.put(catalog, f"<< /Type /Catalog /Pages {pages_obj} 0 R "
                     f"/ViewerPreferences << /PrintScaling /None >> >>".encode())
    return pdf.write(catalog)


def _overview(pdf: _Pdf, page: Callable, alphas: dict[float, str], sc: Scene, t: Tiling,
              printed: list[tuple[int, int]], map_form: int, fonts: str, paper: str,
              dot_mm: float, title: str, number: int, total: int) -> None:
    """One page: the level's whole drawing fitted to the paper, tiles and their labels over it."""
    s = dot_mm * MM
    cx0, cy0, cx1, cy1 = sc.canvas
    x0, y0, x1, y1 = sc.map_box
    cw, chh = (cx1 - cx0) * s, (cy1 - cy0) * s
    pw, ph = PAPERS[paper]
    if (cw > chh) != (pw > ph):
        pw, ph = ph, pw
    m_pt = MARGIN_MM * MM
    c = Content(alphas)
    lvl = "street level" if sc.level == 0 else f"level {sc.level}"
    c.text(m_pt, ph * MM - m_pt - 12, f"{title} - {lvl}: overview", 14, bold=True)
    c.text(m_pt, ph * MM - m_pt - 26, f"{len(printed)} tile(s) to print at 1 dot = {dot_mm:g} mm; "
           f"greyed tiles have nothing on this level and are not printed.", 9)
    top = ph * MM - m_pt - 36
    fit = min((pw * MM - 2 * m_pt) / cw, (top - m_pt) / chh)
    ox = m_pt
    oy = top - chh * fit
    # the canvas: white, the map form placed at its spot, then the frame items
    c.ops.append(f"q {_f(fit)} 0 0 {_f(fit)} {_f(ox)} {_f(oy)} cm")
    c.ops.append(f"1 1 1 rg 0 0 {_f(cw)} {_f(chh)} re f")
    c.ops.append(f"q 1 0 0 1 {_f((x0 - cx0) * s)} {_f((cy1 - y1) * s)} cm /M Do Q")
    c.ops.append(f"q {_f(s)} 0 0 {_f(-s)} {_f(-cx0 * s)} {_f(cy1 * s)} cm 1 j")
    for it in sc.frame:
        c.item(it)
    c.ops.append("Q Q")
    mx = ox + (x0 - cx0) * s * fit
    my_top = oy + (cy1 - y0) * s * fit
    sx, sy = t.step_mm
    aw, ah = t.area_mm
    wmm, hmm = (x1 - x0) * dot_mm, (y1 - y0) * dot_mm
    keep = set(printed)
    for j in range(t.rows):
        for i in range(t.cols):
            rx0 = mx + i * sx * MM * fit
            ry1 = my_top - j * sy * MM * fit
            rw = min(aw, wmm - i * sx) * MM * fit
            rh = min(ah, hmm - j * sy) * MM * fit
            if (i, j) in keep:
                c.ops.append(f"q 0.75 0.15 0.15 RG 0.6 w [3 2] 0 d {_f(rx0)} {_f(ry1 - rh)} "
                             f"{_f(rw)} {_f(rh)} re S Q")
                c.text(rx0 + rw / 2, ry1 - rh / 2 - 3, tile_label(sc.level, i, j), 8, bold=True,
                       anchor="middle", colour="#b02020")
            else:
                c.ops.append(f"q /{_alpha(c, 0.55)} gs 0.85 0.85 0.85 rg {_f(rx0)} {_f(ry1 - rh)} "
                             f"{_f(rw)} {_f(rh)} re f Q")
    c.text(pw * MM - m_pt, m_pt * 0.5, f"page {number}/{total}", 7, anchor="end")
    page(c, (pw, ph), {"M": map_form})


def _alpha(c: Content, a: float) -> str:
    a = round(a, 2)
    return c.alphas.setdefault(a, f"GA{len(c.alphas)}")


def _tile_marks(c: Content, sc: Scene, i: int, j: int, t: Tiling,
                printed: list[tuple[int, int]], title: str, number: int, total: int,
                dot_mm: float) -> None:
    """Overlap lines, corner marks, labels, coordinates, buildings and the check bar."""
    level = sc.level
    m_ = MARGIN_MM * MM
    pgh = t.page_mm[1] * MM
    aw, ah = t.area_mm[0] * MM, t.area_mm[1] * MM
    sx, sy = t.step_mm[0] * MM, t.step_mm[1] * MM
    top, right = pgh - m_, m_ + aw
    ops = c.ops
    ops.append("q 0.45 0.45 0.45 RG 0.5 w [4 3] 0 d")
    if i + 1 < t.cols:
        ops.append(f"{_f(m_ + sx)} {_f(m_)} m {_f(m_ + sx)} {_f(top)} l S")
    if j + 1 < t.rows:
        ops.append(f"{_f(m_)} {_f(top - sy)} m {_f(right)} {_f(top - sy)} l S")
    ops.append("Q q 0 0 0 RG 0.4 w [] 0 d")
    g, ln = 1.5 * MM, 6 * MM  # corner marks in the margin, pointing at the area's corners
    for cx, dx in ((m_, -1), (right, 1)):
        for cy, dy in ((m_, -1), (top, 1)):
            ops.append(f"{_f(cx + dx * g)} {_f(cy)} m {_f(cx + dx * (g + ln))} {_f(cy)} l S")
            ops.append(f"{_f(cx)} {_f(cy + dy * g)} m {_f(cx)} {_f(cy + dy * (g + ln))} l S")
    ops.append("Q")
    keep = set(printed)

    def name(a: int, b: int) -> str:
        return tile_label(level, a, b) if (a, b) in keep else "(blank)"

    label = tile_label(level, i, j)
    lvl = "street level" if level == 0 else f"level {level}"
    c.text(m_ + 8 * MM, top + 5.2 * MM, f"{label}   {title} - {lvl} - column {i + 1}/{t.cols}, "
           f"row {j + 1}/{t.rows}", 8, bold=True)
    if j > 0:
        c.text(right, top + 5.2 * MM, "above: " + name(i, j - 1), 7, anchor="end")
    mid_y = m_ + ah / 2
    if i > 0:
        c.text(m_ / 2, mid_y + 10, name(i - 1, j), 7, anchor="middle")
    if i + 1 < t.cols:
        c.text(right + m_ / 2, mid_y, name(i + 1, j), 7, anchor="middle")
    # dot coordinates: columns along the top edge, rows along the left edge
    x0, y0, x1, y1 = sc.map_box
    step = max(1, math.ceil(6.0 / dot_mm))
    wx0 = x0 + i * t.step_mm[0] / dot_mm
    wy0 = y0 + j * t.step_mm[1] / dot_mm
    wx1 = min(x1, wx0 + t.area_mm[0] / dot_mm)
    wy1 = min(y1, wy0 + t.area_mm[1] / dot_mm)
    for col in range(math.ceil(wx0), math.floor(wx1) + 1):
        if col % step == 0:
            px = m_ + (col - wx0) * dot_mm * MM
            c.text(px, top + 1.3 * MM, str(col), 5.5, anchor="middle", colour="#606060")
    for row in range(math.ceil(wy0), math.floor(wy1) + 1):
        if row % step == 0:
            py = top - (row - wy0) * dot_mm * MM
            c.text(m_ - 1.2 * MM, py - 2, str(row), 5.5, anchor="end", colour="#606060")
    # the buildings on this tile, and the check bar, in the bottom margin
    tb = box(wx0, wy0, wx1, wy1)
    names = list(dict.fromkeys(n for n, fp in sc.buildings if fp.intersects(tb)))
    below = ("below: " + name(i, j + 1)) if j + 1 < t.rows else ""
    room = aw - (text_width(below, 7) + 12 if below else 0)
    if names:
        text = "Buildings: " + ", ".join(names)
        while text_width(text, 7) > room and len(names) > 1:
            names.pop()
            text = "Buildings: " + ", ".join(names) + ", ..."
        c.text(m_, m_ * 0.72 - 2.5, text, 7)
    if below:
        c.text(right, m_ * 0.72 - 2.5, below, 7, anchor="end")
    bx, by = m_ + 8 * MM, m_ * 0.32
    c.ops.append(f"q 0 0 0 RG 0.6 w {_f(bx)} {_f(by)} m {_f(bx + 50 * MM)} {_f(by)} l S "
                 f"{_f(bx)} {_f(by - 2)} m {_f(bx)} {_f(by + 2)} l S "
                 f"{_f(bx + 50 * MM)} {_f(by - 2)} m {_f(bx + 50 * MM)} {_f(by + 2)} l S Q")
    c.text(bx + 52 * MM, by - 2.5, f"50 mm   (1 dot = {dot_mm:g} mm)", 6.5)
    c.text(right, by - 2.5, f"page {number}/{total}", 7, anchor="end")
