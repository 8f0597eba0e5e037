"""SequenceEncoder escaping, !VCSK obfuscation, the command tree, and hostile save files."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from modulebuilder.vassal import savecodec, seqenc
from modulebuilder.vassal.errors import VassalFileError
from modulebuilder.vassal.savefile import read_game
from modulebuilder.vassal.zipio import deterministic_zip

FIXTURES = Path(__file__).parent / "fixtures" / "vassal"
tokens = st.lists(st.text(alphabet="ab;\\'/\t\x1b,", max_size=8), min_size=1, max_size=6)


@given(tokens, st.sampled_from([";", "/", "\t", "\x1b", ","]))
def test_encode_then_decode_gives_the_tokens_back(toks, delim):
    assert seqenc.decode(seqenc.encode(toks, delim), delim) == toks


def test_encoding_matches_the_java_rules():
    assert seqenc.encode(["a", "", "b"], ";") == "a;;b"
    assert seqenc.encode(["x;y", 3, True], ";") == "x\\;y;3;true"
    assert seqenc.encode(["ends\\", "'q'"], ";") == "'ends\\';''q''"   # quoted, as Java does
    assert seqenc.decode("a;", ";") == ["a", ""]
    assert seqenc.decode("", ";") == [""]


def test_chain_nests_one_backslash_per_level():
    s = seqenc.chain(["a", "b", "c"])
    assert s == "a\tb\\\tc"
    assert seqenc.unchain(s) == ["a", "b", "c"]


def test_obfuscation_round_trip_and_plain_text():
    data = savecodec.obfuscate("begin_save\x1bend_save é", 0x5A)
    assert data.startswith(b"!VCSK5a")
    assert savecodec.deobfuscate(data) == "begin_save\x1bend_save é"
    assert savecodec.deobfuscate(b"begin_save") == "begin_save"


@pytest.mark.parametrize("name", ["recorded.vlog", "small.vsav"])
def test_engine_files_re_encode_to_the_same_text(name):
    game = read_game(FIXTURES / name)
    assert game.encode() == game.text
    assert savecodec.obfuscate(game.encode(), game.key) == _saved_game(FIXTURES / name)


def _saved_game(path: Path) -> bytes:
    return zipfile.ZipFile(path).read("savedGame")


def test_log_null_tokens_are_skipped_but_the_step_kept():
    step = savecodec.Seq((savecodec.Log(savecodec.Leaf("null")), savecodec.Log(savecodec.Leaf("null")),
                          savecodec.Log(savecodec.Leaf("CHAT* moved *"))))
    text = savecodec.join_top_level([savecodec.Leaf("begin_save"), savecodec.Leaf("end_save"), step])
    from modulebuilder.vassal.savefile import parse_text
    game = parse_text(text)
    assert [s.commands for s in game.steps] == [("CHAT* moved *",)]


# --------------------------------------------------------------------------------------------- hostile input

def _zip(entries: dict[str, bytes]) -> bytes:
    return deterministic_zip(entries.items())


@pytest.mark.parametrize("data, words", [
    (b"", "not a readable zip"),
    (b"PK\x03\x04garbage", "not a readable zip"),
    (_zip({"moduledata": b"<data/>"}), "no 'savedGame'"),
    (_zip({"savedGame": b"!VCSKzz0102"}), "malformed"),
    (_zip({"savedGame": b"!VCSK5a0"}), "malformed"),
    (_zip({"savedGame": savecodec.obfuscate("hello", 1)[:-2] + b"\xff\xfe"}), "malformed"),
    (_zip({"savedGame": b"\xff\xfe\xfd"}), "not UTF-8"),
    (_zip({"savedGame": b"just text"}), "begin_save"),
    (_zip({"savedGame": b"begin_save\x1b+/1/piece;;;a.png;A/notanumber;x;y\x1bend_save"}), "malformed"),
])
def test_bad_files_give_one_clear_error(data, words):
    with pytest.raises(VassalFileError) as e:
        read_game(data)
    assert words in str(e.value)
    assert str(e.value).endswith(".") or str(e.value).endswith(").")


def test_truncated_recording_is_refused():
    data = (FIXTURES / "recorded.vlog").read_bytes()
    with pytest.raises(VassalFileError):
        read_game(data[: len(data) // 2])


def test_zip_bomb_is_refused_without_inflating_it():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        with z.open("savedGame", "w", force_zip64=True) as f:
            chunk = b"0" * (1 << 20)
            for _ in range(80):          # 80 MiB of zeros, a few hundred KiB compressed
                f.write(chunk)
    with pytest.raises(VassalFileError, match="zip bomb"):
        read_game(buf.getvalue())


def test_huge_chat_line_is_read():
    text = "begin_save\x1bend_save\x1bLOG\tCHAT<a> - " + "x" * 3_000_000
    game = read_game(_zip({"savedGame": savecodec.obfuscate(text, 7)}))
    assert len(game.steps[0].chat[0]) > 3_000_000


def test_absurd_nesting_is_refused():
    text = "begin_save\x1bend_save\x1b" + "LOG\t" * 500 + "CHAT x"
    with pytest.raises(VassalFileError, match="nest"):
        read_game(_zip({"savedGame": text.encode()}))


def test_too_many_zip_entries_are_refused():
    from modulebuilder.vassal.zipio import MAX_ENTRIES
    entries = {f"e{i}": b"" for i in range(MAX_ENTRIES)} | {"savedGame": b"begin_save\x1bend_save"}
    with pytest.raises(VassalFileError, match="zip entries"):
        read_game(_zip(entries))
