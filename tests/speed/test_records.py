"""``modulebuilder.records.record`` makes the class ``dataclasses.dataclass`` would (docs/speed.md §1): each
declaration below is made both ways and every behaviour a record's user sees is compared."""
from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import field

import pytest
from hypothesis import given, strategies as st

from modulebuilder.records import is_record, record


def both(**options):
    """The same class body declared by the stdlib and by ``record``."""
    def make(body):
        return dataclasses.dataclass(**options)(body()), record(**options)(body())
    return make


def point():
    class Point:
        """A point."""
        x: int
        y: int = 0
        tags: tuple = field(default_factory=tuple)
        note: str = field(default="", compare=False, repr=False)
    return Point


def one():
    class One:
        value: object
    return One


def empty():
    class Empty:
        pass
    return Empty


def unhashed():
    class Unhashed:
        """Not compared: hashes and equals by identity."""
        a: int
        b: list = field(default_factory=list)
    return Unhashed


def hidden():
    class Hidden:
        """A field the caller never passes."""
        a: int
        cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)
        count: int = field(default=7, init=False)
    return Hidden


DECLS = [(decl, opts) for decl in (point, one, empty, hidden)
         for opts in ({}, {"frozen": True}, {"frozen": True, "slots": True}, {"slots": True})]
DECLS += [(unhashed, {"eq": False}), (unhashed, {"frozen": True, "eq": False}),
          (unhashed, {"frozen": True, "slots": True, "eq": False})]


def args_for(cls):
    return {"Point": ((3,), {"y": 4, "tags": ("a",), "note": "n"}), "One": ((float("nan"),), {}),
            "Empty": ((), {}), "Unhashed": ((1,), {}), "Hidden": ((2,), {})}[cls.__name__]


@pytest.mark.parametrize("decl,opts", DECLS, ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_a_record_behaves_as_the_dataclass(decl, opts):
    std, rec = both(**opts)(decl)
    assert is_record(rec) and not is_record(std)
    args, kwargs = args_for(std)
    a, b = std(*args, **kwargs), rec(*args, **kwargs)
    assert [f.name for f in dataclasses.fields(std)] == [f.name for f in dataclasses.fields(rec)]
    assert dataclasses.is_dataclass(rec) and dataclasses.asdict(a).keys() == dataclasses.asdict(b).keys()
    assert repr(a).replace("nan", "NAN") == repr(b).replace("nan", "NAN")
    assert std.__match_args__ == rec.__match_args__
    assert hasattr(std, "__slots__") == hasattr(rec, "__slots__")
    if not hasattr(std, "__slots__"):
        assert list(vars(a)) == list(vars(b))                 # the same keys in the same order
    assert (std.__hash__ is None) == (rec.__hash__ is None)
    if std.__hash__ is not None and opts.get("eq", True):
        assert hash(a) == hash(b)                             # the same value: sets iterate alike
    same = rec(*args, **kwargs)
    assert (b == same) == (a == std(*args, **kwargs))
    assert (b == copy.copy(b)) == (a == copy.copy(a))
    assert b != object() and (b == b)
    for obj in (b, copy.deepcopy(b)):
        assert repr(obj).replace("nan", "NAN") == repr(b).replace("nan", "NAN")
    if opts.get("frozen"):
        # A new attribute (the stdlib's frozen slots class fails there with a TypeError of its own: its
        # __setattr__ names the class before __slots__ replaced it), then a field.
        names = ([] if opts.get("slots") else ["z"]) + [f.name for f in dataclasses.fields(rec)][:1]
        for name in names:
            for obj in (a, b):
                with pytest.raises(dataclasses.FrozenInstanceError, match=f"cannot assign to field '{name}'"):
                    setattr(obj, name, 1)
                with pytest.raises(dataclasses.FrozenInstanceError, match=f"cannot delete field '{name}'"):
                    delattr(obj, name)
    fields = [f.name for f in dataclasses.fields(rec) if f.init]
    if fields:
        changed = dataclasses.replace(b, **{fields[0]: 99})
        assert getattr(changed, fields[0]) == 99 and type(changed) is rec


def test_the_init_refuses_what_the_stdlib_refuses():
    std, rec = both(frozen=True)(point)
    for cls in (std, rec):
        with pytest.raises(TypeError):
            cls()
        with pytest.raises(TypeError):
            cls(1, 2, (), "", 5)
        with pytest.raises(TypeError):
            cls(1, nope=2)
    assert rec(1).tags == () and rec(1, tags=[1]).tags == [1]
    assert rec(1).__init__.__func__ is rec.__init__        # compiled on the first call, then the class's own


def test_a_subclass_adds_fields_after_its_base_s():
    @record(frozen=True)
    class Base:
        a: int
        b: int = 2

    @record(frozen=True, slots=True)
    class Sub(Base):
        c: int = 3

    s = Sub(1, c=5)
    assert (s.a, s.b, s.c) == (1, 2, 5) and repr(s) == "test_a_subclass_adds_fields_after_its_base_s.<locals>.Sub(a=1, b=2, c=5)"
    assert copy.deepcopy(Base(4)) == Base(4) and copy.copy(s) == s and s != Base(1)


@record(frozen=True, slots=True)
class FrozenSlots:
    a: int
    b: tuple = ()


@record(frozen=True)
class Frozen:
    a: int
    b: FrozenSlots = FrozenSlots(0)


@pytest.mark.parametrize("obj", [FrozenSlots(1, (2,)), Frozen(3, FrozenSlots(4))], ids=repr)
def test_frozen_records_pickle_and_copy(obj):
    for again in (pickle.loads(pickle.dumps(obj)), copy.copy(obj), copy.deepcopy(obj)):
        assert again == obj and repr(again) == repr(obj) and hash(again) == hash(obj)


def test_order_is_the_stdlib_s():
    def rank():
        class Rank:
            n: int
            label: str = field(default="", compare=False)
        return Rank
    std, rec = both(frozen=True, order=True)(rank)
    pairs = [((1, "b"), (2, "a")), ((2, "a"), (2, "z")), ((3, ""), (1, ""))]
    for x, y in pairs:
        for op in ("__lt__", "__le__", "__gt__", "__ge__", "__eq__"):
            assert getattr(std(*x), op)(std(*y)) == getattr(rec(*x), op)(rec(*y))
    assert rec(1).__lt__(object()) is NotImplemented
    assert sorted([rec(3), rec(1)]) == [rec(1), rec(3)]
    with pytest.raises(ValueError):
        record(order=True, eq=False)


@given(st.integers(), st.text(), st.tuples(st.integers()))
def test_hash_and_equality_are_the_stdlib_s(x, y, tags):
    std, rec = both(frozen=True)(point)
    assert hash(std(x, y, tags)) == hash(rec(x, y, tags))
    assert (rec(x, y, tags) == rec(x, y, tags)) and (rec(x, y, tags) != rec(x, y, tags + (1,)))
    assert repr(std(x, y, tags)) == repr(rec(x, y, tags))


# --- records' own field processing (no dataclasses import) ----------------------------------------------------

from typing import ClassVar  # noqa: E402

from modulebuilder import records  # noqa: E402


def own_point():
    class Point:
        """A point, declared with records.field."""
        x: int
        y: int = 0
        tags: tuple = records.field(default_factory=tuple)
        note: str = records.field(default="", compare=False, repr=False)
        cache: dict = records.field(default_factory=dict, init=False, repr=False, compare=False)
    return Point


def std_point():
    class Point:
        """A point, declared with records.field."""
        x: int
        y: int = 0
        tags: tuple = field(default_factory=tuple)
        note: str = field(default="", compare=False, repr=False)
        cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    return Point


FIELD_ATTRS = ("name", "type", "default", "default_factory", "init", "repr", "hash", "compare", "kw_only")


def same_field(std_f, own_f, stdlib_missing=dataclasses.MISSING):
    for attr in FIELD_ATTRS:
        a, b = getattr(std_f, attr), getattr(own_f, attr)
        if a is stdlib_missing:
            assert b is stdlib_missing or b is records.MISSING, (attr, a, b)
        else:
            assert a == b, (attr, a, b)


@pytest.mark.parametrize("opts", [{}, {"frozen": True}, {"frozen": True, "slots": True}, {"slots": True}],
                         ids=repr)
def test_records_field_makes_the_stdlib_s_fields(opts):
    std, rec = dataclasses.dataclass(**opts)(std_point()), record(**opts)(own_point())
    std_fields, own_fields, rec_std_fields = dataclasses.fields(std), records.fields(rec), dataclasses.fields(rec)
    assert [f.name for f in std_fields] == [f.name for f in own_fields] == [f.name for f in rec_std_fields]
    for a, b, c in zip(std_fields, own_fields, rec_std_fields):
        same_field(a, b)
        same_field(a, c)
        assert isinstance(c, dataclasses.Field)           # what dataclasses.fields gives is the stdlib's own
    # class attributes: a field() default is the class attribute; a factory's is removed, as the stdlib does
    for name in ("x", "y", "tags", "note", "cache"):
        if not opts.get("slots"):
            assert getattr(std, name, "-") == getattr(rec, name, "-"), name
    a, b = std(1, 2, ("t",), "n"), rec(1, 2, ("t",), "n")
    assert repr(a).split("(", 1)[1] == repr(b).split("(", 1)[1]
    assert dataclasses.asdict(a) == dataclasses.asdict(b) == {"x": 1, "y": 2, "tags": ("t",), "note": "n",
                                                              "cache": {}}
    for replace in (dataclasses.replace, records.replace):
        changed = replace(b, y=5)
        assert type(changed) is rec and (changed.x, changed.y, changed.tags, changed.note) == (1, 5, ("t",), "n")
        with pytest.raises(ValueError, match="init=False"):
            replace(b, cache={})
        with pytest.raises(TypeError):
            replace(b, nope=1)
    assert rec.__match_args__ == std.__match_args__ == ("x", "y", "tags", "note")
    assert rec.__dataclass_params__.frozen is False      # records have always told the stdlib "not frozen"


def test_records_refuse_what_the_stdlib_refuses():
    for declare in (dataclasses.dataclass, record):
        with pytest.raises(ValueError, match="mutable default"):
            @declare
            class Mutable:
                a: list = []
        with pytest.raises(ValueError, match="mutable default"):
            @declare
            class MutableField:
                a: dict = records.field(default={}) if declare is record else field(default={})
        with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
            @declare
            class Order:
                a: int = 1
                b: int
        with pytest.raises(TypeError, match="is a field but has no type annotation"):
            @declare
            class Bare:
                a = records.field(default=1) if declare is record else field(default=1)
    with pytest.raises(ValueError):
        records.field(default=1, default_factory=int)


def test_a_classvar_is_not_a_field_and_a_stdlib_base_s_fields_are_inherited():
    @dataclasses.dataclass(frozen=True)
    class Base:
        a: int
        b: int = 2

    @record(frozen=True)
    class Sub(Base):
        kind: ClassVar[str] = "sub"
        c: int = 3

    assert [f.name for f in records.fields(Sub)] == ["a", "b", "c"] == [f.name for f in dataclasses.fields(Sub)]
    assert Sub(1).kind == "sub" and (Sub(1).a, Sub(1).b, Sub(1).c) == (1, 2, 3)


DECLARE_WITHOUT_DATACLASSES = """
import sys
from modulebuilder.records import field, fields, record, replace

@record(frozen=True, slots=True)
class Slots:
    a: int
    b: tuple = ()

@record(frozen=True)
class Plain:
    a: int
    cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)

s, p = Slots(1), Plain(2)
assert replace(s, b=(1,)) == Slots(1, (1,)) and replace(p, a=3).a == 3 and [f.name for f in fields(p)] == ["a", "cache"]
assert hash(s) == hash((1, ())) and repr(p) == "Plain(a=2)"
assert "dataclasses" not in sys.modules and "inspect" not in sys.modules, "imported"
import dataclasses
assert [f.name for f in dataclasses.fields(Slots)] == ["a", "b"] and dataclasses.is_dataclass(p)
"""


def test_declaring_building_and_replacing_records_imports_no_dataclasses():
    """What the check path does with records needs neither ``dataclasses`` nor ``inspect`` (~15 ms to import,
    docs/speed.md §1); asking the stdlib afterwards still works."""
    import subprocess
    import sys
    run = subprocess.run([sys.executable, "-c", DECLARE_WITHOUT_DATACLASSES], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_frozen_error_is_the_stdlib_s():
    @record(frozen=True)
    class F:
        a: int
    with pytest.raises(dataclasses.FrozenInstanceError):
        F(1).a = 2
    assert records.FrozenInstanceError is dataclasses.FrozenInstanceError
