"""The database schema, as numbered migrations per backend.

Migration N is applied once, in one transaction with the bump of ``schema_version`` to N, so a
database is always at exactly one version.  Append new migrations; never edit an applied one.

The two backends carry the same tables and constraints; only the column types differ.  JSON
documents are TEXT in both: storage never queries inside them, text keeps each document exactly as
written (PostgreSQL's jsonb would reorder keys and drop duplicates), and both backends then return
identical values.
"""

from __future__ import annotations

Migration = tuple[str, ...]
"""The statements of one migration (one statement each: sqlite3 runs one per call)."""

SQLITE: tuple[Migration, ...] = (
    (
        # STRICT makes SQLite enforce the declared column types, as PostgreSQL does.
        """CREATE TABLE games (
            id              TEXT PRIMARY KEY,
            created_at      TEXT NOT NULL,
            scenario        TEXT NOT NULL,
            ruleset         TEXT NOT NULL,
            dice_mode       TEXT NOT NULL CHECK (dice_mode IN ('players', 'referee')),
            dice_commitment TEXT NOT NULL,
            dice_seed       TEXT NOT NULL,
            side_seeds      TEXT NOT NULL,
            status          TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'ended')),
            ended_at        TEXT,
            CHECK ((status = 'ended') = (ended_at IS NOT NULL))
        ) STRICT""",
        """CREATE TABLE sides (
            game_id    TEXT NOT NULL REFERENCES games (id),
            position   INTEGER NOT NULL CHECK (position >= 0),
            name       TEXT NOT NULL,
            token_hash TEXT NOT NULL,
            PRIMARY KEY (game_id, name),
            UNIQUE (game_id, position)
        ) STRICT""",
        # WITHOUT ROWID stores the events clustered by (game_id, event_index): reading a game's log
        # is one range scan.
        """CREATE TABLE events (
            game_id     TEXT NOT NULL,
            event_index INTEGER NOT NULL CHECK (event_index >= 0),
            side        TEXT NOT NULL,
            event       TEXT NOT NULL,
            ruling      TEXT NOT NULL,
            created_at  TEXT NOT NULL,
            PRIMARY KEY (game_id, event_index),
            FOREIGN KEY (game_id, side) REFERENCES sides (game_id, name)
        ) STRICT, WITHOUT ROWID""",
    ),
    (
        # Each event's link in the game's hash chain (referee.service.chain), and the dice
        # contributions of the sides, in the order they were fixed (referee.service.dice).
        "ALTER TABLE events ADD COLUMN chain TEXT NOT NULL DEFAULT ''",
        """CREATE TABLE dice_contributions (
            game_id    TEXT NOT NULL REFERENCES games (id),
            seq        INTEGER NOT NULL CHECK (seq >= 0),
            side       TEXT NOT NULL,
            kind       TEXT NOT NULL CHECK (kind IN ('commitment', 'seed')),
            value      TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (game_id, seq),
            UNIQUE (game_id, side, kind),
            FOREIGN KEY (game_id, side) REFERENCES sides (game_id, name)
        ) STRICT""",
    ),
    (
        # A hosted game's setting: rolls typed in a VASSAL log's chat are refused (POST /games/<id>/vlog).
        "ALTER TABLE games ADD COLUMN strict_dice INTEGER NOT NULL DEFAULT 0 CHECK (strict_dice IN (0, 1))",
    ),
    (
        # Who created a game (a digest of the client's address: the service's per-client quota), and the
        # index that counts a client's recent games and finds never-played ones to expire.
        "ALTER TABLE games ADD COLUMN creator TEXT NOT NULL DEFAULT ''",
        "CREATE INDEX games_creator ON games (creator, created_at)",
        "CREATE INDEX games_created ON games (status, created_at)",
    ),
    (
        # A game played live in VASSAL (referee/service/live.py): the position the link started from, every
        # step the sides' links sent (in the order the referee took them), and what each event read from those
        # steps became (the hosted event's index, or none).  Written in one transaction with the game's events.
        # ``version`` counts the live commits (another process's cached reading is behind when it differs);
        # ``reads`` is how many read events there are; a read row keeps the version that wrote it.
        """CREATE TABLE live_games (
            game_id  TEXT PRIMARY KEY REFERENCES games (id),
            start    TEXT NOT NULL,
            version  INTEGER NOT NULL CHECK (version >= 0),
            reads    INTEGER NOT NULL CHECK (reads >= 0),
            said     TEXT NOT NULL
        ) STRICT""",
        """CREATE TABLE live_steps (
            game_id    TEXT NOT NULL,
            seq        INTEGER NOT NULL CHECK (seq >= 0),
            side       TEXT NOT NULL,
            link       TEXT NOT NULL,
            link_index INTEGER NOT NULL CHECK (link_index >= 0),
            commands   TEXT NOT NULL,
            PRIMARY KEY (game_id, seq),
            UNIQUE (game_id, side, link, link_index),
            FOREIGN KEY (game_id, side) REFERENCES sides (game_id, name)
        ) STRICT, WITHOUT ROWID""",
        """CREATE TABLE live_reads (
            game_id      TEXT NOT NULL,
            position     INTEGER NOT NULL CHECK (position >= 0),
            event        TEXT NOT NULL,
            stored_index INTEGER CHECK (stored_index >= 0),
            written      INTEGER NOT NULL,
            PRIMARY KEY (game_id, position)
        ) STRICT, WITHOUT ROWID""",
        "CREATE INDEX live_reads_written ON live_reads (game_id, written)",
    ),
)

POSTGRES: tuple[Migration, ...] = (
    (
        """CREATE TABLE games (
            id              TEXT PRIMARY KEY,
            created_at      TIMESTAMPTZ NOT NULL,
            scenario        TEXT NOT NULL,
            ruleset         TEXT NOT NULL,
            dice_mode       TEXT NOT NULL CHECK (dice_mode IN ('players', 'referee')),
            dice_commitment TEXT NOT NULL,
            dice_seed       TEXT NOT NULL,
            side_seeds      TEXT NOT NULL,
            status          TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'ended')),
            ended_at        TIMESTAMPTZ,
            CHECK ((status = 'ended') = (ended_at IS NOT NULL))
        )""",
        """CREATE TABLE sides (
            game_id    TEXT NOT NULL REFERENCES games (id),
            position   INTEGER NOT NULL CHECK (position >= 0),
            name       TEXT NOT NULL,
            token_hash TEXT NOT NULL,
            PRIMARY KEY (game_id, name),
            UNIQUE (game_id, position)
        )""",
        """CREATE TABLE events (
            game_id     TEXT NOT NULL,
            event_index INTEGER NOT NULL CHECK (event_index >= 0),
            side        TEXT NOT NULL,
            event       TEXT NOT NULL,
            ruling      TEXT NOT NULL,
            created_at  TIMESTAMPTZ NOT NULL,
            PRIMARY KEY (game_id, event_index),
            FOREIGN KEY (game_id, side) REFERENCES sides (game_id, name)
        )""",
    ),
    (
        "ALTER TABLE events ADD COLUMN chain TEXT NOT NULL DEFAULT ''",
        """CREATE TABLE dice_contributions (
            game_id    TEXT NOT NULL REFERENCES games (id),
            seq        INTEGER NOT NULL CHECK (seq >= 0),
            side       TEXT NOT NULL,
            kind       TEXT NOT NULL CHECK (kind IN ('commitment', 'seed')),
            value      TEXT NOT NULL,
            created_at TIMESTAMPTZ NOT NULL,
            PRIMARY KEY (game_id, seq),
            UNIQUE (game_id, side, kind),
            FOREIGN KEY (game_id, side) REFERENCES sides (game_id, name)
        )""",
    ),
    (
        # A hosted game's setting: rolls typed in a VASSAL log's chat are refused (POST /games/<id>/vlog).
        "ALTER TABLE games ADD COLUMN strict_dice INTEGER NOT NULL DEFAULT 0 CHECK (strict_dice IN (0, 1))",
    ),
    (
        "ALTER TABLE games ADD COLUMN creator TEXT NOT NULL DEFAULT ''",
        "CREATE INDEX games_creator ON games (creator, created_at)",
        "CREATE INDEX games_created ON games (status, created_at)",
    ),
    (
        """CREATE TABLE live_games (
            game_id  TEXT PRIMARY KEY REFERENCES games (id),
            start    TEXT NOT NULL,
            version  INTEGER NOT NULL CHECK (version >= 0),
            reads    INTEGER NOT NULL CHECK (reads >= 0),
            said     TEXT NOT NULL
        )""",
        """CREATE TABLE live_steps (
            game_id    TEXT NOT NULL,
            seq        INTEGER NOT NULL CHECK (seq >= 0),
            side       TEXT NOT NULL,
            link       TEXT NOT NULL,
            link_index INTEGER NOT NULL CHECK (link_index >= 0),
            commands   TEXT NOT NULL,
            PRIMARY KEY (game_id, seq),
            UNIQUE (game_id, side, link, link_index),
            FOREIGN KEY (game_id, side) REFERENCES sides (game_id, name)
        )""",
        """CREATE TABLE live_reads (
            game_id      TEXT NOT NULL,
            position     INTEGER NOT NULL CHECK (position >= 0),
            event        TEXT NOT NULL,
            stored_index INTEGER CHECK (stored_index >= 0),
            written      INTEGER NOT NULL,
            PRIMARY KEY (game_id, position)
        )""",
        "CREATE INDEX live_reads_written ON live_reads (game_id, written)",
    ),
)

VERSION_TABLE = """CREATE TABLE IF NOT EXISTS schema_version (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
)"""
