"""The balance report: the figures of many bot games and what they mean for a designer.

Built from game records alone (:mod:`engine.play.records`), so ``play`` and ``play-merge``
print the same report.  Win rates carry 95% Wilson intervals; a balance delta
(``play A --against B``) compares two scenarios on the same seeds, game by game, and gives
each difference a 95% interval from the paired differences.  ``findings`` turns the figures
into plain sentences: no fight, one side winning most games and why, objectives that fall
rarely or need more turns than the limit, one character scoring most kills, reaction fire
deciding the game.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

Z95 = 1.959963984540054
#: a side winning more than this share of games is a finding
LOPSIDED = 0.70
#: an objective needing this share of the turn limit unopposed has no time for a fight
TIGHT = 0.75
#: a hold falling in fewer games than this is explained by the turns it was held
HOLD_RARE = 0.25
#: an objective falling in this share of games ...
SURE = 0.95
#: ... before this share of the turn limit on average decides nothing
SURE_BY = 0.4
#: fewer shots a game than characters in it, or this share of games without a shot, is a
#: thin fight
SHOTLESS = 0.1
#: objectives this many dots apart or more let each side score without meeting the other
APART = 6
#: a carried item got off the map in less than this share of the games it was picked up in
CARRIED_RARE = 0.5
#: a side losing most characters losing this share of them in turns 1-2 is caught at set-up
EARLY = 0.3
#: a hold falling in fewer games than this while this share of all games end one turn end
#: short of it is a turn too long
NEAR_MISS = 0.5
#: the share of carriers put down by blind fire that says smoke hides them but does not save
BLIND_SHARE = 0.25
#: carriers put down this many dots from the pick-up or nearer were caught taking it
AT_PICKUP = 2


def slack_limit(unopposed: int) -> int:
    """A turn limit leaving an objective that needs ``unopposed`` turns half as many again
    for the fight (at least three)."""
    return unopposed + max(3, math.ceil(unopposed / 2))


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def build_report(head: dict[str, Any], games: list[dict[str, Any]],
                 workers: int | None = None) -> dict[str, Any]:
    n = len(games)
    sides = list(head["sides"])
    seeds = [g["seed"] for g in games]
    side_rows = []
    for s in sides:
        wins = sum(1 for g in games if g["winner"] == s)
        lo, hi = wilson(wins, n)
        side_rows.append({
            "id": s, "wins": wins, "win_rate": wins / n if n else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)],
            "average_points": round(sum(g["scores"].get(s, 0) for g in games) / n, 3) if n else 0.0,
            "casualties": sum(1 for g in games for c in g.get("casualties", []) if c["side"] == s),
            "size": sum(1 for v in head.get("characters", {}).values() if v == s),
            "early_casualties": sum(1 for g in games for c in g.get("casualties", [])
                                    if c["side"] == s and c["turn"] <= 2),
        })
    draws = sum(1 for g in games if g["winner"] == "draw")
    obj_rows = []
    unopposed = head.get("unopposed", {})
    for o in head["objectives"]:
        turns = [g.get("objective_turns", {}).get(o["id"]) for g in games if o["id"] in g["achieved"]]
        turns = [t for t in turns if t is not None]
        row = {**o, "achieved": len(turns) if turns else sum(1 for g in games
                                                              if o["id"] in g["achieved"])}
        row["rate"] = row["achieved"] / n if n else 0.0
        row["mean_turn"] = round(sum(turns) / len(turns), 2) if turns else None
        if o["id"] in unopposed:
            row["unopposed_turns"] = unopposed[o["id"]]["turns"]
        if o["kind"] == "retrieve" and any("pickups" in g for g in games):
            # (records written before pick-ups were kept have none)
            picked = [g["pickups"][o["id"]] for g in games if o["id"] in g.get("pickups", {})]
            row["picked_up"] = len(picked)
            row["mean_pickup_turn"] = round(sum(p[0] for p in picked) / len(picked), 2) \
                if picked else None
            # games it was picked up in and not carried off: a carrier put down, or not
            lost = [g for g in games if o["id"] in g.get("pickups", {})
                     and o["id"] not in g["achieved"]]
            row["carriers_down"] = sum(1 for g in lost if any(
                d["objective"] == o["id"] for d in g.get("drops", [])))
            row["still_carried"] = len(lost) - row["carriers_down"]
            row["put_down"] = _put_down(o["id"], games, head.get("places", {}).get(o["id"]))
        if o["kind"] == "hold":
            counts = [g["held"].get(o["id"], 0) for g in games if "held" in g]
            if counts:  # (records written before the count was kept have none)
                row["mean_held"] = round(sum(counts) / len(counts), 2)
                if o.get("turns"):
                    # games it did not fall in, one turn end short of what it needs
                    row["one_short"] = sum(1 for g in games if "held" in g and o["id"]
                                           not in g["achieved"] and
                                           g["held"].get(o["id"], 0) == o["turns"] - 1)
        obj_rows.append(row)
    cas = [c for g in games for c in g.get("casualties", [])]
    kills = Counter(c["by"] for c in cas if c["by"])
    how = Counter(c["how"] for c in cas)
    spots = Counter(tuple(c["at"]) for c in cas if c.get("at"))
    shots = sum(g.get("shots", 0) for g in games)
    rep = {
        "scenario": head["scenario"], "ruleset": head.get("ruleset", "dmz1990"), "games": n,
        "seeds": [min(seeds), max(seeds)] if seeds else [],
        "sides": side_rows, "draws": draws, "draw_rate": draws / n if n else 0.0,
        "average_turns": round(sum(g["turns"] for g in games) / n, 3) if n else 0.0,
        "turn_limit": head.get("turn_limit") or 10,
        "average_shots": round(shots / n, 2) if n else 0.0,
        "games_without_a_shot": sum(1 for g in games if not g.get("shots")),
        "characters": len(head.get("characters", {})),
        "places": dict(head.get("places", {})),
        "reaction_shot_share": round(sum(g.get("reaction_shots", 0) for g in games) / shots, 3)
        if shots else 0.0,
        "average_grenades": round(sum(g.get("grenades", 0) for g in games) / n, 2) if n else 0.0,
        "grenades": sum(g.get("grenades", 0) for g in games),
        "objectives": obj_rows,
        "casualties": {
            "total": len(cas), "per_game": round(len(cas) / n, 2) if n else 0.0,
            "by_character": dict(kills.most_common()),
            "killer_sides": {c["by"]: c.get("by_side", "") for c in cas if c["by"]},
            "how": dict(how.most_common()),
            "by_turn": dict(sorted(Counter(c["turn"] for c in cas).items())),
            "where": [{"at": list(k), "count": v} for k, v in spots.most_common(5)],
        },
        "bots": games[0].get("bots", {}) if games else {},
    }
    if workers is not None:
        rep["workers"] = workers
    rep["findings"] = findings(rep)
    return rep


def findings(rep: dict[str, Any]) -> list[str]:
    """Plain sentences a designer can act on."""
    out: list[str] = []
    n = rep["games"]
    if not n:
        return ["no games were played"]
    limit = rep["turn_limit"]
    objs = {o["id"]: o for o in rep["objectives"]}
    if rep["average_shots"] == 0:
        out.append(f"no fight happened: no shot in {n} games. The sides never see each other "
                   "in range: move a deployment zone or an objective into the other side's sight.")
    else:
        thin = _thin_fight(rep)
        if thin:
            out.append(thin)
    for s in rep["sides"]:
        if s["win_rate"] > LOPSIDED:
            lo, hi = s["ci95"]
            mine = sorted((o for o in rep["objectives"] if o["side"] == s["id"] and o["rate"] > 0),
                          key=lambda o: -o["rate"] * o["points"])
            why = ", ".join(f"{o['id']} ({o['points']} pts, {_pct(o['rate'])})" for o in mine[:2])
            out.append(f"{s['id']} wins {_pct(s['win_rate'])} of games (95% {_pct(lo)}-{_pct(hi)})"
                       + (f", scoring mostly from {why}" if why else "") + ".")
    even = _even(rep)
    if even:
        out.append(even)
    if rep["draw_rate"] > 0.5:
        out.append(f"{_pct(rep['draw_rate'])} of games are draws: neither side scores more. "
                   "Objectives that fall more often, or points for the fight, would decide them.")
    for o in rep["objectives"]:
        un = o.get("unopposed_turns")
        lim = o.get("by_turn") or limit
        if un is not None and un > lim:
            out.append(f"objective {o['id']} needs {un} turns unopposed, limit {lim}: it cannot "
                       f"fall; raise the turn limit to {un + 1} or move it closer.")
        elif o["kind"] == "hold" and o["rate"] < NEAR_MISS and o.get("turns", 0) > 1 and \
                o.get("one_short", 0) >= NEAR_MISS * n:
            # most of the games it fails, it fails by one turn end: one fewer is the edit
            would = o["achieved"] + o["one_short"]
            out.append(f"objective {o['id']} ({o['side']}) fell in {_pct(o['rate'])} of "
                       f"games, and in {o['one_short']} more its holders had the area to "
                       f"themselves at {o['turns'] - 1} of the {o['turns']} turn ends it "
                       f"needs: asking {o['turns'] - 1} would have let it fall in about "
                       f"{_pct(would / n)} of these games. If it then falls that often, "
                       "weigh its points against the other side's objectives, or most "
                       "games are decided by it.")
        elif o["rate"] < HOLD_RARE and o["kind"] == "hold" and o.get("mean_held") is not None \
                and o.get("turns"):
            # a hold counts turn ends with the side alone in the area: say how far it got
            out.append(f"objective {o['id']} ({o['side']}) fell in {_pct(o['rate'])} of games: "
                       f"its holders had the area to themselves at {o['mean_held']:g} of the "
                       f"{o['turns']} turn ends it needs, on average; the enemy gets in and "
                       "stays. Fewer turns, an area the enemy need not enter, or holders "
                       "strong enough to clear it would let it fall.")
        elif o.get("picked_up") and o["achieved"] < CARRIED_RARE * o["picked_up"]:
            out.append(_carried(o, n))
        elif o["rate"] < 0.05 and o["kind"] not in ("protect",):
            if un is not None and un >= TIGHT * lim:
                # it can fall, but only unopposed: the fight's delays use up the spare turns
                out.append(f"objective {o['id']} ({o['side']}) fell in {o['achieved']} of "
                           f"{n} games: unopposed it needs {un} of the {lim} turns, so the "
                           f"fight leaves no time for it; raise the turn limit to about "
                           f"{slack_limit(un)} or move it closer.")
            else:
                extra = f" (it needs {un} turns unopposed, limit {lim})" if un is not None \
                    else ""
                out.append(f"objective {o['id']} ({o['side']}) fell in {o['achieved']} of "
                           f"{n} games{extra}.")
        elif o["rate"] >= SURE and o["kind"] not in ("protect",) and \
                o.get("mean_turn") is not None and o["mean_turn"] <= SURE_BY * lim:
            out.append(f"objective {o['id']} ({o['side']}, {o['points']} pts) fell in "
                       f"{_pct(o['rate'])} of games, by turn {o['mean_turn']:g} on average: "
                       "it decides nothing; the other objectives do. Make it harder (further, "
                       "better guarded) or worth fewer points.")
    big = [o for o in rep["objectives"] if o["points"] >= max((x["points"] for x in
                                                               rep["objectives"]), default=0)]
    for s in rep["sides"]:
        if s["win_rate"] > LOPSIDED and big and all(o["rate"] < 0.1 for o in big):
            small = [o for o in rep["objectives"] if o["side"] == s["id"] and o["rate"] > 0.5]
            if small:
                out.append(f"games are decided by {small[0]['id']} ({small[0]['points']} pts): "
                           f"the {big[0]['points']}-point objectives fall in under 10% of games.")
    rows = rep["sides"]
    for s in rows:
        others = [o for o in rows if o is not s]
        if not s.get("size") or not others or s["casualties"] < 5:
            continue
        lost = s["casualties"] / n
        theirs = sum(o["casualties"] for o in others) / n
        if lost >= 0.5 * s["size"] and lost >= 2 * theirs:
            early = s.get("early_casualties", 0) / s["casualties"]
            if early >= EARLY:
                out.append(f"{s['id']} loses {lost:.1f} of its {s['size']} characters a game "
                           f"(the others {theirs:.1f}), {_pct(early)} of them in turns 1-2: "
                           "it is shot up before it can act; give it cover or a deployment "
                           "out of the enemy's sight.")
            else:
                out.append(f"{s['id']} loses {lost:.1f} of its {s['size']} characters a game "
                           f"(the others {theirs:.1f}), {_pct(1 - early)} of them after turn "
                           "2: it is outgunned in the fight itself, not caught at set-up; "
                           "stronger characters on its side or weaker ones against it.")
    cas = rep["casualties"]
    if cas["total"] >= 5 and cas["by_character"]:
        who, k = next(iter(cas["by_character"].items()))
        killed = sum(cas["by_character"].values())
        if k / killed >= 0.5:
            out.append(f"{who} scores {_pct(k / killed)} of the kills ({k} of {killed})"
                       + (": the other side has no answer to him; weaken him (weapon, "
                          "reflexes, armour) or give them one."
                          if _lopsided_for(rep, who) else "."))
    if cas["total"] >= 5:
        react = cas["how"].get("reaction fire", 0)
        if react / cas["total"] >= 0.6:
            out.append(f"reaction fire causes {_pct(react / cas['total'])} of casualties: "
                       "moving through held arcs decides the game.")
    if rep["average_turns"] >= limit and all(o["rate"] < 0.5 for o in rep["objectives"]
                                            if o["kind"] != "protect"):
        out.append(f"games run to the turn limit ({limit}) with most objectives open.")
    del objs
    return out


def _even(rep: dict[str, Any]) -> str | None:
    """The two sides that win most, when neither is favoured beyond chance: the 95% interval
    of the first one's share of the games the two decided holds one half (a mirror should
    say this)."""
    rows = sorted(rep["sides"], key=lambda s: -s["wins"])
    if len(rows) < 2:
        return None
    a, b = rows[0], rows[1]
    decided = a["wins"] + b["wins"]
    if decided < 10:
        return None
    lo, hi = wilson(a["wins"], decided)
    if not lo <= 0.5 <= hi:
        return None
    return (f"the sides are even: {a['id']} wins {_pct(a['win_rate'])}, {b['id']} "
            f"{_pct(b['win_rate'])}; of the {decided} games they decided {a['id']} took "
            f"{_pct(a['wins'] / decided)} (95% {_pct(lo)}-{_pct(hi)}), within chance of half.")


def _lopsided_for(rep: dict[str, Any], who: str) -> bool:
    """Does the side of the character ``who`` win more than it loses by a wide margin (a
    third of games or more)?  Then his kills are the imbalance, not just good shooting."""
    side = rep["casualties"].get("killer_sides", {}).get(who)
    rows = {s["id"]: s["win_rate"] for s in rep["sides"]}
    if side not in rows:
        return False
    others = max((v for k, v in rows.items() if k != side), default=0.0)
    return rows[side] - others >= 1 / 3


def _thin_fight(rep: dict[str, Any]) -> str | None:
    """Fewer shots a game than characters, or many games without one: say so, and where
    each side scores from (objectives far apart let both score without meeting)."""
    n, shots, chars = rep["games"], rep["average_shots"], rep.get("characters") or 0
    quiet = rep["games_without_a_shot"]
    if not (shots < chars or quiet >= SHOTLESS * n):
        return None
    text = (f"a thin fight: {shots:g} shots a game among {chars} characters, "
            f"{quiet} of {n} games without a shot.")
    places = rep.get("places", {})
    where = []
    for s in rep["sides"]:
        scored = [o for o in rep["objectives"] if o["side"] == s["id"] and o["rate"] > 0
                  and o["id"] in places]
        if scored:
            o = max(scored, key=lambda o: (o["rate"] * o["points"], o["id"]))
            at = places[o["id"]]
            where.append((s["id"], o["id"], at))
    if len(where) >= 2:
        (s1, o1, p1), (s2, o2, p2) = where[:2]
        apart = math.hypot(p1[0] - p2[0], p1[1] - p2[1])
        text += (f" {s1} scores most at {o1} ({p1[0]:g},{p1[1]:g}), {s2} at {o2} "
                 f"({p2[0]:g},{p2[1]:g}), {apart:.0f} dots apart")
        if apart >= APART:
            text += (": each side can score without meeting the other. Put what one side must "
                     "take where the other must keep (one place for both), or give the fight "
                     "itself points.")
        else:
            text += (", yet they seldom shoot: a side whose points are safe need not fight. "
                     "Give the fight itself points, or make each side need what the other "
                     "holds.")
    return text


def _put_down(oid: str, games: list[dict[str, Any]], place: list[float] | None
              ) -> dict[str, Any]:
    """How, by whom and where the carriers of item ``oid`` were put down (each drop joined to
    its casualty: the same character going out on the same turn)."""
    how: Counter[str] = Counter()
    by: Counter[str] = Counter()
    at: Counter[tuple[int, ...]] = Counter()
    far: list[float] = []
    for g in games:
        for d in g.get("drops", []):
            if d["objective"] != oid:
                continue
            c = next((c for c in g.get("casualties", []) if c["who"] == d["who"]
                      and c["turn"] == d["turn"]), None)
            if c is not None:
                how[c["how"]] += 1
                if c.get("by"):
                    by[c["by"]] += 1
            if d.get("at"):
                at[tuple(d["at"][:2])] += 1
                if place is not None:
                    far.append(max(abs(d["at"][0] - place[0]), abs(d["at"][1] - place[1])))
    return {"drops": sum(at.values()) or sum(how.values()), "how": dict(how.most_common()),
            "by": dict(by.most_common()), "where": [[*k, v] for k, v in at.most_common(3)],
            "from_pickup": round(sum(far) / len(far), 1) if far else None}


def _carried(o: dict[str, Any], n: int) -> str:
    """An item its side picks up but rarely gets off the map: what stops it, and the edit
    that answers it (how and where its carriers were put down, when the records say)."""
    down, stuck = o.get("carriers_down", 0), o.get("still_carried", 0)
    why = []
    if down:
        why.append(f"its carrier was put down in {down}")
    if stuck:
        why.append(f"still on the map at the end in {stuck}")
    text = (f"objective {o['id']} ({o['side']}) was picked up in {o['picked_up']} of {n} "
            f"games (turn {o['mean_pickup_turn']:g} on average) but carried off in "
            f"{o['achieved']}: " + " and ".join(why) + ".")
    pd = o.get("put_down") or {}
    if stuck > down or not pd.get("drops"):
        return text + (" The way out is what fails: a nearer or covered exit, or more turns, "
                       "would let it fall.")
    drops = pd["drops"]
    how = ", ".join(f"{k} {v}" for k, v in pd["how"].items())
    who = ", ".join(f"{k} {v}" for k, v in list(pd["by"].items())[:3])
    where = ", ".join(f"{x},{y} x{c}" for x, y, c in pd["where"])
    near = pd.get("from_pickup")
    text += (f" Carriers went down {drops} times"
             + (f", {near:g} dots from the pick-up on average" if near is not None else "")
             + (f" (most at {where})" if where else "")
             + (f"; how: {how}" if how else "") + (f"; by {who}" if who else "") + ".")
    if near is not None and near <= AT_PICKUP:
        return text + (" They are caught taking it: cover at the pick-up, or a way to it "
                       "out of the enemy's sight, would let it fall.")
    text += (" The way out runs through the enemy's fire: cover along it, or a nearer exit, "
             "would let it fall.")
    blind = pd["how"].get("blind fire", 0)
    if blind >= BLIND_SHARE * drops:
        text += (f" Smoke hides the carrier but does not save him ({blind} by blind fire): "
                 "only what blocks the line (a wall, a building, a vehicle) does.")
    top = next(iter(pd["by"].items()), None)
    if top is not None and top[1] >= 0.5 * drops:
        text += f" {top[0]} alone puts down {top[1]}: block his line to the way out."
    return text


def _grenades(rep: dict[str, Any]) -> str:
    """Grenades a game, and how many in all when that rounds to nothing ("0.0" read as never
    while two were thrown in 60 games)."""
    total = rep.get("grenades", 0)
    if total and rep["average_grenades"] < 0.1:
        return f"{total} grenade{'s' if total > 1 else ''} in {rep['games']} games"
    return f"{rep['average_grenades']:.1f} grenades"


def format_report(rep: dict[str, Any]) -> str:
    seeds = f", seeds {rep['seeds'][0]}..{rep['seeds'][1]}" if rep["seeds"] else ""
    workers = f", {rep['workers']} workers" if "workers" in rep else ""
    rules = f" under {rep['ruleset']}" if rep.get("ruleset", "dmz1990") != "dmz1990" else ""
    lines = [f"{rep['scenario']}: {rep['games']} bot games{rules}{seeds}{workers}"]
    if rep.get("bots"):
        lines.append("  bots: " + ", ".join(f"{k}={v}" for k, v in rep["bots"].items()))
    lines.append(f"  {'side':<16}{'wins':>6}{'win rate':>10}   95% interval    avg points"
                 "  casualties")
    for s in rep["sides"]:
        lo, hi = s["ci95"]
        lines.append(f"  {s['id']:<16}{s['wins']:>6}{s['win_rate']:>10.1%}   "
                     f"{lo:.1%} - {hi:.1%}   {s['average_points']:>6.2f}  {s['casualties']:>10}")
    lines.append(f"  {'draw':<16}{rep['draws']:>6}{rep['draw_rate']:>10.1%}")
    lines.append(f"  average game length: {rep['average_turns']:.2f} turns "
                 f"(limit {rep['turn_limit']}); {rep['average_shots']:.1f} shots a game "
                 f"({rep['reaction_shot_share']:.0%} reaction fire), "
                 f"{_grenades(rep)}")
    if rep["objectives"]:
        lines.append("  objectives achieved:")
        for o in rep["objectives"]:
            when = f", mean turn {o['mean_turn']}" if o.get("mean_turn") is not None else ""
            un = (f", {o['unopposed_turns']} turns unopposed"
                  if o.get("unopposed_turns") is not None else "")
            held = (f", held {o['mean_held']:g} of {o['turns']} turns a game"
                    if o.get("mean_held") is not None and o.get("turns") else "")
            lines.append(f"    {o['id']} ({o['side']}, {o['kind']}, {o['points']} pts): "
                         f"{o['achieved']}/{rep['games']} = {o['rate']:.1%}{when}{un}{held}")
    cas = rep["casualties"]
    if cas["total"]:
        lines.append(f"  casualties: {cas['total']} ({cas['per_game']} a game); how: "
                     + ", ".join(f"{k} {v}" for k, v in cas["how"].items()))
        lines.append("    by: " + ", ".join(f"{k} {v}" for k, v in
                                            list(cas["by_character"].items())[:6]))
        lines.append("    turn: " + ", ".join(f"{k}: {v}" for k, v in cas["by_turn"].items()))
        lines.append("    where: " + ", ".join(f"{w['at']} x{w['count']}" for w in cas["where"]))
    if rep["findings"]:
        lines.append("  findings:")
        lines.extend(f"    - {f}" for f in rep["findings"])
    return "\n".join(lines)


# ------------------------------------------------------------------ balance delta
def _paired(diffs: list[float]) -> tuple[float, list[float]]:
    n = len(diffs)
    if not n:
        return 0.0, [0.0, 0.0]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    return round(mean, 4), [round(mean - half, 4), round(mean + half, 4)]


def delta_report(rep_a: dict[str, Any], games_a: list[dict[str, Any]],
                 rep_b: dict[str, Any], games_b: list[dict[str, Any]]) -> dict[str, Any]:
    """B minus A on the seeds both played: per side win rate, per objective rate."""
    by_a = {g["seed"]: g for g in games_a}
    pairs = [(by_a[g["seed"]], g) for g in games_b if g["seed"] in by_a]
    sides = []
    for s in rep_a["sides"]:
        d, ci = _paired([(b["winner"] == s["id"]) - (a["winner"] == s["id"]) for a, b in pairs])
        sides.append({"id": s["id"], "a": s["win_rate"], "b": next(
            (x["win_rate"] for x in rep_b["sides"] if x["id"] == s["id"]), None),
            "delta": d, "ci95": ci, "significant": ci[0] > 0 or ci[1] < 0})
    d, ci = _paired([(b["winner"] == "draw") - (a["winner"] == "draw") for a, b in pairs])
    objs = []
    ids_b = {o["id"] for o in rep_b["objectives"]}
    for o in rep_a["objectives"]:
        if o["id"] not in ids_b:
            continue
        od, oci = _paired([(o["id"] in b["achieved"]) - (o["id"] in a["achieved"])
                           for a, b in pairs])
        objs.append({"id": o["id"], "a": o["rate"], "b": next(
            x["rate"] for x in rep_b["objectives"] if x["id"] == o["id"]),
            "delta": od, "ci95": oci, "significant": oci[0] > 0 or oci[1] < 0})
    sd, sci = _paired([b.get("shots", 0) - a.get("shots", 0) for a, b in pairs])
    return {"a": rep_a["scenario"], "b": rep_b["scenario"], "paired_games": len(pairs),
            "sides": sides, "draws": {"delta": d, "ci95": ci},
            "objectives": objs, "shots": {"delta": sd, "ci95": sci}}


def format_delta(dl: dict[str, Any]) -> str:
    lines = [f"balance delta: {dl['b']} against {dl['a']}, {dl['paired_games']} paired seeds"]

    def row(name: str, a: Any, b: Any, d: float, ci: list[float], sig: bool) -> str:
        ab = f"{a:.1%} -> {b:.1%}" if a is not None and b is not None else ""
        mark = "  *" if sig else ""
        return (f"  {name:<28}{ab:>18}   {d:+.1%}  (95% {ci[0]:+.1%} .. {ci[1]:+.1%}){mark}")

    for s in dl["sides"]:
        lines.append(row(f"{s['id']} wins", s["a"], s["b"], s["delta"], s["ci95"],
                         s["significant"]))
    lines.append(row("draws", None, None, dl["draws"]["delta"], dl["draws"]["ci95"],
                     dl["draws"]["ci95"][0] > 0 or dl["draws"]["ci95"][1] < 0))
    for o in dl["objectives"]:
        lines.append(row(o["id"], o["a"], o["b"], o["delta"], o["ci95"], o["significant"]))
    lines.append(f"  shots a game {dl['shots']['delta']:+.1f} "
                 f"(95% {dl['shots']['ci95'][0]:+.1f} .. {dl['shots']['ci95'][1]:+.1f})")
    lines.append("  (* the interval excludes no change)")
    return "\n".join(lines)
