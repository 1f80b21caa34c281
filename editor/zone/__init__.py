"""The zone document in the editor: a grid of blocks beside layouts and scenarios (seed 002)."""
