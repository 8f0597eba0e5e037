"""Choosing the backend from DATABASE_URL, and schema migrations."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest

from raw_db import RawDatabase
from storage.pg_server import PostgresServer
from referee.storage import DEFAULT_URL, GameNotFound, NewGame, Storage, StorageError, open_storage
from referee.storage.postgres import PostgresStorage
from referee.storage.sqlite import SQLiteStorage


def test_default_is_referee_sqlite_in_the_working_folder(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    assert DEFAULT_URL == "sqlite:///referee.sqlite"
    with open_storage() as storage:
        assert isinstance(storage, SQLiteStorage)
        storage.create_game(NewGame(scenario="s", ruleset="r", sides=("A", "B")))
    assert (tmp_path / "referee.sqlite").is_file()


def test_database_url_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", "sqlite:///sub.db")  # relative to the working folder
    with open_storage():
        pass
    assert (tmp_path / "sub.db").is_file()
    assert not (tmp_path / "referee.sqlite").exists()


def test_sqlite_file_is_in_wal_mode(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'w.db'}"
    with open_storage(url):
        pass
    assert RawDatabase(url).execute("PRAGMA journal_mode") == [("wal",)]


@pytest.mark.parametrize("query, level", [("", 2), ("?synchronous=full", 2), ("?synchronous=normal", 1),
                                          ("?synchronous=NORMAL", 1)])
def test_sqlite_synchronous_from_the_url(tmp_path: Path, query: str, level: int) -> None:
    # FULL (2) by default: a commit is on disk when it returns; NORMAL (1) only when asked for (docs/storage.md).
    with open_storage(f"sqlite:///{tmp_path / 's.db'}{query}") as storage:
        assert isinstance(storage, SQLiteStorage)
        with storage._connection() as conn:
            assert conn.execute("PRAGMA synchronous").fetchone()[0] == level
    assert (tmp_path / "s.db").is_file()                          # the query is not part of the file name


@pytest.mark.parametrize("query", ["?synchronous=off", "?fsync=no", "?synchronous"])
def test_sqlite_bad_options_are_refused(tmp_path: Path, query: str) -> None:
    with pytest.raises(StorageError, match="synchronous"):
        open_storage(f"sqlite:///{tmp_path / 's.db'}{query}")


def test_memory_database_works_and_is_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with open_storage("sqlite:///:memory:") as one, open_storage("sqlite:///:memory:") as two:
        created = one.create_game(NewGame(scenario="s", ruleset="r", sides=("A", "B")))
        assert one.append_events(created.game_id, "A", 0, [({"type": "x"}, {})]) == 1
        assert one.authenticate(created.game_id, created.tokens["B"]) == "B"
        with pytest.raises(GameNotFound):
            two.get_game(created.game_id)
    assert list(tmp_path.iterdir()) == []  # no file was created


@pytest.mark.parametrize("url", ["mysql://u:p@h/db", "sqlite:///", "sqlite://relative.db", "nonsense"])
def test_unsupported_urls_are_refused_clearly(url: str) -> None:
    with pytest.raises(StorageError, match="DATABASE_URL|sqlite:///"):
        open_storage(url)


def test_unreachable_postgres_is_a_storage_error_without_the_password() -> None:
    with socket.socket() as s:  # a port where nothing listens
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"postgresql://someone:hunter2@127.0.0.1:{port}/db"
    with pytest.raises(StorageError) as info:
        PostgresStorage(url, timeout=1.0)
    assert "hunter2" not in str(info.value)
    assert f"127.0.0.1:{port}/db" in str(info.value)


def test_migrations_record_the_version_and_run_once(database_url: str, raw: RawDatabase) -> None:
    with open_storage(database_url) as first:
        created = first.create_game(NewGame(scenario="s", ruleset="r", sides=("A", "B")))
        assert first.migrate() == 5
    assert raw.execute("SELECT id, version FROM schema_version") == [(1, 5)]
    with open_storage(database_url) as again:  # reopening keeps the data
        assert again.get_game(created.game_id).sides == ("A", "B")
    assert raw.execute("SELECT id, version FROM schema_version") == [(1, 5)]


def test_a_database_newer_than_the_program_is_refused(database_url: str, raw: RawDatabase) -> None:
    with open_storage(database_url):
        pass
    raw.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(StorageError, match="version 99"):
        open_storage(database_url)


def test_instances_starting_together_migrate_once(pg_server: PostgresServer) -> None:
    """Several service instances starting at the same moment on an empty PostgreSQL database."""
    url = pg_server.new_database_url()
    opened: list[Storage] = []
    errors: list[BaseException] = []
    start = threading.Barrier(6)

    def boot() -> None:
        try:
            start.wait()
            opened.append(open_storage(url))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=boot) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    try:
        assert not errors, errors
        assert RawDatabase(url).execute("SELECT version FROM schema_version") == [(5,)]
        created = opened[0].create_game(NewGame(scenario="s", ruleset="r", sides=("A", "B")))
        assert opened[-1].get_game(created.game_id).ruleset == "r"
    finally:
        for s in opened:
            s.close()
