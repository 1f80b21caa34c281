"""The zone window's documents: opening a block's layout, Compose, a block's fight scenario,
new/open/save and the one-page print.  A mixin of :class:`editor.zone.window.ZoneWindow`;
dialogs are methods (``ask_*``) so tests can replace them."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox

from editor.zone.document import ZoneDocument, blank_zone
from editor.zone.printing import print_zone
from engine.errors import SprawlmapError
from engine.zone.model import Block


class ZoneFiles:
    def open_block(self, c: int, r: int) -> None:
        zb = self.doc.zone.block((c, r))
        if zb is None or not zb.layout:
            self.say(f"block {c},{r} has no linked layout (use the Link tool)")
            return
        from engine.zone.linked import resolve_path

        self._open(resolve_path(self.doc.base_dir, zb.layout))

    def _open(self, path: Path) -> None:
        if self.open_document is None:
            self.say(f"cannot open {path} from here")
            return
        try:
            win = self.open_document(Path(path))
        except SprawlmapError as e:
            self.say(str(e))
            return
        if win is not None:
            self.opened.append(win)

    def ask_compose_path(self) -> Path | None:
        base = self.doc.path.with_name(self.doc.path.stem + "-composed.yaml") if self.doc.path else Path.cwd() / "composed.yaml"
        path, _ = QFileDialog.getSaveFileName(self, "Compose the neighbourhood to", str(base), "YAML (*.yaml)")
        return Path(path) if path else None

    def compose(self) -> Path | None:
        from engine.io import save_document
        from engine.zone.compose import composed_scenario

        if not any(zb.layout for zb in self.doc.zone.blocks):
            self.say("no block is linked to a layout yet: nothing to compose")
            return None
        out = self.ask_compose_path()
        if out is None:
            return None
        try:
            sc = composed_scenario(self.doc.zone, self.doc.base_dir, str(self.doc.path or "zone"))
            save_document(sc, out, layout_only=True)
        except SprawlmapError as e:
            QMessageBox.warning(self, "Compose", str(e)) if not self.property("headless") else None
            self.say(str(e))
            return None
        self.say(f"composed {out}")
        self._open(out)
        return out

    def ask_fight_path(self, b: Block) -> Path | None:
        stem = self.doc.path.stem if self.doc.path else "zone"
        base = (self.doc.base_dir or Path.cwd()) / f"{stem}-block-{b[0]}-{b[1]}.yaml"
        path, _ = QFileDialog.getSaveFileName(self, f"Fight scenario for block {b[0]},{b[1]}", str(base),
                                              "YAML (*.yaml)")
        return Path(path) if path else None

    def block_fight(self) -> Path | None:
        """Write the dot-scale scenario for a fight in the last clicked block and open it
        (the sides deploy on the edges they arrive through; ``sprawlmap zone block``)."""
        from engine.io import save_document
        from engine.zone.compose import block_scenario

        b = self.current_block
        if b is None:
            self.say("click a block first")
            return None
        out = self.ask_fight_path(b)
        if out is None:
            return None
        try:
            sc = block_scenario(self.doc.zone, b, self.doc.base_dir, str(self.doc.path or "zone"))
            save_document(sc, out)
        except SprawlmapError as e:
            self.say(str(e))
            return None
        self.say(f"wrote {out}: " + "; ".join(f"{s.id} {s.note}" for s in sc.sides))
        self._open(out)
        return out

    def new_zone(self) -> None:
        win = type(self)(ZoneDocument(blank_zone()), self.open_document)
        self.opened.append(win)
        win.show()

    def ask_open_path(self) -> Path | None:
        path, _ = QFileDialog.getOpenFileName(self, "Open", str(self.doc.base_dir or Path.cwd()), "YAML (*.yaml *.yml)")
        return Path(path) if path else None

    def open_file(self) -> None:
        path = self.ask_open_path()
        if path is not None:
            self._open(path)

    def ask_save_path(self) -> Path | None:
        path, _ = QFileDialog.getSaveFileName(self, "Save zone", str(self.doc.path or Path.cwd() / "zone.yaml"),
                                              "YAML (*.yaml)")
        return Path(path) if path else None

    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        return self._save_to(self.doc.path)

    def save_as(self) -> bool:
        path = self.ask_save_path()
        return self._save_to(path) if path else False

    def _save_to(self, path: Path) -> bool:
        try:
            self.doc.save(path)
        except SprawlmapError as e:
            self.say(str(e))
            return False
        self.say(f"saved {path}")
        self.refresh()
        return True

    def print_picture(self) -> None:
        base = self.doc.path.with_suffix(".pdf") if self.doc.path else Path.cwd() / "zone.pdf"
        path, _ = QFileDialog.getSaveFileName(self, "Print the zone", str(base), "PDF (*.pdf);;SVG (*.svg);;PNG (*.png)")
        if path:
            try:
                print_zone(self.doc.zone, path)
            except SprawlmapError as e:
                self.say(str(e))
                return
            self.say(f"printed {path}")
