"""What the service tells browsers, and what it refuses from them.

* **Headers on every answer**: a Content-Security-Policy without inline script (the page's script and style are
  static files), ``frame-ancestors 'none'`` (the page has a token field: no other site may frame it),
  ``nosniff``, and no referrer (game ids travel in URLs).
* **No cross-site writes**: any page a user visits can make the browser post to a referee on localhost with a
  "simple" request (text/plain, a form, multipart: no preflight).  So a request that changes or costs anything
  (every method but GET, HEAD, OPTIONS) is refused (403 ``cross_site``) when the browser says it comes from
  another site (``Sec-Fetch-Site``) or names another origin (``Origin``); and bodies of the types only a form
  or a cross-site page would send (``text/plain``, ``application/x-www-form-urlencoded``) are refused (415).
  Clients that are not browsers send neither header and are not affected.
* **Served hosts**: Flask's ``TRUSTED_HOSTS`` (``REFEREE_ALLOWED_HOSTS``): a request naming another host in its
  ``Host`` header (DNS rebinding: a foreign site whose name resolves to 127.0.0.1) is 400 ``unknown_host``.
"""
from __future__ import annotations

from typing import Mapping
from urllib.parse import urlsplit

from flask import Flask, Response, request

from referee.service.errors import ApiError

CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
                           "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
                           "frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CONTENT_SECURITY_POLICY, "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"}
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
FORM_TYPES = frozenset({"text/plain", "application/x-www-form-urlencoded"})
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "[::1]")
WILDCARD_BINDS = frozenset({"", "0.0.0.0", "::", "[::]", "*"})


def trusted_hosts(setting: str | None, served: str | None) -> list[str] | None:
    """Flask's TRUSTED_HOSTS from ``REFEREE_ALLOWED_HOSTS`` (comma-separated; ``*`` for any; a leading dot for
    a domain and its subdomains) and the address ``referee serve`` listens on: by default the local names and
    that address; None (any host) when listening on every address without a setting."""
    if setting is not None and setting.strip():
        names = [h.strip() for h in setting.split(",") if h.strip()]
        return None if "*" in names else names
    if served is not None and served.strip() in WILDCARD_BINDS:
        return None
    names = list(LOCAL_HOSTS)
    if served and served not in names:
        names.append(served)
    return names


def cross_site(method: str, headers: Mapping[str, str], host: str) -> str | None:
    """Why a request must be refused as another site's, or None."""
    if method in SAFE_METHODS:
        return None
    fetch_site = headers.get("Sec-Fetch-Site", "").lower()
    if fetch_site in ("cross-site", "same-site"):
        return f"the browser says this request comes from another site (Sec-Fetch-Site: {fetch_site})"
    origin = headers.get("Origin")
    if origin is not None:
        if origin == "null" or urlsplit(origin).netloc.lower() != host.lower():
            return f"the request comes from another origin ({origin[:100]!r}, not this server's)"
    return None


def register(app: Flask) -> None:
    @app.before_request
    def refuse_cross_site() -> None:
        why = cross_site(request.method, request.headers, request.host)
        if why is not None:
            raise ApiError(403, "cross_site", f"{why}: this referee takes writes only from its own page or from "
                                              "programs")
        if request.method not in SAFE_METHODS and request.mimetype in FORM_TYPES:
            raise ApiError(415, "unsupported_media_type",
                           f"a {request.mimetype} body is what a form on another site sends: send JSON "
                           "(application/json), YAML (application/yaml) or a multipart upload")

    @app.after_request
    def headers(resp: Response) -> Response:
        for name, value in HEADERS.items():
            resp.headers.setdefault(name, value)
        return resp

