"""The board scene: rebuilt from the document on every change, per level and layer set."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QGraphicsScene

from editor.canvas import style
from editor.canvas.city_picture import CityPicture
from editor.canvas.items import CanvasLabel, ExtrasItem, PlacementItem, label_item, qtransform
from editor.canvas.scenario_item import ScenarioItem
from editor.document import Document
from editor.edits import FeatureRef, PlacementRef, extras_get, get_feature
from editor.scenario_edits import ObjectiveRef, SideRef
from editor.state import EditorState
from engine.model import Defaults, Scenario


def feature_path(feature) -> QPainterPath:
    """Outline of any feature in its own frame, for the selection highlight."""
    path = QPainterPath()
    if hasattr(feature, "polygon"):
        path.addPolygon(style.poly(feature.polygon))
        path.closeSubpath()
    elif hasattr(feature, "path"):
        path = style.path_of(feature.path)
    elif hasattr(feature, "span"):
        path = style.path_of(feature.span)
    elif hasattr(feature, "trunk"):
        path.addEllipse(QPointF(*feature.trunk), 0.45, 0.45)
    elif hasattr(feature, "at"):
        x, y = feature.at
        path.addRect(QRectF(x - 0.45, y - 0.45, 0.9, 0.9))
    return path


class BoardScene(QGraphicsScene):
    """Holds one item per placement; tools add their own overlay items (z >= 100)."""

    #: the city picture's tiles drawn so far and in all (while it is being drawn)
    pictureProgress = Signal(int, int)  # noqa: N815 - Qt signal naming

    def __init__(self, doc: Document, state: EditorState, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.state = state
        #: the board at far zoom, in tiles (see editor.canvas.city_picture)
        self.city_picture = CityPicture(self, on_progress=self.pictureProgress.emit)
        self.addItem(self.city_picture)
        self.placement_items: dict[tuple[bool, int], PlacementItem] = {}
        #: each building's name label and where it sits in the sheet's frame (a drag moves it)
        self.label_items: dict[tuple[bool, int], tuple[QGraphicsItem, tuple]] = {}
        self._model_items: list = []
        self._highlights: list = []
        self._extras_item: ExtrasItem | None = None
        self._scenario_item: ScenarioItem | None = None
        #: bumped whenever the names are made again or one moves (the view lays them out)
        self.names_version = 0
        self.content_rect = QRectF(-0.5, -0.5, 48, 32)
        state.levelChanged.connect(self.rebuild)
        state.layersChanged.connect(self.rebuild)
        # a click only moves the selection marks: the other items keep their cached pictures
        state.selectionChanged.connect(self.show_selection)

    def set_far(self, far: bool) -> None:
        """The canvas is zoomed out past the city picture's threshold (or back in): the
        board's items are shown from the picture where its tiles are drawn."""
        pic = self.city_picture
        if far == pic.active:
            return
        pic.set_active(far)  # tells the items what it shows of them

    def set_document(self, doc: Document) -> None:
        self.doc = doc
        self.rebuild()

    def rebuild(self) -> None:
        """Mirror the document.  An item whose sheet, piece, level and layers are unchanged
        is kept (moved, re-flagged), so it keeps its cached picture and is not repainted."""
        old = self.placement_items
        old_labels = self.label_items
        self.placement_items = {}
        self.label_items = {}
        keep: set[int] = set()
        doc, st = self.doc, self.state
        problems = doc.problems()
        chosen = set(st.placements())
        layers = set(st.layers)
        new_items: list = []
        for r in doc.resolved():
            problem = None if r.pavement else problems.get(r.index)
            selected = PlacementRef(r.pavement, r.index) in chosen
            item = old.get((r.pavement, r.index))
            if item is not None and item.shows(r, st.level, layers):
                item.follow(r, problem, selected)
                keep.add(id(item))
            else:
                item = PlacementItem(r, st.level, layers, problem, selected)
                self.addItem(item)
            new_items.append(item)
            self.placement_items[(r.pavement, r.index)] = item
            if "labels" in st.layers and not r.pavement:
                c = r.footprint.representative_point()
                name = r.piece.id if r.piece else r.sheet.title
                lab, _ = old_labels.get((r.pavement, r.index), (None, None))
                if lab is not None and lab.text() == name and lab.pos() == QPointF(c.x, c.y):
                    keep.add(id(lab))  # the same name in the same place
                else:
                    x0, y0, x1, y1 = r.footprint.bounds
                    lab = label_item(name, QPointF(c.x, c.y), area=QRectF(x0, y0, x1 - x0, y1 - y0))
                    self.addItem(lab)
                new_items.append(lab)
                self.label_items[(r.pavement, r.index)] = (
                    lab, r.transform.inverse().apply((c.x, c.y)))
        ex = doc.layout.extras
        item = self._extras_item
        if ex.areas or ex.lines or ex.trees:
            key = (ex, frozenset(layers), st.level, doc.layout.lattice)
            if item is None or item.key != key:
                item = ExtrasItem(ex, Defaults(), layers, st.level, doc.layout.lattice)
                item.key = key
                self.addItem(item)
            keep.add(id(item))
            new_items.append(item)
            self._extras_item = item
        sc = doc.scenario()
        item = self._scenario_item
        if "scenario" in st.layers and (sc.sides or sc.objectives):
            bounds = self._bounds()
            key = (sc.sides, sc.objectives, st.level, bounds, doc.layout.lattice)
            if item is None or item.key != key:
                item = ScenarioItem(sc, st.level, bounds, doc.layout.lattice)
                item.key = key
                self.addItem(item)
            keep.add(id(item))
            new_items.append(item)
            self._scenario_item = item
        for it in self._model_items:
            if id(it) not in keep:
                self.removeItem(it)
        if self._extras_item is not None and id(self._extras_item) not in keep:
            self._extras_item = None
        if self._scenario_item is not None and id(self._scenario_item) not in keep:
            self._scenario_item = None
        self._model_items = new_items
        self.names_version += 1
        self.show_selection()
        self._fit_rect()

    def move_label(self, key: tuple[bool, int], tf) -> None:
        """Put placement ``key``'s name where transform ``tf`` takes it (a drag preview)."""
        hit = self.label_items.get(key)
        if hit is not None:
            hit[0].setPos(QPointF(*tf.apply(hit[1])))
            self.names_version += 1

    def canvas_labels(self) -> list[CanvasLabel]:
        """Every name shown on the board: the buildings' and the scenario's."""
        out = [lab for lab, _ in self.label_items.values()]
        if self._scenario_item is not None:
            out += [it for it in self._scenario_item.childItems() if isinstance(it, CanvasLabel)]
        return out

    def label_blocks(self) -> list[QRectF]:
        """What names must not cover (scene boxes): the objectives' symbols."""
        item = self._scenario_item
        return item.symbol_rects() if item is not None else []

    def show_selection(self) -> None:
        """Flag the selected buildings and outline a selected feature, zone or objective."""
        for it in self._highlights:
            self.removeItem(it)
        self._highlights.clear()
        chosen = set(self.state.placements())
        for (pav, idx), item in self.placement_items.items():
            item.set_selected(PlacementRef(pav, idx) in chosen)
        sel, doc = self.state.selection, self.doc
        if isinstance(sel, FeatureRef):
            self._highlight(sel)
        elif isinstance(sel, (ObjectiveRef, SideRef)) and isinstance(doc.root, Scenario):
            self._highlight_scenario(sel)

    def _highlight_scenario(self, ref) -> None:
        sc = self.doc.root
        path = QPainterPath()
        try:
            if isinstance(ref, ObjectiveRef):
                x, y = sc.objectives[ref.index].at[:2]
                path.addEllipse(QPointF(float(x), float(y)), 0.9, 0.9)
            else:
                dep = sc.sides[ref.index].deployment
                path.addPolygon(style.poly(dep.polygon))
                path.closeSubpath()
        except (IndexError, TypeError, AttributeError):
            return
        self._add_highlight(path)

    def _add_highlight(self, path: QPainterPath) -> None:
        item = QGraphicsPathItem(path)
        pen = QPen(style.SELECT, 0.0)
        pen.setCosmetic(True)
        pen.setWidthF(3.0)
        pen.setStyle(Qt.PenStyle.DashLine)
        item.setPen(pen)
        item.setZValue(95)
        self.addItem(item)
        self._highlights.append(item)

    def _highlight(self, ref: FeatureRef) -> None:
        doc = self.doc
        try:
            if ref.sheet is None:
                feat = extras_get(doc.layout.extras, ref)
                tfs = [None]
            else:
                feat = get_feature(doc.sheets()[ref.sheet], ref)
                tfs = [r.transform for r in doc.resolved() if r.sheet.id == ref.sheet]
        except (KeyError, IndexError, AttributeError, TypeError):
            return
        base = feature_path(feat)
        for tf in tfs:
            self._add_highlight(base if tf is None else qtransform(tf).map(base))

    def _bounds(self) -> tuple[float, float, float, float]:
        """World extent of the pavement (of everything when there is no pavement)."""
        pav = [r.footprint for r in self.doc.resolved() if r.pavement] or [
            r.footprint for r in self.doc.resolved()]
        if not pav:
            return (-0.5, -0.5, 47.5, 31.5)
        b = [g.bounds for g in pav]
        return (min(x[0] for x in b), min(x[1] for x in b), max(x[2] for x in b),
                max(x[3] for x in b))

    def _fit_rect(self) -> None:
        rect = QRectF()
        for r in self.doc.resolved():
            x0, y0, x1, y1 = r.footprint.bounds
            rect = rect.united(QRectF(x0, y0, x1 - x0, y1 - y0))
        if rect.isNull():
            rect = QRectF(-0.5, -0.5, 48, 32)
        self.content_rect = rect
        margin = 40.0
        self.setSceneRect(rect.adjusted(-margin, -margin, margin, margin))
        if self._extras_item is not None:
            rect = rect.united(self._extras_item.sceneBoundingRect())
        self.city_picture.set_extent(rect.adjusted(-2, -2, 2, 2))
