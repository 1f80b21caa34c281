"""Text widths in the metrics of Helvetica (the PDF's standard font), for placing labels.

Every backend lays text out from these widths: the PDF uses Helvetica itself, SVG names
Helvetica/Arial (same metrics), and the Qt painter squeezes its font to the same advance when
the system font is wider, so a label never outgrows the box the placer reserved for it.
Widths are the Adobe AFM advances in 1/1000 em; accented letters take their base letter's width.
"""

from __future__ import annotations

import unicodedata

_ASCII = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"
_REGULAR = (
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584)
_BOLD = (
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,
    975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,
    333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,
    611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584)
REGULAR = dict(zip(_ASCII, _REGULAR))
BOLD = dict(zip(_ASCII, _BOLD))
#: the em size of a font whose capital letters are ``size`` high (Helvetica caps: 0.718 em)
EM_PER_CAP = 1.0 / 0.718


def char_width(ch: str, bold: bool = False) -> float:
    """Advance of one character in em."""
    table = BOLD if bold else REGULAR
    w = table.get(ch)
    if w is None:
        base = unicodedata.normalize("NFD", ch)[:1]
        w = table.get(base, 556 if not unicodedata.combining(ch) else 0)
    return w / 1000.0


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width of ``text`` set at font size ``size`` (the em), in the same unit as ``size``."""
    return sum(char_width(c, bold) for c in text) * size


__all__ = ["EM_PER_CAP", "char_width", "text_width"]
