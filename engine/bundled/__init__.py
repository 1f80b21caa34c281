"""The bundled library, as installed from the wheel: ``mapsheets/``, ``scenarios/`` and ``zones/``.

The folders stay at the top of a source checkout, where every tool and document already looks
for them; ``setup.py`` maps them into this package when the wheel is built, so an installed copy
finds them here through :mod:`importlib.resources`.  :mod:`engine.library` knows both places.
"""
