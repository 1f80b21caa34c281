#!/usr/bin/env python3
"""Install the wheel as a user would and use it outside the checkout (CI runs this after the tests).

1. copies the checkout's files (tracked and new, not ignored) to a temporary folder and builds
   the wheel there (``pip wheel --no-deps``), so the checkout is left untouched and a file
   missing from git shows up here;
2. installs it into a fresh virtual environment in the temporary folder (pip's cache is reused);
3. from a folder that is not the checkout, with the installed commands only: ``--version``,
   the editor's screenshot of the bundled sample, a sample copied out of the installed library,
   then ``validate``, ``los``, ``export`` (PDF) and a short ``play --bots 2`` of that copy, and
   the ``sprawlmap-editor`` launcher on the copy, and (Linux) ``install-desktop``.

Each step's time is printed; the temporary folder is removed at the end, pass or fail.
Needs only python3 (3.11+) with network access to PyPI (or a warm pip cache).

    python3 scripts/wheel_check.py [--keep]     # --keep: leave the temporary folder for a look
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class Failed(Exception):
    pass


def step(name: str, cmd: list[str], cwd: Path, env: dict[str, str], want: int = 0) -> str:
    """Run one command; return its stdout, or raise Failed with its output."""
    t0 = time.monotonic()
    res = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    took = time.monotonic() - t0
    print(f"wheel-check: {name:<34} {took:6.1f} s  (exit {res.returncode})", flush=True)
    if res.returncode != want:
        raise Failed(f"{name}: exit {res.returncode}, wanted {want}\n"
                     f"$ {' '.join(cmd)}\n{res.stdout[-2000:]}{res.stderr[-2000:]}")
    return res.stdout


def copy_checkout(dest: Path) -> None:
    """The files git would commit (tracked or new, not ignored), as they are on disk."""
    out = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, check=True).stdout
    for name in filter(None, out.decode().split("\0")):
        src = ROOT / name
        if src.is_file():  # a tracked file deleted in the working tree is left out
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)


def check(tmp: Path) -> None:
    bindir = "Scripts" if os.name == "nt" else "bin"
    src, dist, env_dir, work, data = (tmp / n for n in ("src", "dist", "venv", "work", "data"))
    work.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "SPRAWLMAP_LIBRARY")}
    env.update(QT_QPA_PLATFORM="offscreen", XDG_DATA_HOME=str(data),
               PIP_DISABLE_PIP_VERSION_CHECK="1")
    t0 = time.monotonic()
    copy_checkout(src)
    print(f"wheel-check: {'copy the checkout':<34} {time.monotonic() - t0:6.1f} s", flush=True)

    t0 = time.monotonic()
    venv.EnvBuilder(with_pip=True).create(env_dir)
    print(f"wheel-check: {'fresh venv':<34} {time.monotonic() - t0:6.1f} s", flush=True)
    py = env_dir / bindir / ("python.exe" if os.name == "nt" else "python")
    pip = [str(py), "-m", "pip"]
    step("build the wheel", [*pip, "wheel", "-q", "--no-deps", "-w", str(dist), str(src)], tmp, env)
    wheels = sorted(dist.glob("sprawlmap-*.whl"))
    if len(wheels) != 1:
        raise Failed(f"expected one sprawlmap wheel in {dist}, found {[w.name for w in wheels]}")
    step("install the wheel (and deps)", [*pip, "install", "-q", str(wheels[0])], tmp, env)

    exe = env_dir / bindir
    sprawlmap = str(exe / "sprawlmap")
    version = step("sprawlmap --version", [sprawlmap, "--version"], work, env).strip()
    where = step("installed engine location",
                 [str(py), "-c", "import engine; print(engine.__file__)"], work, env).strip()
    if not Path(where).resolve().is_relative_to(env_dir.resolve()):
        raise Failed(f"engine imported from {where}, not from the installed wheel")
    listing = json.loads(step("library list --json", [sprawlmap, "library", "list", "--json"],
                              work, env))
    bundled = [f for f in listing["folders"] if f["origin"] == "bundled"]
    if not bundled or not Path(bundled[0]["folder"]).resolve().is_relative_to(env_dir.resolve()) \
            or bundled[0]["sheets"] < 1 or not listing["samples"]:
        raise Failed(f"the installed library is not the wheel's: {listing['folders']}")

    shot = work / "sample.png"
    step("edit --screenshot (bundled sample)", [sprawlmap, "edit", "--screenshot", str(shot)],
         work, env)
    if shot.stat().st_size < 10_000:
        raise Failed(f"{shot}: screenshot of {shot.stat().st_size} bytes")
    sample = next(s["path"] for s in listing["samples"] if s["name"] == "street-ambush")
    shutil.copy(sample, work / "ambush.yaml")  # a user's copy, far from the installed library
    step("validate a copied sample", [sprawlmap, "validate", "ambush.yaml"], work, env)
    step("los on the copy", [sprawlmap, "los", "ambush.yaml", "20,6,5", "31,14"], work, env)
    step("export the copy to PDF",
         [sprawlmap, "export", "ambush.yaml", "--format", "pdf", "-o", "ambush.pdf"], work, env)
    if not (work / "ambush.pdf").read_bytes().startswith(b"%PDF"):
        raise Failed("ambush.pdf is not a PDF")
    step("play --bots 2 on the copy", [sprawlmap, "play", "ambush.yaml", "--bots", "2"], work, env)
    step("library sample (copy command)",
         [sprawlmap, "library", "sample", "nightclub-hold", "club.yaml"], work, env)
    launcher = exe / ("sprawlmap-editor.exe" if os.name == "nt" else "sprawlmap-editor")
    step("sprawlmap-editor --screenshot (copy)",
         [str(launcher), "club.yaml", "--screenshot", str(work / "club.png")], work, env)
    if os.name != "nt" and sys.platform != "darwin":
        step("install-desktop", [sprawlmap, "install-desktop"], work, env)
        entry = (data / "applications" / "sprawlmap.desktop").read_text()
        if f"Exec={launcher} %f" not in entry:
            raise Failed(f"the desktop launcher does not run {launcher}:\n{entry}")
    print(f"wheel-check: ok, {wheels[0].name} ({wheels[0].stat().st_size // 1024} KB), {version}")


def main(argv: list[str]) -> int:
    keep = "--keep" in argv
    t0 = time.monotonic()
    tmp = Path(tempfile.mkdtemp(prefix="sprawlmap-wheel-"))
    try:
        check(tmp)
    except Failed as exc:
        print(f"wheel-check: FAILED {exc}", file=sys.stderr)
        return 1
    finally:
        if keep:
            print(f"wheel-check: kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
        print(f"wheel-check: total {time.monotonic() - t0:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
