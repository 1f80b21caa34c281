"""Entry script of the standalone bundle (PyInstaller needs a script, not an entry point).

The bundle's one executable is the ``sprawlmap`` command; started without arguments (double-
clicked) it opens the editor on the bundled sample.  See docs/install.md, "Standalone bundle".
"""

import multiprocessing
import sys

from editor.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # play's worker processes, where they are spawned
    sys.exit(main(sys.argv[1:] or ["edit"]))
