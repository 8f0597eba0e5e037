"""modulebuilder.input_files: what every reader of a player's file opens it with."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from modulebuilder.input_files import (FileTooLarge, NotRegularFile, limit_from_env, read_bytes, read_head,
                                       read_text)


@given(st.text(alphabet=st.sampled_from("ab é\r\n\t\ufeff#:"), max_size=60))
@settings(max_examples=200, deadline=None)
def test_text_reads_as_open_reads_it(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    """Newlines as ``open(path, encoding="utf-8")`` translates them, so positions and data do not change."""
    path = tmp_path_factory.mktemp("t") / "f.yaml"
    path.write_bytes(text.encode("utf-8"))
    with open(path, encoding="utf-8") as f:
        expected = f.read()
    assert read_text(path) == expected
    assert read_head(path, 7) == expected[:7]


def test_a_cap_of_n_bytes_reads_n_and_refuses_n_plus_one(tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    path.write_bytes(b"x" * 100)
    assert read_bytes(path, 100) == b"x" * 100
    with pytest.raises(FileTooLarge) as err:
        read_bytes(path, 99)
    assert err.value.strerror == "100 bytes, more than the 99 bytes allowed; set HEXWARGAME_MAX_TEXT_BYTES to raise the cap"
    assert err.value.filename == str(path)


def test_folders_devices_and_fifos_are_refused_before_a_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    for path, kind in ((tmp_path, "a folder"), (Path("/dev/zero"), "a character device"),
                       (tmp_path / "pipe", "a FIFO")):
        with pytest.raises(NotRegularFile) as err:
            read_bytes(path)
        assert err.value.strerror == f"{kind}, not a regular file"
    with pytest.raises(FileNotFoundError):
        read_bytes(tmp_path / "missing")


@pytest.mark.parametrize("raw, value", [("123", 123), ("64M", 64 << 20), ("64MiB", 64 << 20), ("2g", 2 << 30),
                                        ("1.5K", 1536), ("", 7), ("lots", 7), ("0", 7), ("-5", 7)])
def test_caps_are_read_from_the_environment(monkeypatch: pytest.MonkeyPatch, raw: str, value: int) -> None:
    monkeypatch.setenv("SOME_CAP", raw)
    assert limit_from_env("SOME_CAP", 7) == value
