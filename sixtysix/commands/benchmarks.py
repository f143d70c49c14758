"""Benchmarks: random playouts in numba and the C yardstick beside them, exact solves, and
random play and tree sizes through OpenSpiel."""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from ..engine import multi_core, solver
from ..engine.cards import card_name
from ..engine.checks import check_integer, check_seed
from ..engine.rules import table_rules_of
from ..game import Game
from ..table_game import TableGame, TableState
from ..theory import table_solver

REFERENCE_C = Path(__file__).parent / "reference" / "random_playout.c"
PLAYOUT_DEALS_LIMIT = 2**63  # numba and the C playout count deals in a signed 64-bit integer
WORLD_BATCH = 1000  # world records drawn per view by bench api
STATE_BATCH = 64  # replayed State worlds drawn per view by bench api
ROUNDS = 3  # bench tournament reports the best of this many runs of each measurement


def _check_playouts(deals, seed) -> tuple[int, int]:
    """``deals`` and ``seed`` of a playout run: deals in [1, 2**63), one seed in [0, 2**64)."""
    return check_integer(deals, "deals", 1, PLAYOUT_DEALS_LIMIT), check_seed(seed)


def bench_core(preset: str = "sixty_six", deals: int = 1_000_000, seed: int = 1) -> dict:
    """Random playouts of ``deals`` deals inside numba (``multi_core.random_playouts``), one
    process; compile time excluded."""
    deals, seed = _check_playouts(deals, seed)
    rule_array = Game(preset).rule_array
    multi_core.random_playouts(rule_array, 10, seed)  # compile or load the cache first
    start = time.perf_counter()
    plies, game_points = multi_core.random_playouts(rule_array, deals, seed)
    seconds = time.perf_counter() - start
    return {
        "preset": preset,
        "deals": deals,
        "seed": seed,
        "seconds": round(seconds, 6),
        "deals_per_s": round(deals / seconds, 1),
        "plies_per_s": round(plies / seconds, 1),
        "plies": int(plies),
        "game_points": int(game_points),
        "plies_per_deal": round(plies / deals, 4),
        "game_points_per_deal": round(game_points / deals, 5),
    }


def bench_solver(
    preset: str = "schnapsen", deals: int = 100, seed: int = 1, on_multi_core: bool = False
) -> dict:
    """Exact open-hand solves of whole deals from the first lead (deal seeds ``seed + i``).

    A two-player preset is solved by ``engine.solver``; a preset for more seats, or a
    two-player one with ``on_multi_core`` (the same deals as a ``TableGame``), by
    ``engine.table_search``: the decisions before
    the first lead (a call, announcements, bids) are each seat's first legal action; the
    value is seat 0's: ``solve``'s on a two-sided deal, else its paranoid value (a
    two-player value is player 0's too)."""
    deals = check_integer(deals, "deals", 1)
    seed = check_seed(seed, span=deals)
    game = Game(preset)
    deal_of = game.new_deal
    if on_multi_core and not isinstance(game, TableGame):
        deal_of = functools.partial(_same_deal_on_the_table, _on_the_table(game), game)
    if isinstance(game, TableGame) or on_multi_core:
        searches = table_solver.TableSolver(deal_of(seed=seed).game)

        def value_of(state) -> int:
            if table_solver.deal_kind(state) == table_solver.TWO_SIDED:
                return searches.solve(state, 0)
            return searches.paranoid(state, 0)

        def nodes_so_far() -> int:
            return searches.nodes
    else:
        workspace = solver.shared_workspace()

        def value_of(state) -> int:
            return solver.solve(state).value

        def nodes_so_far() -> int:
            return int(workspace.counters[1])

    value_of(_first_lead(deal_of(seed=seed)))  # compile or load the cache first
    milliseconds = []
    nodes = []
    values = []
    for number in range(deals):
        state = _first_lead(deal_of(seed=seed + number))
        nodes_before = nodes_so_far()
        start = time.perf_counter()
        values.append(value_of(state))
        milliseconds.append((time.perf_counter() - start) * 1000)
        nodes.append(nodes_so_far() - nodes_before)
    seconds = sum(milliseconds) / 1000
    return {
        "preset": preset,
        "deals": deals,
        "seed": seed,
        "median_ms": round(statistics.median(milliseconds), 3),
        "mean_ms": round(statistics.fmean(milliseconds), 3),
        "max_ms": round(max(milliseconds), 3),
        "median_nodes": statistics.median(nodes),
        "nodes_per_s": round(sum(nodes) / seconds, 1),
        "mean_value": round(statistics.fmean(values), 4),
    }


def _first_lead(state):
    """``state`` after the decisions before the first lead, each the first legal action
    (a table deal's call, announcements and bids; a two-player deal has none)."""
    if not isinstance(state, TableState):
        return state
    while state.current_player is not None and state.phase in ("call", "announce", "bid"):
        state.apply(state.legal_action_ids()[0])
    return state


def _on_the_table(game: Game) -> TableGame:
    """A two-player game's rules on the table engine (every option given as an override
    of a table preset)."""
    return TableGame("snapszer3", **dataclasses.asdict(table_rules_of(game.rules)))


def _same_deal_on_the_table(table: TableGame, game: Game, seed: int) -> TableState:
    """The deal ``game.new_deal(seed=seed)`` of a two-player game, on the table engine."""
    deal = game.new_deal(seed=seed)
    return table.new_deal(deck=[card_name(int(card)) for card in deal.deck], dealer=deal.dealer)


def _random_api_deals(game: Game, deals: int, rng: random.Random, by_id: bool, met=None) -> int:
    """Play ``deals`` random deals through the ``State`` API, choosing among the legal action
    ids or strings; returns the actions taken and appends a copy of each state to ``met``."""
    actions = 0
    for _ in range(deals):
        state = game.new_deal(seed=rng.randrange(2**64))
        while not state.is_terminal:
            if met is not None:
                met.append(state.clone())
            legal = state.legal_action_ids() if by_id else state.legal_actions()
            state.apply(rng.choice(legal))
            actions += 1
    return actions


def _seconds_per_call(function, items) -> float:
    """Mean seconds of ``function(item)`` over ``items``."""
    start = time.perf_counter()
    for item in items:
        function(item)
    return (time.perf_counter() - start) / len(items)


def _microseconds_per_call(function, items) -> float:
    return round(1e6 * _seconds_per_call(function, items), 2)


def bench_api(preset: str = "sixty_six", deals: int = 2000, seed: int = 1) -> dict:
    """Random play through the Python ``State`` API, by ids and by strings; at the states of
    ``deals // 20`` more deals the cost of the mover's view, its key and its tensor, and at
    those after three tricks (fewer in a mini deal) world sampling: batches of
    ``WORLD_BATCH`` records and of ``STATE_BATCH`` replayed ``State`` worlds."""
    deals = check_integer(deals, "deals", 1)
    rng = random.Random(check_seed(seed))
    game = Game(preset)
    _random_api_deals(game, 3, rng, by_id=True)  # compile or load the numba cache first
    speeds = {}
    for by_id, name in ((True, "ids"), (False, "strings")):
        start = time.perf_counter()
        actions = _random_api_deals(game, deals, rng, by_id)
        speeds[name] = round(actions / (time.perf_counter() - start), 1)
    states = []
    _random_api_deals(game, max(1, deals // 20), rng, True, states)
    views = [state.view(state.current_player) for state in states]
    depth = min(3, max(view.tricks_played for view in views))  # a mini deal may end sooner
    mid_game = [view for view in views if view.tricks_played == depth]
    mid_game[0].sample_world_records(1, 0)  # compile or load the numba cache first
    mid_game[0].sample_worlds(1, 0)
    records = _seconds_per_call(lambda v: v.sample_world_records(WORLD_BATCH, 0), mid_game)
    replayed = _seconds_per_call(lambda v: v.sample_worlds(STATE_BATCH, 0), mid_game)
    return {
        "preset": preset,
        "deals": deals,
        "seed": seed,
        "actions_per_s_ids": speeds["ids"],
        "actions_per_s_strings": speeds["strings"],
        "views": len(views),
        "view_us": _microseconds_per_call(lambda s: s.view(s.current_player), states),
        "key_us": _microseconds_per_call(lambda v: v.key(), views),
        "tensor_us": _microseconds_per_call(lambda v: v.tensor(), views),
        "mid_game_views": len(mid_game),
        "world_records_per_s": round(WORLD_BATCH / records, 1),
        "world_states_per_s": round(STATE_BATCH / replayed, 1),
    }


def _openspiel_game(preset: str):
    """``python_sixty_six`` of ``preset``."""
    import pyspiel

    from .. import openspiel

    return pyspiel.load_game(openspiel.GAME_NAME, {"preset": preset})


def _random_openspiel_games(game, games: int, rng: random.Random) -> tuple[int, int]:
    """Play ``games`` games through pyspiel's API; ``(steps, decisions)`` taken."""
    steps = decisions = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probabilities)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
            steps += 1
    return steps, decisions


def bench_openspiel(preset: str = "sixty_six", games: int = 2000, seed: int = 1) -> dict:
    """Uniformly random play through pyspiel's API: every chance and player step counted."""
    games = check_integer(games, "games", 1)
    seed = check_seed(seed)
    game = _openspiel_game(preset)
    rng = random.Random(seed)
    _random_openspiel_games(game, 5, rng)  # compile or load the numba cache first
    start = time.perf_counter()
    steps, decisions = _random_openspiel_games(game, games, rng)
    seconds = time.perf_counter() - start
    return {
        "preset": preset,
        "games": games,
        "seed": seed,
        "seconds": round(seconds, 3),
        "steps_per_s": round(steps / seconds, 1),
        "decisions_per_s": round(decisions / seconds, 1),
        "games_per_s": round(games / seconds, 1),
        "steps_per_game": round(steps / games, 2),
    }


def bench_tree(preset: str = "mini_2x3") -> dict:
    """The whole game tree of ``python_sixty_six`` for ``preset`` (a ``mini_*`` one)."""
    from ..openspiel import tree_size

    game = _openspiel_game(preset)
    start = time.perf_counter()
    size = tree_size(game)
    return {
        "preset": preset,
        "histories": size.histories,
        "terminal_histories": size.terminals,
        "deals": size.deals,
        "information_sets_p0": size.information_sets[0],
        "information_sets_p1": size.information_sets[1],
        "seconds": round(time.perf_counter() - start, 2),
    }


def compile_reference_c(folder: Path) -> Path:
    """Compile the hand-written C playout of ``sixty_six`` into ``folder`` (needs cc or gcc)."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise RuntimeError("no C compiler (cc or gcc) found for the C reference benchmark")
    binary = folder / "random_playout"
    command = [compiler, "-O3", "-march=native", "-o", str(binary), str(REFERENCE_C)]
    subprocess.run(command, check=True)
    return binary


def run_reference_c(binary: Path, deals: int, seed: int) -> dict:
    """One run of the compiled C playout: its JSON line as a dict."""
    command = [str(binary), str(deals), str(seed)]
    return json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)


def compare_with_c(deals: int, seed: int = 1, rounds: int = 3) -> dict:
    """Alternate numba and C runs of ``sixty_six``; report the best of each and their ratio."""
    deals, seed = _check_playouts(deals, seed)
    rounds = check_integer(rounds, "rounds", 1)
    numba_runs = []
    c_runs = []
    with tempfile.TemporaryDirectory() as folder:
        binary = compile_reference_c(Path(folder))
        for _ in range(rounds):
            numba_runs.append(bench_core("sixty_six", deals, seed))
            c_runs.append(run_reference_c(binary, deals, seed))
    best_numba = max(numba_runs, key=lambda run: run["deals_per_s"])
    best_c = max(c_runs, key=lambda run: run["deals_per_s"])
    return {
        **best_numba,
        "rounds": rounds,
        "c_deals_per_s": best_c["deals_per_s"],
        "c_plies_per_deal": best_c["plies_per_deal"],
        "ratio_to_c": round(best_numba["deals_per_s"] / best_c["deals_per_s"], 3),
        # Both draw from the same xoshiro256** stream, so equal rules numbering each decision's
        # actions in the same order play equal deals.
        "identical_play": best_numba["plies"] == best_c["plies"]
        and best_numba["game_points"] == best_c["checksum"],
    }


def _python_path_deals(preset: str, specs: tuple[str, ...], seeds: list[int]) -> int:
    """Play ``seeds`` on the Python path (a view and an ``act`` call per decision), ``specs``
    in seat order; returns the decisions made. Module level, so worker processes can run it."""
    from sixtysix.agents import play_deal

    game = Game(preset)
    return sum(sum(play_deal(game, specs, seed).decisions) for seed in seeds)


def _seated(game, *specs: str) -> tuple[str, ...]:
    """``specs`` repeated around the table, one per seat (``A, B`` at four seats: ``A, B, A,
    B``, two teams)."""
    return tuple(specs[seat % len(specs)] for seat in range(game.num_players))


def _numba_path(game: Game, heuristic, randoms, deals: int, seed: int) -> dict:
    """The numba-path fields of ``bench_tournament``: the heuristic's rules and random play
    beside random playouts of the same deals."""
    seeds = np.arange(seed, seed + deals, dtype=np.uint64)
    numba_heuristic = _numba_path_deals_per_s(game, heuristic, seeds)
    numba_random = _numba_path_deals_per_s(game, randoms, seeds)
    playouts = max(bench_core(game.preset, deals, seed)["deals_per_s"] for _ in range(ROUNDS))
    return {
        "numba_deals_per_s": round(numba_heuristic, 1),
        "numba_random_deals_per_s": round(numba_random, 1),
        "random_playout_deals_per_s": playouts,
        "numba_ratio_to_playouts": round(numba_heuristic / playouts, 3),
        "numba_random_ratio_to_playouts": round(numba_random / playouts, 3),
    }


def _numba_path_deals_per_s(game: Game, pair: tuple[str, str], seeds: np.ndarray) -> float:
    """Deals per second of ``agents.policies.play_policies``, the best of ``ROUNDS`` (compile
    time excluded)."""
    from sixtysix.agents import policies
    from sixtysix.agents.specs import policy_of

    codes = [policy_of(spec) for spec in pair]
    policies.play_policies(game.rule_array, codes, seeds[:1])  # compile first
    outputs = policies.deal_outputs(
        len(seeds)
    )  # allocated once, as a runner's batches reuse memory
    speeds = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        policies.play_policies(game.rule_array, codes, seeds, outputs)
        speeds.append(len(seeds) / (time.perf_counter() - start))
    return max(speeds)


#: The heuristic's rules alone: the spec with the numba fast path that the tournament bench times.
HEURISTIC_RULES = "heuristic:worlds=0"


def _warm_worker(preset: str) -> None:
    """Load the imports and numba caches of a pool worker before it is timed."""
    _python_path_deals(preset, _seated(Game(preset), HEURISTIC_RULES, "random"), [0])


def _parallel_deals_per_s(submit, preset: str, specs, seeds: list[int], workers: int) -> float:
    """Python-path deals per second of ``_python_path_deals`` on ``workers`` workers, each
    given an equal share of ``seeds`` through ``submit(function, *args) -> future``: the
    best of ``ROUNDS``, so that both backends are measured warm."""
    speeds = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        shares = [
            submit(_python_path_deals, preset, specs, seeds[k::workers]) for k in range(workers)
        ]
        for share in shares:
            share.result()
        speeds.append(len(seeds) / (time.perf_counter() - start))
    return max(speeds)


def bench_tournament(
    preset: str = "sixty_six", deals: int = 200_000, python_deals: int = 2000, seed: int = 1
) -> dict:
    """The heuristic's rules against themselves (``HEURISTIC_RULES`` in every seat): ``deals``
    deals on the numba path (and random vs random, and random playouts beside them as the
    yardstick; two-player presets only, as tables have no numba path), and ``python_deals``
    on the Python path (a view and an ``act`` call per decision) in one process, in a pool
    of 2 and on a local Dask cluster of 2 workers (start-up excluded). Every speed is the
    best of ``ROUNDS``."""
    from concurrent.futures import ProcessPoolExecutor

    from distributed import Client, LocalCluster

    deals = check_integer(deals, "deals", 1, PLAYOUT_DEALS_LIMIT)
    python_deals = check_integer(python_deals, "python_deals", 1)
    seed = check_seed(seed, span=max(deals, python_deals))
    game = Game(preset)
    heuristic, randoms = _seated(game, HEURISTIC_RULES), _seated(game, "random")
    result = {"preset": preset, "python_deals": python_deals, "seed": seed}
    if not isinstance(game, TableGame):
        result |= {"deals": deals} | _numba_path(game, heuristic, randoms, deals, seed)

    python_seeds = list(range(seed, seed + python_deals))
    _python_path_deals(preset, heuristic, python_seeds[:1])  # compile or load the cache first
    per_decision = {}
    for name, specs in (("heuristic", heuristic), ("random", randoms)):
        times = []
        for _ in range(ROUNDS):
            start = time.perf_counter()
            decisions = _python_path_deals(preset, specs, python_seeds)
            times.append(time.perf_counter() - start)
        per_decision[name] = (min(times) / decisions, python_deals / min(times))

    with ProcessPoolExecutor(2, initializer=_warm_worker, initargs=(preset,)) as executor:
        pool = _parallel_deals_per_s(executor.submit, preset, heuristic, python_seeds, 2)
    with (
        LocalCluster(
            host="127.0.0.1",
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
        ) as cluster,
        Client(cluster) as client,
    ):
        submit = functools.partial(client.submit, pure=False)  # pure tasks would be cached
        dask = _parallel_deals_per_s(submit, preset, heuristic, python_seeds, 2)
    one_worker = per_decision["heuristic"][1]
    return result | {
        "python_deals_per_s_1_worker": round(one_worker, 1),
        "python_deals_per_s_2_workers": round(pool, 1),
        "python_deals_per_s_dask_2_workers": round(dask, 1),
        "python_2_workers_speedup": round(pool / one_worker, 3),
        "dask_to_pool_ratio": round(dask / pool, 3),
        "python_us_per_decision": round(1e6 * per_decision["heuristic"][0], 2),
        "python_random_us_per_decision": round(1e6 * per_decision["random"][0], 2),
    }


class _DecisionTimer:
    """An agent wrapper that times each decision and notes whether the talon was open."""

    def __init__(self, agent) -> None:
        self.agent = agent
        self.spec = agent.spec
        self.cheating = getattr(agent, "cheating", False)
        self.seconds: list[tuple[bool, float]] = []

    def act(self, view):
        return self._timed(self.agent.act, view)

    def act_on_state(self, state):
        return self._timed(self.agent.act_on_state, state)

    def _timed(self, decide, position):
        """``decide(position)`` (a view, or the state for a cheating agent), timed."""
        talon_open = position.closed_by is None and position.talon_size > 0
        start = time.perf_counter()
        action = decide(position)
        self.seconds.append((talon_open, time.perf_counter() - start))
        return action


def _quantiles(seconds: list[float]) -> tuple[float | None, float | None]:
    """The median and the 90th percentile of ``seconds`` (None for no decisions)."""
    if not seconds:
        return None, None
    median, p90 = np.quantile(seconds, [0.5, 0.9])
    return round(float(median), 6), round(float(p90), 6)


def bench_agent(
    spec: str,
    preset: str = "schnapsen",
    deals: int = 20,
    seed: int = 1,
    opponent: str = "heuristic",
    progress: bool = True,
) -> dict:
    """Seconds per decision of ``spec`` against ``opponent`` over ``deals`` deals (seeds
    ``seed + i``, ``spec`` in seat ``i`` modulo the seats and ``opponent`` in every other
    seat, a partner's too; agents seeded as in a tournament): median and 90th percentile,
    overall and split into talon-open and strict-phase decisions, and the agent's mean
    payoff (signed game points for two players). Decisions with one legal action count too.
    The first decision's compile or cache load is excluded by a warm-up decision on another
    deal."""
    from tqdm import tqdm

    from sixtysix.agents import make, play_deal, policies

    deals = check_integer(deals, "deals", 1)
    seed = check_seed(seed, span=deals)
    game = Game(preset)
    warm_up, agent = game.new_deal(seed=seed), make(spec, 0)
    if getattr(agent, "cheating", False):
        agent.act_on_state(warm_up)
    else:
        agent.act(warm_up.view(warm_up.current_player))
    make(opponent, 0)
    timed = []
    points = 0
    start = time.perf_counter()
    for i in tqdm(range(deals), desc=f"bench {spec}", unit="deal", disable=not progress):
        deal_seed, seat = seed + i, i % game.num_players
        players = [
            make(spec if k == seat else opponent, int(policies.agent_seed(np.uint64(deal_seed), k)))
            for k in range(game.num_players)
        ]
        players[seat] = timer = _DecisionTimer(players[seat])
        result = play_deal(game, players, deal_seed)
        if result.error is not None:
            raise RuntimeError(f"deal {deal_seed}: {result.error}")
        points += result.payoffs[seat]
        timed += timer.seconds
    seconds = time.perf_counter() - start
    everything = [elapsed for _, elapsed in timed]
    open_phase = [elapsed for talon_open, elapsed in timed if talon_open]
    strict = [elapsed for talon_open, elapsed in timed if not talon_open]
    median, p90 = _quantiles(everything)
    open_median, open_p90 = _quantiles(open_phase)
    strict_median, strict_p90 = _quantiles(strict)
    return {
        "spec": agent.spec,
        "preset": preset,
        "opponent": opponent,
        "deals": deals,
        "seed": seed,
        "decisions": len(everything),
        "median_s": median,
        "p90_s": p90,
        "max_s": round(max(everything), 6),
        "mean_s": round(float(np.mean(everything)), 6),
        "open_decisions": len(open_phase),
        "open_median_s": open_median,
        "open_p90_s": open_p90,
        "strict_decisions": len(strict),
        "strict_median_s": strict_median,
        "strict_p90_s": strict_p90,
        "game_points_per_deal": round(points / deals, 4),
        "seconds": round(seconds, 3),
    }


def _seconds_per_iteration(iterate, iterations: int) -> float:
    """Mean seconds of ``iterate()`` over ``iterations`` calls."""
    start = time.perf_counter()
    for _ in range(iterations):
        iterate()
    return (time.perf_counter() - start) / iterations


def bench_cfr(
    preset: str = "mini_2x3", iterations: int = 1000, openspiel_iterations: int = 3
) -> dict:
    """Seconds per iteration of our exact CFR and CFR+ (``sixtysix.theory.cfr``, tree built once)
    and, side by side, of OpenSpiel's over ``python_sixty_six``: its C++ solvers through the
    binding (``pyspiel.CFRSolver``, ``pyspiel.CFRPlusSolver``) and its Python ones
    (``cfr.CFRSolver``, ``cfr.CFRPlusSolver``, the same update order as ours); set-up and
    compile times excluded, reported apart."""
    import pyspiel
    from open_spiel.python.algorithms import cfr as openspiel_cfr

    from ..theory import cfr, gametree

    cfr.check_mini_preset(preset)
    iterations = check_integer(iterations, "iterations", 1)
    openspiel_iterations = check_integer(openspiel_iterations, "openspiel_iterations", 1)
    start = time.perf_counter()
    tree = gametree.build(preset)
    sizes = tree.sizes
    result = {
        "preset": preset,
        "build_seconds": round(time.perf_counter() - start, 3),
        "histories": sizes["histories"],
        "information_sets_p0": sizes["information_sets"][0],
        "information_sets_p1": sizes["information_sets"][1],
    }
    game = _openspiel_game(preset)
    for variant, solvers in (
        ("cfr", {"binding": pyspiel.CFRSolver, "python": openspiel_cfr.CFRSolver}),
        ("cfr+", {"binding": pyspiel.CFRPlusSolver, "python": openspiel_cfr.CFRPlusSolver}),
    ):
        ours = cfr.CFRSolver(tree, variant)
        ours.iterate(1)  # compile or load the cache first
        seconds = _seconds_per_iteration(lambda s=ours: s.iterate(1), iterations)
        name = variant.replace("+", "_plus")
        result[f"{name}_s_per_iteration"] = round(seconds, 7)
        for kind, solver_class in solvers.items():
            start = time.perf_counter()
            theirs = solver_class(game)
            result[f"openspiel_{kind}_{name}_setup_s"] = round(time.perf_counter() - start, 3)
            openspiel_seconds = _seconds_per_iteration(
                theirs.evaluate_and_update_policy, openspiel_iterations
            )
            result[f"openspiel_{kind}_{name}_s_per_iteration"] = round(openspiel_seconds, 4)
            result[f"{name}_speedup_over_{kind}"] = round(openspiel_seconds / seconds, 1)
    result["iterations"] = iterations
    result["openspiel_iterations"] = openspiel_iterations
    return result
