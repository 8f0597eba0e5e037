"""The registry of Musket & Pike's verbs.  Each verb module declares its verbs here beside the rules they apply
(``setup``, ``activation``, ``reinforcements``, ``moving``, ``turning``, ``reforming``, ``combat``, ``firing``)."""
from __future__ import annotations

from referee.engine.verbs import Verbs

VERBS = Verbs()

# The steps of the procedure (see ``procedure``): the verbs say which of them they are allowed in.
OPEN_ORDER, DRAW, ACTIVATION = "open_order", "draw", "activation"
