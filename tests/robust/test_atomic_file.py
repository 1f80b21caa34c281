"""One atomic writer for every save and export: it keeps the file's identity (writes through a
symlink, refuses device nodes and FIFOs), leaves the old file whole when interrupted at any step
(exception or kill), and clears the temp files a killed writer left behind."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engine import atomic_file
from engine.atomic_file import atomic_write, clean_stale_temps
from engine.errors import LoadError

ROOT = Path(__file__).resolve().parents[2]
OLD = b"old contents\n"
NEW = b"new contents, longer than the old ones\n"


def temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_write_through_symlink_keeps_the_link(tmp_path):
    real = tmp_path / "real.yaml"
    real.write_bytes(OLD)
    link = tmp_path / "link.yaml"
    link.symlink_to("real.yaml")
    atomic_write(link, NEW)
    assert link.is_symlink() and os.readlink(link) == "real.yaml"
    assert real.read_bytes() == NEW
    assert temps(tmp_path) == []


def test_link_into_another_folder_writes_there(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    real = tmp_path / "b" / "map.svg"
    real.write_bytes(OLD)
    link = tmp_path / "a" / "map.svg"
    link.symlink_to(real)
    atomic_write(link, "text is encoded as UTF-8 é")
    assert link.is_symlink()
    assert real.read_text(encoding="utf-8") == "text is encoded as UTF-8 é"


def test_device_node_is_refused(tmp_path):
    with pytest.raises(LoadError, match="not a regular file"):
        atomic_write("/dev/null", NEW)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_symlink_to_device_is_refused(tmp_path):
    link = tmp_path / "out.png"
    link.symlink_to("/dev/null")
    with pytest.raises(LoadError, match="not a regular file"):
        atomic_write(link, NEW)
    assert link.is_symlink()


def test_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(LoadError, match="FIFO"):
        atomic_write(fifo, NEW)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_folder_is_refused(tmp_path):
    with pytest.raises(LoadError, match="is a folder"):
        atomic_write(tmp_path, NEW)


# each step of the write, in order; an exception at any of them leaves the old file whole
STEPS = ["mkstemp", "write", "fsync", "fchmod", "replace"]


@pytest.mark.parametrize("step", STEPS)
@pytest.mark.parametrize("exc", [OSError(5, "Input/output error"), KeyboardInterrupt()])
def test_exception_at_each_step_leaves_old_file(tmp_path, monkeypatch, step, exc):
    target = tmp_path / "doc.yaml"
    target.write_bytes(OLD)

    def boom(*a, **k):
        raise exc

    if step == "mkstemp":
        monkeypatch.setattr(atomic_file.tempfile, "mkstemp", boom)
    else:
        monkeypatch.setattr(atomic_file.os, step, boom)
    with pytest.raises(LoadError if isinstance(exc, OSError) else KeyboardInterrupt):
        atomic_write(target, NEW)
    monkeypatch.undo()
    assert target.read_bytes() == OLD
    assert temps(tmp_path) == []


@pytest.mark.parametrize("step", STEPS)
def test_kill_at_each_step_leaves_old_file_and_next_save_cleans(tmp_path, step):
    """A writer killed (os._exit: no cleanup runs) at each step: the old file is whole; the temp
    file it may leave is removed by the next save of the same file."""
    target = tmp_path / "doc.yaml"
    target.write_bytes(OLD)
    patch = ("atomic_file.tempfile.mkstemp = die" if step == "mkstemp"
             else f"atomic_file.os.{step} = die")
    code = textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {str(ROOT)!r})
        from engine import atomic_file
        def die(*a, **k):
            os._exit(9)
        {patch}
        atomic_file.atomic_write({str(target)!r}, {NEW!r} * 1000)
    """)
    rc = subprocess.run([sys.executable, "-c", code], timeout=60).returncode
    assert rc == 9
    assert target.read_bytes() == OLD
    atomic_write(target, b"third\n")
    assert target.read_bytes() == b"third\n"
    assert temps(tmp_path) == []


def test_clean_keeps_temps_of_live_writers_and_other_files(tmp_path):
    target = tmp_path / "doc.yaml"
    live = tmp_path / f".doc.yaml.{os.getppid()}-abc123.tmp"   # our parent: alive
    dead = tmp_path / ".doc.yaml.999999999-abc123.tmp"
    other = tmp_path / ".other.yaml.999999999-abc123.tmp"
    for p in (live, dead, other):
        p.write_bytes(b"x")
    clean_stale_temps(target)
    assert temps(tmp_path) == sorted([live.name, other.name])


def test_new_file_gets_umask_mode_and_old_keeps_its_mode(tmp_path):
    fresh = tmp_path / "fresh.yaml"
    atomic_write(fresh, NEW)
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(os.stat(fresh).st_mode) == 0o666 & ~mask
    os.chmod(fresh, 0o640)
    atomic_write(fresh, OLD)
    assert stat.S_IMODE(os.stat(fresh).st_mode) == 0o640
