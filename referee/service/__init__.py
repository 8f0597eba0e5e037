"""The referee HTTP service (DESIGN §6): a Flask application factory.

    from referee.service import create_app
    app = create_app({"DATABASE_URL": "sqlite:///games.db"})

Blueprints: ``api`` (rulesets, scenarios, check, openapi; under /api/v1), ``games`` (hosted games, under
/api/v1/games), ``web`` (the page at /).  ``errors``
turns every failure into ``{"error": {code, message}}``.
See docs/service.md.
"""
from __future__ import annotations

from typing import Any, Mapping

from flask import Flask

from referee.service.config import API_PREFIX
from referee.service import config as settings


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    from referee.service import api, browser_policy, errors, games, live, pbem, replay_view, web
    from referee.service.extension import Referee
    from referee.service.limits import BodyLimit

    app = Flask(__name__)
    app.config.update(settings.load(config))
    app.json.sort_keys = False            # rulings keep the field order of DESIGN §5
    app.json.ensure_ascii = False
    app.config["TRUSTED_HOSTS"] = browser_policy.trusted_hosts(app.config["ALLOWED_HOSTS"], app.config["SERVED_HOST"])
    errors.register(app)
    browser_policy.register(app)
    app.register_blueprint(api.bp, url_prefix=API_PREFIX)
    app.register_blueprint(games.bp, url_prefix=API_PREFIX + "/games")
    app.register_blueprint(pbem.bp, url_prefix=API_PREFIX + "/games")   # a turn as a .vlog (referee/service/pbem.py)
    app.register_blueprint(live.bp, url_prefix=API_PREFIX + "/games")   # VASSAL's steps as they are made (live.py)
    app.register_blueprint(web.bp)
    app.register_blueprint(replay_view.bp, url_prefix=API_PREFIX)   # the page's replays and what-ifs
    Referee(app)
    # A body without Content-Length is counted as it arrives and refused past the limit (413), under a server
    # that hands the application a chunked body to read (gunicorn, werkzeug; waitress counts it itself).
    app.wsgi_app = BodyLimit(app.wsgi_app, int(app.config["MAX_CONTENT_LENGTH"]))  # type: ignore[method-assign]
    return app


__all__ = ["API_PREFIX", "create_app"]
