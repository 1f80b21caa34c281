"""Test-play inside the editor: the open scenario becomes a board with counters on it.

*Play* (F5) compiles the scenario's board, forks a copy that play may change (doors, smoke,
holes) and starts a :class:`engine.play.game.Game` with the seed from the tool bar: the
engine deploys every character on a seeded random dot of his side's zone, rolls initiative
and opens the first team phase.  The layout is read-only while playing: the editing tools,
undo and the library are switched off and the document is never touched, so leaving play
mode gives back the editor exactly as it was.

Every button and click becomes one of the engine's actions (``Game.act``); the engine
charges MP, lets reacting characters fire first and logs every roll.  After each action the
counters, the panel and the log are brought up to date; when the log shows a turn end the
objective progress is announced, and when it shows the end of the game the winner is.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QMainWindow,
    QMessageBox,
    QScrollArea,
    QSpinBox,
    QToolBar,
)

from editor.context import EditorContext
from editor.play import progress
from editor.play.counters import ARC_REACH, CounterLayer
from editor.play.log_panel import LogPanel
from editor.play.panel import PlayPanel
from editor.play.preview import (
    PathPreview,
    ShotPreview,
    ThrowPreview,
    path_preview,
    shot_preview,
    throw_preview,
)
from editor.play.tools import PlayTool
from engine.play import actions as A
from engine.play.game import Game, PlayError
from engine.play.grenades import MAX_THROW
from engine.play.referees import load_game, new_game
from engine.play.state import PRONE, CharacterState
from engine.rules.dmz1990_spells import non_combat, spell

FOLLOW_ZOOM = 22.0  # px per dot the view zooms in to (at least) to show who moves


def install(ctx: EditorContext, shell: QMainWindow, editing: Sequence[Any],
            docks: Sequence[QDockWidget]) -> PlayMode:
    """Add the Play menu, tool bar and docks to ``shell``; returns the controller."""
    return PlayMode(ctx, shell, editing, docks)


class PlayMode(QObject):
    """The play-mode controller of one main window.

    It works on the canvas through ``ctx`` and puts its menu, tool bar and docks on ``shell``
    (the window as a plain ``QMainWindow``); while playing it switches off the ``editing``
    widgets and actions and hides the ``docks`` of the editor, and gives them back after."""

    def __init__(self, ctx: EditorContext, shell: QMainWindow, editing: Sequence[Any],
                 docks: Sequence[QDockWidget]):
        super().__init__(shell)
        self.ctx = ctx
        self.shell = shell
        self.editing = list(editing)
        self.docks = list(docks)
        self.game: Game | None = None
        self.active = False
        self.leaving = False
        self.fire_armed = False
        self.throw_armed = False
        self.cast_armed = False
        self.levitate_armed = False  # the next click moves the character he levitates
        self.blind_armed = False  # the next click fires blind at the enemy there
        #: the ruleset action (``Game.play_buttons``) waiting for a click, if any
        self.rule_armed: str | None = None
        self.chosen: str | None = None  # the character picked to move next
        self.shot: ShotPreview | None = None
        self.layer = CounterLayer(ctx.scene)
        self.tool: PlayTool | None = None
        self._saved_enabled: list[tuple[Any, bool]] = []
        self._saved_docks: list[tuple[QDockWidget, bool]] = []
        self._followed: str | None = None
        self._saved_corner = Qt.DockWidgetArea.BottomDockWidgetArea
        self._build()

    @property
    def active(self) -> bool:
        """A game is on (the scenario is read-only meanwhile: ``ctx.playing``)."""
        return self.ctx.playing

    @active.setter
    def active(self, on: bool) -> None:
        self.ctx.playing = on

    # ================================================================== window parts
    def _build(self) -> None:
        win = self.shell
        self.play_action = QAction("Play", win)
        self.play_action.setCheckable(True)
        self.play_action.setShortcut(QKeySequence("F5"))
        self.play_action.setToolTip("Test-play the scenario (F5); again to stop")
        self.play_action.triggered.connect(self.toggle)
        self.seed_box = QSpinBox()
        self.seed_box.setRange(0, 2**31 - 1)
        self.seed_box.setValue(1)
        self.seed_box.setPrefix("seed ")
        self.seed_box.setToolTip("Dice seed of the next game: the same seed and moves replay "
                                 "the same game")
        self.save_action = QAction("Save game…", win)
        self.save_action.triggered.connect(lambda: self.save_game())
        self.load_action = QAction("Load game…", win)
        self.load_action.triggered.connect(lambda: self.load_game())
        menu = win.menuBar().addMenu("&Play")
        menu.addAction(self.play_action)
        menu.addAction(self.save_action)
        menu.addAction(self.load_action)
        bar = QToolBar("Play", win)
        bar.setObjectName("play")
        bar.addAction(self.play_action)
        bar.addWidget(self.seed_box)
        win.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        self.toolbar = bar

        self.panel = PlayPanel()
        self.log_panel = LogPanel()
        self.panel_dock = QDockWidget("Play", win)
        self.panel_dock.setObjectName("Play")
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.panel)
        self.panel_dock.setWidget(scroll)
        win.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.panel_dock)
        self.log_dock = QDockWidget("Play log", win)
        self.log_dock.setObjectName("Play log")
        self.log_dock.setWidget(self.log_panel)
        win.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.log_dock)
        self.panel_dock.hide()
        self.log_dock.hide()
        self._sync_actions()

        p = self.panel
        p.char_box.activated.connect(lambda i: self.select(p.char_box.itemData(i)))
        p.end_move.clicked.connect(self.end_move)
        p.posture.clicked.connect(self.toggle_posture)
        p.ready.clicked.connect(self.ready)
        p.reload.clicked.connect(lambda: self.act(A.reload()))
        p.open_door.clicked.connect(self.toggle_opening)
        p.fire.toggled.connect(self._arm_fire)
        p.throw.toggled.connect(self._arm_throw)
        p.cast.toggled.connect(self._arm_cast)
        p.drop_spell.clicked.connect(self.drop_spell)
        p.levitate.toggled.connect(lambda on: self._arm_magic_move("levitate", on))
        p.blind.toggled.connect(lambda on: self._arm_magic_move("blind", on))
        p.rule_toggled.connect(self._arm_rule)
        p.end_phase.clicked.connect(self.end_phase)
        p.roll.clicked.connect(self.roll_fire)
        p.aim.clicked.connect(self.take_aim)
        p.delay.clicked.connect(lambda: self.act(A.delay()))
        for sig in (p.mode_box.currentIndexChanged, p.rounds_box.valueChanged,
                    p.called_box.toggled):
            sig.connect(lambda *_: self._repreview())
        p.cancel_shot.clicked.connect(self.cancel_fire)
        p.save_game.clicked.connect(lambda: self.save_game())
        p.load_game.clicked.connect(lambda: self.load_game())
        p.leave.clicked.connect(self.leave)

    def _sync_actions(self) -> None:
        self.play_action.setChecked(self.active)
        self.play_action.setText("Stop playing" if self.active else "Play")
        self.save_action.setEnabled(self.active)
        self.load_action.setEnabled(self.active)
        self.seed_box.setEnabled(not self.active)

    @property
    def lattice(self):
        return self.game.board.lattice

    # ================================================================== enter / leave
    def toggle(self) -> None:
        if self.active:
            self.leave()
        else:
            self.enter()
        self._sync_actions()

    def new_board(self):
        """A fresh play copy of the document's compiled board (or None, with the reason)."""
        from engine.play.engine_board import EngineBoard, fork_board

        doc = self.ctx.doc
        board = doc.board()
        if board is None:
            self.ctx.error(f"cannot play: {doc.board_error() or 'no board'}")
            return None
        return EngineBoard(fork_board(board), light=doc.scenario().light,
                           ruleset=doc.scenario().ruleset)

    def enter(self, seed: int | None = None) -> bool:
        """Start a game on the open scenario; False (with a message) when it cannot be."""
        win = self.ctx
        if self.active:
            return True
        doc = win.doc
        if doc.mode != "scenario":
            win.error("Play needs a scenario (this is a mapsheet)")
            self._sync_actions()
            return False
        sc = doc.root
        if len(sc.sides) < 2 or not any(s.characters for s in sc.sides):
            win.error("Play needs a scenario with two sides and their characters")
            self._sync_actions()
            return False
        view = self.new_board()
        if view is None:
            self._sync_actions()
            return False
        seed = self.seed_box.value() if seed is None else seed
        try:
            game = new_game(sc, view, seed)
        except Exception as exc:  # PlayError (no room to deploy), a bad roster, ...
            win.error(f"cannot play: {exc}")
            self._sync_actions()
            return False
        self._take_over()
        self._start(game)
        return True

    def _take_over(self) -> None:
        """Make the layout read-only and show the play docks."""
        win = self.shell
        self.active = True
        self.leaving = False
        self._saved_enabled = [(w, w.isEnabled()) for w in dict.fromkeys(self.editing)]
        for w, _ in self._saved_enabled:
            w.setEnabled(False)
        hide = [d for d in self.docks if d.isVisible()]
        self._saved_docks = [(d, True) for d in hide]
        for d in hide:
            d.hide()
        self._saved_corner = win.corner(Qt.Corner.BottomRightCorner)
        win.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self.panel_dock.show()
        self.log_dock.show()
        win.resizeDocks([self.panel_dock], [380], Qt.Orientation.Horizontal)
        win.resizeDocks([self.log_dock], [190], Qt.Orientation.Vertical)
        self.tool = PlayTool(self.ctx, self)
        self.ctx.set_tool("play", self.tool)
        self.ctx.state.levelChanged.connect(self._level_changed)
        self._sync_actions()

    def _start(self, game: Game) -> None:
        self.game = game
        self.chosen = None
        self._followed = None
        self.shot = None
        self.fire_armed = self.throw_armed = self.cast_armed = False
        self.levitate_armed = self.blind_armed = False
        self.rule_armed = None
        if self.tool is not None:
            self.ctx.show_hint(self.tool.hint)
        self.panel.banner.hide()
        self.log_panel.reset()
        self._seen = 0
        self.refresh(follow=True)
        self._seen = len(game.log.events)
        if game.state.finished:
            self._announce_end()

    def leave(self, switch_tool: bool = True) -> None:
        """Back to the editor: counters, docks and the play tool go; the document is as it was.
        ``switch_tool`` False: the window is already changing tools (another file opened)."""
        if not self.active or self.leaving:
            return
        win = self.shell
        self.leaving = True
        try:
            self.ctx.state.levelChanged.disconnect(self._level_changed)
        except (RuntimeError, TypeError):
            pass
        self.layer.clear()
        self.panel_dock.hide()
        self.log_dock.hide()
        win.setCorner(Qt.Corner.BottomRightCorner, self._saved_corner)
        for w, on in self._saved_enabled:
            w.setEnabled(on)
        for d, _ in self._saved_docks:
            d.show()
        self._saved_enabled, self._saved_docks = [], []
        self.game = None
        self.active = False
        if switch_tool and self.ctx.tool is self.tool:
            self.ctx.set_tool("select")
        self.tool = None
        self.leaving = False
        self._sync_actions()
        self.ctx.show_hint("Left play mode")

    # ================================================================== who moves
    def selected(self) -> CharacterState | None:
        """The character moving now, or the one picked (default: the first who may move)."""
        g = self.game
        if g is None or g.state.finished:
            return None
        if g.state.active is not None:
            return g.state.characters[g.state.active]
        movable = g.movable()
        if self.chosen in movable:
            return g.state.characters[self.chosen]
        return g.state.characters[movable[0]] if movable else None

    def select(self, cid: str | None) -> None:
        """Pick who moves next (only while nobody is in the middle of his move)."""
        g = self.game
        if g is None or cid is None:
            return
        if g.state.active is not None and g.state.active != cid:
            self.ctx.show_hint(f"{g.state.active} is still moving: End move first")
            self.refresh()
            return
        if cid in g.movable():
            self.chosen = cid
        self.refresh(follow=True)

    def character_at(self, dot) -> CharacterState | None:
        """Who is on ``dot``; failing that, who is on that dot of the nearest other level
        (the faint counters), so a shot from a roof can pick a target in the street."""
        st = self.game.state
        here = st.occupant(tuple(dot))
        if here is not None:
            return here
        others = [c for c in st.characters.values()
                  if not c.out and c.pos is not None and c.pos[:2] == tuple(dot[:2])]
        return min(others, key=lambda c: abs(c.pos[2] - dot[2]), default=None)

    def _begun(self) -> CharacterState | None:
        """The selected character, his Movement Phase begun (the engine's ``begin``)."""
        g = self.game
        ch = self.selected()
        if ch is None:
            return None
        if g.state.active is None and not self._act(A.begin(ch.id)):
            return None
        return g.state.characters[ch.id]

    # ================================================================== actions
    def _act(self, action: dict) -> bool:
        """One engine action; a rules refusal becomes the hint and the panel's warning."""
        try:
            self.game.act(action)
        except PlayError as exc:
            self.ctx.show_hint(str(exc))
            self.panel.warning_label.setText(str(exc))
            return False
        except Exception as exc:  # an engine fault must not leave the window half updated
            self.ctx.error(f"engine error on {action}: {exc}")
            return False
        return True

    def act(self, action: dict) -> bool:
        """Begin the selected character if need be, then carry out ``action``; refresh."""
        if self.game is None or self.game.state.finished:
            return False
        ok = self._begun() is not None and self._act(action)
        if ok:
            self.panel.warning_label.setText("")
        self.after()
        return ok

    def after(self) -> None:
        """Bring everything up to date after actions; announce turn ends and the game's end."""
        g = self.game
        new = g.log.events[self._seen:]
        self._seen = len(g.log.events)
        self.refresh(follow=True)
        for e in new:
            if e["event"] == "turn-end":
                score = progress.scores_text(g)
                self.ctx.show_hint(f"End of turn {e['turn']}: {score}; no winner yet"
                                   if not g.state.finished else f"End of turn {e['turn']}")
        if any(e["event"] == "finish" for e in new):
            self._announce_end()

    def preview_path(self, dot) -> PathPreview | None:
        """Path, MP and arc warning to ``dot`` for the selected character (panel updated)."""
        p = self.panel
        ch = self.selected()
        pv = None if ch is None or dot is None else path_preview(self.game, ch, dot)
        if pv is None:
            p.path_label.setText("")
            p.warning_label.setText("")
            return None
        more = "" if pv.affordable else (
            f" — blocked by {pv.blocked_by}" if pv.blocked_by else
            f" — too far: {pv.mp_left:g} {self.game.units} left")
        p.path_label.setText(f"Path to {dot[0]},{dot[1]}: {pv.total:g} {self.game.units} in "
                             f"{len(pv.dots) - 1} steps{more}")
        p.warning_label.setText(pv.warning)
        self.ctx.show_hint(p.path_label.text() + (f" — {pv.warning}" if pv.warning else ""))
        return pv

    def preview_throw(self, dot) -> ThrowPreview | None:
        """Cost and accuracy of throwing the ready grenade at ``dot`` (panel updated)."""
        ch = self.selected()
        tp = None if ch is None else throw_preview(self.game, ch, dot)
        text = tp.text() if tp is not None else f"Cannot throw at {dot[0]},{dot[1]} from here"
        self.panel.path_label.setText(text)
        self.ctx.show_hint(text)
        return tp

    def commit_move(self, dot) -> None:
        """Walk the previewed path step by step; stop when fired upon or stopped."""
        ch = self.selected()
        if ch is None or self.game is None:
            return
        pv = path_preview(self.game, ch, dot)
        if pv is None:
            self.ctx.show_hint(f"No path to {dot[0]},{dot[1]}")
            return
        if not pv.affordable:
            self.ctx.show_hint(self.panel.path_label.text() or "Cannot go there")
            return
        if self._begun() is None:
            self.after()
            return
        g = self.game
        for d in pv.dots[1:]:
            shots = len(g.log.of_kind("test"))
            posture = ch.posture
            if not self._act(A.move(d)):
                break
            if (g.state.active != ch.id or ch.pos != d or ch.posture != posture
                    or len(g.log.of_kind("test")) != shots):
                self.ctx.show_hint(f"{ch.id} stops at {ch.pos[0]},{ch.pos[1]}: fired upon"
                                   if ch.pos else f"{ch.id} is out")
                break
        self.after()

    def set_arc(self, direction: float) -> None:
        kind = self.panel.arc_box.currentData()
        if self.act(A.arc(kind, round(direction, 1))):
            self.ctx.show_hint(f"Arc set ({kind}, {direction:.0f}°): Enter ends the move")

    def end_move(self) -> None:
        g = self.game
        if g is None or g.state.finished:
            return
        if g.state.active is None:
            if self._begun() is None:
                self.after()
                return
        if not self._act(A.end()):
            # stuck on a friend's dot (stopped by fire or out of MP): he stops there anyway
            self._act({"act": "end", "force": True})
        self.chosen = None
        self.after()

    def end_phase(self) -> None:
        """Everyone of the team to move who has not moved stays where he is."""
        g = self.game
        if g is None or g.state.finished:
            return
        team, turn = g.state.current_team, g.state.turn
        guard = 0
        while not g.state.finished and (g.state.current_team, g.state.turn) == (team, turn):
            guard += 1
            if guard > 4 * len(g.state.characters) + 4:
                break
            if g.state.active is None:
                movable = g.movable()
                if not movable:
                    break
                if not self._act(A.begin(movable[0])):
                    break
            if not self._act(A.end()):
                self._act({"act": "end", "force": True})
        self.chosen = None
        self.after()

    def toggle_posture(self) -> None:
        ch = self.selected()
        if ch is not None:
            self.act(A.stand() if ch.posture == PRONE else A.prone())

    def ready(self) -> None:
        i = self.panel.weapon_box.currentData()
        if i is not None:
            self.act(A.ready(int(i)))

    def toggle_opening(self) -> None:
        data = self.panel.opening_box.currentData()
        if data:
            fid, state = data
            self.act(A.open_(fid, "closed" if state == "open" else "open"))

    # ------------------------------------------------------------------ fire
    def _arm_fire(self, on: bool) -> None:
        self.fire_armed = on
        if on:
            self.panel.throw.setChecked(False)
            for b in self.panel.rule_buttons.values():
                b.setChecked(False)
            self.ctx.show_hint("Fire: click an enemy counter to see the chance")
        else:
            self.cancel_fire()
        if self.tool is not None:
            self.tool.hover(None, force=True)

    def _arm_throw(self, on: bool) -> None:
        self.throw_armed = on
        if on:
            self.panel.fire.setChecked(False)
            for b in self.panel.rule_buttons.values():
                b.setChecked(False)
            self.ctx.show_hint(f"Throw: click the dot to throw at (at most {MAX_THROW} dots)")
        if self.tool is not None:
            self.tool.hover(None, force=True)

    def _arm_cast(self, on: bool) -> None:
        self.cast_armed = on
        if on:
            self.panel.fire.setChecked(False)
            self.panel.throw.setChecked(False)
            for b in self.panel.rule_buttons.values():
                b.setChecked(False)
            self.ctx.show_hint(f"Cast {self.panel.spell_box.currentData()}: click the target "
                               "(a dot for an area spell; his own dot for himself)")
        if self.tool is not None:
            self.tool.hover(None, force=True)

    def cast_at(self, dot) -> None:
        """Cast the spell chosen in the panel at whoever stands on ``dot`` (an area spell: at
        the dot itself)."""
        self.panel.cast.setChecked(False)
        name = self.panel.spell_box.currentData()
        if name is None:
            return
        action = {"act": "cast", "spell": name,
                  "force": "min" if self.panel.min_force.isChecked() else "max"}
        sp = spell(name) or non_combat(name)
        who = self.character_at(dot)
        reach = getattr(sp, "reach", "area" if getattr(sp, "area", False) else "one")
        if reach == "around":  # a Detect spell: round the mage, wherever the click
            pass
        elif reach in ("area", "barrier"):  # a dot: the area's centre, his own for a dome
            action["at"] = list(dot)
        elif who is None:
            self.ctx.show_hint(f"Nobody on {dot[0]},{dot[1]} to cast {name} at")
            return
        else:
            action["target"] = who.id
        self.act(action)

    def _arm_magic_move(self, what: str, on: bool) -> None:
        """Levitate… or Blind fire… pressed: the next click on the map takes it."""
        setattr(self, f"{what}_armed", on)
        if on:
            for b in (self.panel.fire, self.panel.throw, self.panel.cast,
                      self.panel.levitate if what == "blind" else self.panel.blind):
                b.setChecked(False)
            self.ctx.show_hint("Levitate: click the dot to move him to" if what == "levitate"
                               else "Blind fire: click the enemy he cannot see")
        if self.tool is not None:
            self.tool.hover(None, force=True)

    def magic_move_at(self, dot) -> None:
        """The armed Levitate… or Blind fire… at ``dot``."""
        ch = self.selected()
        if self.tool is not None:
            self.ctx.show_hint(self.tool.hint)  # back to the play hint, whatever follows
        if self.levitate_armed:
            self.panel.levitate.setChecked(False)
            held = [e["target"] for e in (ch.sustained if ch is not None else ())
                    if e["spell"] == "levitate-person"]
            if held:
                self.act({"act": "levitate", "target": held[0], "to": [int(x) for x in dot]})
            return
        self.panel.blind.setChecked(False)
        who = self.character_at(dot)
        if who is None or ch is None or who.side == ch.side:
            self.ctx.show_hint("Blind fire: click an enemy counter")
            return
        self.act({"act": "blind", "target": who.id})

    def drop_spell(self) -> None:
        ch = self.selected()
        if ch is not None and ch.sustained:
            e = ch.sustained[0]
            self.act({"act": "drop", "spell": e["spell"], "target": e["target"]})

    def _arm_rule(self, act: str, on: bool) -> None:
        """A ruleset action button: the next click on the map picks its enemy (or dot)."""
        if on:
            self.rule_armed = act
            self.panel.fire.setChecked(False)
            self.panel.throw.setChecked(False)
            self.panel.cast.setChecked(False)
            for k, b in self.panel.rule_buttons.items():
                if k != act:
                    b.setChecked(False)
            picks = self.panel.rule_picks.get(act, "enemy")
            self.ctx.show_hint(f"{act.title()}: click an enemy counter"
                               + (" or a dot" if picks == "enemy-or-dot" else ""))
        elif self.rule_armed == act:
            self.rule_armed = None

    def rule_at(self, dot) -> bool:
        """Take the armed ruleset action at ``dot``: at the enemy standing there, else (if
        the action takes one) at the dot itself."""
        act = self.rule_armed
        ch = self.selected()
        if act is None or ch is None:
            return False
        b = self.panel.rule_buttons.get(act)
        if b is not None:
            b.setChecked(False)
        who = self.character_at(dot)
        if who is not None and who.side != ch.side and not who.out:
            return self.act({"act": act, "target": who.id})
        if self.panel.rule_picks.get(act) == "enemy-or-dot":
            return self.act({"act": act, "at": [int(x) for x in dot]})
        self.ctx.show_hint(f"{act.title()}: click an enemy counter")
        return False

    def cancel_modes(self) -> None:
        self.panel.fire.setChecked(False)
        self.panel.throw.setChecked(False)
        self.panel.cast.setChecked(False)
        self.panel.levitate.setChecked(False)
        self.panel.blind.setChecked(False)
        for b in self.panel.rule_buttons.values():
            b.setChecked(False)
        self.cancel_fire()

    def preview_fire(self, target: str) -> ShotPreview | None:
        """Show the chance of a shot at ``target`` before anything is rolled."""
        g = self.game
        ch = self.selected()
        t = g.state.characters.get(target)
        if ch is None or t is None:
            return None
        if t.side == ch.side:
            self.ctx.show_hint(f"{target} is on your side")
            return None
        w = ch.ready_weapon
        if w is None or w.is_grenade:
            self.ctx.show_hint(f"{ch.id} has no firearm ready")
            return None
        sp = shot_preview(g, ch, t, **self.panel.fire_choice())
        if sp is None:
            self.ctx.show_hint(f"{ch.id} has no line of fire to {target} in range")
            return None
        self.shot = sp
        self.panel.shot_label.setText(sp.text())
        self.panel.shot_box.show()
        self.ctx.show_hint(f"Shot: {sp.headline()} — Roll or Cancel")
        return sp

    def roll_fire(self) -> None:
        sp = self.shot
        if sp is None:
            return
        self.shot = None
        self.panel.shot_box.hide()
        self.panel.fire.setChecked(False)
        self.act(A.fire(sp.target, **self.panel.fire_choice()))

    def _repreview(self) -> None:
        """The mode, rounds or called shot changed: the shot box shows the new numbers."""
        if self.shot is not None and self.game is not None:
            self.preview_fire(self.shot.target)

    def take_aim(self) -> None:
        """Take Aim at the previewed target (a Simple Action); the box shows the new TN."""
        sp = self.shot
        if sp is None:
            return
        if self.act(A.aim(sp.target)) and self.selected() is not None:
            self.preview_fire(sp.target)

    def cancel_fire(self) -> None:
        self.shot = None
        self.panel.shot_box.hide()

    def throw_at(self, dot) -> None:
        self.panel.throw.setChecked(False)
        self.act(A.throw(dot))

    # ================================================================== save / load
    def ask_game_path(self, save: bool) -> Path | None:
        """A saved-game file name from a dialog (tests replace this method)."""
        doc = self.ctx.doc
        start = str(doc.path.with_suffix(".game.json")) if doc.path else "game.json"
        filt = "Saved games (*.json *.yaml *.yml)"
        if save:
            name, _ = QFileDialog.getSaveFileName(self.shell, "Save game", start, filt)
        else:
            name, _ = QFileDialog.getOpenFileName(self.shell, "Load game", start, filt)
        return Path(name) if name else None

    def save_game(self, path: Path | str | None = None) -> Path | None:
        if self.game is None:
            return None
        path = Path(path) if path else self.ask_game_path(save=True)
        if path is None:
            return None
        try:
            self.game.save(path)
        except OSError as exc:
            self.ctx.error(f"cannot save the game: {exc}")
            return None
        self.ctx.show_hint(f"Game saved to {path}")
        return path

    def load_game(self, path: Path | str | None = None) -> bool:
        if not self.active:
            return False
        path = Path(path) if path else self.ask_game_path(save=False)
        if path is None:
            return False
        view = self.new_board()
        if view is None:
            return False
        try:
            game = load_game(path, view)
        except (OSError, ValueError, KeyError, TypeError, PlayError) as exc:
            self.ctx.error(f"{path}: cannot load the game: {exc}")
            return False
        if game.state.title != self.ctx.doc.root.title:
            self.ctx.error(f"{path}: a game of {game.state.title!r}, not of "
                           f"{self.ctx.doc.root.title!r}")
            return False
        self._start(game)
        self.ctx.show_hint(f"Game loaded from {path}")
        return True

    # ================================================================== showing
    def _level_changed(self, _level: int) -> None:
        self.refresh()

    def refresh(self, follow: bool = False) -> None:
        """Counters, panel, log and the tool's preview from the game state.  ``follow``
        switches the canvas to the level of the character to move."""
        g = self.game
        if g is None:
            return
        sel = self.selected()
        if follow and sel is not None and sel.pos is not None and \
                sel.pos[2] != self.ctx.state.level and sel.pos[2] in self.ctx.doc.levels():
            self.ctx.state.set_level(sel.pos[2])  # (refreshes once more through levelChanged)
        rect = self.ctx.scene.content_rect
        reach = max(ARC_REACH, (rect.width() ** 2 + rect.height() ** 2) ** 0.5)
        self.layer.rebuild(g, self.ctx.state.level, sel.id if sel else None, reach)
        if follow and sel is not None and sel.id != self._followed and sel.pos is not None:
            self._followed = sel.id  # a new character to move: bring him into view
            view = self.ctx.view
            view.set_zoom(max(view.zoom(), FOLLOW_ZOOM), g.point(sel.pos))
        self.panel.show_game(g, sel)
        self.log_panel.sync(g.log.events)
        if self.tool is not None:
            self.tool.refresh()

    def _announce_end(self) -> None:
        g = self.game
        fin = g.log.of_kind("finish")
        why = fin[-1]["why"] if fin else ""
        text = (f"Game over ({why}) after turn {g.state.turn}: {progress.winner_text(g)}. "
                f"Points: {progress.scores_text(g)}")
        self.panel.banner.setText(text)
        self.panel.banner.show()
        self.announce(text)

    def announce(self, text: str) -> None:
        """The end of the game in a message box (tests replace this method)."""
        if not QApplication.instance().property("sprawlmap_headless"):
            QMessageBox.information(self.shell, "Game over", text)

