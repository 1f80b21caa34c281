"""Canvas tools: each turns mouse and key events into undoable edits or overlays."""
