"""The referee side by side with the Rally the Troops peer (*Waterloo Campaign 1815* ``rules.js``, Node).

    .venv/bin/python bench/bench_peer_rtt.py [--peer DIR] [--harness DIR] [--rounds N] [--log LOG]

Three paths a user waits on, each measured for both sides in the same run, rounds interleaved (ours, theirs,
ours, theirs …), medians over the rounds, and the ratio printed (> 1 means the referee is ahead):

(a) in-process replay with re-validation: ``referee.engine.replay.replay`` over the sample game (every event
    ruled from scratch, rolls re-derived from the seed) vs the peer's replay that rebuilds ``view().actions``,
    checks membership and applies each recorded action — CPU per event vs CPU per action;
(b) the whole process: ``referee check LOG --format json`` vs ``node rtt_replay_bench.js --repeat 1``, each
    run twice, on the whole game and on a one-event prefix (the peer: ``--prefix 0``, one action per game),
    so that start-up = the prefix run and per event = (whole − prefix) / (events − prefix events); the
    referee's runs find its scenario in the parsed-scenario cache (the first run of the day fills it), and a
    ``--no-cache`` prefix run shows the start-up of a scenario parsed afresh.  The referee runs as a user runs
    it (the venv's ``referee`` script, see ``referee_command``); the prefix runs ``--startups`` times a round,
    interleaved with the peer's, and the start-up is the median of all of them;
(c) the legal-action listing: the ruleset's ``legal_actions`` timed alone over every state of the sample game
    vs the peer's ``view(state, role)`` timed alone over every state of its recorded games.

The peer is measured as it runs in real use, a long-running process whose JIT has warmed: every in-process
measurement of the peer runs one more pass than it reports and drops the first (``--warmup``).  Each figure is
printed as wall time beside CPU time (user + system of the process or its children): node compiles and collects
on other threads, so its CPU time exceeds its wall time, and a user waits for the wall clock; on a shared
machine the wall clock also measures the others, so the load average is printed with them.

The peer: ``DIR`` holds ``rules.js`` and ``data.js`` (``--peer``, else the ``RTT_PEER`` environment variable);
the harness directory holds ``rtt_replay_bench.js`` and ``rtt_games.json`` (``--harness``, else
``RTT_HARNESS``, else ``../shared/peers/rtt`` beside the repository).  ``rules.js`` states no licence, so it
is never in this repository; ``shared/peers/rtt/README.md`` says where to get it.  Without node or the peer
the script says so, prints our side alone and exits 2.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.engine.replay import new_game, replay, step  # noqa: E402
from referee.logs import read_log  # noqa: E402

DEFAULT_LOG = ROOT / "tests" / "fixtures" / "logs" / "sample-borodino.json"


def referee_command() -> tuple[list[str], dict[str, str], str]:
    """How a user runs the referee: the ``referee`` console script beside this interpreter, with the environment
    as it is, when it runs this tree (an editable install of it); else ``python -m referee.cli`` with this tree
    first on ``PYTHONPATH`` (0.7 % more instructions at start-up, cachegrind: one more folder searched per
    import).  Returns (command, environment, what it is)."""
    script = Path(sys.executable).with_name("referee")
    if script.is_file():
        found = subprocess.run([sys.executable, "-c", "import referee; print(referee.__file__)"], cwd="/",
                               capture_output=True, text=True).stdout.strip()
        if found and Path(found).resolve() == ROOT / "referee" / "__init__.py":
            return [str(script)], dict(os.environ), f"{script} (the installed console script)"
    return ([sys.executable, "-m", "referee.cli"], dict(os.environ, PYTHONPATH=str(ROOT)),
            "python -m referee.cli with PYTHONPATH=this tree (no console script of this tree)")


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def find_peer(arg: str | None) -> Path | None:
    for cand in (arg, os.environ.get("RTT_PEER")):
        if cand and (Path(cand) / "rules.js").is_file() and (Path(cand) / "data.js").is_file():
            return Path(cand).resolve()
    return None


def find_harness(arg: str | None) -> Path | None:
    for cand in (arg, os.environ.get("RTT_HARNESS"), ROOT.parent / "shared/peers/rtt",
                 ROOT.parents[1] / "shared/peers/rtt"):
        if cand and (Path(cand) / "rtt_replay_bench.js").is_file():
            return Path(cand).resolve()
    return None


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_process(cmd: list[str], **kw) -> tuple[float, float, str]:
    """(wall s, CPU s of the child, stdout) of one whole process."""
    c0, w0 = children_cpu(), time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout
    return time.perf_counter() - w0, children_cpu() - c0, out


def rtt_result(stdout: str) -> dict:
    line = next(ln for ln in reversed(stdout.splitlines()) if ln.startswith("RESULT "))
    return json.loads(line[len("RESULT "):])


class Peer:
    def __init__(self, node: str, rules: Path, harness: Path):
        self.base = [node, str(harness / "rtt_replay_bench.js"), "--rules", str(rules),
                     "--load", str(harness / "rtt_games.json")]
        self.actions = rtt_result(self.run("--repeat", "1", "--only-validate")[2])["actions"]

    def run(self, *args: str) -> tuple[float, float, str]:
        return run_process(self.base + list(args))

    def replay_per_action(self, repeat: int, warmup: int) -> tuple[float, float, float, float]:
        """Per action, medians of ``repeat`` replays in one node process after ``warmup`` dropped ones:
        (CPU s validated, wall s validated, CPU s and wall s of the validation alone = validated − apply-only,
        i.e. the view() call and the membership test)."""
        res = rtt_result(self.run("--repeat", str(repeat + warmup))[2])

        def med(tag: str, what: str) -> float:
            return statistics.median(res[tag][what][warmup:])
        n = res["actions"]
        return (med("validate", "cpu_s") / n, med("validate", "wall_s") / n,
                (med("validate", "cpu_s") - med("apply", "cpu_s")) / n,
                (med("validate", "wall_s") - med("apply", "wall_s")) / n)

    def view_us(self, repeat: int, warmup: int) -> tuple[float, float]:
        """(µs wall per view() call, the median of ``repeat`` timed replays after ``warmup`` dropped ones;
        actions listed per call)."""
        res = rtt_result(self.run("--mode", "view", "--repeat", str(repeat + warmup))[2])
        return statistics.median(res["view_us_per_call"][warmup:]), res["listed_per_call"]


def our_replay_cpu_per_event(log, repeat: int) -> tuple[float, float]:
    cpus, walls = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        replay(log.ruleset, log.scenario, log.events, log.dice, log.seed, places=False)
        cpus.append(time.process_time() - c)
        walls.append(time.perf_counter() - w)
    n = len(log.events)
    return statistics.median(cpus) / n, statistics.median(walls) / n


def our_legal_actions(log) -> tuple[float, float, float, int]:
    """(µs CPU per legal_actions call, µs wall per call, mean actions listed, calls) over every state of the
    game where an action is due (none while a roll is owed)."""
    game = new_game(log.ruleset, log.scenario, log.dice, log.seed)
    la = log.ruleset.legal_actions
    cpu = wall = 0.0
    listed = calls = 0
    for i, event in enumerate(log.events):
        if game.pending is None and not log.ruleset.is_over(game.state):
            w, c = time.perf_counter(), time.process_time()
            acts = la(game.state)
            cpu += time.process_time() - c
            wall += time.perf_counter() - w
            listed += len(acts)
            calls += 1
        _, game, _ = step(game, i, event)
    return 1e6 * cpu / calls, 1e6 * wall / calls, listed / calls, calls


def prefix_log(path: Path, n: int, tmp: Path) -> Path:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["events"] = data["events"][:n]
    out = tmp / f"prefix{n}-{path.name}"
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


def ratio(ours: float, theirs: float) -> str:
    """theirs / ours for a time: > 1 means we are faster."""
    return f"{theirs / ours:5.2f}× {'ahead' if theirs >= ours else 'behind'}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--peer", help="directory with rules.js and data.js (else $RTT_PEER)")
    ap.add_argument("--harness", help="directory with rtt_replay_bench.js and rtt_games.json (else $RTT_HARNESS)")
    ap.add_argument("--log", default=str(DEFAULT_LOG))
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (medians are reported)")
    ap.add_argument("--repeat", type=int, default=3, help="warm replays per round for (a) and (c)")
    ap.add_argument("--warmup", type=int, default=1,
                    help="passes of the peer run first and dropped in each of its processes, so that its JIT has "
                         "warmed as in a long-running server (default 1)")
    ap.add_argument("--startups", type=int, default=5,
                    help="one-event checks per round for (b)'s start-up (CPU time of a 0.15 s process varies by "
                         "±30 %% on a shared machine: one run per round is not a figure)")
    args = ap.parse_args()
    referee, env, how = referee_command()

    node = shutil.which("node")
    rules, harness = find_peer(args.peer), find_harness(args.harness)
    missing = [what for what, ok in (("node (not on PATH)", node),
                                     ("the peer's rules.js + data.js (--peer DIR or RTT_PEER)", rules),
                                     ("the harness rtt_replay_bench.js (--harness DIR or RTT_HARNESS)", harness))
               if not ok]
    peer = Peer(node, rules, harness) if not missing else None
    if missing:
        print("PEER ABSENT — measuring the referee alone; missing: " + "; ".join(missing))
    else:
        print(f"peer: {rules}/rules.js, harness {harness}, {peer.actions} recorded actions")

    log = read_log(args.log)
    n = len(log.events)
    print(f"referee: {Path(args.log).name}, {n} events; {os.cpu_count()} cores, load average {load()}")
    print(f"referee run as {how}")
    our_replay_cpu_per_event(log, 1)    # warm the scenario's static map, as the peer's warm repeats are

    rows: dict[str, list[tuple[float, float]]] = {k: [] for k in
                                                  ("a", "b_full", "b_pre", "b_cold", "c", "ra", "rb_full", "rb_pre", "rc", "rcc")}
    listed = r_listed = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        pre = prefix_log(Path(args.log), 1, Path(tmp))
        for rnd in range(args.rounds):
            rows["a"].append(our_replay_cpu_per_event(log, args.repeat))
            if peer:
                cpu, wall, validation, validation_wall = peer.replay_per_action(args.repeat, args.warmup)
                rows["ra"].append((cpu, wall))
                rows["rcc"].append((validation * 1e6, validation_wall * 1e6))
            w, c, _ = run_process(referee + ["check", args.log, "--format", "json"], env=env)
            rows["b_full"].append((c, w))
            w, c, _ = run_process(referee + ["check", str(pre), "--format", "json", "--no-cache"], env=env)
            rows["b_cold"].append((c, w))
            if peer:
                w, c, _ = peer.run("--repeat", "1", "--only-validate")
                rows["rb_full"].append((c, w))
            for _ in range(args.startups):         # the two start-ups interleaved, one run each at a time
                w, c, _ = run_process(referee + ["check", str(pre), "--format", "json"], env=env)
                rows["b_pre"].append((c, w))
                if peer:
                    w, c, _ = peer.run("--repeat", "1", "--only-validate", "--prefix", "0")
                    rows["rb_pre"].append((c, w))
            us_cpu, us_wall, listed, calls = our_legal_actions(log)
            rows["c"].append((us_cpu, us_wall))
            if peer:
                us_wall, r_listed = peer.view_us(args.repeat, args.warmup)
                rows["rc"].append((us_wall, 0.0))
            print(f"  round {rnd + 1}/{args.rounds} done (load average {load()})", flush=True)

    def med(key: str, i: int = 0) -> float:
        return statistics.median(x[i] for x in rows[key])

    print(f"\nmedians of {args.rounds} rounds, the peer warmed ({args.warmup} pass dropped per process), "
          f"wall beside CPU (load average {load()}):")
    a, aw = med("a") * 1e6, med("a", 1) * 1e6
    print(f"(a) in-process replay + re-validation: referee wall {aw:7.1f} µs/event, CPU {a:7.1f}", end="")
    if peer:
        ra, raw = med("ra") * 1e6, med("ra", 1) * 1e6
        print(f"   RTT wall {raw:7.1f} µs/action, CPU {ra:7.1f}")
        print(f"    ratio: wall {ratio(aw, raw)}; CPU {ratio(a, ra)}")
    else:
        print()
    start, full = med("b_pre"), med("b_full")
    per = (full - start) / (n - 1) * 1e6
    low, high = min(x[0] for x in rows["b_pre"]), max(x[0] for x in rows["b_pre"])
    print(f"(b) whole process: referee start-up {start:.3f} s (median of {len(rows['b_pre'])} runs, "
          f"{low:.3f}–{high:.3f}), then {per:.1f} µs/event, "
          f"whole sample {full:.3f} s = {full / n * 1e6:.1f} µs/event (wall {med('b_full', 1):.3f} s); "
          f"start-up with the scenario parsed afresh (--no-cache) {med('b_cold'):.3f} s")
    if peer:
        rstart, rfull = med("rb_pre"), med("rb_full")
        pre_actions = 14   # --prefix 0 replays one action of each of the 14 recorded games
        rper = (rfull - rstart) / (peer.actions - pre_actions) * 1e6
        print(f"    whole process: RTT     start-up {rstart:.3f} s, then {rper:.1f} µs/action, "
              f"whole run {rfull:.3f} s = {rfull / peer.actions * 1e6:.1f} µs/action (wall {med('rb_full', 1):.3f} s)")
        print(f"    ratio: start-up {ratio(start, rstart)}; per event after start-up {ratio(per, rper)}; "
              f"whole process per event: wall {ratio(med('b_full', 1) / n, med('rb_full', 1) / peer.actions)}, "
              f"CPU {ratio(full / n, rfull / peer.actions)}")
    c, cw = med("c"), med("c", 1)
    print(f"(c) legal-action listing: referee legal_actions CPU {c:7.1f} µs/call, wall {cw:7.1f} µs/call "
          f"({listed:.1f} actions listed, {calls} calls)")
    if peer:
        rc, rcc = med("rc"), med("rcc")
        print(f"    RTT view(): wall {rc:7.1f} µs/call (timed alone), CPU {rcc:7.1f} µs/call (validated − "
              f"apply-only replay) ({r_listed:.1f} listed)")
        print(f"    ratio: wall {ratio(cw, rc)}; CPU {ratio(c, rcc)}")
    print("note: an RTT action is finer than a referee event (a move is about two actions), so per-unit ratios "
          "understate the referee a little.")
    return 0 if peer else 2


if __name__ == "__main__":
    sys.exit(main())
