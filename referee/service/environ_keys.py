"""The WSGI environ keys through which the service's gunicorn worker (worker.py) and its routes (api.py) speak.

Under another server none of them is set, and the routes behave as if the worker had not asked for anything.
"""
from __future__ import annotations

OUTSIDE_GATE = "referee.outside_gate"          # the worker's context manager: run a heavy route outside its gate
CLOSE_CONNECTION = "referee.close_connection"  # a route asks the worker to close the connection after answering
BODY_READ = "referee.body_read"                # the worker has read the whole request body
