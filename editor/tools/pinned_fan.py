"""The LOS fan kept on the canvas after the LOS tool hands over to another tool.

A designer ticks *LOS fan*, picks a sniper's dot, then switches to Select to move the
buildings about: the shading stays, dims while the board is recompiled after each edit and
is redrawn, in the background, when the new fan is ready.  Unticking *LOS fan* hides it; the
LOS tool takes it back (with its origin) when it is chosen again.
"""

from __future__ import annotations

from editor.context import EditorContext
from editor.tools.los import fan_item

SLOT = "pinned-fan"


class PinnedFan:
    def __init__(self, ctx: EditorContext):
        self.ctx = ctx
        #: the dot the fan is seen from (column, row, level), or None
        self.origin: tuple[int, int, int] | None = None
        self.item = None

    def pin(self, origin, item) -> None:
        """Keep the fan from ``origin`` (its shading ``item``, already in the scene)."""
        self.clear()
        self.origin = origin
        self.item = item
        if item is None:
            self.refresh()

    def take(self):
        """The origin, for the LOS tool taking the fan back; the pinned shading goes."""
        origin = self.origin
        self.clear()
        return origin

    def clear(self) -> None:
        self.ctx.background.cancel(SLOT)
        self._remove()
        self.origin = None

    def _remove(self) -> None:
        if self.item is not None and self.item.scene() is not None:
            self.item.scene().removeItem(self.item)
        self.item = None

    def document_changed(self) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Recompute in the background (edit, level, the *LOS fan* box); the old shading stays,
        dimmed, until the new one is ready."""
        if self.origin is None:
            return
        if not self.ctx.options.fan():
            self.ctx.background.cancel(SLOT)
            self._remove()
            return
        if self.item is not None:
            self.item.setOpacity(0.35)
        doc = self.ctx.doc
        compile_job = doc.board_job()
        origin, level = self.origin, self.ctx.state.level
        scn = doc.scenario()
        rules = {"ruleset": getattr(scn, "ruleset", "dmz1990"),
                 "light": getattr(scn, "light", "day")}

        def job():
            from engine.sight import sight_fan

            root, board, err = compile_job()
            fan = sight_fan(board, origin, level=level, **rules) if board is not None else None
            return root, board, err, fan

        def done(result) -> None:
            if isinstance(result, BaseException):
                self.ctx.show_hint(f"LOS fan: {result}")
                return
            root, board, err, fan = result
            if not doc.adopt_board(root, board, err) or doc is not self.ctx.doc:
                return  # a newer edit's fan is on its way
            if self.origin != origin or self.ctx.state.level != level or fan is None:
                return
            if not self.ctx.options.fan():
                return
            self._remove()
            self.item = fan_item(doc.layout.lattice, fan)
            self.ctx.scene.addItem(self.item)
        self.ctx.background.run_soon(SLOT, job, done)
