"""RuleError: why an act is illegal, with the rule number that forbids it (DESIGN §5 ``errors``).

The rule functions of this ruleset never raise for an illegal act; they return ``RuleError`` records, and the
engine turns them into the ruling's ``{"rule", "code", "message", "alternatives"}`` with :meth:`to_json`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class RuleError:
    rule: str                                 # rule number as printed, e.g. "6.21", or a special rule id "BOR-5"
    code: str                                 # stable machine code, e.g. "stack_too_many"
    message: str                              # one English sentence naming units / hexes
    alternatives: tuple[Any, ...] | None = None   # what would be legal instead (e.g. reachable hexes)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rule": self.rule, "code": self.code, "message": self.message}
        if self.alternatives is not None:
            out["alternatives"] = list(self.alternatives)
        return out
