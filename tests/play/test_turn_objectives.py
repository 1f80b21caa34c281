"""Initiative, the phase sequence and objectives."""

from engine.model import Objective
from engine.play import actions as A
from engine.play import turn
from tests.play.fakes import GridBoard
from tests.play.helpers import ScriptedDice, build, char, set_arc


def two_sides(dice=None, objectives=None, turn_limit=3, initiative="team"):
    board = GridBoard(16, 10)
    a1 = char("a1", "red", (1, 1, 0))
    a2 = char("a2", "red", (1, 3, 0))
    b1 = char("b1", "blue", (14, 8, 0))
    return build(board, [a1, a2, b1], ["red", "blue"], dice=dice, objectives=objectives,
                 turn_limit=turn_limit, initiative=initiative)


def test_initiative_highest_first_and_ties_rerolled():
    g = two_sides(dice=ScriptedDice([5, 9]))
    turn.roll_initiative(g)
    assert g.state.order == ["blue", "red"]
    g = two_sides(dice=ScriptedDice([7, 7, 3, 10]))
    turn.roll_initiative(g)
    assert g.state.order == ["blue", "red"]
    assert [e["purpose"] for e in g.log.of_kind("roll")] == ["initiative"] * 2 + \
        ["initiative tie"] * 2


def test_character_initiative_makes_each_character_a_team():
    g = two_sides(dice=ScriptedDice([4, 11, 8]), initiative="character")
    turn.roll_initiative(g)
    assert g.state.order == ["a2", "b1", "a1"]


def test_phases_turns_and_arcs_coming_down():
    g = two_sides()
    assert g.movable() == ["a1", "a2"]
    g.act(A.begin("a1"))
    g.act(A.arc("wide", 0.0))
    g.act(A.end())
    g.act(A.begin("a2"))
    assert g.movable() == []
    g.act(A.end())
    assert g.state.current_team == "blue" and g.state.turn == 1 and g.movable() == ["b1"]
    assert g.state.characters["a1"].arcs  # his arc stands through blue's phase
    g.act(A.begin("b1"))
    g.act(A.end())
    assert g.state.turn == 2 and g.state.current_team == "red"
    assert g.state.characters["a1"].arcs == []  # taken down as red moves again
    assert g.state.characters["a1"].mp_spent == 0


def test_turn_limit_ends_the_game_with_a_draw_on_equal_points():
    g = two_sides(turn_limit=1)
    for who in ("a1", "a2", "b1"):
        g.act(A.begin(who))
        g.act(A.end())
    assert g.state.finished and g.state.winner == "draw" and g.state.turn == 1


def test_reach_and_hold_and_protect_score_their_points():
    objs = [Objective(id="corner", side="red", kind="reach", at=(2, 1), points=3),
            Objective(id="yard", side="blue", kind="hold",
                      area=((12.5, 6.5), (15.5, 6.5), (15.5, 9.5), (12.5, 9.5)), turns=1,
                      points=5),
            Objective(id="vip", side="red", kind="protect", target="a2", points=1)]
    g = two_sides(objectives=objs, turn_limit=1)
    g.act(A.begin("a1"))
    g.act(A.move((2, 1, 0)))
    assert g.state.achieved == {"corner": "red"}
    g.act(A.end())
    for who in ("a2", "b1"):
        g.act(A.begin(who))
        g.act(A.end())
    assert g.state.achieved == {"corner": "red", "yard": "blue", "vip": "red"}
    fin = g.log.of_kind("finish")[0]
    assert fin["scores"] == {"red": 4, "blue": 5} and g.state.winner == "blue"


def test_retrieve_then_exit_and_elimination():
    objs = [Objective(id="loot", side="red", kind="retrieve", at=(1, 2), then="exit-west",
                      points=2)]
    g = two_sides(objectives=objs, turn_limit=3)
    g.act(A.begin("a1"))
    g.act(A.move((1, 2, 0)))
    assert g.state.characters["a1"].carrying == ["loot"] and "loot" not in g.state.achieved
    g.act(A.move((0, 2, 0)))
    g.act(A.exit_())
    assert g.state.achieved == {"loot": "red"} and g.state.characters["a1"].out


def test_a_side_left_alone_plays_out_its_objectives_then_the_game_ends():
    objs = [Objective(id="far", side="red", kind="reach", at=(10, 1), points=1)]
    board = GridBoard(16, 10)
    a1 = char("a1", "red", (8, 1, 0))
    b1 = char("b1", "blue", (14, 8, 0))
    b1.condition.apply(4, 1, "stun")  # knocked out before play
    g = build(board, [a1, b1], ["red", "blue"], objectives=objs, turn_limit=5)
    turn.advance(g)
    assert not g.state.finished
    g.act(A.begin("a1"))
    g.act(A.move((9, 1, 0)))
    assert not g.state.finished
    g.act(A.move((10, 1, 0)))  # the lone side's last objective: the game is over at once
    assert g.state.finished and g.state.winner == "red" and g.state.turn == 1


def test_reaction_tally_keeps_carry_over_across_a_gap_outside_the_arc():
    board = GridBoard(20, 12)
    mover = char("m", "red", (14, 7, 0), move_ratio=2)  # just outside the narrow arc
    watcher = char("w", "blue", (10, 5, 0), fire_ratio=3)
    set_arc(watcher, "narrow", 0.0)
    g = build(board, [mover, watcher], ["red", "blue"])
    g.act(A.begin("m"))
    g.act(A.move((15, 6, 0)))  # in the arc: 2
    g.act(A.move((14, 7, 0)))  # out of the arc: not counted
    g.act(A.move((15, 6, 0)))  # back in: 2 + 2 = 4 -> one attack, 1 carried
    counts = [(e["mp"], e["unresolved"], e["attacks"]) for e in g.log.of_kind("reaction-count")]
    assert counts == [(2, 2, 0), (2, 1, 1)]


def test_one_item_for_two_retrieve_objectives_dropped_where_its_carrier_falls():
    # Street Ambush's case: the runners carry it off west, the escort east; one case
    objs = [Objective(id="grab", side="red", kind="retrieve", at=(2, 2), then="exit-west",
                      points=10),
            Objective(id="deliver", side="blue", kind="retrieve", at=(2, 2), then="exit-east",
                      points=10)]
    board = GridBoard(16, 10)
    a1 = char("a1", "red", (1, 2, 0))
    b1 = char("b1", "blue", (3, 3, 0))
    g = build(board, [a1, b1], ["red", "blue"], objectives=objs, turn_limit=3)
    g.act(A.begin("a1"))
    g.act(A.move((2, 2, 0)))
    g.act(A.move((2, 1, 0)))
    g.act(A.end())
    assert a1.carrying == ["grab"]
    g.act(A.begin("b1"))
    g.act(A.move((2, 2, 0)))  # red holds the case: nothing to pick up here
    assert b1.carrying == [] and [e["who"] for e in g.log.of_kind("pickup")] == ["a1"]
    g.damage(a1, 13, "physical", source="b1")  # a1 goes down with it on his dot
    assert a1.out and a1.carrying == [] and g.state.items == {"grab": [2, 1, 0],
                                                              "deliver": [2, 1, 0]}
    assert g.log.of_kind("item-dropped")[0]["at"] == [2, 1, 0]
    g.act(A.move((2, 1, 0)))  # and blue picks it up where he fell
    assert b1.carrying == ["deliver"] and "deliver" not in g.state.items
    # saved and loaded, a dropped item stays where it fell
    from engine.play.state import GameState
    g.state.items["grab"] = [2, 1, 0]
    assert GameState.from_data(g.state.to_data()).items == {"grab": [2, 1, 0]}


def test_the_carrier_as_found_character_by_character():
    """``objectives.carrier`` finds the item's objectives once: it names the carrier the
    plain way does (the first character still in the fight carrying any objective of that
    item) over random carrying, outs and a second item."""
    import random

    from engine.play import objectives as obj_rules

    objs = [Objective(id="grab", side="red", kind="retrieve", at=(2, 2), then="exit-west"),
            Objective(id="deliver", side="blue", kind="retrieve", at=(2, 2, 0),
                      then="exit-east"),
            Objective(id="files", side="red", kind="retrieve", at=(5, 5)),
            Objective(id="hold", side="blue", kind="reach", at=(2, 2))]
    chars = [char(f"c{k}", "red" if k % 2 else "blue", (k, 1, 0)) for k in range(6)]
    g = build(GridBoard(16, 10), chars, ["red", "blue"], objectives=objs)
    rng = random.Random(5)

    def plain(obj):
        for c in g.state.characters.values():
            if not c.out and any(obj_rules.same_item(o, obj) and o.id in c.carrying
                                 for o in objs):
                return c
        return None

    named = outs = 0
    for _ in range(300):
        for c in chars:
            c.carrying = rng.sample(["grab", "deliver", "files", "hold"], rng.randrange(3))
            c.exited = "west" if rng.random() < 0.3 else None  # (out of the fight)
        for obj in objs:
            got = obj_rules.carrier(g.state, objs, obj)
            assert got is plain(obj)
            named += got is not None
        outs += sum(c.out and bool(c.carrying) for c in chars)
    assert named > 300 and outs > 100
