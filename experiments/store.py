"""Resumable, atomic Parquet results: a file that fills up batch by batch.

Each finished batch goes at once to its own part file in a sidecar folder
(``NAME.parquet.parts/``); the main file ``NAME.parquet`` is rewritten from all
rows every few seconds, when the store is closed early and at the end, after
which the parts folder is removed. Every file is written to a hidden temporary
file in its own folder and moved into place with ``os.replace``, so a reader
sees either no file or a whole, valid one. A run killed at any moment (even
``kill -9``) leaves only whole part files and a whole main file behind; the next
store on the same path reads both, drops the rows held twice and carries on.

Every file carries the configuration that produced it in its schema metadata
(``CONFIG_KEY``, canonical JSON). A store refuses a path holding rows of another
configuration, naming the fields that differ, unless told to start afresh.
A lock on the parts folder keeps two runs from writing the same results at once.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import time
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

CONFIG_KEY = b"sixtysix.config"  # schema metadata: the configuration as canonical JSON
COMPLETE_KEY = b"sixtysix.complete"  # schema metadata: b"true" once every row is in
CONSOLIDATE_SECONDS = 5.0  # the least time between two rewrites of the main file
CONSOLIDATE_SHARE = 0.05  # ... and at most this share of the run spent rewriting it

HARVEST_KIND = "closing-harvest"  # the ``kind`` in the configuration of a closing harvest
REFERENCE_KIND = "closing-reference"  # ... of a closing evaluation's cache of reference values
DECISIONS_KIND = "closing-decisions"  # ... of its cache of agent decisions
EVALUATION_KIND = "closing-evaluation"  # ... of its scored decisions
TABLE_KIND = "table-tournament"  # ... of a tournament for three or four seats
VU_MATCH_KIND = "vu-match"  # ... of a match against VU's RdeepBot

#: The results files of the other runs, by the ``kind`` in their configuration (a
#: tournament's has none): what each is, and what reads it (``FILE``: its path).
OTHER_KINDS = {
    HARVEST_KIND: (
        "a closing harvest file (positions)",
        "read it with 'sixtysix closing evaluate --positions FILE'",
    ),
    REFERENCE_KIND: (
        "a closing evaluation's cache of reference values",
        "'sixtysix closing evaluate' reads it",
    ),
    DECISIONS_KIND: (
        "a closing evaluation's cache of agent decisions",
        "'sixtysix closing evaluate' reads it",
    ),
    EVALUATION_KIND: (
        "a closing evaluation's scored decisions",
        "its report is the .md file that 'sixtysix closing evaluate' wrote beside it",
    ),
    TABLE_KIND: (
        "a tournament's results for three or four seats",
        "read it with experiments.table_tournament.read_table_results, or 'sixtysix report FILE'",
    ),
    VU_MATCH_KIND: (
        "a match against VU's RdeepBot",
        "read it with pandas.read_parquet, or rerun its 'sixtysix vu-match' command",
    ),
}


class ResultsConflict(ValueError):
    """The output path holds results of another configuration, or no results at all."""


def canonical_json(config: dict) -> str:
    """``config`` as JSON with sorted keys and no spaces: equal configurations, equal text."""
    return json.dumps(config, sort_keys=True, separators=(",", ":"))


class Configuration:
    """The identity of a run's configuration (a dataclass giving ``as_dict``): its canonical
    JSON, the SHA-256 of that in hex, and a short readable name, ``ID_PREFIX``, ``-`` and the
    digest's first 12 hex digits."""

    ID_PREFIX = "r"

    def as_dict(self) -> dict:
        raise NotImplementedError

    def to_json(self) -> str:
        """Canonical JSON: equal configurations, equal text."""
        return canonical_json(self.as_dict())

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.to_json().encode()).hexdigest()

    @property
    def run_id(self) -> str:
        return f"{self.ID_PREFIX}-{self.digest[:12]}"

    def batch_name(self, batch) -> str:
        """How an error names a batch of the run (``tournament.Batch``): its own words."""
        return str(batch)


def stored_config(path: str | os.PathLike) -> dict | None:
    """The configuration stored in the metadata of the Parquet file ``path``, if any."""
    metadata = pq.read_schema(path).metadata or {}
    return json.loads(metadata[CONFIG_KEY]) if CONFIG_KEY in metadata else None


def is_complete(path: str | os.PathLike) -> bool:
    """Whether the results file ``path`` holds every row of its configuration."""
    return (pq.read_schema(path).metadata or {}).get(COMPLETE_KEY) == b"true"


def config_differences(stored: dict, wanted: dict) -> list[str]:
    """The fields in which two configurations differ, each as ``name: stored vs wanted``."""
    return [
        f"{name}: {stored.get(name)!r} there, {wanted.get(name)!r} here"
        for name in sorted(stored.keys() | wanted.keys())
        if stored.get(name) != wanted.get(name)
    ]


def write_atomically(table: pa.Table, path: Path) -> None:
    """Write ``table`` to the Parquet file ``path`` through a temporary file beside it."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    pq.write_table(table, temporary)
    os.replace(temporary, path)


def sorted_unique(table: pa.Table, keys: Sequence[str]) -> pa.Table:
    """``table`` sorted by ``keys``, keeping the first of the rows with equal keys."""
    table = table.sort_by([(key, "ascending") for key in keys])
    if table.num_rows < 2:
        return table
    changed = None
    for key in keys:
        column = table[key]
        differs = pc.not_equal(column.slice(1), column.slice(0, len(column) - 1))
        changed = differs if changed is None else pc.or_(changed, differs)
    return table.filter(pa.concat_arrays([pa.array([True]), changed.combine_chunks()]))


class ResultStore:
    """The results at ``path`` of one configuration, with rows unique by ``keys``.

    Use as a context manager: entering locks the path, checks and loads what is already
    there (``force`` deletes it instead); ``add`` saves a finished batch; ``finish``
    writes the complete file. Leaving early (an error, Ctrl-C) saves the main file with
    the rows so far and keeps the parts, so that a new store resumes from them.
    """

    def __init__(
        self, path: str | os.PathLike, config: dict, keys: Sequence[str], force: bool = False
    ) -> None:
        self.path = Path(path)
        self.parts = self.path.with_name(self.path.name + ".parts")
        self.config = config
        self.keys = list(keys)
        self.force = force
        self._metadata = {CONFIG_KEY: canonical_json(config).encode()}
        self._tables: list[pa.Table] = []
        self._lock: int | None = None
        self._unsaved = False  # rows that the main file does not hold yet
        self._saved_at = time.monotonic()
        self._save_seconds = 0.0
        self.was_complete = False  # entering found a complete main file and no parts

    def __enter__(self) -> ResultStore:
        self.parts.mkdir(parents=True, exist_ok=True)
        self._lock = os.open(self.parts, os.O_RDONLY)
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self._lock)
            raise ResultsConflict(f"another run is writing {self.path} now") from None
        try:
            self._start()
        except BaseException:
            self._release()
            raise
        return self

    def __exit__(self, *error) -> None:
        try:
            if self._unsaved:
                self.save()
        finally:
            self._release()

    def _start(self) -> None:
        """Delete what killed runs left half-written; then load, or with ``force`` delete,
        the results already there."""
        stale = [*self.parts.glob(".*.tmp"), *self.path.parent.glob(f".{self.path.name}.*.tmp")]
        for temporary in stale:
            temporary.unlink()
        if self.force:
            self.path.unlink(missing_ok=True)
            for part in self.parts.iterdir():
                part.unlink()
        else:
            self._load()

    def _release(self) -> None:
        """Remove the parts folder if nothing is in it; unlock."""
        if self.parts.is_dir() and not any(self.parts.iterdir()):
            self.parts.rmdir()
        os.close(self._lock)

    def _load(self) -> None:
        """Read the main file and the parts, refusing those of another configuration."""
        files = sorted(self.parts.glob("*.parquet"))
        if self.path.exists():
            files.insert(0, self.path)
        for file in files:
            try:
                table = pq.read_table(file)
            except (pa.ArrowException, OSError) as error:
                raise ResultsConflict(
                    f"{file} is not a readable Parquet file ({error}); delete it, or start "
                    "afresh with --force"
                ) from None
            metadata = table.schema.metadata or {}
            self._check(file, metadata)
            self._unsaved |= file != self.path or metadata.get(COMPLETE_KEY) != b"true"
            self._tables.append(table.replace_schema_metadata(None))
        if self._tables:
            self._tables = [sorted_unique(pa.concat_tables(self._tables), self.keys)]
        self.was_complete = bool(self._tables) and not self._unsaved

    def _check(self, file: Path, metadata: dict) -> None:
        if CONFIG_KEY not in metadata:
            raise ResultsConflict(
                f"{file} is not a sixtysix results file (no configuration in its metadata); "
                "choose another output file, or replace it with --force"
            )
        differences = config_differences(json.loads(metadata[CONFIG_KEY]), self.config)
        if differences:
            raise ResultsConflict(
                f"{file} holds results of another configuration ({'; '.join(differences)}); "
                "choose another output file, or start afresh with --force"
            )

    def table(self) -> pa.Table | None:
        """Every row so far, sorted by ``keys`` (None before the first)."""
        if not self._tables:
            return None
        if len(self._tables) > 1:
            self._tables = [sorted_unique(pa.concat_tables(self._tables), self.keys)]
        return self._tables[0]

    def add(self, name: str, table: pa.Table) -> None:
        """Save a finished batch as the part ``name``; rewrite the main file when due."""
        write_atomically(table.replace_schema_metadata(self._metadata), self.parts / name)
        self._tables.append(table.replace_schema_metadata(None))
        self._unsaved = True
        since = time.monotonic() - self._saved_at
        if since >= max(CONSOLIDATE_SECONDS, self._save_seconds / CONSOLIDATE_SHARE):
            self.save()

    def save(self, complete: bool = False) -> None:
        """Rewrite the main file from every row so far."""
        started = time.monotonic()
        metadata = {**self._metadata, COMPLETE_KEY: b"true" if complete else b"false"}
        write_atomically(self.table().replace_schema_metadata(metadata), self.path)
        self._saved_at = time.monotonic()
        self._save_seconds = self._saved_at - started
        self._unsaved = False

    def finish(self) -> pa.Table:
        """Write the complete main file, remove the parts; every row, sorted by ``keys``."""
        if self._unsaved or not (self.path.exists() and is_complete(self.path)):
            self.save(complete=True)
        shutil.rmtree(self.parts)
        return self.table()
