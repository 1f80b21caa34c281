"""Dock panels around the canvas: library, layers/levels, properties, findings, legend."""
