"""Delete what is selected (Delete key, Edit > Delete): one undoable edit of the document."""

from __future__ import annotations

from dataclasses import replace

from editor import edits
from editor import scenario_edits as se
from editor.document import Document
from editor.edits import FeatureRef, PlacementRef
from editor.scenario_edits import ObjectiveRef, SideRef
from editor.state import EditorState


def delete_selection(doc: Document, state: EditorState) -> None:
    """Remove the selected objective, deployment, placement or feature (the selection is
    cleared first, so no view keeps pointing at the removed object)."""
    sel = state.selection
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
        state.select(None)
        if sel.sheet is None:
            doc.edit_layout(edits.extras_set(doc.layout, sel, None), f"Delete {sel.list[:-1]}")
        else:
            sheet = edits.set_feature(doc.sheets()[sel.sheet], sel, None)
            doc.edit_sheet(sheet, f"Delete {sel.list[:-1]}")
