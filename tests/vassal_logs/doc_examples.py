"""The declarations docs/chat-notation.md shows, as a player would type them (record.sh types them into the
real engine's chat; test_notation_recorded.py reads them back from the log the engine wrote)."""
from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "chat-notation.md"
QUOTED = re.compile(r"`(![a-z][^`]*)`")
ERROR_LINE = re.compile(r"cannot read '(![^']*)'")
PLACEHOLDER = re.compile(r"\b[A-Z]+\b|\[")        # syntax (UNIT, [ROLL]), not an example


def examples(text: str | None = None) -> list[str]:
    """Every example declaration of the doc, in order, each once: the table's example column, the examples in
    the prose (two words or more: a lone ``!commit`` names a command), and the lines of the error samples."""
    text = DOC.read_text() if text is None else text
    out: list[str] = []
    for line in text.splitlines():
        cells = line.split("|")
        last = cells[-2] if line.startswith("|") and len(cells) > 3 else ""
        found = [q for q in QUOTED.findall(line)
                 if not PLACEHOLDER.search(q) and (len(q.split()) > 1 or q in QUOTED.findall(last))]
        found += ERROR_LINE.findall(line)
        out += [q for q in found if q not in out]
    return out


if __name__ == "__main__":      # record.sh: the script the engine plays
    import json
    import sys
    actions = [{"chat": "!scenario tiny"}] + [{"chat": e} for e in examples()]
    json.dump({"player": "Dora", "comment": "recorded by tests/vassal_logs/record.sh: every example of "
               "docs/chat-notation.md typed in the chat", "actions": actions}, sys.stdout, indent=1)
