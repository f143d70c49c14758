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
set by the user is left alone.
Importing ``sixtysix`` sets ``numba.config.CACHE_DIR`` for the process, so it
applies to numba functions defined after that import too.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Iterable
from pathlib import Path

import numba

PACKAGE = Path(__file__).parents[1]
#: The folder of ``sixtysix.agents`` beside the package in a source checkout (in a regular
#: install it lies inside the package).
CHECKOUT_PACKAGES = (PACKAGE.parent / "agents",)
CACHE_ROOT = PACKAGE / "__pycache__" / "numba"


def source_digest(folders: Iterable[Path]) -> str:
    """A short digest of the names and contents of every ``.py`` file below ``folders``."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            digest.update(str(path.relative_to(folder.parent)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def source_folders() -> list[Path]:
    """The folders whose sources key the cache: the package and, in a checkout, the
    top-level ``agents/`` folder installed inside it."""
    return [PACKAGE, *(folder for folder in CHECKOUT_PACKAGES if folder.is_dir())]


def use_source_keyed_cache() -> None:
    """Point numba's cache at the folder of the current sources; drop older folders."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    current = CACHE_ROOT / source_digest(source_folders())
    if CACHE_ROOT.is_dir():
        for old in CACHE_ROOT.iterdir():
            if old != current:
                shutil.rmtree(old, ignore_errors=True)
    numba.config.CACHE_DIR = str(current)
