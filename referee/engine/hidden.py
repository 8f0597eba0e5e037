"""Hidden information, sealed: a state as one side may know it, for questions asked from that side's seat.

A hosted game's "what if" rules on events the asker has not played, from a position of the game.  Ruled on the
true state, its answer could depend on what the other side keeps secret (T&G 5.23: order markers face down
until the group's first activation; M&P 6.3.3: the Open Order choice) — the verdict of a hypothetical draw of
the opponent's marker lists the orders it reveals, an initiative total names the army option behind it.
Redacting the answer afterwards cannot be made safe: the legality, the errors, the alternatives, even which
rule spoke first may all depend on a secret.

So the question is put to a *concealed* state instead: the ruleset's optional hook ``conceal(state, viewer)``
returns the state with every value ``viewer`` may not know replaced by a :class:`Sealed` stand-in, which holds
nothing of the truth and raises :class:`HiddenInformation` the moment the rules read it.  The ruling is then
either computed from what the viewer knows only, or refused — and whether it is refused depends only on what
the viewer knows too, because the rules up to the first sealed read saw nothing else.  Nothing that depends on
a secret can come out.

Hand-written (no library seals a value against every use): the stand-ins refuse each Python protocol the rules
could use on a set, a flag or a mapping of choices (truth value, equality, hashing, membership, iteration,
length, attributes).
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, NoReturn


class HiddenInformation(Exception):
    """The rules needed a value the asking side may not know (``what`` names it; never its value)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


class Sealed:
    """A value the viewer may not know: every use of it raises :class:`HiddenInformation`."""

    __slots__ = ("what",)

    def __init__(self, what: str) -> None:
        object.__setattr__(self, "what", what)

    def _refuse(self, *_: Any, **__: Any) -> NoReturn:
        raise HiddenInformation(object.__getattribute__(self, "what"))

    def __getattr__(self, name: str) -> NoReturn:
        self._refuse()

    __bool__ = __len__ = __iter__ = __contains__ = __getitem__ = _refuse
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __hash__ = _refuse  # type: ignore[assignment]
    __or__ = __and__ = __sub__ = __xor__ = __ror__ = __rand__ = __rsub__ = __rxor__ = _refuse
    __int__ = __index__ = __str__ = __format__ = _refuse  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Sealed({object.__getattribute__(self, 'what')!r})"


class PartlySealed(Sealed):
    """A set of which the viewer knows some members' membership (``known``: those in it, among ``open``) and
    not the others': asking about an open member answers, asking about a sealed one — or using the set as a
    whole (iterating, its size, comparing it) — raises :class:`HiddenInformation`."""

    __slots__ = ("known", "open")

    def __init__(self, what: str, known: Iterable[Any], open_: Iterable[Any]) -> None:
        super().__init__(what)
        object.__setattr__(self, "open", frozenset(open_))
        object.__setattr__(self, "known", frozenset(known) & object.__getattribute__(self, "open"))

    def __contains__(self, item: Any) -> bool:  # type: ignore[override]
        if item in object.__getattribute__(self, "open"):
            return item in object.__getattribute__(self, "known")
        self._refuse()


Conceal = Callable[[Any, str], Any]


def hook(ruleset: Any) -> Conceal | None:
    """The ruleset's ``conceal(state, viewer) -> state``, or None when it has none (then the service cannot
    tell what is hidden, and answers no what-if from a side's seat)."""
    conceal = getattr(ruleset, "conceal", None)
    return conceal if callable(conceal) else None
