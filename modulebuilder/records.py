"""``record``: a dataclass whose methods cost nothing to declare (issue #17, docs/speed.md §1).

``@record(frozen=True)`` makes the same class as ``@dataclasses.dataclass(frozen=True)`` — the same fields
(``dataclasses.fields``, ``replace``, ``asdict`` and ``is_dataclass`` work on it), the same ``__init__``
parameters and defaults, the same equality, hash values, ``repr`` text and immutability (``FrozenInstanceError``)
— but it compiles no code when the class is declared.  The stdlib generates each method as source text and
compiles it with ``exec`` at every start of the process: 1.3 ms a frozen class on this machine, and a
``referee check`` declares about 110 record classes, which made dataclasses the largest single cost of its
start-up (~0.15 s of ~0.45 s).

Why hand-written: no well-kept library gives a dataclass without the ``exec`` (attrs and
``typing.NamedTuple`` compile too; ``msgspec.Struct`` is built in C but is not a dataclass: ``replace``,
``fields``, the ``__dict__`` copies of ``records.replace`` and the slot setters of ``Board`` would all change).
So the stdlib still does the declaration's real work (fields, inheritance, ``field()`` options, ``__slots__``,
``__match_args__``) with every method generator turned off, and this module adds the methods:

* ``__eq__``, ``__hash__``, ``__repr__``, ``order``'s comparisons, frozen ``__setattr__``/``__delattr__``: one shared function each,
  closed over the class's field names (``operator.attrgetter``) — nothing to compile.  Hash values are the
  stdlib's (the hash of the tuple of the compared fields), so sets and dicts of records iterate alike.
* ``__init__``: needs its exact parameters, so it is compiled — on its first call, not at declaration: most
  record classes are never built in a short ``check`` (unpickling a scenario calls no ``__init__``).  A
  slots class's ``__init__`` sets each field through its slot's own descriptor (what T&G's former ``records.fast_init``
  gave its hot records: about half the cost of the stdlib's ``object.__setattr__`` per field); any other
  class's gives the instance its whole ``__dict__`` at once, keys in field order as the stdlib's would be.

``order=True`` compares the tuples of the compared fields, as the stdlib's generated methods do."""
from __future__ import annotations

import dataclasses
from operator import attrgetter
from reprlib import recursive_repr
from typing import Any, Callable, TypeVar, dataclass_transform

T = TypeVar("T")
_MISSING = dataclasses.MISSING
FrozenInstanceError = dataclasses.FrozenInstanceError
_object_setattr = object.__setattr__


@dataclass_transform(field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: type[T] | None = None, /, *, init: bool = True, repr: bool = True, eq: bool = True,
           order: bool = False, frozen: bool = False, slots: bool = False) -> Any:
    """``@record`` / ``@record(frozen=True, slots=True, eq=False, ...)``: as ``@dataclasses.dataclass``."""
    if order and not eq:
        raise ValueError("eq must be true if order is true")

    def wrap(c: type[T]) -> type[T]:
        return _declare(c, init, repr, eq, order, frozen, slots)
    return wrap if cls is None else wrap(cls)


def is_record(cls: type) -> bool:
    """True when ``cls`` was declared with :func:`record` (its ``__init__`` may not be compiled yet)."""
    return "__record_init__" in cls.__dict__


def _declare(cls: type, init: bool, repr_: bool, eq: bool, order: bool, frozen: bool, slots: bool) -> type:
    own = cls.__dict__
    class_hash = own.get("__hash__", _MISSING)
    explicit_hash = not (class_hash is _MISSING or (class_hash is None and "__eq__" in own))
    own_init, own_repr, own_eq = "__init__" in own, "__repr__" in own, "__eq__" in own
    if frozen and ("__setattr__" in own or "__delattr__" in own):
        raise TypeError(f"cannot overwrite attribute __setattr__/__delattr__ in class {cls.__name__}")
    if not cls.__doc__:
        # The stdlib would word one from inspect.signature (a fifth of its remaining cost); nothing reads it.
        cls.__doc__ = f"{cls.__name__}({', '.join(own.get('__annotations__', ()))})"
    cls = dataclasses.dataclass(cls, init=False, repr=False, eq=False, frozen=False, slots=slots)
    fs = dataclasses.fields(cls)

    if init and not own_init:
        cls.__init__ = _lazy_init(cls)                            # type: ignore[misc]
        cls.__record_init__ = True                                # type: ignore[attr-defined]
    if repr_ and not own_repr:
        cls.__repr__ = _repr_fn(tuple(f.name for f in fs if f.repr))  # type: ignore[method-assign]
    if eq and not own_eq:
        cls.__eq__ = _eq_fn(tuple(f.name for f in fs if f.compare))  # type: ignore[method-assign]
    if order:
        compared = tuple(f.name for f in fs if f.compare)
        for name, op in (("__lt__", "<"), ("__le__", "<="), ("__gt__", ">"), ("__ge__", ">=")):
            if name in own:
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}. Consider using "
                                "functools.total_ordering")
            setattr(cls, name, _order_fn(name, op, compared))
    if eq and not explicit_hash:
        if frozen:
            cls.__hash__ = _hash_fn(tuple(f.name for f in fs           # type: ignore[method-assign]
                                          if (f.compare if f.hash is None else f.hash)))
        else:
            cls.__hash__ = None                                   # type: ignore[assignment]
    if frozen:
        names = frozenset(f.name for f in fs)
        cls.__setattr__, cls.__delattr__ = _frozen_fns(cls, names)  # type: ignore[method-assign]
        if slots:
            # Unpickling or copying a slots instance sets each slot with setattr, which a frozen class refuses;
            # the stdlib's frozen slots classes carry these two for the same reason.
            cls.__getstate__, cls.__setstate__ = _slot_state_fns(cls, fs)  # type: ignore[attr-defined]
    return cls


def _lazy_init(cls: type) -> Callable[..., None]:
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        real = _compile_init(cls)
        if cls.__dict__.get("__init__") is __init__:
            cls.__init__ = real                                   # type: ignore[misc]
        real(self, *args, **kwargs)
    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _compile_init(cls: type) -> Callable[..., None]:
    """The ``__init__`` the stdlib would generate for ``cls`` (same parameters, defaults and factories)."""
    fs = dataclasses.fields(cls)
    ns: dict[str, Any] = {"_factory": _FACTORY, "_set_dict": _object_setattr}
    params: list[str] = []
    values: list[str] = []
    body: list[str] = []
    for i, f in enumerate(fs):
        if f.default_factory is not _MISSING:
            ns[f"_f{i}"] = f.default_factory
            if f.init:
                params.append(f"{f.name}=_factory")
                value = f"_f{i}() if {f.name} is _factory else {f.name}"
            else:
                value = f"_f{i}()"
        elif not f.init:
            if f.default is _MISSING or _slot(cls, f.name) is None:
                continue            # unset, or the class attribute gives its default: as the stdlib does
            ns[f"_d{i}"] = f.default
            value = f"_d{i}"
        else:
            if f.default is _MISSING:
                params.append(f.name)
            else:
                ns[f"_d{i}"] = f.default
                params.append(f"{f.name}=_d{i}")
            value = f.name
        slot = _slot(cls, f.name)
        if slot is not None:
            ns[f"_s{i}"] = slot.__set__
            body.append(f"    _s{i}(self, {value})")
        else:
            values.append(f"{f.name!r}: {value}")
    if values:
        body.insert(0, f"    _set_dict(self, '__dict__', {{{', '.join(values)}}})")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    if not body:
        body.append("    pass")
    exec(f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body) + "\n", ns)
    fn = ns["__init__"]
    fn.__qualname__ = f"{cls.__qualname__}.__init__"
    return fn


def _slot(cls: type, name: str) -> Any:
    """The slot descriptor that holds field ``name`` of ``cls``'s instances, or None (it is in ``__dict__``)."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            d = klass.__dict__[name]
            return d if "__slots__" in klass.__dict__ and hasattr(d, "__set__") else None
    return None


class _Factory:
    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple]:
    """The tuple of the named fields' values (attrgetter of one name gives the bare value)."""
    if not names:
        return lambda self: ()
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda self: (one(self),)
    return attrgetter(*names)


def _eq_fn(names: tuple[str, ...]) -> Callable[[Any, Any], Any]:
    values = _getter(names)

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented
    return __eq__


_OPS = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def _order_fn(name: str, op: str, names: tuple[str, ...]) -> Callable[[Any, Any], Any]:
    values, compare = _getter(names), _OPS[op]

    def method(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return compare(values(self), values(other))
        return NotImplemented
    method.__name__ = method.__qualname__ = name
    return method


def _hash_fn(names: tuple[str, ...]) -> Callable[[Any], int]:
    values = _getter(names)

    def __hash__(self: Any) -> int:
        return hash(values(self))
    return __hash__


def _repr_fn(names: tuple[str, ...]) -> Callable[[Any], str]:
    @recursive_repr()
    def __repr__(self: Any) -> str:
        return (f"{self.__class__.__qualname__}("
                + ", ".join(f"{name}={getattr(self, name)!r}" for name in names) + ")")
    return __repr__


def _frozen_fns(cls: type, names: frozenset[str]) -> tuple[Callable[..., None], Callable[..., None]]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)
    return __setattr__, __delattr__


def _slot_state_fns(cls: type, fs: tuple[dataclasses.Field, ...]) -> tuple[Callable, Callable]:
    names = tuple(f.name for f in fs)
    values = _getter(names)
    setters = tuple(_slot(cls, name).__set__ for name in names)

    def __getstate__(self: Any) -> list:
        return list(values(self))

    def __setstate__(self: Any, state: list) -> None:
        for set_, value in zip(setters, state):
            set_(self, value)
    return __getstate__, __setstate__
