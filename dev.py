#!/usr/bin/env python3
"""One entry point for a fresh clone: creates .venv, installs sprawlmap with its dev extras,
then runs what you asked for.  Needs only Python 3.11+.  Re-installs when pyproject.toml or
setup.py changes.

    python3 dev.py edit [FILE]     open the editor (the bundled sample when FILE is absent)
    python3 dev.py test [ARGS]     run the whole test suite (pytest ARGS)
    python3 dev.py bench [ARGS]    run the benchmarks and print the figures (--blocks N, --json)
    python3 dev.py lint            ruff
    python3 dev.py sprawlmap ...   any CLI command inside the environment
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".sprawlmap-installed"


def ensure_env() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py may run on an older python3
        sys.exit(f"sprawlmap needs Python 3.11+, this is {sys.version.split()[0]}")
    want = hashlib.sha256(b"".join((ROOT / f).read_bytes()
                                   for f in ("pyproject.toml", "setup.py"))).hexdigest()
    if STAMP.exists() and STAMP.read_text() == want and PY.exists():
        return
    if not PY.exists():
        print("dev: creating .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("dev: installing sprawlmap and its dependencies into .venv ...", flush=True)
    subprocess.check_call([str(PY), "-m", "pip", "install", "-q", "--upgrade", "pip"])
    subprocess.check_call([str(PY), "-m", "pip", "install", "-q", "-e", f"{ROOT}[dev]"])
    STAMP.write_text(want)


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    ensure_env()
    cmd, rest = argv[0], argv[1:]
    env = dict(os.environ)
    if cmd == "test":
        if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
            env.setdefault("QT_QPA_PLATFORM", "offscreen")
        return subprocess.call([str(PY), "-m", "pytest", *rest], cwd=ROOT, env=env)
    if cmd == "edit":
        return subprocess.call([str(PY), "-m", "editor.cli", "edit", *rest], cwd=ROOT, env=env)
    if cmd == "bench":
        return subprocess.call([str(PY), "benchmarks/run.py", *rest], cwd=ROOT, env=env)
    if cmd == "lint":
        return subprocess.call([str(PY), "-m", "ruff", "check", "."], cwd=ROOT, env=env)
    if cmd == "sprawlmap":
        return subprocess.call([str(PY), "-m", "editor.cli", *rest], cwd=ROOT, env=env)
    print(f"dev: unknown command {cmd!r}\n{__doc__}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
