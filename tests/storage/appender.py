"""Child process for the multi-process and crash tests: one "service instance" appending to a game.

    python appender.py DATABASE_URL GAME_ID SIDE WRITER BATCHES BATCH_SIZE

Opens its own storage, prints ``ready``, waits for a line on stdin (so that several appenders
start together), appends BATCHES batches (retrying on StaleIndex), and prints
``ack WRITER SEQ`` after each commit returns: a printed line is an acknowledgement the database
must keep, even if this process is killed the next instant.  Ends with ``done STALE``.
"""

from __future__ import annotations

import sys

from referee.storage import open_storage
from workload import append_with_retry, batch


def main(url: str, game_id: str, side: str, writer: str, batches: int, size: int) -> None:
    stale_total = 0
    with open_storage(url) as storage:
        print("ready", flush=True)
        sys.stdin.readline()
        view = 0  # deliberately stale at first: the first append learns the index from StaleIndex
        for seq in range(batches):
            view, stale = append_with_retry(storage, game_id, side, batch(writer, seq, size), view)
            stale_total += stale
            print(f"ack {writer} {seq}", flush=True)
    print(f"done {stale_total}", flush=True)


if __name__ == "__main__":
    url, game_id, side, writer, batches, size = sys.argv[1:]
    main(url, game_id, side, writer, int(batches), int(size))
