"""Bot mages raise a Physical Barrier wall for a friend crossing open ground and levitate a
friend where he cannot walk (seed 000 l.1753-1766, l.1794-1796), only when it pays."""

from __future__ import annotations

from engine.play.actions import begin
from engine.play.bot_magic import WALK_NONE, lift_friend, support_spell
from engine.play.bot_odds import shot_odds
from engine.play.referee_areas import wall_shape
from engine.play.shots import p_success
from tests.play.fakes import GridBoard
from tests.play.helpers import ScriptedDice, build, char, set_arc
from tests.play.test_spells import mage
from tests.play.test_spells_more import street_duel


def crossing(arc: bool = True):
    """Tusk must walk east along row 14; Moth's rifle covers the street from (10, 2); Wren
    stands at (6, 9), three dots north of row 12."""
    board = GridBoard(20, 20)
    w = mage((6, 9, 0), spells=(("physical-barrier", 4),))
    tusk = char("tusk", "runners", (2, 14, 0))
    moth = char("moth", "gang", (10, 2, 0), weapon_success=(22, 20, 18, 16))
    game = build(board, [w, tusk, moth], ["runners", "gang"], dice=ScriptedDice([]))
    if arc:
        set_arc(moth, "wide", 90.0)  # 180 degrees facing south, over the whole street
    game.act(begin("wren"))
    return game, w, tusk, moth


def test_a_barrier_wall_across_the_rifle_s_line_over_a_friend_s_way():
    game, w, tusk, moth = crossing()
    goals = {"tusk": (18, 14, 0)}
    act, why = support_spell(game, w, [moth], 2, lambda c: goals.get(c.id))
    # a wall 3 dots south of her (l.1794): six dots along y = 11.5, between the rifle and
    # the first six dots of Tusk's way, (3, 14) .. (8, 14), and not across the way itself
    assert act == {"act": "cast", "spell": "physical-barrier", "force": "max", "at": [6, 12, 0]}
    assert list(wall_shape(game, w, (6, 12, 0)).coords) == [(9.0, 11.5), (3.0, 11.5)]
    # each shot at him on the way, 12 dots off (the SMG's medium range, Success Value 20):
    # against 8 + 2 movement fire, 33 in 36 on 2D6, x 4 boxes = 3.67; with the wall's Force
    # 4 on his Ballistic Defense, 20 against 14: 15 in 36, 1.67; 2.0 kept off a shot
    shot = shot_odds(game, moth, moth.pos, tusk, (4, 14, 0), True)
    assert shot == 4 * p_success(20 - 10) == 4 * 33 / 36
    assert 4 * p_success(20 - 14) == 4 * 15 / 36
    # 6 dots x 2 MP in the arc at Fire Ratio 3 draw 4 reaction attacks (l.971): 4 x 2.0
    assert why["buys_boxes"] == 8.0
    assert why["chance"] == round(26 / 36, 2)  # 9 + 4 against 5
    # standing still, nobody needs a wall: the dome around herself is all she weighs
    assert support_spell(game, w, [moth], 2, lambda c: c.pos) is None
    # no friend's goal given: no wall either (the dome protects nobody in the rifle's line)
    assert support_spell(game, w, [moth], 2) is None


def test_no_barrier_wall_when_the_rifle_holds_no_arc_over_the_way():
    # without an arc Moth gets one shot where Tusk ends up: 2.0 boxes kept off at a 26 in 36
    # chance, less 1.17 expected boxes of Drain, is under the 0.6 a spell must buy
    game, w, tusk, moth = crossing(arc=False)
    goals = {"tusk": (18, 14, 0)}
    assert support_spell(game, w, [moth], 2, lambda c: goals.get(c.id)) is None


def test_no_barrier_wall_across_a_friend_s_own_way():
    # Tusk walks north from (5, 14) to (5, 10): the wall south of Wren along y = 11.5 would
    # stop him (nobody walks through a force-field, l.1796); she raises the one north of
    # her instead, across the rifle's lines to his way and clear of the way itself
    from shapely.geometry import LineString

    game, w, tusk, moth = crossing()
    tusk.pos = (5, 14, 0)
    goals = {"tusk": (5, 10, 0)}
    act, why = support_spell(game, w, [moth], 2, lambda c: goals.get(c.id))
    assert act["at"] == [6, 6, 0] and why["buys_boxes"] > 0
    wall = wall_shape(game, w, tuple(act["at"]))
    way = LineString([game.point(d) for d in ((5, 14, 0), (5, 13, 0), (5, 10, 0))])
    assert not wall.intersects(way)
    assert wall.intersects(LineString([game.point(moth.pos), game.point((5, 12, 0))]))
    assert wall_shape(game, w, (6, 12, 0)).intersects(way)


def test_the_bot_levitates_a_friend_onto_a_roof_he_cannot_walk_to():
    game, w, tusk, _moth = street_duel((("levitate-person", 4),), [2, 2])
    tusk.pos = (5, 5, 0)  # by the hut's west wall; the roof (level 1) has no stairs
    roof = (8, 5, 1)
    goals = {"tusk": roof}
    assert game.board.costs_to(roof, 2, [tusk.pos]) == [None]
    act, why = lift_friend(game, w, lambda c: goals.get(c.id))
    assert act == {"act": "cast", "spell": "levitate-person", "target": "tusk", "force": "max"}
    assert why["chance"] == round(26 / 36, 2) and why["saves_mp"] == WALK_NONE
    game.act(act)
    act, why = lift_friend(game, w, lambda c: goals.get(c.id))
    assert act == {"act": "levitate", "target": "tusk", "to": [6, 4, 1]}
    game.act(act)
    # up a story and a dot across, paid from Wren's MP (l.1758): 3 for the spell + 4 + 3
    assert tusk.pos == (6, 4, 1) and w.mp_spent == 3 + 4 + 3
    # on the roof nothing more is saved: she drops the spell (+1 to her tests, l.1495)
    act, _why = lift_friend(game, w, lambda c: goals.get(c.id))
    assert act == {"act": "drop", "spell": "levitate-person", "target": "tusk"}


def test_no_levitation_for_a_friend_who_walks_there_as_cheaply_or_is_out_of_sight():
    game, w, tusk, _moth = street_duel((("levitate-person", 4),), [2, 2])
    tusk.pos = (5, 5, 0)
    # his goal is on the street: a leg over the hut's roof saves him nothing
    assert lift_friend(game, w, lambda c: (2, 12, 0) if c is tusk else None) is None
    # the roof, but Wren cannot see him (behind the hut): no spell at what she cannot see
    tusk.pos = (13, 5, 0)
    assert game.sight(w, tusk)[0].blocked
    assert lift_friend(game, w, lambda c: (11, 5, 1) if c is tusk else None) is None


def test_the_bots_odds_count_a_barrier_the_referee_counts():
    # the wall three dots east of Wren (x = 6.5, rows 8-14) stands between her and Moth: the
    # bots' estimate of his shot adds its Force to her Ballistic Defense as the referee does
    import dataclasses

    game, w, _tusk, moth = street_duel((("physical-barrier", 4),), [2, 2])
    w.pos = (4, 11, 0)
    moth.weapons[0] = dataclasses.replace(moth.weapons[0], success=(22, 20, 18, 16))
    open_shot = game.shot_value(moth, moth.pos, w, w.pos, True)
    game.act({"act": "cast", "spell": "physical-barrier", "at": [7, 11, 0]})
    plan = game.plan_shot(moth, w, True)
    assert plan.numbers["modifiers"]["barrier_spell"] == 4
    sv, tv = plan.numbers["success_value"], plan.numbers["target_value"]
    shot = game.shot_value(moth, moth.pos, w, w.pos, True)
    assert shot == p_success(sv - tv) * moth.ready_weapon.damage < open_shot
    # 20 against 8 + 2 + 4: 15 in 36 x 4 boxes; without the wall 20 against 10: 33 in 36
    assert (sv, tv) == (20, 14) and shot == 4 * 15 / 36 and open_shot == 4 * 33 / 36
