"""A small raid scenario for bot and replay tests (model objects, no files)."""

from __future__ import annotations

from engine import model as m


def raid(turn_limit: int = 6, grenades: bool = True) -> m.Scenario:
    smg = m.Weapon(type="smg", success=(14, 12, 10, 8), shots=10, clips=2, damage=4)
    pistol = m.Weapon(type="heavy-pistol", success=(13, 11, 9, 7), shots=12, clips=2, damage=3)
    kit = (smg, m.Weapon(type="ipe-offensive-grenade", shots=2)) if grenades else (smg,)
    runners = m.Side("runners", deployment=m.Deployment(edge="west", depth=2), characters=tuple(
        m.Character(name=n, move_ratio=2, fire_ratio=2,
                    success=(("firearms", 14), ("unarmed", 14), ("throwing", 12)),
                    defense=(("ballistic", 9), ("impact", 8)), weapons=kit)
        for n in ("sabre", "gilliam")))
    guards = m.Side("guards", deployment=m.Deployment(edge="east", depth=2), characters=tuple(
        m.Character(name=n, move_ratio=3, fire_ratio=3,
                    defense=(("ballistic", 8), ("impact", 8)), weapons=(pistol,))
        for n in ("g1", "g2", "g3")))
    objs = (m.Objective(id="grab", side="runners", kind="retrieve", at=(12, 6), then="exit-west",
                        points=10),
            m.Objective(id="stop-them", side="guards", kind="eliminate", target="runners",
                        points=10))
    return m.Scenario(title="Raid", layout=m.Layout(), sides=(runners, guards), objectives=objs,
                      turn_limit=turn_limit)
