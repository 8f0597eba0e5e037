"""Log readers: JSON/YAML logs (DESIGN §5, ``jsonlog``) and VASSAL ``.vlog``/``.vsav`` files (``vassal``).

Both return the same :class:`Log`, so the engine never knows where a game was played."""
from referee.logs.problems import InputError
from referee.logs.jsonlog import Log, parse_log, read_log

__all__ = ["InputError", "Log", "parse_log", "read_log"]
