"""Test play: game state, the DMZ turn sequence, actions, seeded dice, event log and bots.

Pure rules (dice, condition monitor, reaction-fire accounting, grenades) live in their own
modules and need no board; everything that asks the map a question goes through
:class:`engine.play.board_view.BoardView`, so the rules can be tested on a fake board.
"""
