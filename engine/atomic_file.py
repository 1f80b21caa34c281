"""The one atomic file writer behind every save and export.

Why one: a document save, a bundle, a picture and a PDF must all keep the same promises: a
reader or a crash never sees half a file (the new bytes go to a temp file in the target's
folder, are flushed and fsynced, then renamed over the target); the file keeps its identity (a
symlink is written through, so the link stays and its target gets the bytes; the old mode
bits are kept); a device node, FIFO or folder is never replaced; and temp files left by a
writer that was killed are removed at the next save of the same file.

Temp files are named ``.NAME.<pid>-<random>.tmp`` so a later writer can tell a dead writer's
leftovers from a live one's.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
import time
from pathlib import Path

from engine.errors import LoadError

PathLike = str | os.PathLike[str]


def _kind(mode: int) -> str | None:
    """What a non-regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device node"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def regular_file_problem(path: PathLike) -> str | None:
    """Why ``path`` (followed through symlinks) is not a regular file, or None when it is one
    or does not exist.  Never opens the file, so a FIFO cannot block the caller."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as e:
        return f"cannot look at it: {e.strerror or e}"
    kind = _kind(mode)
    if kind is None:
        return None
    if kind == "a folder":
        return "is a folder, not a file"
    return f"is {kind}, not a regular file"


def write_target(path: PathLike) -> Path:
    """The file a write to ``path`` must replace: the end of its symlink chain."""
    return Path(os.path.realpath(os.fspath(path)))


def _temp_re(name: str) -> re.Pattern[str]:
    return re.compile(r"^\." + re.escape(name) + r"\.(?:(\d+)-)?[A-Za-z0-9_]+\.tmp$")


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def clean_stale_temps(path: PathLike) -> list[Path]:
    """Remove the temp files of ``path`` left by writers that are no longer running; the
    removed paths.  A temp of the old naming (no pid) is removed when older than an hour."""
    target = write_target(path)
    folder = target.parent
    pattern = _temp_re(target.name)
    removed: list[Path] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        m = pattern.match(name)
        if not m:
            continue
        p = folder / name
        if m.group(1) is not None:
            stale = not _alive(int(m.group(1)))
        else:
            try:
                stale = time.time() - p.lstat().st_mtime > 3600
            except OSError:
                continue
        if stale:
            try:
                p.unlink()
                removed.append(p)
            except OSError:
                pass
    return removed


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write(path: PathLike, data: bytes | str) -> Path:
    """Replace the file at ``path`` (through symlinks) with ``data`` all at once; the real
    path written.  ``str`` data is written as UTF-8.  Raises :class:`LoadError` naming the file
    when it cannot be written; on any failure the old file is untouched and no temp is left."""
    shown = os.fspath(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    target = write_target(path)
    problem = regular_file_problem(target)
    if problem is not None:
        raise LoadError(f"not written: {problem}", shown)
    folder = target.parent
    clean_stale_temps(target)
    try:
        old_mode: int | None = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        old_mode = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}-", suffix=".tmp",
                                   dir=folder)
    except OSError as e:
        raise LoadError(f"cannot save: {e.strerror or e}", shown) from None
    try:
        try:
            os.fchmod(fd, old_mode if old_mode is not None else 0o666 & ~_umask())
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise LoadError(f"cannot save: {e.strerror or e}", shown) from None
        raise
    _sync_folder(folder)
    return target


def _sync_folder(folder: Path) -> None:
    """Make the rename durable (best effort: some file systems refuse a folder fsync)."""
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)
