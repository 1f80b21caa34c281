"""What a tool, panel or play mode may use of the editor, instead of the whole main window.

The main window builds one :class:`EditorContext` and hands it to every tool and panel; they
reach the document, the view state, the canvas, the background worker, the tool options and
the status line through it and nothing else, so no part of the editor imports the window
(``editor.main_window`` is the assembly, imported by ``editor.app`` only).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from editor.background import Background
from editor.canvas.scene import BoardScene
from editor.canvas.view import CanvasView
from editor.document import Document
from editor.state import EditorState
from editor.tool_options import ToolOptions


class EditorContext:
    """The open document (which changes on New/Open, hence a getter), the view state, the
    canvas, the engine worker, the tool options and the few window actions tools trigger:
    show a hint, report an error, switch tool."""

    def __init__(self, *, document: Callable[[], Document], state: EditorState,
                 scene: BoardScene, view: CanvasView, background: Background,
                 options: ToolOptions, show_hint: Callable[[str], None],
                 error: Callable[[str], None],
                 set_tool: Callable[..., None], current_tool: Callable[[], Any],
                 ask_tag_scope: Callable[[str, int], str | None] | None = None,
                 make_unique: Callable[[Any], str] | None = None,
                 ask_edit_scope: Callable[[str, int], str | None] | None = None):
        self._document = document
        self.state = state
        self.scene = scene
        self.view = view
        self.background = background
        self.options = options
        self.show_hint = show_hint
        self.error = error
        self._set_tool = set_tool
        self._current_tool = current_tool
        #: a feature drawn on a sheet placed n times: "copy", "sheet" or None (cancel)
        self.ask_tag_scope = ask_tag_scope or (lambda title, n: "sheet")
        #: a property of a sheet placed n times edited on one copy: "copy", "sheet" or None
        self.ask_edit_scope = ask_edit_scope or (lambda title, n: "sheet")
        #: give a placement its own copy of its sheet; returns the new sheet id
        self.make_unique = make_unique
        #: True while test-play runs (set by play mode): the scenario is read-only then
        self.playing = False
        #: the LOS panel (side view and every ruleset) the LOS tool feeds; set by the window
        self.los_panel = None

    @property
    def doc(self) -> Document:
        return self._document()

    @property
    def tool(self) -> Any:
        """The active canvas tool."""
        return self._current_tool()

    def set_tool(self, key: str, tool: Any = None) -> None:
        """Switch to the tool ``key`` (a new one made by the window, or ``tool``)."""
        self._set_tool(key, tool)
