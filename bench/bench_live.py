"""Latency of the referee link: from the act in VASSAL to the referee's ruling in VASSAL's chat.

    .venv/bin/python bench/bench_live.py [--moves 100] [--pause 300] [--synchronous full|normal]

The real engine (vrecord.sh, /work/shared/tools/vassal-check) plays the French side of Tinyvka with the link on,
against ``referee serve`` (one worker, SQLite) on 127.0.0.1.  The Russian orders, the initiative and the first
marker are played through the HTTP API first; then the French player drags Dumon a back and forth ``--moves``
times, ``--pause`` ms apart (the first move is legal, the others are ruled illegal: already moved, 7.31; every
one is a full ruling, with its board-difference line).  The link writes, for each answer, the time from the
moment the engine logged the act (the step added to its logger, on the event thread) to the moment the ruling's
lines were logged in the chat (REFEREE_LINK_TIMES): the HTTP request, the service's reading and ruling, the
answer, and the chat command.  Figures: p50, p90, p99, max of those times; the target is p99 <= 100 ms.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from link.referee_server import RefereeServer  # noqa: E402

from modulebuilder.cli import main as modulebuilder  # noqa: E402
from modulebuilder.definitions import resolve  # noqa: E402
from modulebuilder.vassal import enginecheck  # noqa: E402
from referee.logs.jsonlog import load_scenario  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(p / 100 * len(s) + 0.5) - 1))]


def run(moves: int, pause: int, synchronous: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        assert modulebuilder(["build", str(ROOT / "examples" / "tiny" / "scenario.yaml"), "--out", str(out)]) == 0
        with zipfile.ZipFile(out / "tiny.vmod") as z:
            (out / "tiny.vsav").write_bytes(z.read("tiny.vsav"))
        server = RefereeServer(out / "games.sqlite", f"?synchronous={synchronous}").start()
        try:
            scenario = resolve(load_scenario(str(ROOT / "examples" / "tiny" / "scenario.yaml")))
            _, game = server.call("POST", "/api/v1/games", {"scenario": scenario, "dice": "players"})
            gid, tokens = game["id"], game["tokens"]
            n = 0
            for side, event in [("French", {"type": "orders", "side": "French", "under_orders": ["dumon-a"]}),
                                ("Russian", {"type": "orders", "side": "Russian", "under_orders": ["psk-a"]}),
                                ("French", {"type": "initiative"}),
                                ("French", {"type": "roll", "roll": 9}),
                                ("Russian", {"type": "roll", "roll": 0}),
                                ("French", {"type": "first_marker", "side": "French", "marker": "i-corps"})]:
                status, body = server.call("POST", f"/api/v1/games/{gid}/events",
                                           {"expected_index": n, "events": [event]}, tokens[side])
                assert status == 200, body
                n = body["next_index"]
            actions = [{"chat": "!scenario tiny"}, {"chat": "!side French"}, {"wait": 2000}]
            for i in range(moves):
                actions += [{"move": "Dumon a", "to": "0303" if i % 2 == 0 else "0203"}, {"wait": pause}]
            actions.append({"wait": 2000})
            script = out / "script.json"
            script.write_text(json.dumps({"player": "Alice", "actions": actions}))
            times = out / "times.txt"
            env = {"REFEREE_URL": server.url, "REFEREE_GAME": gid, "REFEREE_TOKEN": tokens["French"],
                   "REFEREE_LINK_TIMES": str(times)}
            result = enginecheck.vrecord(out / "tiny.vmod", out / "tiny.vsav", script, out / "live.vlog", env=env)
            assert result.ok, result.lines[-20:]
            ms = [float(line.split()[0]) for line in times.read_text().splitlines()]
            ruled = len([e for e in server.call("GET", f"/api/v1/games/{gid}", token=tokens["French"])[1]["log"]])
        finally:
            server.stop()
    return {"answers": len(ms), "events": ruled - n, "p50": statistics.median(ms), "p90": percentile(ms, 90),
            "p99": percentile(ms, 99), "max": max(ms), "load": os.getloadavg()[0]}


def cli() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=100)
    ap.add_argument("--pause", type=int, default=300, help="ms between the moves")
    ap.add_argument("--synchronous", choices=("full", "normal"), default="full",
                    help="SQLite's durability (full: a disk flush per commit, as `referee serve` runs by default)")
    args = ap.parse_args()
    r = run(args.moves, args.pause, args.synchronous)
    print(f"{r['answers']} answers for {r['events']} events ruled: act -> ruling in the chat "
          f"p50 {r['p50']:.1f} ms, p90 {r['p90']:.1f} ms, p99 {r['p99']:.1f} ms, max {r['max']:.1f} ms "
          f"(load average {r['load']:.2f})")


if __name__ == "__main__":
    cli()
