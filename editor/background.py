"""Run slow engine work (compiling the board, a LOS fan, a reach) off the GUI thread.

Two worker threads (one slot runs one job at a time); a job is a plain function of immutable
model data, so nothing Qt crosses threads but one queued signal: when a job finishes the worker emits ``_finished``, which Qt
delivers on the GUI thread, where ``on_done`` runs (no polling delay).  When
a new job for the same slot arrives while one runs (a building nudged five times in a row),
only the newest is kept, so the canvas catches up with the last edit instead of replaying
every intermediate one.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal


class Background(QObject):
    _finished = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        # two workers: a slow validation never queues ahead of the LOS fan or a reach
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="sprawlmap-engine")
        self._running: dict[str, tuple[Future, Callable[[Any], None]]] = {}
        self._pending: dict[str, tuple[Callable[[], Any], Callable[[Any], None]]] = {}
        self._pending_soon: dict[str, tuple[Callable[[], Any], Callable[[Any], None]]] = {}
        self._finished.connect(self._poll, Qt.ConnectionType.QueuedConnection)

    def run(self, slot: str, job: Callable[[], Any], on_done: Callable[[Any], None]) -> None:
        """Run ``job()`` in the worker; ``on_done(result)`` on the GUI thread afterwards."""
        if slot in self._running:
            self._pending[slot] = (job, on_done)  # replaces any older pending job
            return
        fut = self._pool.submit(job)
        self._running[slot] = (fut, on_done)
        fut.add_done_callback(lambda _f: self._finished.emit())

    def run_soon(self, slot: str, job: Callable[[], Any], on_done: Callable[[Any], None]
                 ) -> None:
        """Like :meth:`run`, but after the event loop has repainted: the worker would
        otherwise compete with the repaint of the edit for the interpreter lock."""
        self._pending_soon[slot] = (job, on_done)
        QTimer.singleShot(0, lambda: self._start_soon(slot))

    def _start_soon(self, slot: str) -> None:
        nxt = self._pending_soon.pop(slot, None)
        if nxt is not None:
            self.run(slot, *nxt)

    def cancel(self, slot: str) -> None:
        """Forget the slot's pending job and ignore the result of the running one."""
        self._pending.pop(slot, None)
        self._pending_soon.pop(slot, None)
        if slot in self._running:
            fut, _ = self._running[slot]
            self._running[slot] = (fut, lambda result: None)

    def busy(self) -> bool:
        return bool(self._running or self._pending or self._pending_soon)

    def _poll(self) -> None:
        for slot, (fut, on_done) in list(self._running.items()):
            if not fut.done():
                continue
            del self._running[slot]
            if fut.cancelled():  # shut down before it ran: nobody waits for it any more
                continue
            nxt = self._pending.pop(slot, None)
            if nxt is not None:  # a newer request superseded this result
                self.run(slot, *nxt)
                continue
            exc = fut.exception()
            on_done(exc if exc is not None else fut.result())

    def wait(self) -> None:
        """Block until every job is done and delivered (tests, screenshots, shutdown)."""
        while self.busy():
            for slot in list(self._pending_soon):
                self._start_soon(slot)
            wait([fut for fut, _ in self._running.values()])
            self._poll()

    def shutdown(self) -> None:
        self._pending.clear()
        self._pending_soon.clear()
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._running.clear()  # results of a closed window are delivered to no one
