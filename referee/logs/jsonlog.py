"""Reading a JSON or YAML log: ``{"scenario", "dice", "seed"?, "events"}`` (DESIGN §5).

Input checking happens here, before any ruling: the text parses, the scenario loads (DESIGN §4), every event
has a known type and well-formed fields (the ruleset's JSON Schema), every roll is 0–9, and every unit, hex,
side and marker it names exists.  All problems are collected, one line each.
"""
from __future__ import annotations

from dataclasses import dataclass, field
import io
import json
import os
import re
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any, Mapping

from modulebuilder.input_files import read_text
from modulebuilder.yaml_aliases import AliasBomb, check_aliases
from referee.engine import registry
from referee.engine.dice import die
from referee.logs.problems import InputError

if TYPE_CHECKING:
    from os import PathLike

# Paths are strings and os.path here, not pathlib: a check imports nothing else that needs pathlib, whose import
# (with urllib.parse, ipaddress and fnmatch) is a visible share of a one-event check (docs/speed.md).

DICE_MODES = ("players", "referee")
ROLL_EVENT_SCHEMA = {
    "type": "object", "required": ["type", "roll"], "additionalProperties": False,
    "properties": {"type": {"const": "roll"}, "roll": {"type": "integer", "minimum": 0, "maximum": 9},
                   "side": {"type": "string"}, "note": {"type": "string"}},
}
PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
# A log's events are checked until this many problems: a few megabytes of ``{}`` are millions of events, whose
# millions of lines would cost memory and time in proportion, and nobody reads past the first screenfuls.
MAX_PROBLEMS = 1000


@dataclass(frozen=True)
class Log:
    scenario: Any                     # modulebuilder.model.Scenario
    ruleset: Any                      # the ruleset plugin
    dice: str
    seed: str | None
    events: list[dict[str, Any]]
    warnings: list[str] = field(default_factory=list)   # ruled anyway (a .vlog from another module version)
    # Beside each event of a VASSAL log (empty for a JSON log): ``{"file", "step"}`` it was read from, and
    # ``"roll"``: where its roll came from (``{"by": "die", "recorded": N, "chat"?: M}`` or ``{"by": "typed"}``).
    sources: list[dict[str, Any]] = field(default_factory=list)


def read_log(path: str | PathLike[str]) -> Log:
    """Read and check a log file (JSON or YAML)."""
    name = spelled_as_pathlib(path)
    try:
        text = read_text(name)          # a regular file within the size cap, or an OSError saying why not
    except OSError as exc:
        raise InputError([f"{name}: cannot read ({exc.strerror or exc})"]) from None
    except UnicodeDecodeError:
        raise InputError([f"{name}: not a text file (JSON or YAML expected)"]) from None
    return parse_log(parse_text(text, name), base_dir=os.path.dirname(name))


def spelled_as_pathlib(path: str | PathLike[str]) -> str:
    """``str(pathlib.Path(path))``: the name a log is read by and named by in messages, as it always was
    (``./a//b.json/`` is ``a/b.json``), without importing pathlib on POSIX: repeated and trailing slashes
    and ``.`` parts go, ``..`` stays, a leading ``//`` (exactly two) is kept.  Elsewhere pathlib's own."""
    p = os.fspath(path)
    if os.name != "posix":
        from pathlib import Path
        return str(Path(p))
    root = "//" if p.startswith("//") and not p.startswith("///") else "/" if p.startswith("/") else ""
    return root + "/".join(part for part in p.split("/") if part and part != ".") or "."


def parse_text(text: str, name: str = "log") -> Any:
    """JSON, or else YAML (YAML 1.2 is a superset of JSON, but JSON errors read better)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as jerr:
        if text.lstrip().startswith(("{", "[")):
            raise InputError([f"{name}:{jerr.lineno}:{jerr.colno}: not valid JSON ({jerr.msg})"]) from None
    except RecursionError:              # the standard library's reader recurses once per level
        raise InputError([f"{name}: nested too deeply (a log is a few levels deep)"]) from None
    try:
        check_aliases(text)             # before the reader: aliases bounded by what they expand to
    except AliasBomb as exc:
        raise InputError([f"{name}:{exc.line}:{exc.column}: {exc.message}"]) from None
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError
    try:
        return YAML(typ="safe", pure=True).load(io.StringIO(text))
    except RecursionError:
        raise InputError([f"{name}: nested too deeply (a log is a few levels deep)"]) from None
    except YAMLError as yerr:
        mark = getattr(yerr, "problem_mark", None)
        where = f"{name}:{mark.line + 1}:{mark.column + 1}" if mark else name
        raise InputError([f"{where}: not valid JSON or YAML ({getattr(yerr, 'problem', None) or yerr})"]) from None


def parse_log(doc: Any, base_dir: str | PathLike[str] | None = None, scenario: Any = None) -> Log:
    """Check a parsed log document.  ``scenario`` (a model.Scenario) overrides the document's, for tests."""
    if not isinstance(doc, Mapping):
        raise InputError(["log: expected an object with scenario, dice and events"])
    problems: list[str] = []
    for key in doc:
        if key not in ("scenario", "dice", "seed", "events", "note", "meta"):
            problems.append(f"{key}: unexpected field")
    dice = doc.get("dice", "players")
    if dice not in DICE_MODES:
        problems.append(f"dice: must be 'players' or 'referee', not {dice!r}")
    seed = doc.get("seed")
    if seed is not None and not isinstance(seed, (str, int)):
        problems.append("seed: must be a string")
    events = doc.get("events")
    if not isinstance(events, list):
        problems.append("events: expected a list of events")
        events = []
    if scenario is None:
        if "scenario" not in doc:
            problems.append("scenario: missing (a scenario id or a resolved scenario)")
        else:
            try:
                scenario = load_scenario(doc["scenario"], base_dir)
            except InputError as exc:
                problems.extend(exc.problems)
    ruleset = None
    if scenario is not None:
        try:
            ruleset = registry.get(scenario.ruleset)
        except registry.UnknownRuleset as exc:
            problems.append(f"scenario.ruleset: {exc}")
    if ruleset is not None:
        problems.extend(getattr(ruleset, "check_scenario", lambda _: ())(scenario))
        problems.extend(check_events(ruleset, scenario, events))
    if problems:
        raise InputError(problems)
    return Log(scenario=scenario, ruleset=ruleset, dice=dice, seed=None if seed is None else str(seed),
               events=[dict(e) for e in events])


def load_scenario(ref: Any, base_dir: str | PathLike[str] | None = None) -> Any:
    """A scenario id (``scenarios/<id>.yaml`` under ./, the log's folder or the project) or a resolved one.
    Parsed scenarios are kept on disk by content (``modulebuilder.definitions.cache``; off with
    ``HEXWARGAME_CACHE=off``)."""
    try:
        from modulebuilder.definitions import cache
        from modulebuilder.definitions.problems import DefinitionError
    except ImportError:
        raise InputError(["scenario: the definitions loader (modulebuilder.definitions) is not installed"]) from None
    try:
        if isinstance(ref, Mapping):
            return cache.load_resolved(dict(ref))
        if isinstance(ref, str):
            path = find_scenario(ref, base_dir)
            if path is None:
                raise InputError([f"scenario: no scenario '{ref}' (looked for scenarios/{ref}.yaml)"])
            return cache.load_scenario(path)
    except DefinitionError as exc:
        raise InputError([f"scenario: {p}" for p in (getattr(exc, "problems", None) or [str(exc)])]) from None
    raise InputError(["scenario: expected a scenario id or a resolved scenario object"])


def find_scenario(ref: str, base_dir: str | PathLike[str] | None = None) -> str | None:
    """The file of scenario ``ref``: a path as given, or ``scenarios/<ref>.yaml`` (or ``.yml``) under the
    current folder, ``base_dir`` (the log's) or the project, the first that exists."""
    candidates = [ref] if ref.endswith((".yaml", ".yml", ".json")) else []
    for root in (os.getcwd(), base_dir, PROJECT_ROOT):
        if root is not None:
            candidates += [os.path.join(root, "scenarios", f"{ref}{suffix}") for suffix in (".yaml", ".yml")]
    return next((c for c in candidates if os.path.isfile(c)), None)


@dataclass
class _EventValidator:
    """A compiled fast check for the common case (a valid event) and jsonschema for the messages.

    jsonschema-rs (compiled, full draft 2020-12) decides validity, far cheaper than jsonschema on a long log;
    an event it rejects is run through jsonschema to list every problem with its path.  Both implement the
    same draft of the same schema, so they agree on what is valid.  (fastjsonschema would be faster still,
    but it stops at draft 7 and silently ignores keywords such as ``unevaluatedProperties``.)  jsonschema is
    imported only for a log with a bad event: importing it is a third of a short ``check``.
    """
    schema: Mapping[str, Any]
    fast: Any = None                # jsonschema_rs.Draft202012Validator, made on the first event
    full: Any = None                # jsonschema.Draft202012Validator, made on the first rejected event

    def is_valid(self, event: Any) -> bool:
        if self.fast is None:
            import jsonschema_rs
            self.fast = jsonschema_rs.Draft202012Validator(dict(self.schema))
        return self.fast.is_valid(event)

    def iter_errors(self, event: Any):
        if self.full is None:
            from jsonschema import Draft202012Validator
            self.full = Draft202012Validator(self.schema)
        return self.full.iter_errors(event)


@lru_cache(maxsize=None)
def _event_schemas(ruleset_id: str) -> dict[str, tuple[Mapping[str, Any], Mapping[str, Any]]]:
    """Each event type's schema, with the ruleset's whole schema its ``$ref``s resolve against."""
    ruleset = registry.get(ruleset_id)
    schema = ruleset.event_schema()
    out: dict[str, tuple[Mapping[str, Any], Mapping[str, Any]]] = {"roll": (roll_event_schema(ruleset), {})}
    for name, sub in schema.get("$defs", {}).get("events", {}).get("properties", {}).items():
        out[name] = (sub, schema)
    return out


def roll_event_schema(ruleset: Any) -> Mapping[str, Any]:
    """The engine's ``roll`` event for this ruleset: a natural 0–9 (DESIGN §5), widened to every total of the
    dice the ruleset names in its optional ``dice`` attribute (``("2d6",)``: 0–12).  Whether a roll is on the
    die owed (a 0 paying a d6) is the replay's ruling (``not_on_the_die``), not bad input."""
    low, high = 0, 9
    for name in getattr(ruleset, "dice", None) or ():
        try:
            d = die(name)
        except ValueError:
            continue
        low, high = min(low, d.lowest), max(high, d.highest)
    if (low, high) == (0, 9):
        return ROLL_EVENT_SCHEMA
    roll = {**ROLL_EVENT_SCHEMA["properties"]["roll"], "minimum": low, "maximum": high}
    return {**ROLL_EVENT_SCHEMA, "properties": {**ROLL_EVENT_SCHEMA["properties"], "roll": roll}}


@lru_cache(maxsize=None)
def _validator(ruleset_id: str, event_type: str) -> _EventValidator:
    """The validator of one event type, compiled when a log first has one (most logs use a few of the
    types, and compiling them all would be a visible share of a short ``check``)."""
    sub, root = _event_schemas(ruleset_id)[event_type]
    # Local $refs inlined once: resolving them per event is most of jsonschema's time on long logs.
    return _EventValidator(_inline(sub, root) if root else sub)


def _inline(node: Any, root: Mapping[str, Any]) -> Any:
    """A copy of ``node`` with every local ``{"$ref": "#/..."}`` replaced by what it points to."""
    if isinstance(node, Mapping):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            target: Any = root
            for part in ref[2:].split("/"):
                target = target[part]
            rest = {k: v for k, v in node.items() if k != "$ref"}
            return _inline({**target, **rest}, root)
        return {k: _inline(v, root) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(v, root) for v in node]
    return node


def event_types(ruleset: Any) -> list[str]:
    return sorted(_event_schemas(ruleset.id))


def check_events(ruleset: Any, scenario: Any, events: list[Any]) -> list[str]:
    """Every event's problems, in order: its type, its fields (the schema), then the names it uses.  The loop
    does the least it can for a valid event (a long log has thousands): the validator looked up by the type
    alone, the ``events[i]`` text made only for a problem."""
    schemas = _event_schemas(ruleset.id)
    validators: dict[str, _EventValidator] = {}
    problems: list[str] = []
    references = None                   # the ruleset's reference check bound to the scenario, made on first use
    for i, event in enumerate(events):
        if len(problems) >= MAX_PROBLEMS:
            problems.append(f"events[{i}:]: not checked, after {len(problems):,} problems")
            break
        if type(event) is not dict and not isinstance(event, Mapping):     # the ABC check is slow; JSON gives dicts
            problems.append(f"events[{i}]: expected an object with a 'type'")
            continue
        type_ = event.get("type")
        v = validators.get(type_) if type(type_) is str else None
        if v is None:
            if not isinstance(type_, str) or type_ not in schemas:  # a list or object is no type (nor hashable)
                known = ", ".join(sorted(schemas))
                problems.append(f"events[{i}].type: unknown event type {type_!r} (known: {known})")
                continue
            v = validators[type_] = _validator(ruleset.id, type_)
        try:
            errors = None if v.is_valid(event) else sorted(v.iter_errors(event),
                                                                  key=lambda e: list(e.absolute_path))
        except RecursionError:          # a value nested nearly as deep as the reader allows: the checks recurse
            problems.append(f"events[{i}]: nested too deeply (an event is a few levels deep)")
            continue
        if errors:
            problems.extend(_describe(f"events[{i}]", e) for e in errors)
            continue
        if type_ != "roll":
            if references is None:
                bound = getattr(ruleset, "references_of", None)
                references = bound(scenario) if bound is not None else partial(ruleset.check_references, scenario)
            found = references(event)
            if found:
                where = f"events[{i}]"
                problems.extend(f"{where}.{fld}: {msg}" if fld else f"{where}: {msg}" for fld, msg in found)
    return problems


def _describe(where: str, err: Any) -> str:
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path)
    if err.validator == "required":
        # One error per missing property; its message names it: "'unit' is a required property".
        m = re.match(r"'([^']+)' is a required property", err.message)
        missing = m.group(1) if m else None
        return f"{where}{path}.{missing}: missing" if missing else f"{where}{path}: {err.message}"
    if err.validator == "additionalProperties":
        extra = sorted(set(err.instance) - set(err.schema.get("properties", {})))
        return f"{where}{path}: unexpected field{'s' if len(extra) > 1 else ''} {', '.join(map(repr, extra))}"
    if err.validator in ("minimum", "maximum") and err.schema.get("maximum") == 9 \
            and err.schema.get("minimum") == 0:
        return f"{where}{path}: a d10 roll is 0–9, not {err.instance}"
    if err.validator in ("minimum", "maximum") and path == ".roll":
        return f"{where}{path}: a roll of these rules' dice is {err.schema.get('minimum')}–" \
               f"{err.schema.get('maximum')}, not {err.instance}"
    return f"{where}{path}: {err.message}"
