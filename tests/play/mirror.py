"""A mirrored skirmish for bot tests: two equal teams on a symmetric toy board (no files)."""

from __future__ import annotations

from engine import model as m
from tests.play.fakes import GridBoard

W, H = 16, 10
#: cover in the middle, mirrored left-right
WALLS = {(5, 2), (5, 3), (10, 2), (10, 3), (5, 7), (5, 6), (10, 7), (10, 6), (7, 5), (8, 4)}
OBSTACLES = {(3, 4): 1, (12, 4): 1, (3, 5): 1, (12, 5): 1, (7, 1): 1, (8, 8): 1}


def mirror_view() -> GridBoard:
    return GridBoard(W, H, walls=WALLS, obstacles=OBSTACLES)


def mirror(turn_limit: int = 8) -> m.Scenario:
    smg = m.Weapon(type="smg", success=(16, 14, 12, 10), shots=12, clips=3, damage=4)
    kit = (smg, m.Weapon(type="offensive-grenade", shots=1))

    def team(side: str, edge: str) -> m.Side:
        return m.Side(side, deployment=m.Deployment(edge=edge, depth=2), characters=tuple(
            m.Character(name=f"{side}{i}", move_ratio=2, fire_ratio=3,
                        success=(("firearms", 12), ("unarmed", 14), ("throwing", 12)),
                        defense=(("ballistic", 9), ("impact", 9)), weapons=kit)
            for i in range(3)))

    centre = ((6.5, 3.5), (9.5, 3.5), (9.5, 6.5), (6.5, 6.5))
    objectives = tuple(
        o for side, other in (("west", "east"), ("east", "west")) for o in (
            m.Objective(id=f"{side}-holds-the-centre", side=side, kind="hold", area=centre,
                        turns=2, points=5),
            m.Objective(id=f"{side}-wins-the-fight", side=side, kind="eliminate",
                        target=other, points=3)))
    return m.Scenario(title="Mirror", layout=m.Layout(),
                      sides=(team("west", "west"), team("east", "east")),
                      objectives=objectives, turn_limit=turn_limit)
