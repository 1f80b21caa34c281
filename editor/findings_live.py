"""Keep the findings panel live without blocking the GUI: after an edit, the board is compiled
and ``engine.validate`` run (with the scenario checks: deployment, objectives, timing, sealed
rooms) in the background worker; the panel is refreshed with the result on the GUI thread.
Only the newest edit's findings are computed when edits come quickly (``Background.run``).

Double-clicking a finding goes to its first dot on its level (the main window does that) and,
here, also selects the objective or the side's zone it names and zooms in close enough to see
the dot.
"""

from __future__ import annotations

from editor.panels.findings import engine_findings_for
from editor.scenario_edits import ObjectiveRef, SideRef

SLOT = "findings"
#: zoom (pixels per dot) a finding is shown at, at least
FINDING_ZOOM = 18.0


def findings_job(doc):
    """A thread-safe job: () -> (root, board, board error, engine findings)."""
    compile_job = doc.board_job()

    def job():
        root, board, err = compile_job()
        return root, board, err, engine_findings_for(board, err, root)
    return job


def refresh_findings(win) -> None:
    """Refresh the findings panel; the engine's part comes from the background worker."""
    doc = win.doc
    if doc.mode != "scenario":
        win.findings.refresh(doc, [])
        return
    if not win.isVisible():  # not shown (or closed, its worker shut down): nobody waits
        win.findings.refresh(doc)
        return

    def done(result) -> None:
        if isinstance(result, BaseException):
            win.findings.refresh(doc, [{"code": "validate", "severity": "warning",
                                        "message": str(result), "where": None}])
            return
        root, board, err, found = result
        if doc is not win.doc or root is not doc.root:
            return  # an older edit's answer; the newer one is on its way
        doc.adopt_board(root, board, err)
        win.findings.refresh(doc, found)
    win.background.run_soon(SLOT, findings_job(doc), done)


def select_named(win, where) -> None:
    """After the main window went to a finding's dot: select the objective or zone it names."""
    if not isinstance(where, dict):
        return
    sc = win.doc.root
    if win.doc.mode != "scenario":
        return
    ob_ids = [o.id for o in sc.objectives]
    side_ids = [s.id for s in sc.sides]
    named_obs = [o for o in where.get("objectives") or [] if o in ob_ids]
    named_sides = [s for s in where.get("sides") or [] if s in side_ids]
    if named_obs and not where.get("placements"):
        win.state.select(ObjectiveRef(ob_ids.index(named_obs[0])))
    elif named_sides and not where.get("placements"):
        i = side_ids.index(named_sides[0])
        if sc.sides[i].deployment is not None:
            win.state.select(SideRef(i))
    dots = where.get("dots") or []
    if dots and win.view.zoom() < FINDING_ZOOM:
        x, y = win.view.mapToScene(win.view.viewport().rect().center()).toTuple()
        win.view.set_zoom(FINDING_ZOOM, (x, y))
