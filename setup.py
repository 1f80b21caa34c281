"""Packaging glue that ``pyproject.toml`` cannot express (all other metadata lives there).

The bundled library folders stay at the top of the checkout (``mapsheets/``, ``scenarios/`` and,
once it exists, ``zones/``) and ship inside the wheel as the data packages
``engine.bundled.<folder>``, where :mod:`engine.library` finds them with importlib.resources.
"""

from pathlib import Path

from setuptools import find_packages, setup

ROOT = Path(__file__).resolve().parent
LIBRARY = [name for name in ("mapsheets", "scenarios", "zones") if (ROOT / name).is_dir()]

setup(
    packages=find_packages(include=["engine*", "editor*"]) + [f"engine.bundled.{n}" for n in LIBRARY],
    package_dir={f"engine.bundled.{n}": n for n in LIBRARY},
    package_data={
        "": ["*.yaml"],
        "editor.resources": ["*.svg", "*.png", "*.desktop"],
        **{f"engine.bundled.{n}": ["*.yaml"] for n in LIBRARY},
    },
)
