"""The one exception the VASSAL readers raise for bad input."""
from __future__ import annotations


class VassalFileError(ValueError):
    """A .vmod/.vsav/.vlog that cannot be read; the message is one sentence naming the problem."""
