"""The block-scale zone of the card-game variant (seed 002, SPEC-zone.md).

A zone is a grid of city blocks (Zone card slots) with the players' safehouses off its edges,
an optional River, barriers between blocks, and growth and landslide settings.  This package is
Qt-free: the model, its file format, the rules the engine answers, the dice, the findings and
the composition down to the dot scale each live in their own module.
"""
