"""Keep numba's on-disk cache honest across source edits.

Numba checks a cached function only against its own source file, so a kernel
that inlines code from another module (the solver inlines the core's
``apply_action``, agents inline both) would keep running the old code after
that module changes. Here the cache lives in a folder named by a digest of
every source file of ``sixtysix`` and of ``sixtysix.agents`` (the
repository's top-level ``agents/`` in a source checkout, a subfolder of the
package in a regular install): any edit starts a fresh cache. Kernels live
only there: ``sixtysix.experiments`` defines none (a test checks that it never
imports numba), so editing an experiment keeps the cache. A ``NUMBA_CACHE_DIR``
set by the user is left alone. Folders of other sources are dropped once unused
for a day (``STALE_AFTER``), so that a run still going on older sources keeps its own.
Importing ``sixtysix`` sets ``numba.config.CACHE_DIR`` for the process, so it
applies to numba functions defined after that import too.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from collections.abc import Iterable
from pathlib import Path

import numba

PACKAGE = Path(__file__).parents[1]
#: The folder of ``sixtysix.agents`` beside the package in a source checkout (in a regular
#: install it lies inside the package).
CHECKOUT_PACKAGES = (PACKAGE.parent / "agents",)
CACHE_ROOT = PACKAGE / "__pycache__" / "numba"
STALE_AFTER = 24 * 3600  # seconds since a cache folder of other sources last changed


def source_digest(folders: Iterable[Path]) -> str:
    """A short digest of the names and contents of every ``.py`` file below ``folders``
    (``__pycache__`` folders aside: other processes add and drop cache folders there)."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(source_files(folder)):
            digest.update(str(path.relative_to(folder.parent)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def source_files(folder: Path) -> list[Path]:
    """Every ``.py`` file below ``folder``, never looking inside ``__pycache__``."""
    found = []
    for top, subfolders, names in os.walk(folder):
        subfolders[:] = [name for name in subfolders if name != "__pycache__"]
        found += [Path(top) / name for name in names if name.endswith(".py")]
    return found


def source_folders() -> list[Path]:
    """The folders whose sources key the cache: the package and, in a checkout, the
    top-level ``agents/`` folder installed inside it."""
    return [PACKAGE, *(folder for folder in CHECKOUT_PACKAGES if folder.is_dir())]


def use_source_keyed_cache() -> None:
    """Point numba's cache at the folder of the current sources; drop stale folders."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    current = CACHE_ROOT / source_digest(source_folders())
    if CACHE_ROOT.is_dir():
        for old in CACHE_ROOT.iterdir():
            if old != current and is_stale(old):
                shutil.rmtree(old, ignore_errors=True)
    numba.config.CACHE_DIR = str(current)


def is_stale(folder: Path) -> bool:
    """Unchanged for ``STALE_AFTER`` seconds (a folder already gone counts as not stale)."""
    try:
        return time.time() - folder.stat().st_mtime > STALE_AFTER
    except FileNotFoundError:
        return False
