"""Designer's lenses: whole-map answers built from the engine's single questions.

* :mod:`engine.analysis.exposure` -- how many enemy deployment dots see each dot, and through
  how much cover (LOS fans);
* :mod:`engine.analysis.tempo` -- the turn in which a side's fastest and slowest characters
  first reach each dot (movement Dijkstra);
* :mod:`engine.analysis.profile` -- the side view of one line of sight;
* :mod:`engine.analysis.compare` -- one line of sight under every ruleset;
* :mod:`engine.analysis.balance` -- findings drawn from the two maps;
* :mod:`engine.analysis.ramp` -- the one colour ramp every picture of a map uses.

Qt-free: the CLI and the editor draw what these return.
"""
