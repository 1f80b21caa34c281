"""A toy board for play tests: one level of square dots with wall dots, obstacles and openings.

It honours the BoardView protocol with the DMZ numbers that matter to play (door +1/+2,
window +2/+4, crawl x2, cover +1 per interruption, smoke blocks normal vision, prone targets
+1 beyond one dot and -2 within it) so the rules can be tested without the real board.
"""

from __future__ import annotations

import heapq
from typing import Any

from engine.lattice import Dot3, get_lattice
from engine.play.board_view import BarrierInfo, OpeningInfo, Sight, StepInfo


class GridBoard:
    def __init__(self, width: int, height: int, walls=(), obstacles=None, openings=None,
                 light: str = "day") -> None:
        self.lattice = get_lattice("square")
        self.light = light
        self.width, self.height = width, height
        self.walls: set[tuple[int, int]] = set(walls)
        self.obstacles: dict[tuple[int, int], int] = dict(obstacles or {})
        # dot -> [feature id, kind, state]
        self.openings: dict[tuple[int, int], list[str]] = {
            k: list(v) for k, v in (openings or {}).items()}
        self.smoke: set[tuple[int, int, int]] = set()
        self.sight_calls = 0

    # ------------------------------------------------------------ movement
    def inside(self, c: int, r: int) -> bool:
        return 0 <= c < self.width and 0 <= r < self.height

    def standable(self, dot: Dot3) -> bool:
        c, r, lv = dot
        return lv == 0 and self.inside(c, r) and (c, r) not in self.walls

    def neighbours(self, dot: Dot3) -> list[Dot3]:
        c, r, lv = dot
        return [(x, y, lv) for x, y in self.lattice.neighbours((c, r)) if self.inside(x, y)]

    def step(self, a: Dot3, b: Dot3, move_ratio: int, crawl: bool = False) -> StepInfo | None:
        if self.lattice.distance(a[:2], b[:2]) != 1 or not self.standable(b) or a[2] != b[2]:
            return None
        cost, why = move_ratio, ["base"]
        if b[:2] in self.obstacles:
            cost += self.obstacles[b[:2]]
            why.append("obstacle")
        op = self.openings.get(b[:2])
        if op is not None:
            _fid, kind, state = op
            extra = {("door", "open"): 1, ("door", "closed"): 3, ("window", "open"): 2,
                     ("window", "closed"): 6, ("hole", "open"): 1}[(kind, state)]
            cost += extra
            why.append(f"{state} {kind}")
        if crawl:
            cost *= 2
        return StepInfo(b, cost, tuple(why))

    def _dijkstra(self, a: Dot3, move_ratio: int, crawl: bool, limit: int | None):
        dist = {a: 0}
        prev: dict[Dot3, Dot3] = {}
        heap = [(0, a)]
        while heap:
            d, u = heapq.heappop(heap)
            if d > dist.get(u, 1 << 30):
                continue
            for v in self.neighbours(u):
                st = self.step(u, v, move_ratio, crawl)
                if st is None:
                    continue
                nd = d + st.cost
                if limit is not None and nd > limit:
                    continue
                if nd < dist.get(v, 1 << 30):
                    dist[v] = nd
                    prev[v] = u
                    heapq.heappush(heap, (nd, v))
        return dist, prev

    def path(self, a: Dot3, b: Dot3, move_ratio: int, crawl: bool = False):
        dist, prev = self._dijkstra(a, move_ratio, crawl, None)
        if b not in dist:
            return None
        out = [b]
        while out[-1] != a:
            out.append(prev[out[-1]])
        return out[::-1]

    def reach(self, a: Dot3, move_ratio: int, mp: int, crawl: bool = False) -> dict[Dot3, int]:
        return self._dijkstra(a, move_ratio, crawl, mp)[0]

    def costs_to(self, goal: Dot3, move_ratio: int, dots) -> list:
        key = (tuple(goal), move_ratio, tuple(sorted((k, v[2]) for k, v in self.openings.items())),
               len(self.walls))
        cache = self.__dict__.setdefault("_to_goal", {})
        dist = cache.get(key)
        if dist is None:
            dist = self._dijkstra(goal, move_ratio, False, None)[0] if self.standable(goal) else {}
            cache[key] = dist
        return [dist.get(tuple(d)) for d in dots]

    def cheapest_to(self, goal: Dot3, move_ratio: int, dots) -> tuple:
        costs = self.costs_to(goal, move_ratio, dots)
        least = min((c for c in costs if c is not None), default=None)
        return least, [d for c, d in zip(costs, dots, strict=True) if c is not None and c == least]

    # ------------------------------------------------------------ sight
    def crossed(self, a: Dot3, b: Dot3) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        n = 8 * max(1, self.lattice.distance(a[:2], b[:2]))
        for i in range(1, n):
            t = i / n
            d = self.lattice.dot_at((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
            if d not in (a[:2], b[:2]) and d not in out:
                out.append(d)
        return out

    def known_blocked(self, a: Dot3, b: Dot3, vision: str) -> bool:
        return False  # nothing cheaper than sight() here

    def walled(self, a: Dot3, b: Dot3) -> bool:
        return False  # nothing cheaper than sight() here

    def step_floor(self, a: Dot3, move_ratio: int, mp: float) -> None:
        return None  # nothing cheaper than path() here

    def warm_blocked(self, origin: Dot3, dots: list[Dot3], visions: Any) -> None:
        return None

    def sight(self, a: Dot3, b: Dot3, posture_a: str, posture_b: str, vision: str) -> Sight:
        self.sight_calls += 1
        rng = self.lattice.distance(a[:2], b[:2])
        cover, vis = 0, 0
        mods: dict[str, int] = {}
        for d in self.crossed(a, b):
            if d in self.walls:
                return Sight(True, rng, details={"blocked_by": f"wall@{d}"})
            op = self.openings.get(d)
            if op is not None:
                if op[2] == "closed":
                    return Sight(True, rng, details={"blocked_by": op[0]})
                cover += 1
            if d in self.obstacles:
                cover += 1
            if (d[0], d[1], 0) in self.smoke:
                if vision != "thermographic":
                    return Sight(True, rng, details={"blocked_by": "smoke"})
                vis = 1
        if b in self.smoke or a in self.smoke:
            if vision != "thermographic":
                return Sight(True, rng, details={"blocked_by": "smoke"})
            vis = 1
        prone = 0
        if posture_b == "prone":
            prone = -2 if rng <= 1 else 1
        mods = {"cover": cover, "prone": prone, "visibility": vis}
        return Sight(False, rng, total=cover + prone + vis, visibility=vis, modifiers=mods)

    # ------------------------------------------------------------ map changes
    def openings_on(self, a: Dot3, b: Dot3) -> list[OpeningInfo]:
        op = self.openings.get(b[:2])
        return [] if op is None else [OpeningInfo(op[0], op[1], op[2])]

    def openings_near(self, dot: Dot3) -> list[OpeningInfo]:
        out = []
        for n in [dot[:2]] + self.lattice.neighbours(dot[:2]):
            op = self.openings.get(n)
            if op is not None and op[1] in ("door", "window"):
                out.append(OpeningInfo(op[0], op[1], op[2]))
        return out

    def set_opening(self, feature: str, state: str) -> None:
        for op in self.openings.values():
            if op[0] == feature:
                op[2] = state

    def add_smoke(self, dots) -> None:
        self.smoke.update(tuple(d) for d in dots)

    def blast_through(self, burst, target, grenade):
        return None  # a DMZ fake: no blast-against-barrier rule

    def barriers_near(self, dot: Dot3, radius: int) -> list[BarrierInfo]:
        out = []
        for w in sorted(self.walls):
            d = self.lattice.distance(dot[:2], w)
            if d <= radius:
                out.append(BarrierInfo(f"wall@{w[0]},{w[1]}", "wall", 12, 1, d,
                                       (float(w[0]), float(w[1]))))
        return out

    def open_hole(self, feature: str) -> None:
        c, r = (int(x) for x in feature.split("@")[1].split(","))
        self.walls.discard((c, r))
        self.openings[(c, r)] = [feature, "hole", "open"]

    def edge_of(self, dot: Dot3) -> str | None:
        c, r, _ = dot
        if c == 0:
            return "west"
        if c == self.width - 1:
            return "east"
        if r == 0:
            return "north"
        if r == self.height - 1:
            return "south"
        return None

    def deploy_dots(self, polygon: Any, level: int, edge, depth) -> list[Dot3]:
        out = []
        for r in range(self.height):
            for c in range(self.width):
                if not self.standable((c, r, 0)):
                    continue
                if edge is not None:
                    k = depth or 3
                    ok = {"west": c < k, "east": c >= self.width - k, "north": r < k,
                          "south": r >= self.height - k}[edge]
                elif polygon is not None:
                    ok = self.in_area((c, r, 0), polygon, level)
                else:
                    ok = False
                if ok:
                    out.append((c, r, 0))
        return out

    def in_area(self, dot: Dot3, polygon: Any, level: int) -> bool:
        xs = [p[0] for p in polygon]
        ys = [p[1] for p in polygon]
        return dot[2] == level and min(xs) <= dot[0] <= max(xs) and min(ys) <= dot[1] <= max(ys)
