"""Renaming and deleting cut pieces from the library's context menu, each one undo step."""

from __future__ import annotations

from dataclasses import replace

import samples

from engine.model import Piece, Placement

CUT = ((-0.5, -0.5), (4.5, -0.5), (4.5, 7.5), (-0.5, 7.5))


def with_pieces(placed: bool):
    """The sample scenario with two pieces of the house; ``placed``: the first is placed."""
    sc = samples.scenario()
    lay = sc.layout
    pieces = (Piece("house-cut-1", "house", CUT), Piece("house-cut-2", "house", CUT))
    placements = lay.placements + ((Placement("house", (30, 17), piece="house-cut-1",
                                              id="west-room"),) if placed else ())
    return replace(sc, layout=replace(lay, pieces=pieces, placements=placements))


def menu_action(win, key: str, text: str):
    menu = win.library.menu_for(key)
    assert menu is not None
    return next(a for a in menu.actions() if a.text() == text)


def test_sheets_have_no_piece_menu(make_editor):
    win, _ = make_editor(with_pieces(False))
    assert win.library.item_for("sheet:house") is not None
    assert win.library.menu_for("sheet:house") is None
    assert [a.text() for a in win.library.menu_for("piece:house-cut-1").actions()] == [
        "Rename piece…", "Delete piece"]


def test_delete_unplaced_piece_then_undo(make_editor):
    win, _ = make_editor(with_pieces(False))
    before = win.doc.root
    menu_action(win, "piece:house-cut-2", "Delete piece").trigger()
    assert [p.id for p in win.doc.layout.pieces] == ["house-cut-1"]
    assert win.library.item_for("piece:house-cut-2") is None
    assert win.doc.undo_stack.count() == 1
    assert win.doc.undo_stack.undoText() == "Delete piece house-cut-2"
    win.undo_action.trigger()
    assert win.doc.root == before
    assert win.library.item_for("piece:house-cut-2") is not None


def test_delete_placed_piece_is_refused(make_editor):
    win, _ = make_editor(with_pieces(True))
    before = win.doc.root
    menu_action(win, "piece:house-cut-1", "Delete piece").trigger()
    assert win.doc.root == before and win.doc.undo_stack.count() == 0
    assert win.hint_label.text() == (
        "Cannot delete the piece: house-cut-1 is placed as west-room: delete those first")


def test_rename_follows_placements_and_undoes(make_editor):
    win, _ = make_editor(with_pieces(True))
    before = win.doc.root
    win.ask_piece_name = lambda old: "west-room-cut"
    menu_action(win, "piece:house-cut-1", "Rename piece…").trigger()
    lay = win.doc.layout
    assert [p.id for p in lay.pieces] == ["west-room-cut", "house-cut-2"]
    assert lay.placements[-1] == Placement("house", (30, 17), piece="west-room-cut",
                                           id="west-room")
    assert win.library.item_for("piece:west-room-cut") is not None
    assert win.library.item_for("piece:house-cut-1") is None
    # the renamed piece still draws: its placement resolves to the same footprint
    r = next(x for x in win.doc.resolved() if not x.pavement and x.index == 2)
    assert r.footprint.area == 40.0
    assert win.doc.undo_stack.count() == 1
    win.undo_action.trigger()
    assert win.doc.root == before
    # now the old piece is free of placements only after deleting its placement
    menu_action(win, "piece:house-cut-1", "Delete piece").trigger()
    assert win.doc.root == before


def test_rename_refuses_clash_and_bad_names(make_editor):
    win, _ = make_editor(with_pieces(False))
    before = win.doc.root
    for name, why in (("house-cut-2", "there is already a piece called house-cut-2"),
                      ("", "a piece needs a name"),
                      ("west room", "'west room' is not a valid id")):
        win.ask_piece_name = lambda old, n=name: n
        menu_action(win, "piece:house-cut-1", "Rename piece…").trigger()
        assert win.doc.root == before
        assert win.hint_label.text().startswith(f"Cannot rename the piece: {why}")
    win.ask_piece_name = lambda old: None  # cancelled dialog
    menu_action(win, "piece:house-cut-1", "Rename piece…").trigger()
    assert win.doc.root == before and win.doc.undo_stack.count() == 0
