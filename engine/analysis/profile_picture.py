"""The side view of a line of sight as a picture (the CLI's ``los --profile`` and the editor's
LOS panel draw the same pixels).  1 level = 4 m = 2 dots, so the picture is at true scale."""

from __future__ import annotations

import numpy as np

from engine.analysis.profile import Profile
from engine.board import fmt_dot

STORY = 2.0  # dots per level (a dot is 2 m, a level 4 m)
PX_PER_DOT = 20
GREEN, AMBER, RED = "#2e9e3e", "#e69500", "#d62728"
BLOCK_FILL, OWN_FILL, EDGE, INK = "#c9c2b4", "#ece6da", "#6f675a", "#1b1b1b"


def profile_scene(p: Profile):
    """A :class:`engine.render.display.Scene` of the profile (x along the line, y up = -y)."""
    from engine.render.display import Circle, Path, Poly, Scene, Text
    from engine.render.metrics import text_width

    L = max(p.length, 1.0)
    top = max([p.a[2], p.b[2], 1] + [k.height for k in p.blocks]) * STORY + 1.0
    items: list = []
    frame: list = []

    def pt(s: float, level: float) -> tuple[float, float]:
        return (s * L, -level * STORY)

    def rect(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
        return np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)])

    # buildings: blocks the line passes, and the ends' own buildings with their floors
    for k in p.blocks:
        x0, x1 = k.s0 * L, k.s1 * L
        h = k.height * STORY
        items.append(Poly([rect(x0, -h, x1, 0.0)], fill=OWN_FILL if k.end else BLOCK_FILL,
                          stroke=EDGE, width=0.06))
        for lv in range(1, k.height):
            items.append(Path(np.array([(x0, -lv * STORY), (x1, -lv * STORY)]), stroke=EDGE,
                              width=0.04, dash=(0.25, 0.15)))
        frame.append(Text(((x0 + x1) / 2, -h - 0.3), f"{k.placement} ({k.height})", 0.61,
                          EDGE, "middle"))
    # ground and distance ticks
    items.append(Path(np.array([(-0.5, 0.0), (L + 0.5, 0.0)]), stroke=INK, width=0.1))
    for d in range(0, int(L) + 1, 5):
        items.append(Path(np.array([(d, 0.0), (d, 0.3)]), stroke=INK, width=0.05))
        frame.append(Text((d, 1.0), f"{d}", 0.61, INK, "middle"))
    for lv in range(0, int(top // STORY) + 1):
        frame.append(Text((-0.8, -lv * STORY + 0.2), f"L{lv}", 0.61, "#606060", "end"))
    # the sight line: clear/interrupted colour up to the block, dotted red after it
    colour = RED if p.facts.blocked else (AMBER if p.facts.cover else GREEN)
    a_pt, b_pt = pt(0.0, p.a[2]), pt(1.0, p.b[2])
    if p.blocked_at is not None and p.blocked_at.s is not None:
        cut = pt(p.blocked_at.s, p.level_at(p.blocked_at.s))
        items.append(Path(np.array([a_pt, cut]), stroke=RED, width=0.14))
        items.append(Path(np.array([cut, b_pt]), stroke=RED, width=0.08, dash=(0.3, 0.2)))
        items.append(Path(np.array([(cut[0] - 0.4, cut[1] - 0.4), (cut[0] + 0.4, cut[1] + 0.4)]),
                          stroke=RED, width=0.16))
        items.append(Path(np.array([(cut[0] - 0.4, cut[1] + 0.4), (cut[0] + 0.4, cut[1] - 0.4)]),
                          stroke=RED, width=0.16))
    else:
        items.append(Path(np.array([a_pt, b_pt]), stroke=colour, width=0.14))
    for n, m in enumerate(p.marks, 1):
        if m.s is None:
            continue
        x, y = pt(m.s, p.level_at(m.s))
        items.append(Circle((x, y), 0.32, fill=AMBER, stroke=INK, width=0.05))
        frame.append(Text((x, y - 0.5), str(n), 0.61, INK, "middle", bold=True, halo=True))
    for name, (x, y), dot in (("A", a_pt, p.a), ("B", b_pt, p.b)):
        items.append(Circle((x, y), 0.38, fill="#1e90ff", stroke="#ffffff", width=0.08))
        frame.append(Text((x, y - 0.7), f"{name} {fmt_dot(dot)}", 0.68, INK, "middle",
                          bold=True, halo=True))
    # the words: verdict, then each interruption and the blocking reason
    verdict = ("BLOCKED" if p.facts.blocked else "INTERRUPTED" if p.facts.cover else "CLEAR")
    lines = [f"{verdict}: range {p.range} dots, {p.facts.elevation_stories} stories apart, "
             f"cover {p.facts.cover}"]
    lines += [f"{n}. {m.reason}" for n, m in enumerate(p.marks, 1)]
    if p.blocked_at is not None:
        lines.append(f"X. {p.blocked_at.reason}")
    y = 2.0
    for i, t in enumerate(lines):
        frame.append(Text((0.0, y + 0.9 * i + 0.5), t, 0.68 if i == 0 else 0.57,
                          colour if i == 0 else INK, bold=i == 0))
    bottom = y + 0.9 * len(lines) + 0.5
    wide = max([L + 1.0] + [text_width(t, 0.68) + 1.0 for t in lines])
    box = (-2.5, -top - 1.2, wide + 0.5, bottom)
    title = f"side view {fmt_dot(p.a)} -> {fmt_dot(p.b)}"
    frame.insert(0, Text((-2.3, -top - 0.4), title, 0.82, INK, bold=True))
    return Scene(0, title, box, box, items, frame)


def profile_png(p: Profile, px_per_dot: float = PX_PER_DOT) -> bytes:
    """PNG bytes of the side view, drawn by the project's raster backend (engine.render)."""
    from engine.render.backend import raster

    return raster().png(profile_scene(p), px_per_dot)
