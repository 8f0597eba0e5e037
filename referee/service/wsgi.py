"""The WSGI entry point for gunicorn: ``gunicorn 'referee.service.wsgi:app'`` (settings from the environment).

Each worker imports this module after the fork, so each builds its own app; it then loads the project's
scenarios in the background (Borodino takes seconds), so that the first request naming one does not wait.
``REFEREE_PRELOAD=0`` turns that off.
"""
import os
import threading

from referee.service import create_app, scenarios

app = create_app()
if os.environ.get("REFEREE_PRELOAD", "1") != "0":
    threading.Thread(target=scenarios.preload, name="referee-preload", daemon=True).start()
