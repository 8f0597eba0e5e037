"""``record``: a dataclass whose declaration costs neither ``exec`` nor the ``dataclasses`` module (start-up time;
docs/speed.md §1 and "Figures behind the code").

Kept only for Triumph & Glory's state records, whose replay it keeps fast (every other record is a standard-library
dataclass); without it a user loses the in-process replay figure (docs/speed.md, "Figures behind the code").

``@record(frozen=True)`` makes the same class as ``@dataclasses.dataclass(frozen=True)`` — the same fields
(``dataclasses.fields``, ``replace``, ``asdict`` and ``is_dataclass`` work on it), the same ``__init__``
parameters and defaults, the same equality, hash values, ``repr`` text and immutability (``FrozenInstanceError``)
— but it compiles no code when the class is declared, and it does not import ``dataclasses``.  The stdlib
generates each method as source text and compiles it with ``exec`` at every start of the process (a ``referee
check`` declares about 110 record classes), and importing ``dataclasses`` imports ``inspect`` (with ``ast``,
``dis``, ``tokenize``), plus its field processing per class: together a visible share of a short check.

Why hand-written: no well-kept library gives a dataclass without the ``exec`` (attrs and
``typing.NamedTuple`` compile too; ``msgspec.Struct`` is built in C but is not a dataclass: ``replace``,
``fields``, the ``__dict__`` copies of ``records.replace`` and the slot setters of ``Board`` would all change).
So this module does the declaration's work itself, in the stdlib's order and with its rules (``Python 3.11
dataclasses._process_class``): fields from the annotations in order, after the bases' fields; a default from the
class attribute or from :func:`field` (``dataclasses.field`` is accepted as well); mutable defaults refused;
a non-default parameter after a default one refused; ``__slots__`` by building the class anew; ``__match_args__``.
And it adds the methods:

* ``__eq__``, ``__hash__``, ``__repr__``, ``order``'s comparisons, frozen ``__setattr__``/``__delattr__``: one shared function each,
  closed over the class's field names (``operator.attrgetter``) — nothing to compile.  Hash values are the
  stdlib's (the hash of the tuple of the compared fields), so sets and dicts of records iterate alike.
* ``__init__``: needs its exact parameters, so it is compiled — on its first call, not at declaration: most
  record classes are never built in a short ``check`` (unpickling a scenario calls no ``__init__``).  A
  slots class's ``__init__`` sets each field through its slot's own descriptor (what T&G's former ``records.fast_init``
  gave its hot records: about half the cost of the stdlib's ``object.__setattr__`` per field) — or, for a frozen
  slots class of five fields or more, lends the instance a twin class with the plain ``__setattr__`` while it
  stores them (``_twin``: half the cost again); any other class's gives the instance its whole ``__dict__`` at
  once, keys in field order as the stdlib's would be.
* ``__dataclass_fields__``/``__dataclass_params__``, what ``dataclasses`` itself reads: made on first use (an
  attribute that replaces itself), by letting the stdlib process a copy of the declaration, so that
  ``dataclasses.fields`` gives the stdlib's own ``Field`` objects; the first such use imports ``dataclasses``.
  This package's code asks :func:`fields` and :func:`replace` here instead, which need no import.

``order=True`` compares the tuples of the compared fields, as the stdlib's generated methods do.  Not
supported (refused with a ``TypeError``, none is used): ``InitVar``, ``KW_ONLY`` and ``kw_only`` fields."""
from __future__ import annotations

import re
import sys
from abc import update_abstractmethods
from operator import attrgetter
from reprlib import recursive_repr
from types import MappingProxyType
from typing import Any, Callable, ClassVar, TypeVar, dataclass_transform, get_origin

from modulebuilder.user_cache import remembered_code

T = TypeVar("T")
_object_setattr = object.__setattr__


class _MissingType:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _MissingType()       # no default (this module's; ``dataclasses.MISSING`` is another object)
_NO_METADATA: Any = MappingProxyType({})


class Field:
    """A record's field: the attributes of ``dataclasses.Field`` that its users read."""
    __slots__ = ("name", "type", "default", "default_factory", "init", "repr", "hash", "compare", "metadata",
                 "kw_only")

    def __init__(self, default: Any, default_factory: Any, init: bool, repr: bool, hash: bool | None,
                 compare: bool, metadata: Any, kw_only: Any) -> None:
        self.name: str = None                                     # type: ignore[assignment]
        self.type: Any = None
        self.default, self.default_factory = default, default_factory
        self.init, self.repr, self.hash, self.compare = init, repr, hash, compare
        self.metadata, self.kw_only = metadata, kw_only

    def __repr__(self) -> str:
        return (f"Field(name={self.name!r},type={self.type!r},default={self.default!r},"
                f"default_factory={self.default_factory!r},init={self.init!r},repr={self.repr!r},"
                f"hash={self.hash!r},compare={self.compare!r},metadata={self.metadata!r},kw_only={self.kw_only!r})")


def field(*, default: Any = MISSING, default_factory: Any = MISSING, init: bool = True, repr: bool = True,
          hash: bool | None = None, compare: bool = True, metadata: Any = None, kw_only: Any = MISSING) -> Any:
    """As ``dataclasses.field``, for a record's class body."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, hash, compare,
                 _NO_METADATA if metadata is None else MappingProxyType(metadata), kw_only)


def fields(class_or_instance: Any) -> tuple[Any, ...]:
    """A record's fields in order (this module's :class:`Field`); a stdlib dataclass's, from ``dataclasses``."""
    own = getattr(class_or_instance, "__record_fields__", None)
    if own is not None:
        return own
    import dataclasses
    return dataclasses.fields(class_or_instance)


def replace(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace``: a new instance with ``changes``, the other init fields copied."""
    own = getattr(type(obj), "__record_fields__", None)
    if own is None:
        import dataclasses
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    for f in own:
        if not f.init:
            if f.name in changes:
                raise ValueError(f"field {f.name} is declared with init=False, it cannot be specified with "
                                 "replace()")
            continue
        if f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)


def __getattr__(name: str) -> Any:
    if name == "FrozenInstanceError":          # the stdlib's class, so that ``except`` clauses keep working
        return _frozen_error()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _frozen_error() -> type[Exception]:
    from dataclasses import FrozenInstanceError
    return FrozenInstanceError


@dataclass_transform(field_specifiers=(field, Field))
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


# ``dataclasses._is_type``'s reading of a string annotation: an optional module prefix, then a name.
_TYPE_NAME = re.compile(r"^(?:\s*(\w+)\s*\.)?\s*(\w+)")


def _pseudo_field(cls: type, annotation: Any) -> str | None:
    """"ClassVar" (not a field), "InitVar" or "KW_ONLY" (unsupported), or None for a field's annotation."""
    if isinstance(annotation, str):
        if "Var" not in annotation and "KW_ONLY" not in annotation:        # the common case, without the regex
            return None
        m = _TYPE_NAME.match(annotation)
        if m and m.group(2) in ("ClassVar", "InitVar", "KW_ONLY"):
            return m.group(2)
        return None
    if annotation is ClassVar or get_origin(annotation) is ClassVar:
        return "ClassVar"
    dataclasses = sys.modules.get("dataclasses")
    if dataclasses is not None and (annotation is dataclasses.KW_ONLY
                                    or isinstance(annotation, dataclasses.InitVar)
                                    or annotation is dataclasses.InitVar):
        return "InitVar"
    return None


def _spec(value: Any) -> Field | None:
    """A :func:`field` (or ``dataclasses.field``) given as a class attribute, as this module's Field."""
    if isinstance(value, Field):
        return value
    dataclasses = sys.modules.get("dataclasses")      # no dataclasses.Field can exist before it is imported
    if dataclasses is not None and isinstance(value, dataclasses.Field):
        return _from_stdlib(value)
    return None


def _from_stdlib(f: Any) -> Field:
    import dataclasses
    gone = dataclasses.MISSING
    own = Field(MISSING if f.default is gone else f.default,
                MISSING if f.default_factory is gone else f.default_factory,
                f.init, f.repr, f.hash, f.compare, f.metadata, MISSING if f.kw_only is gone else f.kw_only)
    own.name, own.type = f.name, f.type
    return own


def _collect(cls: type) -> tuple[Field, ...]:
    """The fields of ``cls``: its bases' (records' or stdlib dataclasses'), then its own annotations'; the class
    attributes a :func:`field` stood in are set to the default or removed, as the stdlib does."""
    found: dict[str, Field] = {}
    for base in cls.__mro__[-1:0:-1]:
        inherited = base.__dict__.get("__record_fields__")
        if inherited is None and isinstance(base.__dict__.get("__dataclass_fields__"), dict):
            import dataclasses
            inherited = tuple(_from_stdlib(f) for f in dataclasses.fields(base))
        for f in inherited or ():
            found[f.name] = f
    annotations = cls.__dict__.get("__annotations__", {})
    for name, annotation in annotations.items():
        kind = _pseudo_field(cls, annotation)
        if kind == "ClassVar":
            continue
        if kind is not None:
            raise TypeError(f"{cls.__name__}.{name}: records do not support {kind}")
        value = cls.__dict__.get(name, MISSING)
        spec = _spec(value)
        if spec is None:
            f = Field(value, MISSING, True, True, None, True, _NO_METADATA, MISSING)
        else:
            f = Field(spec.default, spec.default_factory, spec.init, spec.repr, spec.hash, spec.compare,
                      spec.metadata, spec.kw_only)
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
        if f.kw_only is True:
            raise TypeError(f"{cls.__name__}.{name}: records do not support kw_only fields")
        f.kw_only = False
        f.name, f.type = name, annotation
        if f.default.__class__.__hash__ is None:
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: use "
                             "default_factory")
        found[name] = f
    stdlib = sys.modules.get("dataclasses")
    kinds = (Field,) if stdlib is None else (Field, stdlib.Field)
    for name, value in cls.__dict__.items():
        if isinstance(value, kinds) and name not in annotations:
            raise TypeError(f"{name!r} is a field but has no type annotation")
    return tuple(found.values())


def _declare(cls: type, init: bool, repr_: bool, eq: bool, order: bool, frozen: bool, slots: bool) -> type:
    own = cls.__dict__
    class_hash = own.get("__hash__", MISSING)
    explicit_hash = not (class_hash is MISSING or (class_hash is None and "__eq__" in own))
    own_init, own_repr, own_eq = "__init__" in own, "__repr__" in own, "__eq__" in own
    if frozen and ("__setattr__" in own or "__delattr__" in own):
        raise TypeError(f"cannot overwrite attribute __setattr__/__delattr__ in class {cls.__name__}")
    fs = _collect(cls)
    if init and not own_init:
        seen_default = False
        for f in fs:
            if f.init:
                if f.default is not MISSING or f.default_factory is not MISSING:
                    seen_default = True
                elif seen_default:
                    raise TypeError(f"non-default argument {f.name!r} follows default argument")
    if not cls.__doc__:
        # The stdlib would word one from inspect.signature; nothing reads it.
        cls.__doc__ = f"{cls.__name__}({', '.join(own.get('__annotations__', ()))})"
    if "__match_args__" not in own:
        cls.__match_args__ = tuple(f.name for f in fs if f.init)  # type: ignore[attr-defined]
    if slots:
        cls = _with_slots(cls, fs)
    cls.__record_fields__ = fs                                    # type: ignore[attr-defined]
    cls.__dataclass_fields__ = _StdlibView(cls, "__dataclass_fields__")   # type: ignore[attr-defined]
    cls.__dataclass_params__ = _StdlibView(cls, "__dataclass_params__")   # type: ignore[attr-defined]

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
    update_abstractmethods(cls)
    return cls


def _slots_of(cls: type) -> tuple[str, ...]:
    """``dataclasses._get_slots``: the slot names ``cls`` itself declares."""
    declared = cls.__dict__.get("__slots__")
    if declared is None:
        return ()
    if isinstance(declared, str):
        return (declared,)
    if hasattr(declared, "__next__"):
        raise TypeError(f"Slots of '{cls.__name__}' cannot be determined")
    return tuple(declared)


def _with_slots(cls: type, fs: tuple[Field, ...]) -> type:
    """``dataclasses._add_slots``: the class made anew with a slot per field (not already a base's slot)."""
    if "__slots__" in cls.__dict__:
        raise TypeError(f"{cls.__name__} already specifies __slots__")
    body = dict(cls.__dict__)
    names = tuple(f.name for f in fs)
    inherited = {s for base in cls.__mro__[1:-1] for s in _slots_of(base)}
    body["__slots__"] = tuple(n for n in names if n not in inherited)
    for name in names:
        body.pop(name, None)
    body.pop("__dict__", None)
    body.pop("__weakref__", None)
    qualname = getattr(cls, "__qualname__", None)
    new = type(cls)(cls.__name__, cls.__bases__, body)
    if qualname is not None:
        new.__qualname__ = qualname
    return new


class _StdlibView:
    """``__dataclass_fields__`` or ``__dataclass_params__`` of a record, made when first read: the stdlib
    processes a plain copy of the declaration (same annotations, same ``field()`` options, with
    ``init``/``repr``/``eq`` off and not frozen, as records have always told it), and both its answers replace
    this attribute on the record's class."""
    __slots__ = ("cls", "name")

    def __init__(self, cls: type, name: str) -> None:
        self.cls, self.name = cls, name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        import dataclasses
        cls = self.cls
        body: dict[str, Any] = {"__module__": cls.__module__, "__qualname__": cls.__qualname__,
                                "__annotations__": {}}
        for f in cls.__record_fields__:                           # type: ignore[attr-defined]
            body["__annotations__"][f.name] = f.type
            options: dict[str, Any] = {"init": f.init, "repr": f.repr, "hash": f.hash, "compare": f.compare,
                                       "metadata": f.metadata}
            if f.default is not MISSING:
                options["default"] = f.default
            if f.default_factory is not MISSING:
                options["default_factory"] = f.default_factory
            body[f.name] = dataclasses.field(**options)
        copy = dataclasses.dataclass(type(cls.__name__, (), body), init=False, repr=False, eq=False)
        type.__setattr__(cls, "__dataclass_fields__", copy.__dataclass_fields__)
        type.__setattr__(cls, "__dataclass_params__", copy.__dataclass_params__)
        return getattr(cls, self.name)


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
    fs = cls.__record_fields__                                    # type: ignore[attr-defined]
    ns: dict[str, Any] = {"_factory": _FACTORY, "_set_dict": _object_setattr}
    params: list[str] = []
    values: list[str] = []
    body: list[str] = []
    fast: list[str] = []
    for i, f in enumerate(fs):
        if f.default_factory is not MISSING:
            ns[f"_f{i}"] = f.default_factory
            if f.init:
                params.append(f"{f.name}=_factory")
                value = f"_f{i}() if {f.name} is _factory else {f.name}"
            else:
                value = f"_f{i}()"
        elif not f.init:
            if f.default is MISSING or _slot(cls, f.name) is None:
                continue            # unset, or the class attribute gives its default: as the stdlib does
            ns[f"_d{i}"] = f.default
            value = f"_d{i}"
        else:
            if f.default is MISSING:
                params.append(f.name)
            else:
                ns[f"_d{i}"] = f.default
                params.append(f"{f.name}=_d{i}")
            value = f.name
        slot = _slot(cls, f.name)
        if slot is not None:
            ns[f"_s{i}"] = slot.__set__
            body.append(f"    _s{i}(self, {value})")
            fast.append(f"        self.{f.name} = {value}")
        else:
            values.append(f"{f.name!r}: {value}")
    # A frozen slots class (its own ``__setattr__`` refuses) stores its fields through a twin class (``_twin``);
    # an instance of a subclass of it is not changed (its class may add slots or a ``__setattr__`` of its own).
    twin = _twin(cls) if len(fast) >= _TWIN_FROM and not values and "__setattr__" in cls.__dict__ else None
    if twin is not None:
        ns["_twin"], ns["_own"], ns["_set_class"] = twin, cls, _SET_CLASS
        body = (["    if self.__class__ is _own:", "        _set_class(self, _twin)"] + fast
                + ["        _set_class(self, _own)", "    else:"] + ["    " + line for line in body])
    if values:
        body.insert(0, f"    _set_dict(self, '__dict__', {{{', '.join(values)}}})")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    if not body:
        body.append("    pass")
    exec(_init_code(f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body) + "\n"), ns)
    fn = ns["__init__"]
    fn.__qualname__ = f"{cls.__qualname__}.__init__"
    return fn


_SET_CLASS = object.__dict__["__class__"].__set__
_TWIN_FROM = 5      # fields from which the twin pays (two class changes cost about three slot-descriptor calls)


def _twin(cls: type) -> type | None:
    """A subclass of the frozen slots class ``cls`` with the same layout and the plain ``object.__setattr__``,
    which ``cls``'s ``__init__`` lends its instance while it stores the fields (None if the instance cannot
    change class, e.g. under a custom metaclass that refuses it: the fields are then set slot by slot).

    Why: a frozen class's own ``__setattr__`` refuses every store, so its ``__init__`` had to call each slot's
    descriptor (``member_descriptor.__set__``, a C call through a method wrapper); a plain store into a slot is
    one specialised bytecode, which halves the cost of an instance with many fields (T&G's ``UnitState``), the two
    ``__class__`` changes included (docs/speed.md, "Figures behind the code")."""
    try:
        twin = type(cls.__name__, (cls,), {"__slots__": (), "__setattr__": object.__setattr__,
                                             "__delattr__": object.__delattr__, "__module__": cls.__module__,
                                             "__qualname__": cls.__qualname__})
        probe = object.__new__(cls)
        _SET_CLASS(probe, twin)
        _SET_CLASS(probe, cls)
    except TypeError:
        return None
    return twin


def _init_code(source: str) -> Any:
    """The code of a generated ``__init__``, read back from the user's cache (``user_cache.remembered_code``, keyed
    by the text) rather than compiled at every start, which costs more than twice as much (docs/speed.md §1)."""
    return remembered_code("records", source, "<record __init__>")


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
            raise _frozen_error()(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise _frozen_error()(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)
    return __setattr__, __delattr__


def _slot_state_fns(cls: type, fs: tuple[Field, ...]) -> tuple[Callable, Callable]:
    names = tuple(f.name for f in fs)
    values = _getter(names)
    setters = tuple(_slot(cls, name).__set__ for name in names)

    def __getstate__(self: Any) -> list:
        return list(values(self))

    def __setstate__(self: Any, state: list) -> None:
        for set_, value in zip(setters, state):
            set_(self, value)
    return __getstate__, __setstate__
