"""The engine's play events as readable lines for the log panel.

Every event of :class:`engine.play.events.EventLog` becomes one line; rolls and Success Tests
spell out the dice, the Success Value, each Target Value modifier and the chance, so a designer
can see why a shot hit or missed.  Events this module does not know still get a line (their
fields as ``key=value``), so nothing the engine logs is ever hidden.
"""

from __future__ import annotations

from typing import Any


def _dot(d: Any) -> str:
    if not d:
        return "–"
    d = list(d)
    return f"{d[0]},{d[1]}" + (f" (level {d[2]})" if len(d) > 2 and d[2] else "")


def _mods(mods: dict[str, int]) -> str:
    return ", ".join(f"{k.replace('_', ' ')} {v:+d}" if k != "defense" else f"defense {v}"
                     for k, v in mods.items())


def _context(e: dict[str, Any], skip: tuple[str, ...]) -> str:
    rest = {k: v for k, v in e.items() if k not in skip}
    return ", ".join(f"{k} {v}" for k, v in rest.items())


def describe_test(e: dict[str, Any]) -> str:
    """'Movement fire: sabre -> vance (Ares Predator II): SV 24 - TV 15 (defense 12, ...) =
    chance 9; rolled 7: hit'."""
    who = e.get("attacker") or e.get("thrower")
    tgt = e.get("target") or e.get("barrier") or (_dot(e["aimed"]) if "aimed" in e else None)
    head = e.get("purpose", "test").capitalize()
    if who and tgt:
        head += f": {who} → {tgt}"
    elif tgt:
        head += f": {tgt}"
    if e.get("weapon"):
        head += f" ({e['weapon']})"
    mods = e.get("modifiers") or {}
    tv = f"TV {e['target_value']}" + (f" ({_mods(mods)})" if mods else "")
    line = f"{head}: SV {e['success_value']} − {tv} = chance {e['chance']}"
    if e.get("roll") is None:
        return f"{line}; no roll (below −10): failure"
    verdict = "success" if e.get("success") else "failure"
    if e.get("why") in ("automatic success", "automatic failure"):
        verdict = e["why"]
    return f"{line}; rolled {e['roll']}: {verdict}"


def generic(e: dict[str, Any]) -> str:
    """Any event as ``kind: key value, ...`` (the numbers another ruleset logs, as they are)."""
    return f"{e.get('event')}: " + _context(e, ("seq", "event"))


def describe_pool_test(e: dict[str, Any]) -> str:
    """A Shadowrun-style test: 'Movement fire: sabre → rook (Ares Predator II): TN 11 (base 4,
    sight +5, ...); 9 dice 3 4 5 11 ...: 2 successes, 9M'; the rest of its numbers follow."""
    who, tgt = e.get("attacker") or e.get("thrower"), e.get("target") or e.get("barrier")
    head = str(e.get("purpose", "test")).capitalize()
    if who and tgt:
        head += f": {who} → {tgt}"
    if e.get("weapon"):
        head += f" ({e['weapon']})"
    mods = e.get("modifiers") or {}
    tn = f"TN {e['target_number']}" + (
        " (" + ", ".join(f"{k.replace('_', ' ')} {v:+d}" if k != "base" else f"base {v}"
                         for k, v in mods.items()) + ")" if mods else "")
    dice = e.get("dice")
    rolled = f"; {len(dice)} dice {' '.join(map(str, dice))}" if dice else ""
    got = f": {e['successes']} success(es)" if "successes" in e else ""
    shown = {"seq", "event", "purpose", "attacker", "thrower", "target", "barrier", "weapon",
             "modifiers", "target_number", "dice", "successes", "success"}
    rest = _context(e, tuple(shown))
    verdict = "" if "success" not in e else (", success" if e["success"] else ", failure")
    return f"{head}: {tn}{rolled}{got}{verdict}" + (f" [{rest}]" if rest else "")


def describe(e: dict[str, Any]) -> str:
    """One readable line for one event (without its sequence number).  An event whose fields
    are not the ones DMZ logs (another ruleset's test, its damage) gets the generic line."""
    try:
        return _describe(e)
    except (KeyError, TypeError, ValueError, IndexError):
        return generic(e)


def _describe_darkcon(k: Any, e: dict[str, Any]) -> str | None:
    """Dark Conspiracy's own events (aim, opportunity fire, charges, suppression, ambush)."""
    if k == "aim":
        mark = e["target"] or _dot(e["at"])
        return (f"{e['who']} aims at {mark}: {e['actions']} aiming action(s), next shot "
                f"{e['modifier']:+d} (instead of a quick shot's -4)")
    if k == "aim-lost":
        return f"{e['who']} loses his aim: {e['why']}"
    if k == "opportunity":
        if "square" not in e:
            return None
        how = "an aimed" if e["aimed"] else "a quick"
        return (f"Opportunity fire: {e['target']} {e['square']} a square {e['attacker']} aims "
                f"along; {how} shot")
    if k == "charge":
        return f"{e['who']} charges {e['target']}: a {e['metres']:g} m run"
    if k == "suppression":
        return (f"Suppression fire: {e['rounds']} round(s) of {e['shooter']}'s burst stay in "
                f"the fire zone until his next action")
    if k == "suppressed":
        return f"{e['who']} crosses {e['shooter']}'s suppression fire: {e['hits']} hit(s)"
    if k == "avoid":
        return f"{e['who']} avoids the charge, stepping to {_dot(e['to'])}"
    if k == "ambush":
        return f"Ambush by {e['side']}: {', '.join(e['ambushers'])} act as Initiative 6"
    return None


def _describe(e: dict[str, Any]) -> str:
    k = e.get("event")
    u = e.get("units", "MP")
    if k == "test":
        return describe_pool_test(e) if "target_number" in e else describe_test(e)
    if k == "roll":
        dice = e.get("dice") or []
        ctx = _context(e, ("seq", "event", "purpose", "dice", "total"))
        return (f"Roll 2D6 for {e.get('purpose')}{' (' + ctx + ')' if ctx else ''}: "
                f"{' + '.join(map(str, dice))} = {e.get('total')}")
    if k == "start":
        return f"Game '{e.get('title')}' starts, seed {e.get('seed')}, sides {', '.join(e.get('sides', []))}"
    if k == "deploy":
        return f"{e['who']} ({e['side']}) deploys at {_dot(e['at'])}"
    if k == "initiative":
        rolls = e.get("rolls") or {}

        def entry(t: Any) -> str:
            # a team or character id, "id@score" (darkcon) or [id, score] (sr1)
            text = f"{t[0]}@{t[1]}" if isinstance(t, list | tuple) and len(t) == 2 else str(t)
            who = text.split("@")[0]
            if who not in rolls:
                return text
            roll = rolls[who]
            if isinstance(roll, dict):  # darkcon keeps the dice with the score
                roll = "+".join(map(str, roll.get("dice", []))) or roll
            return f"{text} ({roll})"

        return "Initiative: " + " → ".join(entry(t) for t in e["order"])
    if k == "phase":
        return f"— Turn {e['turn']}: {e['team']} moves —"
    darkcon = _describe_darkcon(k, e)
    if darkcon is not None:
        return darkcon
    if k == "begin":
        arcs = f", inside the arcs of {', '.join(e['in_arcs'])}" if e.get("in_arcs") else ""
        return f"{e['who']} begins at {_dot(e['pos'])} with {e['mp']:g} {u}{arcs}"
    if k == "spend":
        acts = f", action {e['slots_spent']}" if e.get("slots") else ""
        return (f"{e['who']} spends {e['mp']:g} {u} ({e['what']}{acts}): "
                f"{e['spent']:g}/{e['of']:g}")
    if k == "move":
        why = f" ({'; '.join(e['why'])})" if e.get("why") else ""
        verb = "crawls" if e.get("crawl") else "moves"
        return f"{e['who']} {verb} {_dot(e['frm'])} → {_dot(e['to'])}: {e['cost']:g} {u}{why}"
    if k == "end":
        return (f"{e['who']} ends his move at {_dot(e.get('pos'))} ({e['mp_spent']:g} {u} "
                "spent)")
    if k == "reaction-count":
        return (f"{e['reactor']} counts {e['mp']} MP of {e['mover']} in his arc: "
                f"{e['attacks']} attack(s), {e['unresolved']} carried over")
    if k == "reaction-free":
        return f"{e['reactor']} gets the free attack on {e['mover']} (began in his arc)"
    if k == "reaction-hold":
        return f"{e['reactor']} holds fire at {e['target']}: {e['why']}"
    if k == "damage":
        marks = ", ".join(f"{b} {m}" for b, m in e.get("marked", []))
        extra = [x for x, on in (("knocked prone", e.get("knocked_prone")),
                                 ("unconscious", e.get("unconscious")),
                                 ("dead", e.get("dead"))) if on]
        return (f"{e['target']} takes {e['boxes']} {e['damage']} from {e['source']} at box "
                f"{e['location']} (marked {marks or 'nothing'}); injury +{e.get('modifier', 0)}, "
                f"{e.get('mp')} MP" + (f"; {', '.join(extra)}" if extra else ""))
    if k == "out":
        return f"{e['who']} is {'dead' if e.get('dead') else 'out of the fight'}"
    if k == "knocked-prone":
        return f"{e['who']} is knocked prone"
    if k == "arcs-removed":
        return f"{e['who']}'s arcs are removed ({e['why']})"
    if k == "movement-ended":
        return f"{e['who']}'s movement ends: {e['spent']} MP spent, only {e['mp']} left to him"
    if k == "arc":
        return f"{e['who']} sets a {e['kind']} arc towards {e['direction']:.0f}° at {_dot(e['at'])}"
    if k == "posture":
        return f"{e['who']} is now {e['posture']}"
    if k == "opening":
        return f"{e['who']} makes {e['feature']} {e['state']}"
    if k == "ready":
        return f"{e['who']} readies the {e['weapon']}"
    if k == "reload":
        return f"{e['who']} reloads the {e['weapon']} ({e['clips_left']} clips left)"
    if k == "objective":
        return f"Objective {e['objective']} achieved by {e['side']} (+{e['points']}): {e['why']}"
    if k == "pickup":
        return f"{e['who']} picks up {e['objective']}"
    if k == "item-dropped":
        return f"{e['who']} goes down and drops {e['objective']} at {_dot(e['at'])}"
    if k == "blind-target":
        return (f"{e['who']}'s blind shot at {e['aimed']} goes into the group "
                f"({', '.join(e['group'])}): it is {e['target']} who is shot at (l.1005)")
    if k == "exit":
        return f"{e['who']} leaves the map by the {e['edge']} edge"
    if k == "turn-end":
        return f"— End of turn {e['turn']} —"
    if k == "finish":
        scores = ", ".join(f"{s} {v}" for s, v in (e.get("scores") or {}).items())
        return f"Game over ({e['why']}), turn {e['turn']}: winner {e['winner']}; points {scores}"
    if k == "grenade-lands":
        return f"{e['thrower']}'s {e['grenade']} lands at {_dot(e['at'])}"
    if k == "scatter":
        return (f"{e['thrower']}'s throw scatters {e['distance']} dots (direction roll "
                f"{e['direction_roll']}) to {_dot(e['landed'])}")
    if k == "blast":
        return f"{e['thrower']}'s {e['grenade']} goes off at {_dot(e['at'])}"
    if k == "blast-shielded":
        return f"{e['target']} is shielded from the blast by {e['why']}"
    if k == "smoke":
        return f"Smoke fills {e['dots']} dots around {_dot(e['at'])}"
    if k == "barrier-damage":
        return (f"{e['feature']} takes {e['boxes']} boxes (armor {e['armor']}), "
                f"{e['total']} in all")
    if k == "hole":
        return f"{e['feature']} is broken open"
    if k == "stacked":
        return f"{e['who']} stops on {e['on']}'s dot"
    if k == "melee":
        return (f"Melee {e['attacker']} vs {e['defender']} ({e['choice']}): attacker "
                f"{'hits' if e.get('attacker_hit') else 'misses'}"
                + ("" if "defender_hit" not in e else
                   f", defender {'hits' if e['defender_hit'] else 'misses'}"))
    if k == "fall":
        return (f"{e['who']} falls {e['stories']} stor{'y' if e['stories'] == 1 else 'ies'} "
                f"from {_dot(e['frm'])} to {_dot(e['to'])} and lands prone")
    if k == "hold-broken":
        return f"{e['objective']}: the hold is broken after {e['after']} turn(s); the count restarts"
    if k in SPELL_WORDS:
        return SPELL_WORDS[k](e)
    # Shadowrun's Take Aim and delayed actions (sr3)
    if k == "aim":
        return f"{e['who']} takes aim at {e['target']}: {e['aimed']} of {e['most']} (−1 TN each)"
    if k == "aim-lost":
        return f"{e['who']} loses his aim ({e['why']})"
    if k == "delay":
        return f"{e['who']} delays his action in Combat Phase {e['phase']}"
    if k == "delay-ends":
        return f"{e['who']}'s delay ends: {e['why']}"
    if k == "delay-broken":
        return f"{e['who']}'s delay is broken: {e['why']}"
    if k == "intervene":
        return (f"{e['who']} takes his delayed action against {e['against']} in Combat Phase "
                f"{e['phase']}")
    if k == "initiative-after-delay":
        left = ", ".join(map(str, e["phases"])) or "none"
        return f"{e['who']} acts again this turn in Combat Phase(s): {left}"
    if k == "why":
        return (f"{e.get('who', '?')} ({e.get('bot', 'bot')}, {e.get('behaviour', '')}) chooses "
                f"{e.get('act', '?')} because "
                + _context(e, ("seq", "event", "who", "bot", "behaviour", "act")))
    return f"{k}: {_context(e, ('seq', 'event'))}"


def _cast(e: dict[str, Any]) -> str:
    how = " as reaction fire" if e.get("reaction") else ""
    at = f" at {', '.join(e['targets'])}" if e.get("targets") else ""
    if e.get("at"):
        at += f" (aimed at {_dot(e['at'])})"
    hurt = f", damage {e['damage']}" if "damage" in e else ""
    return f"{e['who']} casts {e['spell']}{how}, Force {e['force']}{hurt}{at}"


#: the magic events (seed 000 spells: engine/play/referee_spells.py, referee_sustain.py)
SPELL_WORDS = {
    "cast": _cast,
    "unready": lambda e: f"{e['who']} lets go of the {e['weapon']} (ready it again: 3 MP)",
    "spell-fizzles": lambda e: f"{e['who']}'s {e['spell']} fizzles ({e['why']})",
    "healed": lambda e: (f"{e['who']} is healed by {e['by']}: boxes "
                         f"{', '.join(map(str, e['boxes']))} clear, permanent on turn "
                         f"{e['permanent_on_turn']}; injury +{e['modifier']}, {e['mp']} MP"),
    "revived": lambda e: f"{e['who']} wakes up, healed by {e['by']}",
    "armored": lambda e: (f"{e['who']} is armored by {e['by']}: +{e['bonus']} (" + ", ".join(
        f"{k} {v}" for k, v in e['defense'].items()) + ")"),
    "invisible": lambda e: f"{e['who']} turns invisible ({e['by']}'s spell)",
    "spell-permanent": lambda e: f"{e['who']}'s {e['spell']} on {e['target']} is permanent now",
    "spell-dropped": lambda e: f"{e['who']} drops {e['spell']} on {e['target']} ({e['why']})",
    "heal-lost": lambda e: (f"{e['who']} loses the healing: boxes "
                            f"{', '.join(map(str, e['boxes']))} marked again"),
    "ratios": lambda e: (f"{e['who']}'s ratios are {e['move_ratio']}/{e['fire_ratio']} "
                         + (f"({e['by']}'s {e['spell']})" if e.get("by") else
                            f"again ({e['spell']} ends)")),
    "distracted": lambda e: (f"{e['who']} is distracted by {e['by']}'s {e['spell']}: "
                             f"+{e['modifier']} to his tests"),
    "petrified": lambda e: f"{e['who']} is turned to stone by {e['by']}",
    "unpetrified": lambda e: f"{e['who']} is flesh again",
    "detected": lambda e: (f"{e['who']}'s {e['spell']} finds "
                           + (", ".join(e["found"]) or "nobody")),
    "levitating": lambda e: f"{e['who']} is held up by {e['by']}'s levitation",
    "levitate": lambda e: (f"{e['who']} floats from {_dot(e['frm'])} to {_dot(e['to'])} "
                           f"({e['by']}: {e['mp']} MP)"),
    "unperceived": lambda e: (f"{e['who']} cannot tell where the invisible {e['target']} "
                              "is (Perception fails): no shot"),
    "spell-area": lambda e: (f"{e['who']} raises a {e['spell']} ({e['shape']}) at "
                             f"{_dot(e['at'])}"),
}


def lines(events: list[dict[str, Any]]) -> list[str]:
    """Numbered lines, as the log panel shows them."""
    return [f"{e.get('seq', i):4d}  {describe(e)}" for i, e in enumerate(events)]
