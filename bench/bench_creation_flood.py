"""A creation flood: one client posting ``POST /api/v1/games`` (an inline scenario each time) back to back.

    .venv/bin/python bench/bench_creation_flood.py [--seconds 10] [--unlimited]

Against ``referee serve`` on 127.0.0.1 with SQLite and the service's default creation limits (creation.py:
a burst of 10, 30 a minute, 500 a day per client), or none (``--unlimited``: the earlier behaviour).  Prints
the answers by status, the games stored and how much the database grew (the file and its write-ahead log).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "service")]

from live import Server  # noqa: E402
from service_scenario import SMALL  # noqa: E402


def database_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.glob("referee.sqlite*"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--unlimited", action="store_true", help="creation rate and quota off")
    args = parser.parse_args()
    env = {"REFEREE_CREATE_PER_MINUTE": "0", "REFEREE_CREATE_QUOTA": "0"} if args.unlimited else \
        {"REFEREE_CREATE_PER_MINUTE": "30", "REFEREE_CREATE_BURST": "10", "REFEREE_CREATE_QUOTA": "500"}
    body = json.dumps({"scenario": SMALL, "dice": "players"})
    with tempfile.TemporaryDirectory(prefix="bench-creation-") as tmp:
        folder = Path(tmp)
        with Server(f"sqlite:///{folder / 'referee.sqlite'}?synchronous=normal", env=env) as server:
            before = database_bytes(folder)
            conn = server.connection()
            statuses: dict[int, int] = {}
            end = time.monotonic() + args.seconds
            while time.monotonic() < end:
                conn.request("POST", "/api/v1/games", body=body, headers={"Content-Type": "application/json"})
                resp = conn.getresponse()
                resp.read()
                statuses[resp.status] = statuses.get(resp.status, 0) + 1
            conn.close()
            time.sleep(0.5)                              # the storage's checkpoint thread
            grown = database_bytes(folder) - before
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"creation flood, {'no limits' if args.unlimited else 'default limits'}, one client, "
              f"{args.seconds:.0f} s: answers {dict(sorted(statuses.items()))}; games stored {statuses.get(201, 0)}; "
              f"database grew {grown / 1e6:.2f} MB ({grown / 1e6 / args.seconds:.3f} MB/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
