"""``replace`` for the game-state records: ``dataclasses.replace`` without its per-call introspection.

A replay makes tens of thousands of state copies (every legal event builds a new ``TGState`` and often a new
``Activation``); ``dataclasses.replace`` re-reads the class's fields and calls ``__init__`` each time, which
was a tenth of the replay time.  The records are plain frozen dataclasses (no ``__post_init__``, no
``init=False`` fields), so a copy is their ``__dict__`` with the changes laid over it.  Unknown field names are
still refused, as ``dataclasses.replace`` would."""
from __future__ import annotations

from typing import Any, TypeVar

from modulebuilder.records import fields, replace as _replace

T = TypeVar("T")
_new = object.__new__
_set = object.__setattr__      # the records are frozen: their own __setattr__ refuses
_FIELDS: dict[type, frozenset[str] | None] = {}
_UNKNOWN: Any = object()     # ``_FIELDS.get``'s default: a class ``_fast_fields`` has not seen yet


def _fast_fields(cls: type) -> frozenset[str] | None:
    """The field names when the fast copy is safe for ``cls``, else None."""
    if cls not in _FIELDS:
        # Records and stdlib dataclasses have fields; modulebuilder.records.fields asks no import for records.
        ok = (hasattr(cls, "__record_fields__") or hasattr(cls, "__dataclass_fields__")) \
            and not hasattr(cls, "__slots__") and not hasattr(cls, "__post_init__") \
            and all(f.init for f in fields(cls))
        _FIELDS[cls] = frozenset(f.name for f in fields(cls)) if ok else None
    return _FIELDS[cls]


def replace(obj: T, /, **changes: Any) -> T:
    cls = type(obj)
    names = _FIELDS.get(cls, _UNKNOWN)          # a state copy per event or two: the known answer without a call
    if names is _UNKNOWN:
        names = _fast_fields(cls)
    if names is None:
        return _replace(obj, **changes)
    if not names.issuperset(changes):
        raise TypeError(f"{type(obj).__name__} has no field(s) {sorted(set(changes) - names)}")
    # A copy of the old __dict__ (one block copy) given to the new instance, rather than filling the new
    # instance's empty __dict__ key by key, which also resized it as it grew: ~40% cheaper per copy.
    d = obj.__dict__.copy()
    d.update(changes)
    new = _new(cls)
    _set(new, "__dict__", d)
    return new
