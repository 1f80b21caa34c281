"""Keep the findings panel live without blocking the GUI: after an edit, the board is compiled
and ``engine.validate`` run (with the scenario checks: deployment, objectives, timing, sealed
rooms) in the background worker; the panel is refreshed with the result on the GUI thread.
Only the newest edit's findings are computed when edits come quickly (``Background.run``).

Double-clicking a finding goes to its first dot on its level (the main window does that) and,
here, also selects the objective or the side's zone it names and zooms in close enough to see
the dot.
"""

from __future__ import annotations

from editor.edits import FeatureRef
from editor.panels.findings import engine_findings_for
from editor.scenario_edits import ObjectiveRef, SideRef
from engine.model import LEVEL_LISTS

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
        win.findings.set_updating(False)
        return
    if not win.isVisible():  # not shown (or closed, its worker shut down): nobody waits
        win.findings.refresh(doc)
        win.findings.set_updating(False)
        return
    win.findings.set_updating(True)

    def done(result) -> None:
        if isinstance(result, BaseException):
            win.findings.refresh(doc, [{"code": "validate", "severity": "warning",
                                        "message": str(result), "where": None}])
            win.findings.set_updating(False)
            return
        root, board, err, found = result
        if doc is not win.doc or root is not doc.root:
            return  # an older edit's answer; the newer one is on its way
        doc.adopt_board(root, board, err)
        win.findings.refresh(doc, found)
        win.findings.set_updating(False)
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
    feats = [r for r in (feature_ref(win.doc, f) for f in where.get("features") or []) if r]
    if feats:
        if feats[0].level != win.state.level and feats[0].level in win.doc.levels():
            win.state.set_level(feats[0].level)
        win.state.select(feats[0])
    elif named_obs and not where.get("placements"):
        win.state.select(ObjectiveRef(ob_ids.index(named_obs[0])))
    elif named_sides and not where.get("placements"):
        i = side_ids.index(named_sides[0])
        if sc.sides[i].deployment is not None:
            win.state.select(SideRef(i))
        else:  # nothing on the map (a side without a zone): show it in the scenario dock
            win.scenario_dock.raise_()
            win.scenario_panel.tabs.setCurrentIndex(1)
            win.scenario_panel.sides.setCurrentRow(i)
    dots = where.get("dots") or []
    if dots and win.view.zoom() < FINDING_ZOOM:
        x, y = win.view.mapToScene(win.view.viewport().rect().center()).toTuple()
        win.view.set_zoom(FINDING_ZOOM, (x, y))


def _list_of(kind: str) -> str | None:
    name = {"stair": "stairs", "elevator": "elevators", "climb": "climbs",
            "tree": "trees"}.get(kind, kind + "s")
    return name if name in LEVEL_LISTS else None


def feature_ref(doc, fid: str) -> FeatureRef | None:
    """The editable feature behind an engine feature id ``<placement id>/<feature id>``
    (``extras/...`` for street furniture; unnamed ones are ``L<level>-<kind>-<index>``)."""
    pid, _, rest = fid.partition("/")
    if not rest:
        return None
    if pid == "extras":
        ex = doc.layout.extras
        for name in ("areas", "lines", "trees"):
            for i, f in enumerate(getattr(ex, name)):
                if f.id == rest:
                    return FeatureRef(None, 0, name, i)
        return None
    lay = doc.layout
    pl = next((p for p in lay.placements + lay.pavement if p.id == pid), None)
    sheet = doc.sheets().get(pl.sheet) if pl is not None else None
    if sheet is None:
        return None
    for lv in sheet.levels:
        for name in LEVEL_LISTS:
            for i, f in enumerate(getattr(lv, name)):
                if f.id == rest:
                    return FeatureRef(sheet.id, lv.level, name, i)
    if rest.startswith("L") and rest.count("-") >= 2:  # an unnamed feature
        lv, kind, idx = rest[1:].split("-", 2)
        name = _list_of(kind)
        if lv.isdigit() and idx.isdigit() and name is not None:
            return FeatureRef(sheet.id, int(lv), name, int(idx))
    return None
