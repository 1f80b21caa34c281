"""The mapsheet library: the ONE place that decides which folders hold sheets, in which order.

Every caller that looks for sheets by id (the loader, the CLI, exports, the editor's library
panel) goes through this module, so they all see the same sheets from the same files.

Search order, first wins:

1. ``document`` - the folder of the document being loaded (a scenario can carry its own sheets);
2. ``bundled``  - the library shipped with sprawlmap: ``mapsheets/`` at the top of a source
   checkout, or the ``engine.bundled.mapsheets`` package data of an installed wheel
   (found with :mod:`importlib.resources`);
3. ``user``     - the per-user library folder (:func:`user_library`), for the designer's own sheets;
4. ``env``      - every folder of the ``SPRAWLMAP_LIBRARY`` path list (``os.pathsep``-separated).

Sheets inlined in a layout win over all of these (see :mod:`engine.io.resolve`).  In a folder,
``<id>.yaml`` is tried first, then every other ``*.yaml`` mapsheet there (not sub-folders).
"""

from __future__ import annotations

import gc
import importlib.resources
import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine
from engine.errors import LoadError
from engine.io.files import load_sheet
from engine.io.reader import decode, parse_text, read_bytes
from engine.io.sheet import sheet_from_data
from engine.model import Sheet

#: the environment variable naming extra library folders
ENV = "SPRAWLMAP_LIBRARY"

#: origin -> how it is named to the user
LABELS = {
    "inline": "inlined in the document",
    "document": "document folder",
    "bundled": "bundled library",
    "user": "user library",
    "env": ENV,
}

_FORMAT = re.compile(rb"^format:\s*['\"]?sprawlmap/mapsheet@", re.MULTILINE)


@dataclass(frozen=True)
class Source:
    """One folder of the search path and why it is on it."""

    origin: str  # a key of LABELS
    folder: Path

    @property
    def label(self) -> str:
        return LABELS[self.origin]


@dataclass(frozen=True)
class Entry:
    """A sheet found in the library: its id, its file and the folder that supplied it."""

    id: str
    path: Path
    source: Source

    @property
    def origin(self) -> str:
        return self.source.origin


# ----------------------------------------------------------------------------- folders
def bundled_dir(name: str = "mapsheets") -> Path:
    """The bundled ``mapsheets``, ``scenarios`` or ``zones`` folder.

    An installed wheel carries them as package data of ``engine.bundled``; a source checkout
    (plain or editable install) keeps them at the top of the repository, next to ``engine/``.
    """
    data = importlib.resources.files("engine.bundled").joinpath(name)
    if data.is_dir():
        return Path(str(data))
    return Path(engine.__file__).resolve().parent.parent / name


def is_checkout() -> bool:
    """True when running from a source checkout (the bundled folders are the repository's)."""
    return not importlib.resources.files("engine.bundled").joinpath("mapsheets").is_dir()


def user_data_dir() -> Path:
    """sprawlmap's per-user data folder, by the platform's convention (no extra dependency):
    ``%APPDATA%\\sprawlmap`` on Windows, ``~/Library/Application Support/sprawlmap`` on macOS,
    ``$XDG_DATA_HOME/sprawlmap`` (default ``~/.local/share/sprawlmap``) elsewhere."""
    if sys.platform == "win32":
        base = os.environ.get("APPDATA") or str(Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = str(Path.home() / "Library" / "Application Support")
    else:
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "sprawlmap"


def user_library() -> Path:
    """The per-user sheet folder (it may not exist yet: create it to use it)."""
    return user_data_dir() / "mapsheets"


def env_folders() -> list[Path]:
    """The folders named by ``SPRAWLMAP_LIBRARY`` (read now, empty entries skipped)."""
    raw = os.environ.get(ENV, "")
    return [Path(p).expanduser() for p in raw.split(os.pathsep) if p.strip()]


def sources(doc_dir: str | os.PathLike[str] | None = None) -> list[Source]:
    """The search path in order.  A document folder that is also a library folder keeps the
    library's name (and the earlier place); a folder is never searched twice."""
    lib = [Source("bundled", bundled_dir("mapsheets")), Source("user", user_library())]
    lib += [Source("env", f) for f in env_folders()]
    out: list[Source] = []
    if doc_dir is not None:
        here = _key(Path(doc_dir))
        same = next((s for s in lib if _key(s.folder) == here), None)
        out.append(same or Source("document", Path(doc_dir)))
    for s in lib:
        if all(_key(s.folder) != _key(o.folder) for o in out):
            out.append(s)
    return out


def new_sheet_folder() -> Path:
    """Where a new mapsheet is offered to be saved: ``mapsheets/`` in a checkout (to add it
    to the bundled library), the user library in an installed copy."""
    return bundled_dir("mapsheets") if is_checkout() else user_library()


def samples() -> list[Path]:
    """The bundled sample scenarios (and sample zones, once there are some), by name."""
    out: list[Path] = []
    for name in ("scenarios", "zones"):
        folder = bundled_dir(name)
        out += sorted(folder.glob("*.yaml")) if folder.is_dir() else []
    return out


def is_installed_file(path: str | os.PathLike[str]) -> bool:
    """True for a file of the bundled library of an installed copy (not a checkout): it is
    package data, so the editor saves changes elsewhere instead of over it."""
    if is_checkout():
        return False
    here = Path(_key(Path(path)))
    return any(here.is_relative_to(_key(bundled_dir(n))) for n in ("mapsheets", "scenarios", "zones"))


def sample() -> Path:
    """The sample scenario the editor opens when no file is given."""
    return bundled_dir("scenarios") / "street-ambush.yaml"


def _key(folder: Path) -> str:
    try:
        return os.path.normcase(str(folder.resolve()))
    except OSError:
        return os.path.normcase(str(folder.absolute()))


# ------------------------------------------------------------------------------ scanning
# path -> (mtime_ns, size, is a mapsheet, declared id or None): unchanged files are not re-read
_ID_CACHE: dict[str, tuple[int, int, bool, str | None]] = {}
# path -> (mtime_ns, size, Sheet): sheets are immutable, so a loaded one is shared
_SHEET_CACHE: dict[str, tuple[int, int, Sheet]] = {}
_CACHE_MAX = 4096
# path -> (mtime_ns, size, data) of the last mapsheet file `_peek` parsed: resolving a sheet
# peeks at its file for the id, then loads it; this spares the second parse (a 16x16-block
# city's 635 sheet files were each parsed twice, two thirds of reading it)
_LAST_PEEK: dict[str, tuple[int, int, Any]] = {}


def _stat(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def _head(path: Path) -> bytes:
    """The start of a regular file too large to read whole (its format line says whether it
    is a mapsheet: loading it then says it is too large); nothing for anything else."""
    try:
        if not path.is_file():
            return b""
        with open(path, "rb") as fh:
            return fh.read(1 << 20)
    except OSError:
        return b""


def _peek(path: Path) -> tuple[bool, str | None]:
    """``(is a mapsheet file, its declared id)``, cached while the file is unchanged.  A file
    that says it is a mapsheet but has no readable id is ``(True, None)``: loading it reports
    the problem."""
    st = _stat(path)
    if st is None:
        return False, None
    key = str(path)
    hit = _ID_CACHE.get(key)
    if hit and hit[:2] == st:
        return hit[2], hit[3]
    is_sheet, ident = False, None
    whole = True
    try:  # bounded, and never opens a FIFO or a device (it would wait or never end)
        raw = read_bytes(path)
    except LoadError:
        raw, whole = _head(path), False
    if _FORMAT.search(raw):
        is_sheet = True
        try:  # what read_yaml(path) makes of it, on the bytes read once
            data = parse_text(decode(raw, key), key) if whole else None
        except LoadError:
            data = None
        _LAST_PEEK.clear()
        if data is not None:
            _LAST_PEEK[key] = (*st, data)
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            ident = data["id"]
    if len(_ID_CACHE) >= _CACHE_MAX:
        _ID_CACHE.clear()
    _ID_CACHE[key] = (*st, is_sheet, ident)
    return is_sheet, ident


def declared_id(path: Path) -> str | None:
    """The ``id`` a YAML file declares if it is a mapsheet; None for anything else."""
    return _peek(path)[1]


def sheet_at(path: Path) -> Sheet:
    """Load the mapsheet at ``path`` (cached while the file is unchanged); LoadError if bad."""
    st = _stat(path)
    key = str(path)
    hit = _SHEET_CACHE.get(key)
    if st is not None and hit and hit[:2] == st:
        return hit[2]
    peeked = _LAST_PEEK.pop(key, None)
    if st is not None and peeked is not None and peeked[:2] == st:
        sheet = sheet_from_data(peeked[2], key)  # what load_sheet does, on the data read once
    else:
        sheet = load_sheet(path)
    if st is not None:
        if len(_SHEET_CACHE) >= _CACHE_MAX:
            _SHEET_CACHE.clear()
        _SHEET_CACHE[key] = (*st, sheet)
    return sheet


def scan(source: Source) -> list[Entry]:
    """Every mapsheet file in one folder, by file name (a missing folder holds none)."""
    return [e for e in _scan(source) if e.id]


def _scan(source: Source) -> list[Entry]:
    """Like :func:`scan`, plus mapsheet files whose id cannot be read (``id == ""``)."""
    if not source.folder.is_dir():
        return []
    out = []
    for path in sorted(source.folder.glob("*.yaml")):
        is_sheet, ident = _peek(path)
        if is_sheet:
            out.append(Entry(ident or "", path, source))
    return out


def find(ident: str, search: Iterable[Source]) -> Entry | None:
    """The first sheet with id ``ident`` on the search path (``<id>.yaml`` first per folder)."""
    for source in search:
        if not source.folder.is_dir():
            continue
        direct = source.folder / f"{ident}.yaml"
        if direct.is_file() and declared_id(direct) == ident:
            return Entry(ident, direct, source)
        for entry in scan(source):
            if entry.id == ident and entry.path != direct:
                return entry
    return None


def entries(search: Iterable[Source]) -> tuple[list[Entry], list[Entry]]:
    """``(winners, shadowed)``: the sheet each id resolves to, and the files it hides."""
    winners: dict[str, Entry] = {}
    shadowed: list[Entry] = []
    for source in search:
        for entry in scan(source):
            if entry.id in winners:
                shadowed.append(entry)
            else:
                winners[entry.id] = entry
    return list(winners.values()), shadowed


def load_all(search: Iterable[Source]) -> tuple[dict[str, Sheet], dict[str, Entry], list[str]]:
    """Every sheet on the search path: ``(sheets by id, where each came from, errors)``.

    A broken sheet file is one line in ``errors`` (``file:line: problem``) and is skipped; the
    next file with the same id then supplies the sheet.  The garbage collector is paused
    meanwhile, as in :func:`engine.io.resolve.resolve_sheets` (what is read all lives on).
    """
    was = gc.isenabled()
    gc.disable()
    try:
        return _load_all(search)
    finally:
        if was:
            gc.enable()


def _load_all(search: Iterable[Source]) -> tuple[dict[str, Sheet], dict[str, Entry], list[str]]:
    sheets: dict[str, Sheet] = {}
    where: dict[str, Entry] = {}
    errors: list[str] = []
    for source in search:
        for entry in _scan(source):
            if entry.id in sheets:
                continue
            try:
                sheet = sheet_at(entry.path)
            except LoadError as exc:
                errors.append(str(exc))
                continue
            sheets[sheet.id] = sheet
            where[sheet.id] = entry
    return sheets, where, errors
