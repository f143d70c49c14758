"""The numba cache folder follows the package sources (see sixtysix/engine/numba_cache.py)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numba
import pytest

import sixtysix
from sixtysix import agents, experiments
from sixtysix.engine import numba_cache
from sixtysix.engine.numba_cache import CACHE_ROOT, source_digest, source_folders


def test_digest_changes_with_any_source_and_only_then(tmp_path):
    package = tmp_path / "pkg"
    (package / "inner").mkdir(parents=True)
    (package / "a.py").write_text("x = 1\n")
    (package / "inner" / "b.py").write_text("y = 2\n")
    (package / "notes.txt").write_text("not source")
    first = source_digest([package])
    assert source_digest([package]) == first
    (package / "notes.txt").write_text("still not source")
    assert source_digest([package]) == first
    (package / "inner" / "b.py").write_text("y = 3\n")
    assert source_digest([package]) != first


@pytest.mark.skipif("NUMBA_CACHE_DIR" in os.environ, reason="a user-chosen cache folder wins")
def test_importing_sixtysix_keys_the_cache_by_the_current_sources():
    folders = source_folders()
    for package in (sixtysix, agents):  # each one's sources are digested
        here = Path(package.__file__).parent
        assert any(here == folder or folder in here.parents for folder in folders), here
    assert Path(numba.config.CACHE_DIR) == CACHE_ROOT / source_digest(folders)


def test_experiments_define_no_kernels():
    """The digest leaves ``experiments`` out, so no kernel may live there."""
    for path in Path(experiments.__file__).parent.glob("*.py"):
        assert "numba" not in path.read_text(), f"{path.name} uses numba: move kernels to agents/"


def test_the_digest_never_reads_a_cache_folder(tmp_path):
    package = tmp_path / "pkg"
    (package / "__pycache__" / "numba" / "abc").mkdir(parents=True)
    (package / "a.py").write_text("x = 1\n")
    first = source_digest([package])
    (package / "__pycache__" / "numba" / "abc" / "stray.py").write_text("y = 2\n")
    assert source_digest([package]) == first


def test_only_folders_unused_for_a_day_are_dropped(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)  # restored after
    monkeypatch.setattr(numba_cache, "CACHE_ROOT", tmp_path)
    fresh, stale = tmp_path / "fresh", tmp_path / "stale"
    fresh.mkdir()
    stale.mkdir()
    day_and_a_bit = time.time() - numba_cache.STALE_AFTER - 60
    os.utime(stale, (day_and_a_bit, day_and_a_bit))
    numba_cache.use_source_keyed_cache()
    current = Path(numba.config.CACHE_DIR)
    assert current.parent == tmp_path and current.name not in ("fresh", "stale")
    assert fresh.is_dir() and not stale.exists()
    assert not numba_cache.is_stale(tmp_path / "gone")
