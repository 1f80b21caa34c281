"""Keep the findings panel live without blocking the GUI, in two stages.

After an edit the board is compiled in the background worker and the quick checks run on it
(layout, placements, links, characters...): their findings show at once.  The board-wide
searches (``SLOW_CHECKS``: sight from every deployment dot, paths to each objective, sight
between the sides, tempo, rooms nobody can reach: they need the board's movement graph and
sight index, built on first use) then run in a second background job; until they are in, their
findings from before the edit stay in the list, greyed, and the panel says "updating…".
Both stages together list exactly what ``engine.validate`` reports, in its order.  Only the
newest edit is checked when edits come quickly (``Background.run``).

Double-clicking a finding goes to its first dot on its level (the main window does that) and,
here, also selects the objective or the side's zone it names and zooms in close enough to see
the dot.
"""

from __future__ import annotations

from typing import Any

from editor.edits import FeatureRef
from editor.panels.findings import EDITOR_CHECKS, engine_findings_for
from editor.scenario_edits import ObjectiveRef, SideRef
from engine.model import LEVEL_LISTS

SLOT = "findings"
SLOW_SLOT = "findings-slow"
#: checks that search the whole board; they take nearly all of a validation (on the
#: street-ambush sample), so the others' findings are shown before them
SLOW_CHECKS = frozenset({"exposed_deployments", "objective_checks", "mutual_los_at_setup",
                         "tempo_gaps", "sealed_rooms"})
#: zoom (pixels per dot) a finding is shown at, at least
FINDING_ZOOM = 18.0


def split_checks() -> tuple[tuple, tuple]:
    """(quick checks, board-wide searches), each in ``engine.validate``'s order."""
    from engine import validate as v

    checks = v.all_checks()
    return (tuple(c for c in checks if c.__name__ not in SLOW_CHECKS),
            tuple(c for c in checks if c.__name__ in SLOW_CHECKS))


def run_checks(board, scenario, checks) -> dict[Any, list]:
    """{check: its findings} (thread-safe: no Qt).  A check that fails reports itself."""
    from engine.findings import WARNING, Finding

    out: dict[Any, list] = {}
    for fn in checks:
        try:
            out[fn] = list(fn(board, scenario))
        except Exception as exc:  # a checker bug must not take the editor down
            out[fn] = [Finding("validate", WARNING, f"{fn.__name__}: {exc}", {})]
    return out


def as_rows(by_check: dict[Any, list], stale: frozenset | set = frozenset()) -> list[dict]:
    """The findings in ``engine.validate``'s order as the panel's rows; those of the checks
    in ``stale`` are from before the last edit (being checked again)."""
    from engine import validate as v

    found = [(f, fn in stale) for fn in v.all_checks() if fn in by_check
             for f in by_check[fn]]
    found.sort(key=lambda x: v.severity_rank(x[0]))
    return [{"code": f.code, "severity": f.severity, "message": f.message, "where": f.where,
             **({"stale": True} if old else {})}
            for f, old in found if f.code not in EDITOR_CHECKS]


def refresh_findings(win) -> None:
    """Refresh the findings panel; the engine's part comes from the background worker."""
    doc = win.doc
    panel = win.findings
    if doc.mode != "scenario":
        panel.refresh(doc, [])
        panel.set_updating(False)
        return
    if not win.isVisible():  # not shown (or closed, its worker shut down): nobody waits
        panel.refresh(doc)
        panel.set_updating(False)
        return
    panel.set_updating(True)
    compile_job = doc.board_job()

    def quick_job():
        # the engine's checks are imported here, in the worker: the first import (scipy...)
        # takes a second or more, and on the GUI thread it delayed the first paint
        quick, slow = split_checks()
        root, board, err = compile_job()
        return root, board, err, (run_checks(board, root, quick) if board is not None
                                  else None), slow

    def failed(exc: BaseException) -> None:
        panel.refresh(doc, [{"code": "validate", "severity": "warning", "message": str(exc),
                             "where": None}])
        panel.set_updating(False)

    def quick_done(result) -> None:
        if isinstance(result, BaseException):
            failed(result)
            return
        root, board, err, by_check, slow = result
        if doc is not win.doc or root is not doc.root:
            return  # an older edit's answer; the newer one is on its way
        if board is None:
            doc.adopt_board(root, board, err)
            panel.refresh(doc, engine_findings_for(None, err, root))
            panel.set_updating(False)
            return
        kept = {fn: panel.kept.get(fn, []) for fn in slow}
        panel.refresh(doc, as_rows({**by_check, **kept}, stale=set(slow)))

        def slow_done(found) -> None:
            if doc is not win.doc or root is not doc.root:
                return
            if isinstance(found, BaseException):
                failed(found)
                return
            panel.kept = found
            doc.adopt_board(root, board, err)  # no other thread touches it from now on
            panel.refresh(doc, as_rows({**by_check, **found}))
            panel.set_updating(False)
        win.background.run(SLOW_SLOT, lambda: run_checks(board, root, slow), slow_done)
    win.background.run_soon(SLOT, quick_job, quick_done)


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
