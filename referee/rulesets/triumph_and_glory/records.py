"""``replace`` for the game-state records: ``dataclasses.replace`` without its per-call introspection.

A replay makes tens of thousands of state copies (every legal event builds a new ``TGState`` and often a new
``Activation``); ``dataclasses.replace`` re-reads the class's fields and calls ``__init__`` each time, which
was a tenth of the replay time.  The records are plain frozen dataclasses (no ``__post_init__``, no
``init=False`` fields), so a copy is their ``__dict__`` with the changes laid over it.  Unknown field names are
still refused, as ``dataclasses.replace`` would."""
from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from modulebuilder.records import is_record

T = TypeVar("T")
_new = object.__new__
_set = object.__setattr__      # the records are frozen: their own __setattr__ refuses
_FIELDS: dict[type, frozenset[str] | None] = {}


def _fast_fields(cls: type) -> frozenset[str] | None:
    """The field names when the fast copy is safe for ``cls``, else None."""
    if cls not in _FIELDS:
        ok = (dataclasses.is_dataclass(cls) and not hasattr(cls, "__slots__")
              and not hasattr(cls, "__post_init__")
              and all(f.init for f in dataclasses.fields(cls)))
        _FIELDS[cls] = frozenset(f.name for f in dataclasses.fields(cls)) if ok else None
    return _FIELDS[cls]


def replace(obj: T, /, **changes: Any) -> T:
    names = _fast_fields(type(obj))
    if names is None:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    if not names.issuperset(changes):
        raise TypeError(f"{type(obj).__name__} has no field(s) {sorted(set(changes) - names)}")
    # A copy of the old __dict__ (one block copy) given to the new instance, rather than filling the new
    # instance's empty __dict__ key by key, which also resized it as it grew: ~40% cheaper per copy.
    d = obj.__dict__.copy()
    d.update(changes)
    new = _new(type(obj))
    _set(new, "__dict__", d)
    return new


def fast_init(cls: type[T]) -> type[T]:
    """Class decorator (put it above ``@dataclass(frozen=True, slots=True)`` or ``@record(...)``): a faster
    ``__init__`` for a hot frozen slots record (a ``modulebuilder.records.record`` has it already).

    The generated frozen ``__init__`` sets each field through ``object.__setattr__``, looked up afresh per
    field; this one calls each slot's own descriptor setter, bound once here — about half the cost per
    instance.  ``UnitState``, ``Step``, ``MoveContext`` and ``MoveResult`` are built tens of thousands of times
    a replay.  Same parameters and defaults, same instance (equality, hash, repr and immutability are the
    dataclass's).  Only for plain records: no default factories, no ``init=False`` fields, no
    ``__post_init__``."""
    fs = dataclasses.fields(cls)  # type: ignore[arg-type]
    if not hasattr(cls, "__slots__") or hasattr(cls, "__post_init__") or any(
            not f.init or f.default_factory is not dataclasses.MISSING for f in fs):
        raise TypeError(f"fast_init does not fit {cls.__name__}")
    if is_record(cls):
        return cls      # a slots record's __init__ is already this one, compiled on its first call
    ns: dict[str, Any] = {}
    params, body = [], []
    for i, f in enumerate(fs):
        ns[f"_set{i}"] = cls.__dict__[f.name].__set__
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            ns[f"_default{i}"] = f.default
            params.append(f"{f.name}=_default{i}")
        body.append(f"    _set{i}(self, {f.name})")
    exec(f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body) + "\n", ns)
    init = ns["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[misc]
    return cls
