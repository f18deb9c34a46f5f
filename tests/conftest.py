"""Shared fixtures. Database tests run on SQLite always, and on PostgreSQL too when PBEM_TEST_PG
holds a server URL (e.g. postgresql+psycopg://postgres@127.0.0.1:5432/test): each such test gets a
schema of its own (dropped afterwards), so tests never see each other's games."""

from __future__ import annotations

import os
import uuid

import pytest

from adjudicator.hells_gate.loader import load_scenario

PG_URL = os.environ.get("PBEM_TEST_PG")
BACKENDS = [
    "sqlite",
    pytest.param(
        "postgresql", marks=pytest.mark.skipif(not PG_URL, reason="PBEM_TEST_PG is not set")
    ),
]


@pytest.fixture(scope="session")
def scenario():
    return load_scenario()


def pg_schema_url(base: str, schema: str) -> str:
    """The server URL whose connections work in `schema` only."""
    return f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{schema}"


class PgSchema:
    """A fresh PostgreSQL schema for one test."""

    def __init__(self, base: str):
        from sqlalchemy import create_engine

        self.name = f"pbem_t_{uuid.uuid4().hex[:12]}"
        self.admin = create_engine(base)
        self.url = pg_schema_url(base, self.name)
        with self.admin.begin() as conn:
            conn.exec_driver_sql(f"CREATE SCHEMA {self.name}")

    def drop(self) -> None:
        with self.admin.begin() as conn:
            conn.exec_driver_sql("SET lock_timeout = '300s'")  # not forever; no load reaches it
            conn.exec_driver_sql(f"DROP SCHEMA IF EXISTS {self.name} CASCADE")
        self.admin.dispose()


@pytest.fixture(params=BACKENDS)
def db_url(request, tmp_path):
    """A fresh, empty database: a SQLite file, or a PostgreSQL schema when PBEM_TEST_PG is set."""
    if request.param == "sqlite":
        yield str(tmp_path / "games.db")
        return
    schema = PgSchema(PG_URL)
    try:
        yield schema.url
    finally:
        schema.drop()


@pytest.fixture
def stores():
    """open(url) -> Store; every store opened is closed after the test (PostgreSQL has a
    connection limit, and a schema is dropped more easily with no connection left)."""
    from storage import Store

    opened: list[Store] = []

    def open_(url: str) -> Store:
        store = Store(url)
        opened.append(store)
        return store

    yield open_
    for store in opened:
        store.close()
