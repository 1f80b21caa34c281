"""The LOS tool: click a dot, then hover.  Optionally shade the whole fan of what it sees.

Colours: green clear, amber interrupted (with the cover count and each interruption marked),
red blocked (the line stops at the blocking point, with the reason in words).  With a weapon
chosen in the tool options the verdict carries its range band, and under darkcon the tool
draws the burst's Incidental Fire Zone (seed 003 l.434).  Everything
comes from ``engine.sight``, the scenario ruleset's verdict the CLI, validation and play give
too: the editor only draws it.  The origin keeps the
level it was picked on; the hovered target and the fan follow the level switcher.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QLineF, QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsLineItem,
    QGraphicsPolygonItem,
    QGraphicsRectItem,
)

from editor.tools.base import Tool, cosmetic
from editor.tools.overlay import DotShade, text_item
from engine.lattice import get_lattice
from engine.rules.dmz1990 import ELEVATION_TABLE
from engine.rules.sr3 import RANGE_TABLE

GREEN, AMBER, RED = "#2ecc40", "#ffb000", "#ff3030"
ZONE = "#c040ff"

#: the weapons the tool offers per ruleset, each spelt as that ruleset reads it (any other
#: can be typed): DMZ's Elevation Table rows, the Shadowrun Weapon Range Table, and for
#: darkcon a weapon's printed short range in metres (seed 003 l.400)
WEAPONS: dict[str, list[str]] = {
    "dmz1990": list(ELEVATION_TABLE), "sr3": list(RANGE_TABLE), "sr1": list(RANGE_TABLE),
    "darkcon": ["10", "20", "40", "80"],
}


def _get(obj, key, default=None):
    if isinstance(obj, dict):
        return obj.get(key, default)
    return getattr(obj, key, default)


def describe(v) -> tuple[str, str]:
    """(colour, one-line description) of an :class:`engine.sight.Verdict`: the same verdict
    and reasons the CLI prints, in one line."""
    f = v.facts
    rng = f"range {f.range}" + (f" ({v.range_m:g} m)" if v.ruleset != "dmz1990" else "")
    if v.blocked:
        reason = v.reasons[0].removeprefix("blocked: ") if v.reasons else "blocked"
        return RED, f"Blocked: {reason} — {rng}"
    band = v.mods.get("range_band")
    rng += f", {band}" + (" range" if band != "out-of-range" else "") if band else ""
    vis = [c for c in f.visibility if c != "clear"]
    extra = f", {', '.join(vis)}" if vis else ""
    extra += f", {f.elevation_stories} stories up/down" if f.elevation_stories else ""
    if v.result == "interrupted":
        kinds = ", ".join(str(i.get("reason") or i.get("kind")) for i in v.interruptions)
        return AMBER, f"Cover {v.mods['cover']}: {kinds} — {rng}{extra}"
    return GREEN, f"Clear — {rng}{extra}"


class LosTool(Tool):
    name = "los"
    hint = "LOS: click a dot, then hover a target (tick 'LOS fan' to shade everything it sees)"

    def __init__(self, ctx):
        super().__init__(ctx)
        self.origin: tuple[int, int, int] | None = None
        self.target: tuple[int, int, int] | None = None
        self.facts = None
        self.verdict = None
        self.text = ""
        self.fan = None
        self._listening = False  # on the weapon box while active

    def activate(self) -> None:
        super().activate()
        if getattr(self.ctx, "los_panel", None) is not None:
            self.ctx.los_panel.reveal()
        self.ctx.options.set_weapons(WEAPONS.get(self._rules()["ruleset"], []))
        if not self._listening:
            self.ctx.options.weapon_box.currentTextChanged.connect(self._weapon_changed)
            self._listening = True

    def deactivate(self) -> None:
        if self._listening:
            self.ctx.options.weapon_box.currentTextChanged.disconnect(self._weapon_changed)
            self._listening = False
        self.ctx.background.cancel("analysis")
        super().deactivate()
        self._fan_item = None

    def _weapon_changed(self, _text: str) -> None:
        self.redraw(fan=False)

    def _dot(self, p: QPointF) -> tuple[int, int]:
        return get_lattice(self.doc.layout.lattice).dot_at((p.x(), p.y()))

    def press(self, ev, p: QPointF) -> bool:
        if ev.button() != Qt.MouseButton.LeftButton:
            return False
        c, r = self._dot(p)
        self.origin = (c, r, self.state.level)
        self.target = None
        self.redraw()
        return True

    def move(self, ev, p: QPointF) -> bool:
        if self.origin is None:
            return False
        c, r = self._dot(p)
        t = (c, r, self.state.level)
        if t != self.target:
            self.target = t
            self.redraw(fan=False)
        return False

    def key(self, ev) -> bool:
        if ev.key() == Qt.Key.Key_F:
            self.ctx.options.set_fan(not self.ctx.options.fan())
            return True
        if ev.key() == Qt.Key.Key_Escape:
            self.origin = self.target = None
            self.redraw()
            return True
        return False

    def refresh(self) -> None:
        self.ctx.options.set_weapons(WEAPONS.get(self._rules()["ruleset"], []))
        self.redraw()

    def document_changed(self) -> None:
        """Recompile the board (and the fan) in the background; dim the old fan meanwhile."""
        if self.origin is None:
            return
        if self.doc.has_board() and not self.ctx.options.fan():
            self.redraw()
            return
        stale = getattr(self, "_fan_item", None)
        if stale is not None:
            stale.setOpacity(0.35)
        origin, level = self.origin, self.state.level
        want_fan = self.ctx.options.fan()

        rules = self._rules()

        def analyse(board):
            from engine.sight import sight_fan

            return sight_fan(board, origin, level=level, **rules) if want_fan else None
        self.analyse_in_background("LOS", analyse, lambda: (self.origin, self.state.level),
                                   lambda fan: self.redraw(fan_data=fan))

    # ------------------------------------------------------------------ drawing
    def redraw(self, fan: bool = True, fan_data=None) -> None:
        """Recompute from the engine and redraw; ``fan`` False keeps the fan shading;
        ``fan_data`` is a fan already computed in the background."""
        keep = getattr(self, "_fan_item", None) if not fan else None
        for it in list(self._overlay):
            if it is not keep:
                if it.scene() is not None:
                    it.scene().removeItem(it)
        self._overlay = [keep] if keep is not None else []
        if fan:
            self._fan_item = None
        if self.origin is None:
            return
        board = self.doc.board()
        if board is None:
            self.ctx.show_hint(self.doc.board_error() or "no board")
            return
        lat = get_lattice(self.doc.layout.lattice)
        if fan and self.ctx.options.fan():
            self._draw_fan(board, lat, fan_data)
        ox, oy = lat.point(self.origin[:2])
        mark = QGraphicsEllipseItem(ox - 0.35, oy - 0.35, 0.7, 0.7)
        mark.setBrush(QBrush(QColor("#1e90ff")))
        mark.setPen(cosmetic("#ffffff", 2))
        self.add_overlay(mark, z=120)
        if self.target is None or self.target == self.origin:
            self.ctx.show_hint(f"LOS from {self.origin[0]},{self.origin[1]} level "
                               f"{self.origin[2]}: hover a target")
            return
        from engine.sight import sight

        try:
            self.verdict = sight(board, self.origin, self.target, weapon=self.ctx.options.weapon(),
                                 **self._rules())
        except Exception as exc:  # a query off the board: say why, keep going
            self.facts, self.verdict, self.text = None, None, f"LOS: {exc}"
            self.ctx.show_hint(self.text)
            return
        self.facts = self.verdict.facts
        colour, self.text = describe(self.verdict)
        tx, ty = lat.point(self.target[:2])
        end = QPointF(tx, ty)
        by = self.verdict.blocked_by
        point = _get(by, "point") if by else None
        if point is not None:
            cut = QPointF(float(point[0]), float(point[1]))
            rest = QGraphicsLineItem(QLineF(cut, end))
            rest.setPen(cosmetic(RED, 1.5, Qt.PenStyle.DotLine))
            self.add_overlay(rest, z=118)
            x = QGraphicsRectItem(cut.x() - 0.25, cut.y() - 0.25, 0.5, 0.5)
            x.setPen(cosmetic(RED, 3))
            self.add_overlay(x, z=121)
            end = cut
        zone = self.verdict.mods.get("incidental_fire_zone")
        if zone:
            poly = QGraphicsPolygonItem(QPolygonF([QPointF(x, y) for x, y in zone]))
            poly.setBrush(QBrush(QColor(192, 64, 255, 60)))
            poly.setPen(cosmetic(ZONE, 2, Qt.PenStyle.DashLine))
            self.add_overlay(poly, z=117)
        line = QGraphicsLineItem(QLineF(QPointF(ox, oy), end))
        line.setPen(cosmetic(colour, 4))
        self.add_overlay(line, z=119)
        for pt in self._interruption_points(board, self.verdict.interruptions):
            m = QGraphicsEllipseItem(pt[0] - 0.22, pt[1] - 0.22, 0.44, 0.44)
            m.setBrush(QBrush(QColor(AMBER)))
            m.setPen(cosmetic("#000000", 1.5))
            self.add_overlay(m, z=121)
        view = self.ctx.view
        right = view.mapFromScene(QPointF(tx, ty)).x() > view.viewport().width() / 2
        label = text_item(self.text, QPointF(tx, ty), colour=colour, right=right)
        self.add_overlay(label, z=130)
        self.ctx.show_hint(self.text)
        if getattr(self.ctx, "los_panel", None) is not None:  # the side view, every ruleset
            self.ctx.los_panel.show_line(board, self.doc.scenario(), self.origin, self.target)

    def _rules(self) -> dict:
        """The scenario's ruleset and light: the tool asks what the CLI and play ask."""
        scn = self.doc.scenario()
        return {"ruleset": getattr(scn, "ruleset", "dmz1990"), "light": getattr(scn, "light", "day")}

    def _interruption_points(self, board, inter) -> list[tuple[float, float]]:
        """Where the sight line meets each interrupting feature (for the markers)."""
        from shapely.geometry import LineString

        if not inter:
            return []
        lat = get_lattice(self.doc.layout.lattice)
        seg = LineString([lat.point(self.origin[:2]), lat.point(self.target[:2])])
        feats = {f.id: f for f in board.all_features()}
        out = []
        for i in inter:
            f = feats.get(_get(i, "feature"))
            if f is None:
                continue
            hit = seg.intersection(f.geom)
            if hit.is_empty:
                continue
            c = hit.centroid if hit.geom_type != "Point" else hit
            out.append((c.x, c.y))
        return out

    def _draw_fan(self, board, lat, fan=None) -> None:
        from engine.sight import sight_fan

        if fan is None:
            fan = sight_fan(board, self.origin, level=self.state.level, **self._rules())
        self.fan = fan
        dots = np.asarray(fan.dots)
        blocked = np.asarray(fan.blocked, dtype=bool)
        cover = np.asarray(fan.cover, dtype=int)
        colours = np.zeros((len(dots), 4), dtype=np.uint8)
        colours[:] = (46, 204, 64, 90)
        colours[cover > 0] = (255, 176, 0, 110)
        colours[cover > 1] = (255, 120, 0, 130)
        colours[blocked] = (120, 0, 0, 120)
        item = DotShade(self.doc.layout.lattice, dots, colours)
        self._fan_item = self.add_overlay(item, z=60)
