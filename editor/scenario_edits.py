"""Pure edits of a scenario's sides and objectives (deployment zones, objective markers)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from editor.edits import fresh_id
from engine.lattice import Dot3
from engine.model import Deployment, Objective, Scenario, Side


@dataclass(frozen=True)
class SideRef:
    """A side's deployment zone, selected on the canvas."""

    index: int


@dataclass(frozen=True)
class ObjectiveRef:
    index: int


OBJECTIVE_KINDS = ("reach", "hold", "retrieve", "eliminate", "exit", "protect")
EDGES = ("north", "south", "east", "west")


def side_for(scenario: Scenario, side_id: str | None) -> tuple[Scenario, int]:
    """The index of side ``side_id``; a new side when it is None or unknown."""
    ids = [s.id for s in scenario.sides]
    if side_id in ids:
        return scenario, ids.index(side_id)
    sid = fresh_id("side", set(ids))
    side = Side(id=sid, name=sid.replace("-", " ").title())
    return replace(scenario, sides=scenario.sides + (side,)), len(scenario.sides)


def set_deployment(scenario: Scenario, side_id: str | None, polygon: tuple, level: int
                   ) -> tuple[Scenario, int]:
    sc, i = side_for(scenario, side_id)
    sides = list(sc.sides)
    sides[i] = replace(sides[i], deployment=Deployment(polygon=tuple(polygon), level=level))
    return replace(sc, sides=tuple(sides)), i


def set_side(scenario: Scenario, ref: SideRef, side: Side) -> Scenario:
    sides = list(scenario.sides)
    sides[ref.index] = side
    return replace(scenario, sides=tuple(sides))


def add_objective(scenario: Scenario, side_id: str | None, at: Dot3
                  ) -> tuple[Scenario, int]:
    sc, i = side_for(scenario, side_id)
    oid = fresh_id("objective", {o.id for o in sc.objectives})
    ob = Objective(id=oid, side=sc.sides[i].id, kind="reach", at=tuple(at))
    return replace(sc, objectives=sc.objectives + (ob,)), len(sc.objectives)


def set_objective(scenario: Scenario, ref: ObjectiveRef, ob: Objective | None) -> Scenario:
    obs = list(scenario.objectives)
    if ob is None:
        del obs[ref.index]
    else:
        obs[ref.index] = ob
    return replace(scenario, objectives=tuple(obs))


def objective_at(scenario: Scenario, p: tuple[float, float], level: int,
                 tol: float = 0.6) -> ObjectiveRef | None:
    for i, ob in reversed(list(enumerate(scenario.objectives))):
        if ob.at is None or len(ob.at) < 2:
            continue
        lv = ob.at[2] if len(ob.at) > 2 else 0
        if lv == level and abs(ob.at[0] - p[0]) <= tol and abs(ob.at[1] - p[1]) <= tol:
            return ObjectiveRef(i)
    return None


def deployment_at(scenario: Scenario, p: tuple[float, float], level: int) -> SideRef | None:
    """The side whose drawn deployment polygon on ``level`` holds ``p``."""
    from shapely.geometry import Point, Polygon

    for i, side in reversed(list(enumerate(scenario.sides))):
        dep = side.deployment
        if dep is None or not dep.polygon or dep.level != level or len(dep.polygon) < 3:
            continue
        if Polygon(dep.polygon).buffer(1e-9).contains(Point(p)):
            return SideRef(i)
    return None
