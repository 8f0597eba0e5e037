"""The web page: ``GET /``.  Plain HTML and JavaScript (static/), no build step; it talks to /api/v1
(the page's own routes: referee/service/replay_view.py; how it works: docs/page.md).

The first time a process serves the page it loads, in a background thread, every bundled scenario, imports its
ruleset and draws (or reads from board.py's disk cache) its map and counter sheet: a player opens the page
before choosing a file, and the upload's first board picture should not wait for the Borodino scenario to be
parsed (a few hundred ms), the Triumph & Glory rules to be imported (a few hundred ms) or the map and its 600
counter faces to be drawn (over a second, when nothing is on disk).
"""
from __future__ import annotations

import logging
import threading

from flask import Blueprint, render_template

from referee.engine import registry
from referee.service import board, scenarios

bp = Blueprint("web", __name__, static_folder="static", static_url_path="/static", template_folder="templates")
log = logging.getLogger(__name__)

_warmed = threading.Event()
_warm_lock = threading.Lock()


def _warm_bundled() -> None:
    for entry in scenarios.available():
        try:
            scenario = scenarios.resolve(entry["id"])
            registry.get(scenario.ruleset)
            board.warm(scenario)
        except Exception:  # noqa: BLE001 — a scenario that cannot be drawn fails later in its own request
            log.warning("could not draw scenario %s ahead of time", entry["id"], exc_info=True)


def warm_once() -> None:
    """Start drawing the bundled scenarios' art, once per process."""
    with _warm_lock:
        if _warmed.is_set():
            return
        _warmed.set()
    threading.Thread(target=_warm_bundled, name="warm-boards", daemon=True).start()


@bp.get("/")
def index() -> str:
    warm_once()
    return render_template("index.html")
