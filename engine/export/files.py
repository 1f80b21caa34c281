"""Output files: atomic writes and the names of per-level files."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to a temporary file next to ``path``, then rename it over ``path``.

    A reader (or a crash) never sees half a file: the old file stays until the new one is
    complete and flushed.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def level_path(out: str | os.PathLike[str], level: int) -> Path:
    """``map.svg`` for level 0, ``map-L1.svg`` for level 1, and so on."""
    p = Path(out)
    if level == 0:
        return p
    return p.with_name(f"{p.stem}-L{level}{p.suffix}")
