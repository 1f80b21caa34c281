"""Properties of the selection: a placement, a feature, or the sheet's defaults.

Every change is an undoable edit of the model.  Text fields merge consecutive keystrokes into
one undo step.  Barrier classes are a named class, the sheet default, or an explicit barrier
value and armor (DMZ barrier table: thin 8/0, average 12/1, thick 18/3, standard window 6/0,
reinforced window 14/2).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from editor import edits
from editor import scenario_edits as se
from editor.context import EditorContext
from editor.edits import FeatureRef, PlacementRef
from editor.scenario_edits import ObjectiveRef, SideRef
from engine.model import (
    AREA_KINDS,
    DARKNESS,
    LINE_KINDS,
    LOS_EFFECTS,
    STANDABLE,
    WALL_CLASSES,
    WINDOW_CLASSES,
    Barrier,
    Defaults,
    Opening,
    Scenario,
    Sheet,
)

DEFAULT = "(default)"
EXPLICIT = "explicit…"
BARRIER_OF = {"thin": (8, 0), "average": (12, 1), "thick": (18, 3), "standard": (6, 0),
              "reinforced": (14, 2)}


ID_RE = re.compile(r"[a-z0-9-]+")


def resize_sheet(sheet: Sheet, axis: int, value: int) -> Sheet:
    """New size along ``axis``; a box outline follows the size, a drawn outline stays."""
    size = list(sheet.size)
    old_box = ((-0.5, -0.5), (size[0] - 0.5, -0.5), (size[0] - 0.5, size[1] - 0.5),
               (-0.5, size[1] - 0.5))
    size[axis] = value
    outline = sheet.outline
    if tuple(map(tuple, outline)) == old_box:
        w, h = size
        outline = ((-0.5, -0.5), (w - 0.5, -0.5), (w - 0.5, h - 0.5), (-0.5, h - 0.5))
    return replace(sheet, size=tuple(size), outline=outline)


def class_values(cls: Any) -> tuple[int, int]:
    """(barrier, armor) of a named class or an explicit barrier."""
    if isinstance(cls, Barrier):
        return cls.barrier, cls.armor
    return BARRIER_OF.get(cls or "", (12, 1))


class ClassEditor(QWidget):
    """Class combo (+ barrier/armor spins, shown for an explicit value only).

    ``default`` is what "(default)" stands for (the sheet's class for this kind of feature):
    the combo names it with its values, and "explicit…" starts from the class it replaces.
    The spins apply a typed number on Enter or when focus leaves, so typing "10" is one undo
    step and never applies barrier 1 on the way."""

    def __init__(self, names: tuple[str, ...], value: Any, on_change: Callable[[Any], None],
                 allow_default: bool = True, default: Any = None):
        super().__init__()
        self.names = names
        self.on_change = on_change
        self.allow_default = allow_default
        self.default = default
        self.combo = QComboBox()
        if allow_default:
            if default is None:
                self.combo.addItem(DEFAULT)
            else:
                b, a = class_values(default)
                name = "explicit" if isinstance(default, Barrier) else default
                self.combo.addItem(f"(default: {name} {b}/{a})")
        for n in names:
            b, a = class_values(n)
            self.combo.addItem(n)
            self.combo.setItemData(self.combo.count() - 1, f"barrier {b}, armor {a}",
                                   Qt.ItemDataRole.ToolTipRole)
        self.combo.addItem(EXPLICIT)
        self.barrier = QSpinBox()
        self.barrier.setRange(0, 99)
        self.barrier.setPrefix("barrier ")
        self.armor = QSpinBox()
        self.armor.setRange(0, 20)
        self.armor.setPrefix("armor ")
        for sb in (self.barrier, self.armor):
            sb.setKeyboardTracking(False)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.combo)
        row = QHBoxLayout()
        row.addWidget(self.barrier)
        row.addWidget(self.armor)
        lay.addLayout(row)
        self.set_value(value)
        self._last = self.value()
        self.combo.currentIndexChanged.connect(self._changed)
        self.barrier.valueChanged.connect(self._changed)
        self.armor.valueChanged.connect(self._changed)

    def _is_default(self) -> bool:
        return self.allow_default and self.combo.currentIndex() == 0

    def set_value(self, value: Any) -> None:
        for w in (self.combo, self.barrier, self.armor):
            w.blockSignals(True)
        explicit = isinstance(value, Barrier)
        if explicit:
            self.combo.setCurrentText(EXPLICIT)
        elif value:
            self.combo.setCurrentText(value)
        else:
            self.combo.setCurrentIndex(0)
        b, a = class_values(value if value else self.default)
        self.barrier.setValue(b)
        self.armor.setValue(a)
        self.barrier.setVisible(explicit)
        self.armor.setVisible(explicit)
        for w in (self.combo, self.barrier, self.armor):
            w.blockSignals(False)

    def value(self) -> Any:
        t = self.combo.currentText()
        if t == EXPLICIT:
            return Barrier(self.barrier.value(), self.armor.value())
        return None if self._is_default() else t

    def _changed(self, *_):
        if self.combo.currentText() == EXPLICIT and not isinstance(self._last, Barrier):
            # start the explicit value from the class it replaces (the sheet's when default)
            b, a = class_values(self._last if self._last else self.default)
            for w, v in ((self.barrier, b), (self.armor, a)):
                w.blockSignals(True)
                w.setValue(v)
                w.blockSignals(False)
        explicit = self.combo.currentText() == EXPLICIT
        self.barrier.setVisible(explicit)
        self.armor.setVisible(explicit)
        self._last = self.value()
        self.on_change(self._last)


def _opt_spin(value: int | None, lo: int, hi: int, on: Callable[[int | None], None]) -> QSpinBox:
    """A spin box where the minimum means 'not set' (the rule's default)."""
    sb = QSpinBox()
    sb.setRange(lo - 1, hi)
    sb.setSpecialValueText("default")
    sb.setValue(lo - 1 if value is None else value)
    sb.valueChanged.connect(lambda v: on(None if v == lo - 1 else v))
    return sb


def _opt_combo(values: tuple[str, ...], value: str | None, on: Callable[[str | None], None]
               ) -> QComboBox:
    cb = QComboBox()
    cb.addItem(DEFAULT)
    cb.addItems(list(values))
    cb.setCurrentText(value or DEFAULT)
    cb.currentTextChanged.connect(lambda t: on(None if t == DEFAULT else t))
    return cb


class PropertiesPanel(QScrollArea):
    def __init__(self, ctx: EditorContext, parent=None):
        super().__init__(parent)
        self.ctx = ctx
        self.setWidgetResizable(True)
        self._sel_key: Any = ("none",)
        self._own = False
        #: sheets this panel made unique for the selected copy: old id -> the copy's own
        self._renamed: dict[str, str] = {}
        #: shared sheets the designer chose to change for every copy (asked once per build)
        self._every: set[str] = set()
        self._sheet_boxes: dict[str, QGroupBox] = {}
        self.rebuild()

    # ------------------------------------------------------------------ plumbing
    @property
    def doc(self):
        return self.ctx.doc

    def _key(self) -> tuple:
        """What the panel shows: rebuilt when this changes.  With nothing selected in a
        scenario, only the few figures of the scenario box count (not every edit's root)."""
        cur = self._current()
        if isinstance(cur, Scenario):
            cur = (cur.title, cur.ruleset, len(cur.layout.placements), len(cur.layout.pieces))
        return (self.ctx.state.selection, cur, self._group_key())

    def refresh(self) -> None:
        """Rebuild unless the same object is still selected and unchanged (keeps focus)."""
        key = self._key()
        if self._own:
            # our own edit: the widgets already show it; rebuilding now would delete the
            # widget whose signal is running (and steal the focus while typing)
            self._sel_key = key
            return
        if key != self._sel_key:
            self.rebuild()

    def _edit(self, fn: Callable[[], None], relayout: bool = False) -> None:
        self._own = True
        try:
            fn()
        finally:
            self._own = False
        if relayout:
            QTimer.singleShot(0, self.rebuild)

    def _sheet_target(self, sid: str) -> str | None:
        """Where an edit of sheet ``sid`` made on the selected building goes: the sheet
        (every copy shows it), "copy" (the building is made unique first), or None when the
        designer cancels.  Asked once when other copies show the sheet, like tagging."""
        sid = self._renamed.get(sid, sid)
        doc, copy = self.doc, self.ctx.state.copy
        if (doc.mode != "scenario" or copy is None or self.ctx.make_unique is None
                or sid in self._every):
            return sid
        try:
            shown = doc.layout.placements[copy.index].sheet
        except IndexError:
            return sid
        copies = edits.sheet_users(doc.layout, sid)
        if shown != sid or copies <= 1:
            return sid
        scope = self.ctx.ask_edit_scope(doc.sheets()[sid].title, copies)
        if scope == "sheet":
            self._every.add(sid)
            return sid
        return scope  # "copy" or None

    def _sheet_edit(self, sid: str, text: str, change: Callable[[Sheet], Sheet],
                    merge: str | None = None, relayout: bool = False) -> None:
        """Change sheet ``sid`` by ``change`` (one undo step); on a shared sheet, for this
        copy only (made unique in the same undo step) or for every copy, as asked."""
        target = self._sheet_target(sid)
        if target is None:
            self.ctx.show_hint("Nothing changed")
            QTimer.singleShot(0, self.rebuild)  # the widget shows the model again
            return
        if target != "copy":
            self._edit(lambda: self.doc.edit_sheet(change(self.doc.sheets()[target]), text,
                                                   merge), relayout=relayout)
            return
        state = self.ctx.state
        copy = state.copy

        def fn() -> None:
            stack = self.doc.undo_stack
            stack.beginMacro(f"{text} (this copy)")
            try:
                new_id = self.ctx.make_unique(copy)
                self._renamed[sid] = new_id
                self.doc.edit_sheet(change(self.doc.sheets()[new_id]), text)
            finally:
                stack.endMacro()
            sel = state.selection
            if isinstance(sel, FeatureRef) and sel.sheet == sid:
                state.select(replace(sel, sheet=new_id), copy)
            box = self._sheet_boxes.get(sid)
            if box is not None:
                box.setTitle(f"Sheet {new_id}")
            self.ctx.show_hint(f"Changed this copy only: it now shows its own sheet {new_id}")
        self._edit(fn, relayout=relayout)

    def _current(self) -> Any:
        sel = self.ctx.state.selection
        try:
            if isinstance(sel, PlacementRef):
                lay = self.doc.layout
                return (lay.pavement if sel.pavement else lay.placements)[sel.index]
            if isinstance(sel, ObjectiveRef):
                return self.doc.root.objectives[sel.index]
            if isinstance(sel, SideRef):
                return self.doc.root.sides[sel.index]
            if isinstance(sel, FeatureRef):
                if sel.sheet is None:
                    return edits.extras_get(self.doc.layout.extras, sel)
                return edits.get_feature(self.doc.sheets()[sel.sheet], sel)
        except (IndexError, KeyError, AttributeError):
            return None
        return self.doc.root  # nothing selected: the scenario box, or the sheet in sheet mode

    def _group_key(self) -> tuple:
        group = self.ctx.state.group
        if len(group) < 2:
            return ()
        try:
            return tuple((r, self.doc.layout.placements[r.index]) for r in group)
        except IndexError:
            return ()

    def rebuild(self) -> None:
        sel = self.ctx.state.selection
        cur = self._current()
        self._sel_key = self._key()
        self._renamed.clear()
        self._every.clear()
        self._sheet_boxes.clear()
        body = QWidget()
        lay = QVBoxLayout(body)
        if self._group_key():
            lay.addWidget(self._group_box(self.ctx.state.group))
        elif isinstance(sel, FeatureRef) and cur is not None:
            lay.addWidget(self._feature_box(sel, cur))
            if sel.sheet is not None:
                lay.addWidget(self._sheet_box(self.doc.sheets()[sel.sheet]))
        elif isinstance(sel, PlacementRef) and cur is not None:
            lay.addWidget(self._placement_box(sel, cur))
            r = next((x for x in self.doc.resolved()
                      if x.pavement == sel.pavement and x.index == sel.index), None)
            if r is not None:
                lay.addWidget(self._sheet_box(r.sheet))
        elif isinstance(sel, ObjectiveRef) and cur is not None:
            lay.addWidget(self._objective_box(sel, cur))
        elif isinstance(sel, SideRef) and cur is not None:
            lay.addWidget(self._side_box(sel, cur))
        elif sel is None and isinstance(self.doc.root, Sheet):
            lay.addWidget(self._sheet_box(self.doc.root))
        elif sel is None:
            lay.addWidget(self._scenario_box())
        lay.addStretch(1)
        self.setWidget(body)

    # ------------------------------------------------------------------ boxes
    def _scenario_box(self) -> QGroupBox:
        box = QGroupBox("Scenario")
        form = QFormLayout(box)
        sc = self.doc.root
        title = QLineEdit(sc.title)
        title.textEdited.connect(lambda t: self._edit(lambda: self.doc.push(
            replace(self.doc.root, title=t), "Edit title", merge_key="title")))
        form.addRow("Title", title)
        form.addRow("Ruleset", QLabel(sc.ruleset))
        form.addRow("Placements", QLabel(str(len(sc.layout.placements))))
        form.addRow("Pieces", QLabel(str(len(sc.layout.pieces))))
        form.addRow(QLabel("Select a building or a feature to edit it."))
        return box

    def _objective_box(self, ref: ObjectiveRef, ob) -> QGroupBox:
        box = QGroupBox(f"Objective {ob.id}")
        form = QFormLayout(box)

        def push(text, merge=None, relayout=False, **change):
            new = replace(self._current(), **change)
            self._edit(lambda: self.doc.push(se.set_objective(self.doc.root, ref, new), text,
                                             merge), relayout=relayout)

        side = QComboBox()
        side.addItems([s.id for s in self.doc.root.sides])
        side.setCurrentText(ob.side)
        side.currentTextChanged.connect(lambda t: push("Objective side", side=t))
        form.addRow("Side", side)
        kind = QComboBox()
        kind.setObjectName("objective-kind")
        kind.addItems(list(se.OBJECTIVE_KINDS))
        kind.setCurrentText(ob.kind)
        kind.currentTextChanged.connect(lambda t: push("Objective kind", kind=t))
        form.addRow("Kind", kind)
        if ob.at is not None:
            form.addRow("At", QLabel(",".join(str(v) for v in ob.at)))
        form.addRow("Points", _opt_spin(ob.points, 0, 100, lambda v: push("Points", points=v)))
        form.addRow("By turn", _opt_spin(ob.by_turn, 1, 99,
                                         lambda v: push("By turn", by_turn=v)))
        if ob.kind == "hold":
            form.addRow("Turns", _opt_spin(ob.turns, 1, 99, lambda v: push("Turns", turns=v)))
        if ob.kind == "retrieve":
            then = QLineEdit(ob.then or "")
            then.textEdited.connect(lambda t: push("Then", f"then:{ref}", then=t or None))
            form.addRow("Then", then)
        if ob.kind in ("eliminate", "protect"):
            tgt = QLineEdit(ob.target or "")
            tgt.textEdited.connect(lambda t: push("Target", f"target:{ref}", target=t or None))
            form.addRow("Target", tgt)
        if ob.kind == "exit":
            form.addRow("Edge", _opt_combo(se.EDGES, ob.edge, lambda v: push("Edge", edge=v)))
        note = QLineEdit(ob.note)
        note.textEdited.connect(lambda t: push("Note", f"note:{ref}", note=t))
        form.addRow("Note", note)
        kind.currentTextChanged.connect(lambda _: QTimer.singleShot(0, self.rebuild))
        return box

    def _side_box(self, ref: SideRef, side) -> QGroupBox:
        box = QGroupBox(f"Side {side.id}")
        form = QFormLayout(box)

        def push(text, merge=None, **change):
            new = replace(self._current(), **change)
            self._edit(lambda: self.doc.push(se.set_side(self.doc.root, ref, new), text, merge))

        name = QLineEdit(side.name)
        name.setObjectName("side-name")
        name.textEdited.connect(lambda t: push("Side name", f"name:{ref}", name=t))
        form.addRow("Name", name)
        if side.deployment is not None:
            lv = QSpinBox()
            lv.setRange(0, 60)
            lv.setValue(side.deployment.level)
            lv.valueChanged.connect(lambda v: push(
                "Deployment level", deployment=replace(self._current().deployment, level=v)))
            form.addRow("Deploys on level", lv)
        form.addRow("Characters", QLabel(str(len(side.characters))))
        note = QLineEdit(side.note)
        note.textEdited.connect(lambda t: push("Note", f"note:{ref}", note=t))
        form.addRow("Note", note)
        return box

    def _placement_box(self, ref: PlacementRef, pl) -> QGroupBox:
        box = QGroupBox("Pavement" if ref.pavement else "Placement")
        form = QFormLayout(box)

        def push(new, text, merge=None):
            self._edit(lambda: self.doc.edit_layout(
                edits.set_placement(self.doc.layout, ref, new), text, merge))

        form.addRow("Sheet", QLabel(pl.sheet + (f" (piece {pl.piece})" if pl.piece else "")))
        ident = QLineEdit(pl.id)
        ident.textEdited.connect(lambda t: push(replace(self._current(), id=t), "Rename",
                                                f"id:{ref}"))
        form.addRow("Id", ident)
        for i, axis in enumerate(("Column", "Row")):
            sb = QSpinBox()
            sb.setRange(-999, 9999)
            sb.setValue(pl.at[i])

            def moved(v, i=i):
                at = list(self._current().at)
                at[i] = v
                push(replace(self._current(), at=tuple(at)), "Move", f"at:{ref}")
            sb.valueChanged.connect(moved)
            form.addRow(axis, sb)
        rot = QComboBox()
        step = 90 if self.doc.layout.lattice == "square" else 60
        for a in range(0, 360, step):
            rot.addItem(f"{a}°", a)
        rot.setCurrentIndex(rot.findData(pl.rotation))
        rot.currentIndexChanged.connect(
            lambda i: push(replace(self._current(), rotation=rot.itemData(i)), "Rotate"))
        form.addRow("Rotation", rot)
        mir = QCheckBox()
        mir.setChecked(pl.mirror)
        mir.toggled.connect(lambda on: push(replace(self._current(), mirror=on), "Mirror"))
        form.addRow("Mirrored", mir)
        note = QLineEdit(pl.note)
        note.textEdited.connect(lambda t: push(replace(self._current(), note=t), "Note",
                                               f"note:{ref}"))
        form.addRow("Note", note)
        copies = edits.sheet_users(self.doc.layout, pl.sheet)
        if copies > 1 and not ref.pavement and self.ctx.make_unique is not None:
            row = QHBoxLayout()
            row.addWidget(QLabel(f"Sheet shown by {copies} copies"))
            unique = QPushButton("Make unique")
            unique.setObjectName("make-unique")
            unique.setToolTip("Give this copy a sheet of its own: what is changed on it then "
                              "leaves the other copies alone")

            def make_unique() -> None:
                new_id = self.ctx.make_unique(ref)
                self.ctx.show_hint(f"This copy now shows its own sheet {new_id}")
                QTimer.singleShot(0, self.rebuild)
            unique.clicked.connect(make_unique)
            row.addWidget(unique)
            form.addRow(row)
        problem = self.doc.problems().get(ref.index) if not ref.pavement else None
        if problem:
            warn = QLabel(f"⚠ {problem}")
            warn.setStyleSheet("color: #d22;")
            form.addRow(warn)
        return box

    def _group_box(self, group) -> QGroupBox:
        """Several buildings: the fields they share (rotation, mirror, note), edited on all
        of them at once as one undo step.  A field they differ in shows blank until set."""
        box = QGroupBox(f"{len(group)} buildings")
        box.setObjectName("group")
        form = QFormLayout(box)
        pls = [self.doc.layout.placements[r.index] for r in group]
        form.addRow("Sheets", QLabel(", ".join(sorted({p.sheet for p in pls}))))

        def push_all(text, merge=None, **change):
            def fn():
                layout = self.doc.layout
                for r in group:
                    layout = edits.set_placement(
                        layout, r, replace(layout.placements[r.index], **change))
                self.doc.edit_layout(layout, f"{text} {len(group)} buildings", merge)
            self._edit(fn)

        rot = QComboBox()
        rot.setObjectName("group-rotation")
        step = 90 if self.doc.layout.lattice == "square" else 60
        for a in range(0, 360, step):
            rot.addItem(f"{a}°", a)
        same = {p.rotation for p in pls}
        rot.setCurrentIndex(rot.findData(same.pop()) if len(same) == 1 else -1)
        rot.currentIndexChanged.connect(
            lambda i: i >= 0 and push_all("Rotate", rotation=rot.itemData(i)))
        form.addRow("Rotation", rot)
        mir = QCheckBox()
        mir.setObjectName("group-mirror")
        mirrors = {p.mirror for p in pls}
        if len(mirrors) > 1:
            mir.setTristate(True)
            mir.setCheckState(Qt.CheckState.PartiallyChecked)
        else:
            mir.setChecked(mirrors.pop())
        mir.clicked.connect(lambda on: push_all("Mirror", mirror=bool(on)))
        form.addRow("Mirrored", mir)
        notes = {p.note for p in pls}
        note = QLineEdit(next(iter(notes)) if len(notes) == 1 else "")
        note.setObjectName("group-note")
        note.setPlaceholderText("(differ)" if len(notes) > 1 else "")
        note.textEdited.connect(lambda t: push_all("Note", f"group-note:{group}", note=t))
        form.addRow("Note", note)
        return box

    def _sheet_box(self, sheet: Sheet) -> QGroupBox:
        box = QGroupBox(f"Sheet {sheet.id}")
        form = QFormLayout(box)
        sid = sheet.id
        self._sheet_boxes[sid] = box

        def push(change: Callable[[Sheet], Sheet], text, merge=None):
            self._sheet_edit(sid, text, change, merge)

        title = QLineEdit(sheet.title)
        title.setObjectName("sheet-title")
        title.textEdited.connect(lambda t: push(lambda sh: replace(sh, title=t), "Sheet title",
                                                f"title:{sid}"))
        form.addRow("Title", title)
        if isinstance(self.doc.root, Sheet):
            # only a sheet being edited on its own may change id and size: placements in a
            # scenario refer to the id and their geometry to the size
            ident = QLineEdit(sheet.id)
            ident.setObjectName("sheet-id")

            def renamed():
                t = ident.text().strip()
                if ID_RE.fullmatch(t) and t != self.doc.root.id:
                    self._edit(lambda: self.doc.push(replace(self.doc.root, id=t), "Sheet id"),
                               relayout=True)
            ident.editingFinished.connect(renamed)
            form.addRow("Id", ident)
            for i, axis in enumerate(("Columns", "Rows")):
                sb = QSpinBox()
                sb.setRange(2, 400)
                sb.setValue(sheet.size[i])

                def resized(v, i=i):
                    self._edit(lambda: self.doc.push(resize_sheet(self.doc.root, i, v),
                                                     "Sheet size", merge_key=f"size{i}"))
                sb.valueChanged.connect(resized)
                form.addRow(axis, sb)
        if sheet.kind == "building":
            h = QSpinBox()
            h.setObjectName("sheet-stories")
            h.setRange(1, 60)
            h.setValue(max(sheet.height, 1))
            h.valueChanged.connect(lambda v: push(lambda sh: replace(sh, height=v),
                                                  "Sheet height"))
            form.addRow("Stories", h)
        for attr, names in (("wall", WALL_CLASSES), ("door", WALL_CLASSES),
                            ("window", WINDOW_CLASSES)):
            def changed(v, attr=attr, names=names):
                v = v if v is not None else Defaults().__getattribute__(attr)
                push(lambda sh: replace(sh, defaults=replace(sh.defaults, **{attr: v})),
                     f"All {attr}s {v}")
            ed = ClassEditor(names, getattr(sheet.defaults, attr), changed, allow_default=False)
            form.addRow(f"All {attr}s", ed)
        return box

    def _feature_box(self, ref: FeatureRef, feat) -> QGroupBox:
        kind = getattr(feat, "kind", ref.list[:-1])
        where = "pavement extras" if ref.sheet is None else f"{ref.sheet}, level {ref.level}"
        box = QGroupBox(f"{kind} {feat.id}".strip())
        form = QFormLayout(box)
        form.addRow("On", QLabel(where))

        def cur():
            return self._current()

        def push(text, merge=None, **change):
            new = replace(cur(), **change)
            if ref.sheet is None:
                def fn():
                    self.doc.edit_layout(edits.extras_set(self.doc.layout, ref, new), text,
                                         merge)
            else:  # a placed sheet's feature: maybe for this copy only (asked)
                self._sheet_edit(ref.sheet, text, lambda sh: edits.set_feature(sh, ref, new),
                                 merge, relayout="kind" in change)
                return
            self._edit(fn, relayout="kind" in change)

        names = {f.name for f in fields(feat)}
        sheet_defaults = (self.doc.sheets()[ref.sheet].defaults if ref.sheet is not None
                          and ref.sheet in self.doc.sheets() else Defaults())
        if ref.list == "walls" or (ref.list == "lines" and feat.kind == "fence"):
            form.addRow("Class", ClassEditor(WALL_CLASSES, feat.cls,
                                             lambda v: push("Wall class", cls=v),
                                             default=sheet_defaults.wall))
        if isinstance(feat, Opening) and feat.kind != "hole":
            names_ = WINDOW_CLASSES if feat.kind == "window" else WALL_CLASSES
            form.addRow("Class", ClassEditor(
                names_, feat.cls, lambda v: push(f"{feat.kind} class", cls=v),
                default=getattr(sheet_defaults, feat.kind, None)))
            st = QComboBox()
            st.setObjectName("state")
            st.addItems(["open", "closed"])
            st.setCurrentText(feat.state)
            st.currentTextChanged.connect(lambda t: push(f"{feat.kind} {t}", state=t))
            form.addRow("State", st)
        if ref.list == "walls":
            ext = QCheckBox()
            ext.setChecked(feat.exterior)
            ext.toggled.connect(lambda on: push("Exterior wall", exterior=on))
            form.addRow("Exterior", ext)
        if ref.list == "areas":
            kb = QComboBox()
            kb.addItems(list(AREA_KINDS))
            kb.setCurrentText(feat.kind)
            kb.currentTextChanged.connect(lambda t: push("Area kind", kind=t))
            form.addRow("Kind", kb)
            if feat.kind == "obstacle":
                form.addRow("MP cost", _opt_spin(feat.cost, 0, 20,
                                                 lambda v: push("Cost", cost=v)))
                form.addRow("LOS", _opt_combo(LOS_EFFECTS, feat.los,
                                              lambda v: push("LOS effect", los=v)))
                form.addRow("Standable", _opt_combo(STANDABLE, feat.standable,
                                                    lambda v: push("Standable", standable=v)))
            if feat.kind == "dark":
                form.addRow("Darkness", _opt_combo(DARKNESS, feat.darkness,
                                                   lambda v: push("Darkness", darkness=v)))
            if feat.kind in ("modifier", "dark"):
                form.addRow("Target mod.", _opt_spin(feat.target_modifier, -10, 10, lambda v: push(
                    "Target modifier", target_modifier=v)))
            if feat.kind == "hazard":
                eff = QLineEdit(feat.effect or "")
                eff.textEdited.connect(lambda t: push("Hazard effect", f"effect:{ref}",
                                                      effect=t or None))
                form.addRow("Effect", eff)
        if ref.list == "lines":
            kb = QComboBox()
            kb.addItems(list(LINE_KINDS))
            kb.setCurrentText(feat.kind)
            kb.currentTextChanged.connect(lambda t: push("Line kind", kind=t))
            form.addRow("Kind", kb)
            if feat.kind == "low-wall":
                form.addRow("MP cost", _opt_spin(feat.cost, 0, 20,
                                                 lambda v: push("Cost", cost=v)))
                form.addRow("LOS", _opt_combo(LOS_EFFECTS, feat.los,
                                              lambda v: push("LOS effect", los=v)))
        if "to" in names:
            sb = QSpinBox()
            sb.setRange(-5, 60)
            sb.setValue(feat.to)
            sb.valueChanged.connect(lambda v: push("Leads to level", to=v))
            form.addRow("To level", sb)
        if "assisted" in names:
            cb = QCheckBox()
            cb.setChecked(feat.assisted)
            cb.toggled.connect(lambda on: push("Assisted climb", assisted=on))
            form.addRow("Assisted", cb)
        if "levels" in names:
            le = QLineEdit(", ".join(str(k) for k in feat.levels))

            def levels_edited():
                try:
                    ks = tuple(sorted({int(x) for x in le.text().replace(",", " ").split()}))
                except ValueError:
                    return
                if ks:
                    push("Elevator levels", levels=ks)
            le.editingFinished.connect(levels_edited)
            form.addRow("Levels", le)
        note = QLineEdit(feat.note)
        note.setObjectName("feature-note")
        note.textEdited.connect(lambda t: push("Note", f"note:{ref}", note=t))
        form.addRow("Note", note)
        return box
