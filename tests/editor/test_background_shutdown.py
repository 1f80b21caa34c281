"""A window closed while engine jobs wait must not deliver (or raise) their cancelled results."""

import threading

from editor.background import Background


def test_shutdown_with_queued_jobs_delivers_nothing_and_raises_nothing(qtbot):
    bg = Background()
    gate = threading.Event()
    got = []
    # two workers busy, a third job queued behind them: shutdown cancels the queued one
    bg.run("a", gate.wait, got.append)
    bg.run("b", gate.wait, got.append)
    bg.run("c", lambda: 3, got.append)
    threading.Timer(0.2, gate.set).start()
    bg.shutdown()
    assert not bg.busy()
    bg._poll()  # the queued 'finished' signals of the cancelled future arrive after shutdown
    qtbot.wait(50)
    assert got == []


def test_cancelled_future_is_skipped_by_poll(qtbot):
    bg = Background()
    got = []
    from concurrent.futures import Future
    fut = Future()
    fut.cancel()
    bg._running["x"] = (fut, got.append)
    bg._poll()  # before the fix: CancelledError from fut.exception()
    assert got == [] and not bg.busy()
    bg.shutdown()
