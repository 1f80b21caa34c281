"""Test-wide set-up: the Qt painter is the raster backend of PNG and VTT pictures.

The ``sprawlmap`` launcher registers it for real runs; tests that call :func:`engine.cli.main`
or :func:`engine.export.export` directly get it here.  Off screen, so no display is needed.

Windows a test opened are destroyed when the test ends, not whenever the garbage collector
gets to them: pytest-qt closes them and asks ``deleteLater()``, but outside an event loop Qt
carries that out only later, so a closed window used to live on until some later collection
(a CI run died in one: hypothesis collects before its first example) deleted it from inside
the collector, running its destructors' signals into half-collected Python objects.
"""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QCoreApplication, QEvent  # noqa: E402

import editor.render  # noqa: E402, F401  (registers the Qt raster backend)


@pytest.fixture(autouse=True)
def _delete_closed_windows():
    """After pytest-qt has closed the test's widgets (its teardown runs first), delete them."""
    yield
    if QCoreApplication.instance() is not None:
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
