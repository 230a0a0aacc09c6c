"""A throwaway PostgreSQL cluster for the tests: Debian's server binaries, a temporary directory, a free
loopback port, and one migrated database, emptied for each test (much quicker than a new database).

Run as root (as in CI) the server runs as the ``postgres`` user, which owns the directory; run as anyone
else it runs as that user. For the tests durability is off (``fsync=off``): the cluster lives as long as
they do; the load benchmark asks for a durable one (every commit flushed, as in production).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile

from server_helpers import free_port

__all__ = ["PostgresCluster", "binaries"]


def binaries() -> str | None:
    """The directory of Debian's PostgreSQL server programs (the newest version), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    return os.path.dirname(found[-1]) if found else None


class PostgresCluster:
    """initdb, pg_ctl start ... stop; :meth:`database` hands out an empty, migrated database."""

    def __init__(self, bin_dir: str, durable: bool = False) -> None:
        self.bin = bin_dir
        self.root = tempfile.mkdtemp(prefix="tendays-pg-")
        self.data = os.path.join(self.root, "data")
        self.port = free_port()
        self._as: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            user = pwd.getpwnam("postgres")
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections=300"
        if not durable:  # the tests' cluster: nothing to keep after a crash, so no flushes
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run("pg_ctl", "-D", self.data, "-o", options, "-l", os.path.join(self.root, "log"), "-w", "start")
        self.shared = self.url("tendays")
        self._admin("CREATE DATABASE tendays")
        from tendays.server.storage.store import Store

        Store(self.shared).close()  # migrated once

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, program: str, *args: str) -> None:
        subprocess.run(
            [*self._as, os.path.join(self.bin, program), *args],
            check=True,
            capture_output=True,
            cwd=self.root,
            timeout=120,
        )

    def _admin(self, sql: str, database: str = "postgres") -> None:
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname={database}", autocommit=True) as db:
            db.execute(sql)  # type: ignore[arg-type]

    def database(self) -> str:
        """The database, with the newest schema and no rows (whatever the last test left is removed)."""
        from tendays.server.storage.schema import Base

        self._admin(f"TRUNCATE {', '.join(Base.metadata.tables)} RESTART IDENTITY", "tendays")
        return self.shared

    def postmaster(self) -> int:
        """The server's process id (its first line of postmaster.pid)."""
        with open(os.path.join(self.data, "postmaster.pid")) as handle:
            return int(handle.readline())

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self._run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)
