"""Small zone files written into tmp_path for the zone tests."""

from __future__ import annotations

import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RIVER1 = ROOT / "zones" / "river-1.yaml"
RIVER2 = ROOT / "zones" / "river-2.yaml"

HEAD = """\
format: sprawlmap/zone@1
title: Test zone
"""

PLAIN_BLOCK = """\
format: sprawlmap/layout@1
layout:
  lattice: square
  pavement:
    - {id: street, sheet: pavement-backstreets, at: [0, 0]}
"""


def write(tmp_path: Path, body: str, name: str = "z.yaml") -> Path:
    p = tmp_path / name
    p.write_text(HEAD + textwrap.dedent(body), encoding="utf-8")
    return p


def seam_zone(tmp_path: Path, extra: str = "", river: bool = False) -> Path:
    """Two plain 48 x 32 street blocks side by side (or with a River block between them)."""
    (tmp_path / "plain.yaml").write_text(PLAIN_BLOCK, encoding="utf-8")
    if river:
        body = """\
        grid: [3, 1]
        block_size: [48, 32]
        players:
          - {id: A, safehouse: west}
          - {id: B, safehouse: east}
        river: {blocks: [[1, 0]]}
        blocks:
          - {at: [0, 0], layout: plain.yaml}
          - {at: [2, 0], layout: plain.yaml}
        """
    else:
        body = """\
        grid: [2, 1]
        block_size: [48, 32]
        players:
          - {id: A, safehouse: west}
          - {id: B, safehouse: east}
        blocks:
          - {at: [0, 0], layout: plain.yaml}
          - {at: [1, 0], layout: plain.yaml}
        """
    return write(tmp_path, textwrap.dedent(body) + textwrap.dedent(extra))
