"""The ordered parallel map: input order kept, worker exceptions re-raised (never a stalled pool)."""
from __future__ import annotations

import threading

import pytest

from modulebuilder.render.parallel import PARALLEL_THRESHOLD, ordered_map


def _square(x: int) -> int:
    return x * x


class _Unpicklable(Exception):
    def __init__(self, a: int, b: int):            # default pickling passes one argument: fails
        super().__init__(f"{a}/{b}")


def _fail_at_7(x: int) -> int:
    if x == 7:
        raise _Unpicklable(7, 0)
    return x


def _value_error_at_3(x: int) -> int:
    if x == 3:
        raise ValueError("three")
    return x


N = PARALLEL_THRESHOLD + 20


def test_results_keep_input_order() -> None:
    assert list(ordered_map(_square, range(N), workers=2)) == [x * x for x in range(N)]
    assert list(ordered_map(_square, range(5), workers=2)) == [0, 1, 4, 9, 16]     # small: in process


def test_worker_exceptions_reach_the_caller() -> None:
    with pytest.raises(ValueError, match="three"):
        list(ordered_map(_value_error_at_3, range(N), workers=2))
    with pytest.raises(RuntimeError, match="_Unpicklable: 7/0"):
        list(ordered_map(_fail_at_7, range(N), workers=2))


def test_works_from_a_multithreaded_process() -> None:
    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        assert list(ordered_map(_square, range(N), workers=2)) == [x * x for x in range(N)]
    finally:
        stop.set()
        t.join()
