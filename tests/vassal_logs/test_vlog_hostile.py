"""Files a referee service must survive: each gets one clear sentence (InputError), never a crash."""
from __future__ import annotations

import io
import zipfile

import pytest

from modulebuilder.vassal import savecodec
from modulebuilder.vassal.savefile import read_game
from modulebuilder.vassal.zipio import deterministic_zip
from referee.logs import InputError
from referee.logs.vassal import read_vassal

from .recordings import fixture, scenario


def _tiny_text() -> str:
    return read_game(fixture("tiny.vlog")).text


def _vlog(text: str, key: int = 0x33) -> bytes:
    return deterministic_zip([("savedGame", savecodec.obfuscate(text, key))])


def _unreadable(data: bytes, module=None, **kw) -> list[tuple[int, str, str]]:
    """(step, line, why) of every line read as an ``unreadable`` event."""
    return [(e["step"], e["line"], e["why"]) for e in read_vassal(data, module, **kw).events
            if e["type"] == "unreadable"]


def _problems(data: bytes, module=None, **kw) -> list[str]:
    with pytest.raises(InputError) as err:
        read_vassal(data, module, **kw)
    return err.value.problems


def test_a_re_encoded_recording_still_reads():
    # The crafting below starts from the genuine recording; re-zipping it alone changes nothing.
    assert read_vassal(_vlog(_tiny_text())).events == read_vassal(fixture("tiny.vlog")).events


def test_truncated_zip():
    data = fixture("tiny.vlog").read_bytes()
    (problem,) = _problems(data[: len(data) // 2])
    assert problem.startswith("the uploaded game is not a readable zip archive")


def test_corrupt_compressed_data():
    data = bytearray(_vlog(_tiny_text()))
    start = data.index(b"savedGame") + len(b"savedGame")
    for i in range(start + 20, start + 60):
        data[i] ^= 0xFF
    (problem,) = _problems(bytes(data))
    assert "zip entry 'savedGame' is corrupt" in problem or "not UTF-8" in problem or "malformed" in problem


def test_zip_bomb_is_refused_without_inflating_it():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("savedGame", b"0" * (65 * 1024 * 1024))
    assert len(buf.getvalue()) < 1024 * 1024
    (problem,) = _problems(buf.getvalue())
    assert "decompresses to more than 16 MiB" in problem and "zip bomb" in problem


def test_wrong_obfuscation():
    text = _tiny_text()
    (problem,) = _problems(deterministic_zip([("savedGame", b"!VCSKzz" + text.encode().hex().encode())]))
    assert "!VCSK header but its key or hex digits are malformed" in problem
    (problem,) = _problems(deterministic_zip([("savedGame", b"\xff\xfe" * 40)]))
    assert "not UTF-8" in problem


def test_not_a_vassal_file():
    (problem,) = _problems(deterministic_zip([("hello.txt", b"hi")]))
    assert "has no 'savedGame' entry" in problem
    (problem,) = _problems(_vlog("just some text"))
    assert "does not contain a begin_save ... end_save" in problem


def test_absurdly_deep_nesting():
    deep = "begin_save\x1b" + "LOG\t" * 500 + "x\x1bend_save"
    (problem,) = _problems(_vlog(deep))
    assert "nest deeper than" in problem


def test_huge_chat_line_is_an_unreadable_ruling_with_its_step():
    line = "&lt;Alice&gt; - !end " + "x" * 200_000
    ((step, shown, why),) = _unreadable(_vlog(_tiny_text() + "\x1bLOG\tCHAT" + line))
    assert (step, why) == (19, f"a chat line of {len(line)} characters is too long to be a declaration (at most 2000)")
    assert shown.startswith("<Alice> - !end xxx") and len(shown) < 80


def test_unknown_unit_piece():
    text = _tiny_text().replace("psk-a", "psk-z")
    problems = _problems(_vlog(text))
    assert "step 12: piece 'Psk a' is unit 'psk-z', which the scenario does not have (wrong module or scenario?)" \
        in problems


def test_typos_are_unreadable_rulings_with_their_steps():
    assert _unreadable(fixture("typo.vlog").read_bytes()) == [
        (3, "!asault dumon-a dumon-b > 0303", "unknown command 'asault'"),
        (4, "!draw nosuch", "no activation marker 'nosuch'"),
    ]


def test_a_typed_unit_the_scenario_does_not_have_is_unreadable():
    text = _tiny_text().replace("!orders psk-a", "!orders psk-z")
    assert (4, "!orders psk-z", "no unit 'psk-z'") in _unreadable(_vlog(text))


def test_a_typed_hex_the_map_does_not_have_is_unreadable():
    # Read by the notation, refused by the ruleset's references check: still the line's own ruling.
    text = _tiny_text().replace("!orders psk-a", "!fire i-art > 0909")
    ((step, line, why),) = _unreadable(_vlog(text))
    assert (step, line) == (4, "!fire i-art > 0909") and "0909" in why


def test_no_way_to_tell_the_scenario():
    text = _tiny_text().replace("!scenario tiny", "hello")
    (problem,) = _problems(_vlog(text))
    assert problem.startswith("the uploaded game: cannot tell which scenario this game is")
    # ...which the caller can settle:
    assert read_vassal(_vlog(text), scenario=scenario("tiny")).events == read_vassal(fixture("tiny.vlog")).events


def test_a_module_that_is_not_a_module():
    (problem,) = _problems(fixture("tiny.vlog").read_bytes(), b"not a zip")
    assert problem.startswith("the module is not a readable zip archive")
    (problem,) = _problems(fixture("tiny.vlog").read_bytes(), deterministic_zip([("buildFile.xml", b"<oops")]))
    assert problem.startswith("the module: buildFile.xml is not well-formed XML")


def test_external_entities_in_a_module_are_not_resolved(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    xml = (f'<?xml version="1.0"?><!DOCTYPE m [<!ENTITY e SYSTEM "file://{secret}">]>'
           '<VASSAL.build.GameModule><VASSAL.build.module.Map mapName="&e;"/></VASSAL.build.GameModule>').encode()
    from modulebuilder.vassal.errors import VassalFileError
    from referee.logs.vassal_board import from_build_file
    with pytest.raises(VassalFileError) as err:
        from_build_file(xml)
    assert "external entity" in str(err.value) and "TOP-SECRET" not in str(err.value)


def test_missing_file_is_a_sentence(tmp_path):
    with pytest.raises(InputError) as err:
        read_vassal(tmp_path / "nope.vlog")
    assert err.value.problems[0].startswith("nope.vlog: cannot read")


def test_a_declaration_whose_side_cannot_be_told():
    # Without '!side French' nothing says whose '!first i-corps' it is: Alice has not moved a unit yet.
    text = _tiny_text().replace("!side French", "hello").replace("!orders french", "!endphase")
    assert _unreadable(_vlog(text)) == [
        (3, "!endphase", "cannot tell which side it is for: add the side (e.g. '!endphase french') or type "
                         "'!side French' first")]


def test_a_marker_id_implies_its_side():
    # '!first i-corps' without '!side': the I Corps is French (it used to be "cannot tell which side").
    text = _tiny_text().replace("!side French", "hello")
    log = read_vassal(_vlog(text))
    assert {"type": "first_marker", "side": "French", "marker": "i-corps"} in log.events
