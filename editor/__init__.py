"""The sprawlmap editor: a PySide6 application over the Qt-free engine.

This package is the only place Qt is imported.  The document model is ``engine.model``; the
editor changes it only through undoable commands (:mod:`editor.commands`) and every view
redraws from the model.
"""

from editor._pyside_fix import keep_none_alive

keep_none_alive()
