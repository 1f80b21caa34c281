"""The board canvas: the view (zoom, pan, dot grid), the scene and its items."""
