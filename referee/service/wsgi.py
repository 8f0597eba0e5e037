"""The WSGI entry point for gunicorn: ``gunicorn 'referee.service.wsgi:app'`` (settings from the environment)."""
from referee.service import create_app

app = create_app()
