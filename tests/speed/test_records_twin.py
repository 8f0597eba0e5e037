"""A frozen slots record of five fields or more stores its fields through a twin class (``records._twin``,
docs/speed.md §3): the instance it makes is the one the slot-by-slot ``__init__`` made — same class, values,
equality, hash, repr, pickle, frozenness — and a subclass's instance is not changed."""
from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import field

import pytest
from hypothesis import given, strategies as st

from modulebuilder import records
from modulebuilder.records import record


class _Body:
    a: int
    b: str
    c: tuple = ()
    d: object = None
    e: bool = False
    tags: tuple = field(default_factory=tuple)
    cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)


Rec = record(frozen=True, slots=True)(type("Rec", (), {k: v for k, v in vars(_Body).items()
                                                       if k not in ("__dict__", "__weakref__")}))
Std = dataclasses.dataclass(frozen=True, slots=True)(type("Rec", (), {k: v for k, v in vars(_Body).items()
                                                                      if k not in ("__dict__", "__weakref__")}))
Rec.__qualname__ = "Rec"           # found by pickle under this module's name


@given(a=st.integers(), b=st.text(max_size=5), c=st.tuples(st.integers()), e=st.booleans(),
       tags=st.lists(st.text(max_size=2), max_size=3).map(tuple))
def test_a_wide_frozen_slots_record_is_the_dataclass(a, b, c, e, tags):
    std, rec = Std(a, b, c, None, e, tags), Rec(a, b, c, None, e, tags)
    assert type(rec) is Rec                                  # the twin class never escapes
    assert repr(std) == repr(rec)
    assert hash(std) == hash(rec) and rec == Rec(a, b, c, None, e, tags)
    assert rec.cache == {} and rec.cache is not Rec(a, b, c, None, e, tags).cache   # each its own factory's
    assert dataclasses.astuple(rec)[:6] == (a, b, c, None, e, tags)
    for again in (pickle.loads(pickle.dumps(rec)), copy.copy(rec), copy.deepcopy(rec)):
        assert again == rec and type(again) is Rec
    for name in ("a", "tags"):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(rec, name, 1)
    assert dataclasses.replace(rec, a=a + 1).a == a + 1


def test_the_twin_is_what_stores_the_fields():
    Rec(1, "x")                                              # compiles the __init__
    twins = [t for t in Rec.__subclasses__() if t.__setattr__ is object.__setattr__]
    assert len(twins) == 1 and twins[0].__slots__ == ()
    assert "_twin" in Rec.__init__.__code__.co_names


def test_a_narrow_record_and_a_subclass_keep_the_slot_by_slot_init():
    narrow = record(frozen=True, slots=True)(type("Narrow", (), {"__annotations__": {"a": int, "b": int}}))
    assert "_twin" not in narrow.__init__.__code__.co_names and narrow(1, 2).b == 2

    class Sub(Rec):
        __slots__ = ("extra",)
    s = Sub(1, "x", tags=("t",))
    assert type(s) is Sub and s.tags == ("t",) and s.a == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.a = 2


def test_the_twin_of_a_slots_class_shares_its_layout_and_a_builtin_gets_none():
    class Odd:
        __slots__ = ("a", "b", "c", "d", "e")

        def __setattr__(self, name, value):
            raise AttributeError(name)

    twin = records._twin(Odd)
    assert twin is not None and twin.__bases__ == (Odd,) and twin.__slots__ == ()
    o = object.__new__(Odd)
    records._SET_CLASS(o, twin)
    o.a = 1                                                  # the twin's plain store reaches Odd's slot
    records._SET_CLASS(o, Odd)
    assert type(o) is Odd and o.a == 1
    with pytest.raises(AttributeError):
        o.b = 2                                              # back to Odd's own __setattr__
    assert records._twin(int) is None                        # a builtin's instance cannot change class
