"""Findings: what a designer must look at before printing, and the lists of checks making them.

An error makes ``sprawlmap validate`` exit 1 and stops an export; a warning is shown but does
not.  Each finding says where (dots and feature ids), so the editor can zoom there and the
CLI can print it.  The layout checks (:mod:`engine.validate`) and the scenario checks
(:mod:`engine.scenario_checks`) both build on this module, which imports neither.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.board import Board

ERROR, WARNING, INFO = "error", "warning", "info"


@dataclass
class Finding:
    code: str
    severity: str
    message: str
    where: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


Check = Callable[[Board, Any], list[Finding]]


class CheckList(list):
    """The checks of one module, in the order they are defined (``@checks.register``)."""

    def register(self, fn: Check) -> Check:
        self.append(fn)
        return fn


def has_errors(findings: list[Finding]) -> bool:
    return any(f.severity == ERROR for f in findings)


def summary(findings: list[Finding]) -> str:
    n_err = sum(f.severity == ERROR for f in findings)
    n_warn = sum(f.severity == WARNING for f in findings)
    return f"{n_err} error(s), {n_warn} warning(s)"
