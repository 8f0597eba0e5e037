"""Skip the whole build when nothing it depends on changed (a warm rebuild must take well under 2 s).

Loading and validating the YAML alone takes seconds, so the image cache is not enough: after a build a
manifest in ``<out>/.cache`` records the hash of every input file (the scenario files and the map and
counters files their model objects name as ``source``), of the code that turns them into a module
(definitions loader, model, renderers, this package) and of the options, plus the hash of the module
written.  The next build with the same inputs, code and options finds the module unchanged and stops.
The tables file is an input (the Charts window is drawn from it), and so are the rulesets' definitions
contributions (the die and the phases, play.py).
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import modulebuilder
from modulebuilder.input_files import read_text
from modulebuilder.yaml_aliases import AliasBomb, check_aliases

from ..model import Scenario
from .cache import drawing_sources

MANIFEST = Path(".cache") / "build-manifest.json"


def input_files(scenarios: Sequence[Scenario], scenario_paths: Sequence[str | Path],
                template: str | None = None) -> list[Path]:
    """The definition files a module is made from: the scenarios, the files they name, an author's counter
    template (``template``, else the game file's) with its fonts and images, and the counter art."""
    sources = [s.map.source for s in scenarios] + [s.game.source for s in scenarios]
    for s in scenarios:
        c = s.counters
        sources += [x.source for x in (*c.units, *c.leaders, *c.markers, *c.activation_groups) if getattr(x, "source", "")]
    files = {Path(p).resolve() for p in scenario_paths}
    files |= {Path(src.split(":")[0]).resolve() for src in sources if src}
    files |= _tables_files(scenario_paths)
    files |= {Path(s.map.art.image).resolve() for s in scenarios if s.map.art is not None}
    from ..definitions.rulesets import contribution_files
    contributions = contribution_files()
    files |= {Path(contributions[s.ruleset]).resolve() for s in scenarios if s.ruleset in contributions}
    look = template or (scenarios[0].game.template if scenarios else None)
    if look:
        from ..render.template import template_files
        files |= set(template_files(look))
    from ..render.art import art_files
    for s in scenarios:
        files |= {p.resolve() for p in art_files(s.game, s.counters)}
    return sorted(files)


def _tables_files(scenario_paths: Sequence[str | Path]) -> set[Path]:
    """The ``tables:`` file each scenario names (the model keeps the tables, not where they came from)."""
    import yaml
    out = set()
    for p in scenario_paths:
        try:
            text = read_text(p)
            check_aliases(text)
            doc = yaml.safe_load(text)
        except (OSError, UnicodeDecodeError, AliasBomb, yaml.YAMLError):
            continue
        if isinstance(doc, dict) and isinstance(doc.get("tables"), str):
            out.add((Path(p).parent / doc["tables"]).resolve())
    return out


def code_files() -> list[Path]:
    root = Path(modulebuilder.__file__).parent
    files = {*root.joinpath("vassal").glob("*.py"), *root.joinpath("definitions").rglob("*.py"),
             *root.joinpath("schemas").rglob("*.json"), root / "model.py", *drawing_sources(),
             root / "render" / "charts.py", root / "render" / "text.py",
             *root.joinpath("fonts").glob("*")}
    return sorted(f for f in files if f.is_file())


def _digest(files: Iterable[Path], options: Mapping[str, Any]) -> str | None:
    h = hashlib.sha256(json.dumps(options, sort_keys=True).encode())
    for f in files:
        try:
            data = f.read_bytes()
        except OSError:
            return None           # an input disappeared: not up to date
        h.update(str(f).encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


def fresh_module(out_dir: Path, scenario_paths: Sequence[str | Path], options: Mapping[str, Any]) -> Path | None:
    """The module of the last build if it is still exactly what a build would write now, else None."""
    try:
        m = json.loads((out_dir / MANIFEST).read_text())
        vmod = out_dir / m["module"]
        inputs = [Path(p) for p in m["inputs"]]
        if m["scenarios"] != [str(Path(p).resolve()) for p in scenario_paths]:
            return None
        if m["digest"] != _digest([*inputs, *code_files()], options):
            return None
        if hashlib.sha256(vmod.read_bytes()).hexdigest() != m["module_sha256"]:
            return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return vmod


def record(out_dir: Path, vmod: Path, scenario_paths: Sequence[str | Path], inputs: Sequence[Path],
           options: Mapping[str, Any]) -> None:
    digest = _digest([*inputs, *code_files()], options)
    if digest is None:
        return
    manifest = {"scenarios": [str(Path(p).resolve()) for p in scenario_paths], "inputs": [str(p) for p in inputs],
                "digest": digest, "module": vmod.name, "module_sha256": hashlib.sha256(vmod.read_bytes()).hexdigest()}
    path = out_dir / MANIFEST
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(manifest, indent=1))
    tmp.replace(path)
