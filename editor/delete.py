"""Delete what is selected (Delete key, Edit > Delete): one undoable edit of the document."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from editor import edits
from editor import scenario_edits as se
from editor.document import Document
from editor.edits import FeatureRef, PlacementRef
from editor.scenario_edits import ObjectiveRef, SideRef
from editor.state import EditorState


def delete_selection(doc: Document, state: EditorState,
                     ask_scope: Callable[[str, int], str | None] | None = None,
                     make_unique: Callable[[PlacementRef], str] | None = None) -> bool:
    """Remove the selected objective, deployment, placement or feature (the selection is
    cleared first, so no view keeps pointing at the removed object).

    A feature of a sheet placed several times, picked on one copy: ``ask_scope(title, n)``
    says whether it goes from "copy" (made unique first, one undo step), "sheet" (every
    copy) or nowhere (None: False is returned)."""
    sel = state.selection
    if len(state.group) > 1 and doc.mode == "scenario":
        group = sorted(state.group, key=lambda r: r.index, reverse=True)
        state.select(None)
        layout = doc.layout
        for ref in group:  # from the last index down, so the others keep theirs
            layout = edits.set_placement(layout, ref, None)
        doc.edit_layout(layout, f"Delete {len(group)} buildings")
        return True
    if isinstance(sel, ObjectiveRef):
        state.select(None)
        doc.push(se.set_objective(doc.root, sel, None), "Delete objective")
    elif isinstance(sel, SideRef):
        state.select(None)
        side = replace(doc.root.sides[sel.index], deployment=None)
        doc.push(se.set_side(doc.root, sel, side), "Delete deployment")
    elif isinstance(sel, PlacementRef) and doc.mode == "scenario":
        state.select(None)
        doc.edit_layout(edits.set_placement(doc.layout, sel, None), "Delete placement")
    elif isinstance(sel, FeatureRef):
        text = f"Delete {sel.list[:-1]}"
        copy = state.copy
        scope = "sheet"
        if (sel.sheet is not None and copy is not None and ask_scope is not None
                and make_unique is not None and doc.mode == "scenario"
                and copy.index < len(doc.layout.placements)
                and doc.layout.placements[copy.index].sheet == sel.sheet):
            copies = edits.sheet_users(doc.layout, sel.sheet)
            if copies > 1:
                scope = ask_scope(doc.sheets()[sel.sheet].title, copies)
                if scope is None:
                    return False
        state.select(None)
        if sel.sheet is None:
            doc.edit_layout(edits.extras_set(doc.layout, sel, None), text)
        elif scope == "copy":
            doc.undo_stack.beginMacro(f"{text} (this copy)")
            try:
                own = make_unique(copy)
                doc.edit_sheet(edits.set_feature(doc.sheets()[own], sel, None), text)
            finally:
                doc.undo_stack.endMacro()
        else:
            sheet = edits.set_feature(doc.sheets()[sel.sheet], sel, None)
            doc.edit_sheet(sheet, text)
    return True
