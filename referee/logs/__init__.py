"""Log readers: JSON/YAML logs (DESIGN §5) now; the VASSAL reader (``vassal.py``) comes with its own issue."""
from referee.logs.problems import InputError
from referee.logs.jsonlog import Log, parse_log, read_log

__all__ = ["InputError", "Log", "parse_log", "read_log"]
