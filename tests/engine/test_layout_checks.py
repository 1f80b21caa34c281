"""Layout checks (validate) and cut pieces."""

from engine import model as m
from engine.board import compile_board
from engine.validate import has_errors, validate
from tests.builders import building, outer_walls, pavement, rect


def codes(board):
    """Error codes only: these layouts have no stairs, so roofs and rooms also draw warnings."""
    return sorted(f.code for f in validate(board) if f.severity == "error")


def lay(placements, sheets, pave=None, pieces=()):
    pave = pave or pavement(20, 20)
    layout = m.Layout(pavement=(m.Placement(pave.id, (0, 0)),), placements=tuple(placements),
                      pieces=tuple(pieces))
    return compile_board(layout, {s.id: s for s in [pave, *sheets]})


def test_clean_layout_has_no_findings():
    b = lay([m.Placement("h", (2, 2))], [building("h", 4, 4, levels=(m.Level(0, walls=outer_walls(4, 4)),))])
    assert codes(b) == [] and not has_errors(validate(b))


def test_overlapping_and_off_pavement():
    h = building("h", 6, 6)
    b = lay([m.Placement("h", (2, 2), id="one"), m.Placement("h", (5, 5), id="two"),
             m.Placement("h", (17, 2), id="three")], [h])
    found = validate(b)
    assert codes(b) == ["off-pavement", "overlapping-placements"]
    over = next(f for f in found if f.code == "overlapping-placements")
    assert over.where["placements"] == ["one", "two"] and "9.0 dot cells" in over.message
    off = next(f for f in found if f.code == "off-pavement")
    assert off.where["placements"] == ["three"] and "18.0 dot cells hang off" in off.message


def test_opening_not_on_a_wall_and_stairs_to_nowhere_and_stair_in_a_wall():
    lv = m.Level(0, walls=outer_walls(5, 5) + (m.Wall(path=((1.0, -0.5), (1.0, 4.5))),),
                 doors=(m.Opening("door", ((2.5, 1.5), (2.5, 2.5)), id="floating"),),
                 stairs=(m.Stair((3, 3), 2, id="too-high"), m.Stair((1, 2), 1, id="in-wall")))
    b = lay([m.Placement("h", (2, 2), id="h1")], [building("h", 5, 5, height=1, levels=(lv,))])
    found = {f.code: f for f in validate(b) if f.severity == "error"}
    assert set(found) == {"opening-not-on-wall", "link-to-missing-level", "dot-in-wall"}
    assert found["opening-not-on-wall"].where["features"] == ["h1/floating"]
    assert "h1/too-high" in found["link-to-missing-level"].message
    assert found["dot-in-wall"].where["dots"] == [[3, 4, 0]]


def test_a_cut_piece_keeps_only_what_lies_inside_its_polygon():
    lv = m.Level(0, walls=outer_walls(10, 4) + (m.Wall(path=((4.5, -0.5), (4.5, 3.5))),),
                 doors=(m.Opening("door", ((4.5, 0.5), (4.5, 1.5))),),
                 areas=(m.Area("rubble", rect(6.5, 0.5, 8.5, 2.5)),))
    h = building("h", 10, 4, height=2, levels=(lv,))
    piece = m.Piece("west-wing", "h", rect(-0.5, -0.5, 4.5, 3.5))
    b = lay([m.Placement("h", (1, 1), piece="west-wing")], [h], pieces=[piece])
    assert b.buildings[0].footprint.bounds == (0.5, 0.5, 5.5, 4.5)
    kinds = sorted(f.kind for f in b.features(0))
    assert "rubble" not in kinds  # the rubble was in the east wing
    from engine.movement import step
    assert b.standable((5, 4, 0)) and step(b, (5, 4, 0), (6, 4, 0), 2) is None  # cut-edge wall
    assert b.standable((4, 2, 1)) and not b.standable((7, 2, 1))  # upper floor clipped too
    assert codes(b) == []
