"""The web page: ``GET /``.  Plain HTML and JavaScript (static/), no build step; it talks to /api/v1."""
from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("web", __name__, static_folder="static", static_url_path="/static", template_folder="templates")


@bp.get("/")
def index() -> str:
    return render_template("index.html")
