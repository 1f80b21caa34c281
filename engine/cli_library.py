"""``sprawlmap library ...``: which sheets the library holds and from where; the samples.

``library list [--for FILE] [--json]`` shows the search path (folder, origin, whether it
exists), every sheet with the file it is loaded from, sheets hidden by an earlier file with the
same id, broken sheet files, and the bundled sample scenarios.  ``library sample NAME OUT``
copies a sample scenario to ``OUT`` to start a scenario of your own (it never overwrites).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine import library
from engine.errors import LoadError


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``library`` and its sub-commands to the ``sprawlmap`` parser."""
    lib = sub.add_parser("library", help="the mapsheet library: folders, sheets, samples")
    cmds = lib.add_subparsers(dest="library_cmd", metavar="{list,sample}", required=True,
                              parser_class=type(lib))
    ls = cmds.add_parser("list", help="every sheet on the search path and where it comes from")
    ls.add_argument("--for", dest="doc", metavar="FILE",
                    help="the search path of this document (its folder is searched first)")
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(fn=cmd_list)
    sa = cmds.add_parser("sample", help="copy a bundled sample scenario to a new file")
    sa.add_argument("name", help="a sample's name (see library list), e.g. street-ambush")
    sa.add_argument("out", metavar="OUT", help="the new file (an existing file is refused)")
    sa.set_defaults(fn=cmd_sample)


def listing(doc_dir: Path | None = None) -> dict:
    """The library as one JSON-ready object (what ``library list --json`` prints)."""
    search = library.sources(doc_dir)
    sheets, where, errors = library.load_all(search)
    _winners, shadowed = library.entries(search)
    counts = {s.folder: 0 for s in search}
    for e in where.values():
        counts[e.source.folder] += 1
    return {
        "folders": [{"origin": s.origin, "label": s.label, "folder": str(s.folder),
                     "exists": s.folder.is_dir(), "sheets": counts[s.folder]} for s in search],
        "sheets": [{"id": i, "title": sheets[i].title, "kind": sheets[i].kind,
                    "size": list(sheets[i].size), "lattice": sheets[i].lattice,
                    "origin": e.origin, "path": str(e.path)}
                   for i, e in sorted(where.items())],
        "shadowed": [{"id": e.id, "origin": e.origin, "path": str(e.path),
                      "by": str(where[e.id].path) if e.id in where else None}
                     for e in shadowed],
        "errors": errors,
        "samples": [{"name": p.stem, "path": str(p)} for p in library.samples()],
        "user_library": str(library.user_library()),
        "env": library.ENV,
    }


def cmd_list(ns: argparse.Namespace) -> int:
    doc_dir = None
    if ns.doc is not None:
        path = Path(ns.doc)
        if not path.exists():
            raise LoadError("no such file", str(path))
        doc_dir = path.resolve().parent if path.is_file() else path.resolve()
    data = listing(doc_dir)
    if ns.json:
        print(json.dumps(data, separators=(",", ": ")))
        return 0
    print("search path (first wins):")
    for n, f in enumerate(data["folders"], 1):
        state = f"{f['sheets']} sheets" if f["exists"] else "absent"
        print(f"  {n}. {f['label']:<18} {f['folder']}  ({state})")
    print(f"sheets ({len(data['sheets'])}):")
    width = max([len(s["id"]) for s in data["sheets"]] + [2])
    for s in data["sheets"]:
        size = f"{s['size'][0]}x{s['size'][1]}"
        print(f"  {s['id']:<{width}}  {s['kind']:<9} {size:>6}  {library.LABELS[s['origin']]:<18}"
              f" {s['path']}")
    for s in data["shadowed"]:
        print(f"  hidden: {s['path']} (id {s['id']!r}, already found in {s['by']})")
    print("samples (copy one to start your own):")
    swidth = max([len(s["name"]) for s in data["samples"]] + [2])
    for s in data["samples"]:
        print(f"  {s['name']:<{swidth}}  {s['path']}")
    if not Path(data["user_library"]).is_dir():
        print(f"your own sheets: create {data['user_library']} and put them there, or name "
              f"folders in {data['env']}")
    for e in data["errors"]:
        print(f"sprawlmap: {e}", file=sys.stderr)
    return 0


def cmd_sample(ns: argparse.Namespace) -> int:
    found = {p.stem: p for p in library.samples()}
    if ns.name not in found:
        raise LoadError(f"no bundled sample {ns.name!r}; there are: {', '.join(sorted(found))}")
    out = Path(ns.out)
    if out.is_dir():
        out = out / found[ns.name].name
    try:
        with open(out, "xb") as f:  # exclusive: never replaces a file
            f.write(found[ns.name].read_bytes())
    except FileExistsError:
        raise LoadError("already exists; choose another name", str(out)) from None
    except OSError as exc:
        raise LoadError(exc.strerror or "cannot write", str(out)) from None
    print(f"wrote {out} (a copy of the {ns.name} sample; its sheets come from the library)")
    return 0
