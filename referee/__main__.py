from referee.cli import run

raise SystemExit(run())
