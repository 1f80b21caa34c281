"""The play panel dock: whose turn it is, the character to move and his buttons, the shot
about to be rolled, the objectives and the score, save and load.

The panel only lays the widgets out; :class:`editor.play.mode.PlayMode` fills them in and
connects them to the game.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from editor.play import progress
from engine.play.game import Game
from engine.play.reaction import ARCS
from engine.play.referee_blind import blind_targets
from engine.play.state import PRONE, CharacterState
from engine.play.weapons import grenade_kind

ARC_CHOICES = [(name, f"{name} — {cost} MP, {width:.0f}°") for name, (cost, width) in ARCS.items()]


def arc_choices(g: Game, ch: CharacterState) -> list[tuple[str, str]]:
    """The arc box's entries with the referee's own cost of each arc."""
    out = []
    for name, (_cost, width) in ARCS.items():
        units = g.cost(f"arc-{name}", ch)[0]
        out.append((name, f"{name} — {units:g} {g.units}, {width:.0f}°"))
    return out


def _label(wrap: bool = True) -> QLabel:
    lab = QLabel("")
    lab.setWordWrap(wrap)
    return lab


class PlayPanel(QWidget):
    #: a ruleset's own action button (``Game.play_buttons``) checked or unchecked: (act, on)
    rule_toggled = Signal(str, bool)

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        self.banner = _label()
        self.banner.setStyleSheet("QLabel { background: #1d6b2c; color: white; font-weight: bold;"
                                  " padding: 6px; border-radius: 3px; }")
        self.banner.hide()
        lay.addWidget(self.banner)
        self.turn_label = _label()
        self.turn_label.setStyleSheet("QLabel { font-weight: bold; font-size: 11pt; }")
        lay.addWidget(self.turn_label)

        who = QGroupBox("Character")
        form = QFormLayout(who)
        self.char_box = QComboBox()
        self.char_box.setToolTip("Who moves next (or click his counter)")
        form.addRow("Moves", self.char_box)
        self.mp_label = _label()
        #: the budget row's name: the ruleset's units ("MP" under DMZ, "m" in metres)
        self.units_label = QLabel("MP")
        form.addRow(self.units_label, self.mp_label)
        self.char_label = _label()
        form.addRow("State", self.char_label)
        self.weapon_box = QComboBox()
        form.addRow("Weapon", self.weapon_box)
        # the ready gun's fire modes (a ruleset with modes: sr3); hidden otherwise
        self.mode_box = QComboBox()
        self.mode_box.setToolTip("Fire mode of the ready gun; auto fires the mode worth the "
                                 "most expected damage")
        self.rounds_box = QSpinBox()
        self.rounds_box.setRange(3, 10)
        self.rounds_box.setValue(6)
        self.rounds_box.setSuffix(" rounds")
        self.rounds_box.setToolTip("Rounds of the full-auto burst (3 to 10)")
        mode_row = QWidget()
        ml = QHBoxLayout(mode_row)
        ml.setContentsMargins(0, 0, 0, 0)
        ml.addWidget(self.mode_box, 1)
        ml.addWidget(self.rounds_box)
        self.mode_row = mode_row
        form.addRow("Fire mode", mode_row)
        self.called_box = QCheckBox("Called shot")
        self.called_box.setToolTip("Call the shot: +4 to the target number, the damage one "
                                   "level higher (not in full-auto)")
        form.addRow("", self.called_box)
        self.mode_box.currentIndexChanged.connect(lambda _: self._mode_chosen())
        self.arc_box = QComboBox()
        for key, text in ARC_CHOICES:
            self.arc_box.addItem(text, key)
        self.arc_box.setCurrentIndex(1)
        self.arc_box.setToolTip("Drag from the character to set an arc of this width")
        form.addRow("Arc", self.arc_box)
        self.form = form
        self.opening_box = QComboBox()
        self.opening_box.setToolTip("Doors and windows within his reach")
        form.addRow("Door", self.opening_box)
        # a mage's spells (DMZ, seed 000): which one, at which Force; Cast then a click
        self.spell_row = QWidget()
        srow = QHBoxLayout(self.spell_row)
        srow.setContentsMargins(0, 0, 0, 0)
        self.spell_box = QComboBox()
        self.spell_box.setToolTip("The spell Cast… throws: combat spells at an enemy (area "
                                  "spells at a dot), touch spells at himself or a friend he "
                                  "touches, sight spells at anyone he sees, Poltergeist and "
                                  "Chaotic World at a dot, a Barrier at his own dot (a dome) "
                                  "or three dots ahead (a wall), Detect anywhere")
        self.min_force = QCheckBox("Min")
        self.min_force.setToolTip("Cast at Minimum Force 1: less Drain, a lower Success Value")
        srow.addWidget(self.spell_box, 1)
        srow.addWidget(self.min_force)
        form.addRow("Spell", self.spell_row)
        self._form = form
        lay.addWidget(who)

        grid = QGridLayout()
        self.end_move = QPushButton("End move")
        self.end_move.setToolTip("End this character's Movement Phase (Enter)")
        self.posture = QPushButton("Drop prone")
        self.ready = QPushButton("Ready")
        self.reload = QPushButton("Reload")
        self.open_door = QPushButton("Open door")
        self.fire = QPushButton("Fire…")
        self.fire.setCheckable(True)
        self.fire.setToolTip("Then click an enemy counter: the chance is shown before the roll (F)")
        self.throw = QPushButton("Throw grenade…")
        self.throw.setCheckable(True)
        self.throw.setToolTip("Then click the dot to throw at (the ready weapon must be a grenade)")
        self.end_phase = QPushButton("End phase")
        self.end_phase.setToolTip("Everyone of this team who has not moved stands still")
        self.cast = QPushButton("Cast spell…")
        self.cast.setCheckable(True)
        self.cast.setToolTip("Then click the target (or the dot, for an area spell); the "
                             "rolls go to the log")
        self.drop_spell = QPushButton("Drop spell")
        self.drop_spell.setToolTip("Stop sustaining his first sustained spell (free)")
        self.levitate = QPushButton("Levitate…")
        self.levitate.setCheckable(True)
        self.levitate.setToolTip("Then click the dot to move the character he levitates to: "
                                 "3 MP a dot, 4 MP a story, from his own MP")
        self.blind = QPushButton("Blind fire…")
        self.blind.setCheckable(True)
        self.blind.setToolTip("Then click an enemy he cannot see for smoke, darkness or "
                              "Invisibility (a Detect spell found him): 3 MP, +4 and +2")
        self.delay = QPushButton("Delay")
        self.delay.setToolTip("Hold the action: he fires at the first enemy who acts in his "
                              "line of fire (before anything else in his action)")
        buttons = [self.end_move, self.posture, self.ready, self.reload, self.open_door,
                   self.fire, self.throw, self.end_phase, self.delay, self.cast,
                   self.drop_spell, self.levitate, self.blind]
        for i, b in enumerate(buttons):
            grid.addWidget(b, i // 2, i % 2)
        lay.addLayout(grid)
        #: the ruleset's own actions (aim, charge...), rebuilt for each referee
        self.rule_row = QHBoxLayout()
        lay.addLayout(self.rule_row)
        self.rule_buttons: dict[str, QPushButton] = {}
        self.rule_picks: dict[str, str] = {}

        self.shot_box = QFrame()
        self.shot_box.setFrameShape(QFrame.Shape.StyledPanel)
        sl = QVBoxLayout(self.shot_box)
        sl.setContentsMargins(4, 4, 4, 4)
        self.shot_label = _label()
        sl.addWidget(self.shot_label)
        row = QHBoxLayout()
        self.roll = QPushButton("Roll")
        self.aim = QPushButton("Aim")
        self.aim.setToolTip("Take Aim, a Simple Action: -1 to the target number of the next shot at him")
        self.cancel_shot = QPushButton("Cancel")
        row.addWidget(self.roll)
        row.addWidget(self.aim)
        row.addWidget(self.cancel_shot)
        sl.addLayout(row)
        self.shot_box.hide()
        lay.addWidget(self.shot_box)

        self.path_label = _label()
        lay.addWidget(self.path_label)
        self.warning_label = _label()
        self.warning_label.setStyleSheet("QLabel { color: #c01010; font-weight: bold; }")
        lay.addWidget(self.warning_label)

        obj = QGroupBox("Objectives")
        ol = QVBoxLayout(obj)
        self.objectives_label = _label()
        self.objectives_label.setTextFormat(Qt.TextFormat.PlainText)
        ol.addWidget(self.objectives_label)
        self.score_label = _label()
        self.score_label.setStyleSheet("QLabel { font-weight: bold; }")
        ol.addWidget(self.score_label)
        lay.addWidget(obj)

        files = QHBoxLayout()
        self.save_game = QPushButton("Save game…")
        self.load_game = QPushButton("Load game…")
        self.leave = QPushButton("Leave play")
        files.addWidget(self.save_game)
        files.addWidget(self.load_game)
        files.addWidget(self.leave)
        lay.addLayout(files)
        lay.addStretch(1)
        self.opening_box.currentIndexChanged.connect(lambda _: self._opening_chosen())

    def _opening_chosen(self) -> None:
        """The door button says what it will do to the door chosen in the box."""
        data = self.opening_box.currentData()
        if not data:
            self.open_door.setText("Open door")
            return
        kind = self.opening_box.currentText().split()[0]
        self.open_door.setText(f"{'Close' if data[1] == 'open' else 'Open'} {kind}")

    def _mode_chosen(self) -> None:
        """The rounds box is for full-auto; a called shot is not (seed 001 l.624)."""
        mode = self.mode_box.currentData()
        self.rounds_box.setEnabled(mode == "FA")
        self.called_box.setEnabled(mode != "FA")
        if mode == "FA":
            self.called_box.setChecked(False)

    def fire_choice(self) -> dict:
        """The ``fire`` action's mode, rounds and called shot as chosen (empty without modes)."""
        if self.mode_box.count() == 0:
            return {}
        mode = self.mode_box.currentData()
        out: dict = {"called": self.called_box.isChecked()}
        if mode:
            out["mode"] = mode
            if mode == "FA":
                out["rounds"] = self.rounds_box.value()
        return out

    def _show_modes(self, modes: list[str]) -> None:
        form = self.mode_row.parentWidget().layout()
        for w in (self.mode_row, self.called_box):
            form.setRowVisible(w, bool(modes))
        had = [self.mode_box.itemData(i) for i in range(self.mode_box.count())]
        if had == [None, *modes]:
            return  # the same gun: keep the player's choice
        keep = self.mode_box.currentData()
        self.mode_box.blockSignals(True)
        self.mode_box.clear()
        if modes:
            self.mode_box.addItem("auto", None)
            names = {"SS": "SS single", "SA": "SA semi-auto", "BF": "BF burst",
                     "FA": "FA full-auto"}
            for m in modes:
                self.mode_box.addItem(names.get(m, m), m)
            self.mode_box.setCurrentIndex(max(0, self.mode_box.findData(keep)))
        self.mode_box.blockSignals(False)
        self._mode_chosen()

    def show_game(self, g: Game, sel: CharacterState | None) -> None:
        """Fill every widget from the game; ``sel`` is the character to move (or None)."""
        p = self
        st = g.state
        if st.finished:
            p.turn_label.setText(f"Game over after turn {st.turn}: {progress.winner_text(g)}")
        else:
            p.turn_label.setText(f"Turn {st.turn} of {st.turn_limit} — {st.current_team} "
                                 f"to move")
        p.char_box.blockSignals(True)
        p.char_box.clear()
        ids = [st.active] if st.active else g.movable()
        for cid in ids:
            ch = st.characters[cid]
            p.char_box.addItem(f"{ch.name or ch.id} ({ch.side})", cid)
        if sel is not None:
            p.char_box.setCurrentIndex(max(0, p.char_box.findData(sel.id)))
        p.char_box.blockSignals(False)
        on = sel is not None
        for b in (p.end_move, p.posture, p.ready, p.reload, p.open_door, p.fire, p.throw,
                  p.weapon_box, p.arc_box, p.opening_box):
            b.setEnabled(on)
        p.arc_box.setEnabled(on and g.can_hold_arcs)
        p.form.setRowVisible(p.arc_box, g.can_hold_arcs)
        self.set_rule_buttons(g.play_buttons())
        for b in p.rule_buttons.values():
            b.setEnabled(on)
        p.delay.setVisible(g.can_delay)
        p.delay.setEnabled(on and g.can_delay and sel is not None and sel.mp_spent == 0
                           and sel.slots_spent == 0)
        p.aim.setVisible(g.can_aim)
        p._show_modes(g.fire_modes(sel) if sel is not None else [])
        p.end_phase.setEnabled(not st.finished)
        self._show_spells(sel)
        self._show_magic_moves(g, sel)
        p.weapon_box.clear()
        p.opening_box.clear()
        if sel is None:
            p.mp_label.setText("")
            p.char_label.setText("")
        else:
            u = g.units
            acts = g.action_slots(sel)
            more = f"; actions {g.slots_left(sel)} of {acts}" if acts else ""
            p.units_label.setText(u)
            p.mp_label.setText(f"{sel.mp_spent:g} spent, {sel.mp_left:g} left of "
                               f"{sel.mp:g}{more}")
            w = sel.ready_weapon
            gun = "nothing ready" if w is None else (
                f"{w.name} ready" + ("" if w.loaded is None else f" ({w.loaded}/{w.clip}, "
                                     f"{w.clips} clips)"))
            where = "–" if sel.pos is None else f"{sel.pos[0]},{sel.pos[1]} level {sel.pos[2]}"
            cond = sel.condition
            hurt = cond.describe() if hasattr(cond, "describe") else f"injury +{cond.modifier}"
            hidden = " · invisible" if sel.invisible else ""
            p.char_label.setText(f"{where} · {sel.posture} · {hurt}{hidden}\n{gun}\n"
                                 f"{g.hold_words(sel)}")
            if g.can_hold_arcs:
                keep = p.arc_box.currentIndex()
                for i, (_key, text) in enumerate(arc_choices(g, sel)):
                    p.arc_box.setItemText(i, text)
                p.arc_box.setCurrentIndex(keep)
            kind = "stand" if sel.posture == PRONE else "prone"
            cu, cs = g.cost(kind, sel)
            price = ", ".join(x for x in (f"{cu:g} {u}" if cu else "",
                                          f"{cs} action" if cs else "") if x) or "free"
            p.posture.setText(f"Stand ({price})" if kind == "stand" else
                              f"Drop prone ({price})")
            for i, wp in enumerate(sel.weapons):
                mark = " (ready)" if i == sel.ready else ""
                p.weapon_box.addItem(f"{wp.name}{mark}", i)
            nxt = next((i for i in range(len(sel.weapons)) if i != sel.ready), sel.ready)
            if nxt is not None:
                p.weapon_box.setCurrentIndex(nxt)
            grenade = w is not None and grenade_kind(w.type) is not None
            p.throw.setEnabled(grenade)
            p.fire.setEnabled(w is not None and not w.is_grenade)
            ops = g.board.openings_near(sel.pos) if sel.pos is not None else []
            for op in ops:
                p.opening_box.addItem(f"{op.kind} {op.feature} ({op.state})",
                                      (op.feature, op.state))
            p.open_door.setEnabled(bool(ops))
            p.opening_box.setEnabled(bool(ops))
            self._opening_chosen()
        p.objectives_label.setText("\n".join(progress.objective_lines(g)))
        p.score_label.setText(f"Points: {progress.scores_text(g)}")

    def _show_spells(self, sel: CharacterState | None) -> None:
        """The Spell row and the two spell buttons, for a character who knows spells."""
        spells = dict(sel.spells) if sel is not None else {}
        self._form.setRowVisible(self.spell_row, bool(spells))
        self.cast.setVisible(bool(spells))
        self.drop_spell.setVisible(bool(spells))
        keep = self.spell_box.currentData()
        self.spell_box.blockSignals(True)
        self.spell_box.clear()
        for name, force in spells.items():
            self.spell_box.addItem(f"{name} (Force {force})", name)
        if keep is not None and self.spell_box.findData(keep) >= 0:
            self.spell_box.setCurrentIndex(self.spell_box.findData(keep))
        self.spell_box.blockSignals(False)
        self.cast.setEnabled(bool(spells))
        held = sel.sustained if sel is not None else []
        self.drop_spell.setEnabled(bool(held))
        self.drop_spell.setText(f"Drop spell ({len(held)})" if held else "Drop spell")
        self.drop_spell.setToolTip("Sustaining " + ", ".join(
            f"{e['spell']} on {e['target']}" for e in held) + f": +{len(held)} to his tests; "
            "drop the first (free)" if held else "He sustains no spell")

    def _show_magic_moves(self, g: Game, sel: CharacterState | None) -> None:
        """Levitate… for a mage holding someone up; Blind fire… when he has someone to fire
        at blind (seed 000 l.993-1005, l.1758)."""
        lev = [e["target"] for e in (sel.sustained if sel is not None else ())
               if e["spell"] == "levitate-person"]
        self.levitate.setVisible(bool(lev))
        self.levitate.setEnabled(bool(lev))
        if lev:
            self.levitate.setToolTip(f"Then click the dot to move {lev[0]} to: 3 MP a dot, "
                                     "4 MP a story, from his own MP")
        blind = blind_targets(g, sel) if sel is not None and g.units == "MP" else []
        self.blind.setVisible(bool(blind))
        self.blind.setEnabled(bool(blind))
        if blind:
            self.blind.setToolTip("Then click " + ", ".join(blind) + ", whom he cannot see "
                                  "(smoke, darkness, or found invisible): 3 MP, +4 and +2")

    def set_rule_buttons(self, specs: list[tuple[str, str, str, str]]) -> None:
        """One checkable button per action the referee offers (kept while they stay the
        same): a click on it, then on an enemy or a dot, takes the action."""
        if [s[0] for s in specs] == list(self.rule_buttons):
            return
        for b in self.rule_buttons.values():
            self.rule_row.removeWidget(b)
            b.deleteLater()
        self.rule_buttons, self.rule_picks = {}, {}
        for act, label, tip, picks in specs:
            b = QPushButton(label)
            b.setCheckable(True)
            b.setToolTip(tip)
            b.setObjectName(f"rule-{act}")
            b.toggled.connect(lambda on, a=act: self.rule_toggled.emit(a, on))
            self.rule_row.addWidget(b)
            self.rule_buttons[act] = b
            self.rule_picks[act] = picks

    def objective_lines(self) -> list[str]:
        return [x for x in self.objectives_label.text().split("\n") if x]

