"""Play mode: test-play the open scenario on the canvas with the engine's rules."""
