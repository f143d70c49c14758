"""Benchmarks: uniformly random playouts in numba, and the C yardstick beside them."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import time
from functools import partial
from pathlib import Path

from . import core
from .game import Game
from .specialize import specialized_playouts

REFERENCE_C = Path(__file__).parent / "reference" / "random_playout.c"


def bench_core(
    preset: str = "sixty_six", deals: int = 1_000_000, seed: int = 1, *, generic: bool = False
) -> dict:
    """Random playouts of ``deals`` deals inside numba, one process; compile time excluded.

    By default the kernel is specialized to the preset's rules (``sixtysix.specialize``);
    ``generic=True`` times the kernel that reads the rules at run time instead.
    """
    if deals < 1:
        raise ValueError(f"invalid deals {deals!r}: need at least 1")
    game = Game(preset)
    if generic:
        kernel = partial(core.random_playouts, game.rule_array)
    else:
        kernel = specialized_playouts(game)
    kernel(10, seed)  # compile or load the cache first
    start = time.perf_counter()
    plies, game_points = kernel(deals, seed)
    seconds = time.perf_counter() - start
    return {
        "preset": preset,
        "kernel": "generic" if generic else "specialized",
        "deals": deals,
        "seed": seed,
        "seconds": round(seconds, 6),
        "deals_per_s": round(deals / seconds, 1),
        "plies": int(plies),
        "game_points": int(game_points),
        "plies_per_deal": round(plies / deals, 4),
        "game_points_per_deal": round(game_points / deals, 5),
    }


def bench_reference_c(deals: int, seed: int = 1) -> dict:
    """Compile and run the hand-written C playout of ``sixty_six`` (needs a C compiler)."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise RuntimeError("no C compiler (cc or gcc) found for the C reference benchmark")
    with tempfile.TemporaryDirectory() as folder:
        binary = Path(folder) / "random_playout"
        command = [compiler, "-O3", "-march=native", "-o", str(binary), str(REFERENCE_C)]
        subprocess.run(command, check=True)
        output = subprocess.run(
            [str(binary), str(deals), str(seed)], check=True, capture_output=True, text=True
        ).stdout
    return json.loads(output)


def compare_with_c(deals: int, seed: int = 1, rounds: int = 3, generic: bool = False) -> dict:
    """Alternate numba and C runs of ``sixty_six``; report the best of each and their ratio."""
    numba_runs = []
    c_runs = []
    for _ in range(rounds):
        numba_runs.append(bench_core("sixty_six", deals, seed, generic=generic))
        c_runs.append(bench_reference_c(deals, seed))
    best_numba = max(numba_runs, key=lambda run: run["deals_per_s"])
    best_c = max(c_runs, key=lambda run: run["deals_per_s"])
    return {
        **best_numba,
        "rounds": rounds,
        "c_deals_per_s": best_c["deals_per_s"],
        "c_plies_per_deal": best_c["plies_per_deal"],
        "ratio_to_c": round(best_numba["deals_per_s"] / best_c["deals_per_s"], 3),
        # Both draw from the same xoshiro256** stream, so equal rules play equal deals.
        "identical_play": best_numba["plies"] == best_c["plies"]
        and best_numba["game_points"] == best_c["checksum"],
    }
