"""How fast the page shows the board: first picture after uploading the sample game, and each step after.

Runs the service (werkzeug, threaded, in this process) and Debian's headless chromium through Playwright, as a
player uses the page: choose the file, press Check, then the arrow key.  Measured in the browser
(``window.__page.timing``, performance.now()):

* **first picture** — from pressing Check to the set-up drawn on the board (map, counters), in four cases:
  *cold, nothing on disk* (a fresh server process with an empty art cache: the map and the 600 counter faces
  are drawn in that request), *cold* (a fresh server process, the scenario's map and sheet drawn before by
  another process: board.py's disk cache), both with ``GET /``'s warm-up held back so that the upload finds
  nothing loaded (no scenario, no ruleset imported); *warm* (the scenario loaded and drawn in this process, as
  ``GET /`` starts doing when the page is opened: docs/page.md) and *again* (the same log a second time: the
  replay is cached too);
* **step** — pressing → (the next event: usually prefetched) and jumping to random steps with the slider (no
  prefetch: a snapshot plus up to 31 engine steps on the server), each from the key press to the counters moved;
* **server CPU per step** (Flask's test client in this process, ``time.process_time``): the least noisy figure.

The peer is the page as it was before (issue #16), measured in the same run against the same server: every
step re-sent the whole 0.5 MB log to ``POST /api/v1/replay/board.png?step=N`` and got a PNG back, and the first
picture was ``POST /replay`` then ``board.png?step=0``.  The bench prints both and their ratio.

    .venv/bin/python bench/bench_page.py [--steps 40] [--jumps 20]

This machine is shared and noisy: compare the ratios of one run, not absolute times from another day.
"""
from __future__ import annotations

import argparse
import http.client
import logging
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "tests" / "fixtures" / "logs" / "sample-borodino.json"
CHROMIUM = "/usr/bin/chromium"


def serve(database: Path) -> tuple[object, int]:
    from referee.service import create_app
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app = create_app({"DATABASE_URL": f"sqlite:///{database}"})
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, srv.server_port


COLD_SERVER = """
import logging, os, sys, threading
from werkzeug.serving import make_server
from referee.service import web
web._warmed.set()                  # GET / loads and draws nothing ahead: the upload finds this process cold
logging.getLogger("werkzeug").setLevel(logging.ERROR)
if sys.argv[1] == "wsgi":          # as gunicorn starts a worker: the app of referee.service.wsgi, which loads
    from referee.service.wsgi import app      # the scenarios in the background; the worker is then idle until
    for t in threading.enumerate():           # the upload comes (waited for here)
        if t.name == "referee-preload":
            t.join()
else:                              # nothing loaded: the upload comes the moment the process is up
    from referee.service import create_app
    app = create_app()
srv = make_server("127.0.0.1", 0, app, threaded=True)
print(srv.server_port, flush=True)
srv.serve_forever()
"""


def cold_first_picture(browser: object, tmp: Path, art_cache: Path, name: str, mode: str = "bare") -> dict:
    """The first picture from a server process started for it (``mode`` bare: its imports done, nothing else;
    wsgi: as gunicorn starts a worker), with the art cache ``art_cache``; the process is stopped afterwards."""
    import subprocess
    env = {**os.environ, "REFEREE_ART_CACHE": str(art_cache), "DATABASE_URL": f"sqlite:///{tmp / name}.sqlite"}
    proc = subprocess.Popen([sys.executable, "-c", COLD_SERVER, mode], env=env,
                            stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        port = int(proc.stdout.readline())
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(f"http://127.0.0.1:{port}/")
        before = _cpu_ms(proc.pid)
        out = upload(page, cpu=lambda: _cpu_ms(proc.pid) - before)
        page.close()
        return out
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _cpu_ms(pid: int) -> float:
    """CPU time (user + system) a process has used so far, in ms (Linux /proc; its children not counted)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def upload(page: object, timeout: int = 180_000, cpu: object = None) -> dict:
    page.set_input_files("#log-file", str(SAMPLE))
    page.click("#check-button")
    # Functions, not expressions: Playwright polls an expression with eval, which the page's CSP refuses.
    page.wait_for_function("() => window.__page.timing.firstPicture !== undefined", timeout=timeout)
    server_cpu = cpu() if cpu is not None else None
    t = page.evaluate("window.__page.timing")
    t["server_cpu"] = server_cpu
    page.wait_for_function("() => window.__page.timing.rulings !== undefined", timeout=timeout)
    t["rulings"] = page.evaluate("window.__page.timing.rulings")
    return t


def step_times(page: object, n: int, jumps: int, steps_total: int) -> tuple[list[float], list[float]]:
    arrow = []
    page.locator("#board-view").focus()
    for _ in range(n):
        current = int(page.locator("#board-world").get_attribute("data-step"))
        t0 = time.perf_counter()
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"() => document.getElementById('board-world').dataset.step === '{current + 1}'")
        arrow.append((time.perf_counter() - t0) * 1000)
    rng = random.Random(7)
    jumped = []
    for _ in range(jumps):
        target = rng.randrange(1, steps_total)
        t0 = time.perf_counter()
        page.evaluate(f"showStep({target}, true)")
        page.wait_for_function(f"() => document.getElementById('board-world').dataset.step === '{target}'")
        jumped.append((time.perf_counter() - t0) * 1000)
    return arrow, jumped


def peer(port: int, steps: list[int]) -> tuple[float, list[float]]:
    """The old page: the whole log with every picture."""
    data = SAMPLE.read_bytes()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)

    def post(path: str) -> bytes:
        conn.request("POST", path, body=data, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        body = resp.read()
        assert resp.status == 200, (path, resp.status, body[:200])
        return body

    t0 = time.perf_counter()
    post("/api/v1/replay")
    post("/api/v1/replay/board.png?step=0")
    first = (time.perf_counter() - t0) * 1000
    times = []
    for n in steps:
        t0 = time.perf_counter()
        post(f"/api/v1/replay/board.png?step={n}")
        times.append((time.perf_counter() - t0) * 1000)
    conn.close()
    return first, times


def server_cpu(steps: list[int]) -> tuple[float, float]:
    """CPU milliseconds the server spends per step, new page against old, in this process
    (``time.process_time``: less noisy than wall time on a shared machine).  New: ``GET /replays/<id>/board``
    through Flask's test client.  Old: what ``POST /replay/board.png`` does for a log it has already replayed
    (digest of the re-sent bytes, the engine from a snapshot, the PNG drawn and encoded) — called directly,
    since the service now runs that route in its checking worker processes, whose CPU this process cannot see."""
    import hashlib

    from referee.service import board, create_app
    from referee.service.logs import Upload, read
    from referee.service.replays import replay_log
    tmp = Path(tempfile.mkdtemp(prefix="bench-page-cpu-"))
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp / 'referee.sqlite'}"})
    client = app.test_client()
    data = SAMPLE.read_bytes()
    key = client.post("/api/v1/replays", data=data, content_type="application/json").json["id"]
    client.get(f"/api/v1/replays/{key}")
    t0 = time.process_time()
    for n in steps:
        assert client.get(f"/api/v1/replays/{key}/board?step={n}").status_code == 200
    new = (time.process_time() - t0) * 1000 / len(steps)
    old_replay = replay_log(read(Upload(data, "sample.json")))
    board.png(old_replay.log.scenario, [])                  # the map and faces drawn before the clock starts
    t0 = time.process_time()
    for n in steps:
        hashlib.sha256(b"\0" + data).hexdigest()
        game = old_replay.game_at(n)
        board.png(old_replay.log.scenario, game.ruleset.view(game.state, None).get("units", []))
    old = (time.process_time() - t0) * 1000 / len(steps)
    return new, old


def fmt(values: list[float]) -> str:
    q = statistics.quantiles(values, n=20) if len(values) > 1 else values * 19
    return f"median {statistics.median(values):7.1f} ms, p95 {q[18]:7.1f} ms (n={len(values)})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--jumps", type=int, default=20)
    ap.add_argument("--cold-only", action="store_true", help="only the cold first pictures (fresh processes)")
    args = ap.parse_args()
    import json

    from playwright.sync_api import sync_playwright
    steps_total = len(json.loads(SAMPLE.read_text())["events"])
    tmp = Path(tempfile.mkdtemp(prefix="bench-page-"))
    srv, port = serve(tmp / "referee.sqlite")
    url = f"http://127.0.0.1:{port}/"
    print(f"load average {os.getloadavg()[0]:.2f} (2 cores shared)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-gpu", "--no-first-run"])
        art = tmp / "art"
        blank = cold_first_picture(browser, tmp, art, "blank")          # draws into the empty cache ...
        cold = cold_first_picture(browser, tmp, art, "cold")            # ... which this fresh process reads
        worker = cold_first_picture(browser, tmp, art, "worker", "wsgi")
        if args.cold_only:
            for name, t in (("cold, no art disk", blank), ("cold", cold), ("new worker", worker)):
                print(f"  {name:18}: log read and answered {t['created']:5.0f} ms, geometry {t['art']:5.0f} ms, "
                      f"pictures {t['images']:5.0f} ms, drawn {t['firstPicture']:5.0f} ms (from pressing Check); "
                      f"server CPU {t['server_cpu']:5.0f} ms")
            print(f"load average {os.getloadavg()[0]:.2f} after")
            browser.close()
            srv.shutdown()
            return 0
        # Warm: this process's GET / loads and draws the scenario ahead; then only the replay is new (a
        # different log of the same scenario: the same bytes plus a space).
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(url)
        from referee.service import board, scenarios
        board.warm(scenarios.resolve("borodino"))                       # what GET /'s warm-up does, waited for
        other = tmp / "sample-borodino-copy.json"
        other.write_bytes(SAMPLE.read_bytes() + b" ")
        page.set_input_files("#log-file", str(other))
        page.click("#check-button")
        page.wait_for_function("() => window.__page.timing.rulings !== undefined", timeout=180_000)
        warm = page.evaluate("window.__page.timing")
        again = upload(page)
        arrow, jumped = step_times(page, args.steps, args.jumps, steps_total)
        browser.close()
    rng = random.Random(7)
    peer_first, peer_steps = peer(port, [rng.randrange(1, steps_total) for _ in range(args.jumps)])
    srv.shutdown()
    cpu_new, cpu_old = server_cpu([rng.randrange(1, steps_total) for _ in range(args.jumps)])

    print(f"sample game: {steps_total} events, {SAMPLE.stat().st_size / 1e6:.2f} MB")
    print(f"first picture, cold, no art disk : {blank['firstPicture']:7.0f} ms   (all rulings listed {blank['rulings']:.0f} ms)")
    print(f"first picture, cold process      : {cold['firstPicture']:7.0f} ms   (all rulings listed {cold['rulings']:.0f} ms)")
    print(f"first picture, new gunicorn worker: {worker['firstPicture']:6.0f} ms   (scenarios preloaded by referee.service.wsgi)")
    for name, t in (("cold, no art disk", blank), ("cold", cold), ("new worker", worker), ("scenario drawn", warm)):
        cpu = f"; server CPU {t['server_cpu']:5.0f} ms" if t.get("server_cpu") is not None else ""
        print(f"  {name:18}: log read and answered {t['created']:5.0f} ms, geometry {t['art']:5.0f} ms, "
              f"pictures {t['images']:5.0f} ms, drawn {t['firstPicture']:5.0f} ms (from pressing Check){cpu}")
    print(f"first picture, scenario drawn    : {warm['firstPicture']:7.0f} ms   (all rulings listed {warm['rulings']:.0f} ms)")
    print(f"first picture, same log again    : {again['firstPicture']:7.0f} ms   (all rulings listed {again['rulings']:.0f} ms)")
    print(f"peer first picture (old page)    : {peer_first:7.0f} ms")
    print(f"step →  (page)                   : {fmt(arrow)}")
    print(f"step to a random event (page)    : {fmt(jumped)}")
    print(f"step to a random event (old page): {fmt(peer_steps)}")
    print(f"server CPU per random step       : page {cpu_new:.1f} ms (placements JSON), old page {cpu_old:.1f} ms "
          f"(log re-sent, PNG drawn): {cpu_old / cpu_new:.1f}x")
    print(f"ratio old/new, random step (median): {statistics.median(peer_steps) / statistics.median(jumped):.1f}x; "
          f"first picture (scenario drawn): {peer_first / warm['firstPicture']:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
