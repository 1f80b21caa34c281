"""Recovery files the editor left behind when it stopped without saving (Qt-free).

An untitled document autosaves to ``untitled-<pid>-<n>.autosave.yaml`` in the recovery folder;
a titled one to ``.NAME.autosave`` next to its file (or, when that folder is read-only, to
``NAME-<hash>.autosave`` in the recovery folder), with a marker ``file-<hash>.ref`` in the
recovery folder naming the file (so a recovery file whose document was deleted or moved away
can still be found).  At start-up :func:`orphans` lists the ones no running editor owns: an
editor of another process that is still alive keeps its files.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
from dataclasses import dataclass
from pathlib import Path

_UNTITLED = re.compile(r"^untitled-(\d+)(?:-\d+)?\.autosave\.yaml$")
_counter = itertools.count(1)


@dataclass(frozen=True)
class Orphan:
    """A recovery file nobody owns; ``original`` is the titled file that is gone (or None)."""

    recovery: Path
    original: Path | None = None
    marker: Path | None = None

    def label(self) -> str:
        if self.original is None:
            return f"an untitled document ({self.recovery.name})"
        return f"{self.original} (the file is gone)"

    def discard(self) -> None:
        """The user declined it: remove the recovery file and its marker."""
        self.recovery.unlink(missing_ok=True)
        if self.marker is not None:
            self.marker.unlink(missing_ok=True)


def untitled_name() -> str:
    """A recovery file name unique to this process and this document."""
    return f"untitled-{os.getpid()}-{next(_counter)}.autosave.yaml"


def titled_recovery(path: Path) -> Path:
    return path.with_name(f".{path.name}.autosave")


def marker_for(recovery_dir: Path, path: Path) -> Path:
    digest = hashlib.sha1(str(Path(path).resolve()).encode()).hexdigest()[:16]
    return recovery_dir / f"file-{digest}.ref"


def fallback_recovery(recovery_dir: Path, path: Path) -> Path:
    """Where a titled document autosaves when its own folder is read-only: the recovery
    folder (per-user app data), under a name unique to the file's full path."""
    digest = hashlib.sha1(str(Path(path).resolve()).encode()).hexdigest()[:16]
    return recovery_dir / f"{Path(path).name}-{digest}.autosave"


def candidates(recovery_dir: Path, path: Path) -> list[Path]:
    """Every place an autosave of ``path`` may be: next to it, or in the recovery folder."""
    return [titled_recovery(path), fallback_recovery(recovery_dir, path)]


def newer_recovery(recovery_dir: Path, path: Path) -> Path | None:
    """The newest autosave of ``path`` written after the file was, or None."""
    try:
        stamp = Path(path).stat().st_mtime
    except OSError:
        stamp = 0.0
    best: tuple[float, Path] | None = None
    for rec in candidates(recovery_dir, path):
        try:
            t = rec.stat().st_mtime
        except OSError:
            continue
        if t > stamp and (best is None or t > best[0]):
            best = (t, rec)
    return best[1] if best else None


def write_marker(recovery_dir: Path, path: Path, rec: Path | None = None) -> None:
    """Remember that ``path`` has a recovery file (pid on the first line, path on the second,
    the recovery file on the third)."""
    m = marker_for(recovery_dir, path)
    m.parent.mkdir(parents=True, exist_ok=True)
    rec = rec or titled_recovery(path)
    m.write_text(f"{os.getpid()}\n{Path(path).resolve()}\n{rec}\n", encoding="utf-8")


def pid_alive(pid: int) -> bool:
    """True when another process with this id runs; our own pid counts as not alive, since a
    process runs one editor window at start-up (a file with our pid is from an earlier process
    that had the same id, or, in tests, from a window that 'crashed')."""
    if pid == os.getpid():
        return False
    if os.name == "nt":  # os.kill(pid, 0) would send Ctrl+C there: offer the file
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def orphans(recovery_dir: Path, exclude: set[Path] = frozenset()) -> list[Orphan]:
    """Recovery files in ``recovery_dir`` owned by no live editor, oldest first.

    Titled documents whose file still exists are left out: opening the file offers them.
    Markers whose recovery file is gone are tidied away.
    """
    if not recovery_dir.is_dir():
        return []
    found: list[Orphan] = []
    for f in recovery_dir.iterdir():
        m = _UNTITLED.match(f.name)
        if m and f.resolve() not in exclude and not pid_alive(int(m.group(1))):
            found.append(Orphan(f))
        elif f.suffix == ".ref" and f.name.startswith("file-"):
            try:
                lines = f.read_text(encoding="utf-8").splitlines()
                pid_s, path_s = lines[:2]
                pid = int(pid_s)
            except (OSError, ValueError):
                continue
            original = Path(path_s)
            rec = Path(lines[2]) if len(lines) > 2 and lines[2] else titled_recovery(original)
            if not rec.exists():
                f.unlink(missing_ok=True)
            elif not original.exists() and not pid_alive(pid) and rec.resolve() not in exclude:
                found.append(Orphan(rec, original, f))

    def mtime(o: Orphan) -> float:
        try:
            return o.recovery.stat().st_mtime
        except OSError:
            return 0.0
    return sorted(found, key=lambda o: (mtime(o), o.recovery.name))
