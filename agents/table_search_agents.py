"""The search agents ``pimc``, ``ismcts`` and ``dmcts`` on the games of two to four seats
(``TableView``): every table preset, with or without announcements.

``PimcAgent`` and the two tree-search agents of ``agents.mcts`` hand a ``TableView`` to
the classes here (``TablePimc``, ``TableTreeSearch``), built on first use with the agent's
seed and parameters.

**Worlds.** A world is a whole deal consistent with the view (``sixtysix.table_worlds``:
the view fixes some deck positions; every unseen card may lie only where the public
facts allow). Exact uniform draws by ``table_worlds.sample_worlds`` cost milliseconds to
seconds per view (counting the matchings, replaying in Python), so the agents draw their
own, in numba (``WorldChain``): a Markov chain over the matchings of unseen cards to free
deck positions, started from one matching found by augmenting paths and moved by random
swaps of two cards and rotations of three, each kept only if every card stays where it
may lie. The proposals are symmetric, so the chain's stationary law is uniform over the
matchings it connects, that is over the deals the view cannot tell apart
(``table_worlds``' measure), wherever swaps and rotations connect them all (not proven for
every layout; the tests compare the draws with ``enumerate_worlds`` on small views).
``BURN_IN`` proposals per free position start it; ``PIMC_MIX_STEPS`` separate two
worlds of ``pimc``, ``TREE_MIX_STEPS`` (fewer: they cost half of an ``ismcts`` iteration
at eight, and consecutive iterations need no independent worlds) those of the trees.
Each draw is replayed (deal, then every public action, checked legal and by the right
seat) into a table record at the current decision; a draw the replay refuses (a fact only
the replay checks, ``table_worlds.replay_checks_more``) is skipped. Only the view is
read: the layout of ``table_worlds`` and the public history.

**Values.** A finished deal pays each seat its research payoff (RULES_MULTI 1.13.6,
``table_solver.research_payoffs``; ``seat_payoffs`` here, in numba): its side's value
``scores[x] - scores[y]`` in a deal that ended two-sided (partners share it), its own
game points in a three-sided one.

**pimc** (``TablePimc``): up to ``worlds`` worlds per decision, solved one after another
within ``NODE_BUDGET`` open-hand search nodes for the whole decision (a repeated world is
solved once). The budget is enforced inside the search: a world whose solve would pass it
is stopped and dropped, and no world follows, so the decision takes the mean over the worlds
solved before; if not even the first world was solved (a call or a first lead of
``snapszer4_called`` can take hundreds of millions of nodes in one world), it plays the
table heuristic's choice (``agents.table_heuristic``). The budget is counted in nodes,
not seconds, so a replay gives the same choices. In each world the open-hand solver
(``TableSolver``, one per agent, which carries the node limit: ``allow``) values every
legal action for the mover:

* two-sided deal (fixed partners, a called-card deal once the called card is in a hand,
  ``na66`` after the auction, ``snapszer3`` after a close or an announcement): the exact
  value for the mover's side (``solve``). The two sides are two players of a zero-sum
  game, which alpha-beta solves exactly.
* three-sided deal (``snapszer3`` before a close or an announcement): the paranoid value
  for the mover (the two others minimize his game points). Alpha-beta does not apply to
  a three-sided game; max^n (the alternative) is a Python recursion far too slow here,
  and the paranoid value is what a seat can guarantee against any play of the others.
* unsettled deal (a called-card deal before the call or with the called card in the
  talon, a betli still possible in a called-card announcement round, the ``na66_3``
  auction): each action is valued by the position it leads to, the seats after the mover
  passing in a pending announcement round (announcements are rare, and a betli still
  possible is what keeps such a round unsettled): the exact side value if that position
  is two-sided (the call fixes the partner in every world where the called card is in a
  hand), else the paranoid value. A paranoid search from the call would treat the
  future partner as an enemy, and it costs seconds to minutes per world where the solves
  after each call cost a second in all. Paranoid values are lower than side values, so
  calls of a card in the talon are valued pessimistically.

It plays the action of best mean value. Game-point values are coarse (most actions of a
position often lead to the same outcome in every world), so ties are common (a third of
the decisions of ``snapszer4`` tie every action): among tied actions it plays the table
heuristic's choice (``agents.table_heuristic``) if that is one of them, else one drawn
from its seed. The solver has no depth limit on tables, so ``horizon`` does not apply
there (the node budget bounds the work instead). Measured nodes per world with every
action: a few ten thousand (``snapszer4``, ``snapszer4_called`` after the first tricks),
4 to 540 million at the call of ``snapszer4_called`` and 2 to 215 million at its first
lead (where the budget gives the heuristic's choice).

**Inference** (``infer=true`` on all three): the worlds are weighed by how well they
explain the other seats' play, partner included. ``WorldChain.weighted`` draws
``candidates`` worlds ``PIMC_MIX_STEPS`` apart, replays each and multiplies, at every
lead or follow where another seat played one of several cards or marriages, the
probability of his play under a model with ``model_noise``: ``noise / n`` for each of the
``n``, and ``1 - noise`` more shared by the plays of highest ``move_score`` (the rollout's
choice below; ``model_log_share``). Other decisions (calls, announcements, bids, closing,
exchanges) are not modelled. The table heuristic (the two-player model's counterpart) is
Python, far too slow to replay hundreds of worlds a decision. The worlds searched are
resampled from the candidates in proportion (systematic resampling,
``inference.resample``): ``pimc`` solves ``worlds`` of them, ``ismcts`` and ``dmcts``
draw each iteration's (each tree's) world uniformly from ``candidates`` resampled ones.

**ismcts** and **dmcts** (``TableTreeSearch``) are the two-player algorithms (``agents.mcts``)
for N seats: multi-player single-observer ISMCTS (one tree over the searcher's
information sets, a fresh world per iteration, availability counts in UCB) and
determinized UCT (``worlds`` trees, root statistics summed). Each node keeps the payoffs
summed from the point of view of the seat that moved into it, so each mover picks by his
own reward (partners by their common side's). Rewards are payoffs over
``rules.max_game_points``, in [-1, 1]. Rollouts: ``random`` uniformly random, or
``heuristic`` (the default) the greedy policy ``greedy_action`` in numba (the table
heuristic is Python, far too slow for rollouts): at leads and follows the open-hand
search's move-ordering guess (following in a durchmars: the highest card that takes
the trick from the other side), an exchange whenever legal, never a close; elsewhere
uniform. ``solver`` is not supported on tables (``ValueError``). The two-player budgets
serve tables too: ``ismcts``'s 10,000 iterations take a median of about 30 ms a decision
on ``snapszer4``, ``dmcts``'s 32 worlds and 30,000 iterations about 60 ms
(``sixtysix bench agent SPEC --preset snapszer4``; docs/multiplayer_tournaments.md has
the table). Each iteration
is bounded (one world, one rollout to the end of the deal) but for the draws the replay
refuses, so these are budgeted as well: after the first world, the replay may refuse as
many drawn deals in all as the decision has iterations. Where that budget runs out the
search stops, and the root visits of the iterations (``dmcts``: the trees) made so far
decide.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from sixtysix import table_worlds
from sixtysix.engine import inference
from sixtysix.engine import multi_core as mc
from sixtysix.engine.actions import action_name
from sixtysix.engine.bits import popcount, trailing_zeros
from sixtysix.engine.multi_rules import SIDES_NONE
from sixtysix.engine.table_search import move_score
from sixtysix.table_game import TableState
from sixtysix.theory.table_solver import (
    TWO_SIDED,
    UNSETTLED,
    TableSolver,
    deal_kind,
    research_payoffs,
)

from . import policies
from .search_tree import DMCTS, expand_or_select, merge_root, most_visited, reset_tree
from .table_heuristic import heuristic_action

BURN_IN = 64  # chain proposals per free position before the first world
PIMC_MIX_STEPS = 8  # chain proposals per free position between two worlds of pimc
TREE_MIX_STEPS = 2  # the same between two iterations of ismcts or two trees of dmcts
REPLAY_TRIES = 1000  # draws the replay may refuse before a world is given up on
NODE_BUDGET = 3_000_000  # pimc: open-hand search nodes per decision (module docstring)
MAX_SEATS = 4


# ---- payoffs ----------------------------------------------------------------------------


@njit(cache=True)
def seat_payoffs(state, rules, out):
    """Write the research payoff of each seat of a finished deal into ``out`` (RULES_MULTI
    1.13.6, as ``table_solver.research_payoffs``): the side value if the deal ended
    two-sided, else each seat's game points."""
    n = rules.num_players
    everyone = (np.int64(1) << n) - 1
    side = np.int64(0)
    if rules.sides == SIDES_NONE:
        if state.closed_by >= 0:
            side = np.int64(1) << state.closed_by
        elif state.announced != 0:
            side = state.team[state.announcer] & everyone
        elif n == 2:
            side = np.int64(1)
    else:
        side = state.team[0] & everyone
        for seat in range(n):
            team = state.team[seat] & everyone
            if team != side and team != everyone & ~side:
                side = 0
        if side == everyone:
            side = 0
    if side == 0:
        for seat in range(n):
            out[seat] = state.scores[seat]
        return
    other = everyone & ~side
    value = state.scores[trailing_zeros(side)] - state.scores[trailing_zeros(other)]
    for seat in range(n):
        out[seat] = value if (side >> seat) & 1 else -value


# ---- worlds -----------------------------------------------------------------------------


@njit(cache=True)
def _match(allowed, holder):
    """Fill ``holder`` (free position -> card index) with a perfect matching of the cards to
    the positions each may occupy (``allowed``: bit masks of positions), by augmenting
    paths; False if there is none."""
    n = len(allowed)
    where = np.full(n, -1, dtype=np.int64)  # card -> position
    parent = np.empty(n, dtype=np.int64)  # position -> the card that reached it
    queue = np.empty(n, dtype=np.int64)
    holder[:] = -1
    for card in range(n):
        seen = np.int64(0)
        queue[0] = card
        head, tail, found = 0, 1, -1
        while head < tail and found < 0:
            current = queue[head]
            head += 1
            options = allowed[current] & ~seen
            while options:
                position = trailing_zeros(options)
                options &= options - 1
                seen |= np.int64(1) << position
                parent[position] = current
                if holder[position] < 0:
                    found = position
                    break
                queue[tail] = holder[position]
                tail += 1
        if found < 0:
            return False
        position = found
        while True:  # shift every card on the path one step along it
            moved = parent[position]
            previous = where[moved]
            holder[position] = moved
            where[moved] = position
            if moved == card:
                break
            position = previous
    return True


@njit(cache=True)
def chain_steps(stream, allowed, holder, steps):
    """``steps`` proposals of the chain on ``holder``: a swap of two positions' cards or a
    rotation of three (one each in turn), made only if every card may lie where it goes."""
    n = len(holder)
    if n < 2:
        return
    for step in range(steps):
        i = policies.draw_below(stream, n)
        j = policies.draw_below(stream, n - 1)
        j += j >= i
        a, b = holder[i], holder[j]
        if n > 2 and step & 1:
            k = policies.draw_below(stream, n - 2)
            k += k >= min(i, j)
            k += k >= max(i, j)
            c = holder[k]
            if (allowed[a] >> j) & 1 and (allowed[b] >> k) & 1 and (allowed[c] >> i) & 1:
                holder[j], holder[k], holder[i] = a, b, c
        elif (allowed[a] >> j) & 1 and (allowed[b] >> i) & 1:
            holder[i], holder[j] = b, a


@njit(cache=True)
def _top_move_score(state, rules, cards):
    """The highest ``move_score`` of the actions in the bit set ``cards``, and how many
    actions have it."""
    top, count = -1, 0
    while cards:
        score = move_score(state, rules, trailing_zeros(cards))
        cards &= cards - 1
        top, count = (score, 1) if score > top else (top, count + (score == top))
    return top, count


@njit(cache=True)
def model_log_share(state, rules, low, action, noise):
    """The log-probability of ``action`` by the mover of ``state`` (whose legal card and
    marriage actions are the bit set ``low``) under the inference's model of a seat's play
    (module docstring): at a lead or a follow where he played one of several cards or
    marriages, ``noise / n`` for each of the ``n`` and ``1 - noise`` more shared by those
    of highest ``move_score``; 0 for every other decision."""
    if action >= mc.A_CALL or (state.phase != mc.LEAD and state.phase != mc.FOLLOW):
        return 0.0
    options = popcount(low)
    if options < 2:
        return 0.0
    top, count = _top_move_score(state, rules, low)
    share = noise / options
    if move_score(state, rules, action) == top:
        share += (1.0 - noise) / count
    return math.log(share)


@njit(cache=True)
def _replay(into, rules_array, deck, free, cards, holder, dealer, seats, actions, seat, model):
    """Deal ``deck`` with the chain's cards at the free positions and replay the public
    actions into ``into[0]``; whether every action was legal and made by its seat and the
    world stands at ``seat``'s decision. With ``model[0]`` (the noise) below 1, ``model[1]``
    gets the log-likelihood of the other seats' actions (``model_log_share``)."""
    for j in range(len(free)):
        deck[free[j]] = cards[holder[j]]
    state = into[0]
    rules = rules_array[0]
    noise = model[0]
    log_likelihood = 0.0
    mc.deal(state, rules, deck, dealer)
    for k in range(len(actions)):
        action = actions[k]
        low, high = mc.legal_masks(state, rules)
        word = low if action < mc.HIGH else high
        if state.to_move != seats[k] or not (word >> (action % mc.HIGH)) & 1:
            return False
        if noise < 1.0 and seats[k] != seat:
            log_likelihood += model_log_share(state, rules, low, action, noise)
        mc.apply_with_knowledge(state, rules, action)
    model[1] = log_likelihood
    return state.phase != mc.OVER and state.to_move == seat


@njit(cache=True)
def draw_world(stream, into, rules_array, chain_arrays, dealer, seat, steps, tries):
    """Advance the chain ``steps`` proposals (again while the replay refuses its draws, at
    most ``tries`` draws) and write the world into ``into[0]``: the number of draws made,
    0 if every one was refused."""
    deck, free, cards, allowed, holder, seats, actions, model = chain_arrays
    for k in range(tries):
        chain_steps(stream, allowed, holder, steps)
        if _replay(
            into, rules_array, deck, free, cards, holder, dealer, seats, actions, seat, model
        ):
            return k + 1
    return 0


@njit(cache=True)
def weighted_worlds(stream, rules_array, chain_arrays, dealer, seat, steps, candidates, chosen):
    """Draw ``candidates`` worlds from the chain and fill ``chosen`` by resampling them in
    proportion to the likelihood of the other seats' actions (systematic resampling,
    ``inference.resample``); False if the replay refused ``REPLAY_TRIES`` draws in a row."""
    model = chain_arrays[7]  # the noise; the last world's log-likelihood
    log_weights = np.empty(len(candidates))
    for k in range(len(candidates)):
        if not draw_world(
            stream,
            candidates[k : k + 1],
            rules_array,
            chain_arrays,
            dealer,
            seat,
            steps,
            REPLAY_TRIES,
        ):
            return False
        log_weights[k] = model[1]
    picks = np.empty(len(chosen), dtype=np.int64)
    rng = inference.resample((stream[0], stream[1], stream[2], stream[3]), log_weights, picks)
    stream[0], stream[1], stream[2], stream[3] = rng
    for k in range(len(chosen)):
        chosen[k] = candidates[picks[k]]
    return True


def _too_rare() -> ValueError:
    """The error of a view whose worlds the chain's replay keeps refusing."""
    return ValueError(
        f"{REPLAY_TRIES} drawn deals in a row were not consistent with the view: "
        "its worlds are too rare for this sampler"
    )


class WorldChain:
    """The worlds of one view (module docstring), drawn from ``stream`` into table records,
    ``mix_steps`` chain proposals per free position apart; ``model_noise`` below 1 is the
    noise of the inference's model (``weighted``)."""

    def __init__(self, view, stream: np.ndarray, mix_steps: int, model_noise: float = 1.0) -> None:
        layout = table_worlds.world_layout(view)
        index = {position: j for j, position in enumerate(layout.free)}
        deck = np.full(len(view.receipts), -1, dtype=np.int64)
        for position, card in layout.fixed.items():
            deck[position] = card
        allowed = np.array(
            [sum(1 << index[p] for p in layout.allowed[card]) for card in layout.cards],
            dtype=np.int64,
        )
        holder = np.empty(len(layout.free), dtype=np.int64)
        if not _match(allowed, holder):
            raise ValueError("no deal is consistent with this view")
        self.arrays = (
            deck,
            np.array(layout.free, dtype=np.int64),
            np.array(layout.cards, dtype=np.int64),
            allowed,
            holder,
            np.array([seat for seat, _ in view.history], dtype=np.int64),
            np.array([action for _, action in view.history], dtype=np.int64),
            np.array([model_noise, 0.0]),  # the noise; the last world's log-likelihood
        )
        self.game = view.game
        self.dealer = view.dealer
        self.seat = view.seat
        self.stream = stream
        self.steps = mix_steps * len(layout.free)
        chain_steps(stream, allowed, holder, BURN_IN * len(layout.free))

    def draw(self, into: np.ndarray) -> None:
        """The next world, into the one-element record array ``into``."""
        if not draw_world(
            self.stream,
            into,
            self.game.rule_array,
            self.arrays,
            self.dealer,
            self.seat,
            self.steps,
            REPLAY_TRIES,
        ):
            raise _too_rare()

    def weighted(self, count: int, candidates: int) -> np.ndarray:
        """``count`` world records resampled from ``candidates`` drawn by the likelihood of
        the other seats' actions (module docstring)."""
        dtype = mc.state_dtype(self.game.rule_array)
        chosen = np.zeros(count, dtype=dtype)
        if not weighted_worlds(
            self.stream,
            self.game.rule_array,
            self.arrays,
            self.dealer,
            self.seat,
            self.steps,
            np.zeros(candidates, dtype=dtype),
            chosen,
        ):
            raise _too_rare()
        return chosen

    def deck(self) -> list[int]:
        """The deck (card per position) of the last world drawn."""
        return [int(card) for card in self.arrays[0]]


def _worlds_of(view, stream, mix_steps: int, weighing, count: int):
    """The world chain of ``view`` and, with ``weighing`` (``(model_noise, candidates)``),
    ``count`` worlds resampled by the other seats' play (else none): ``(chain, records)``.
    The candidates are drawn ``PIMC_MIX_STEPS`` apart, as independent as ``pimc``'s."""
    if weighing is None:
        none = np.zeros(0, mc.state_dtype(view.game.rule_array))
        return WorldChain(view, stream, mix_steps), none
    model_noise, candidates = weighing
    chain = WorldChain(view, stream, PIMC_MIX_STEPS, model_noise)
    return chain, chain.weighted(count, candidates)


def _world_state(game, array: np.ndarray) -> TableState:
    """A ``TableState`` around a world's record, for the solver: it reads only the record
    and the game (the deal's history and receipts are not kept)."""
    state = TableState.__new__(TableState)
    state.game = game
    state.array = array
    return state


# ---- pimc -------------------------------------------------------------------------------


class TablePimc:
    """``pimc`` on a ``TableView`` (module docstring): ``worlds`` worlds per decision, within
    ``NODE_BUDGET`` open-hand search nodes; ``weighing`` (``(model_noise, candidates)``,
    None for uniform worlds) weighs them by the other seats' play (``infer=true``)."""

    def __init__(self, seed: int, worlds: int, weighing: tuple[float, int] | None = None) -> None:
        self.worlds = worlds
        self.weighing = weighing
        self._stream = policies.new_stream(seed)
        self._solver: TableSolver | None = None

    def act(self, view) -> str:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return best_action(self.action_values(view), view, self._stream)

    def action_values(self, view) -> dict[int, float]:
        """The mean value (module docstring) of each legal action id over the worlds of
        this decision solved within the node budget (empty if not even the first one
        was); advances the agent's stream like ``act``."""
        game = view.game
        solver = self._solver_for(game)
        solver.allow(NODE_BUDGET)
        chain, inferred = _worlds_of(view, self._stream, PIMC_MIX_STEPS, self.weighing, self.worlds)
        solved: dict[bytes, dict[int, int]] = {}
        totals: dict[int, float] = {}
        count = 0
        while count < self.worlds:
            if len(inferred):
                world = inferred[count : count + 1]
            else:
                world = np.zeros(1, dtype=mc.state_dtype(game.rule_array))
                chain.draw(world)
            key = world.tobytes()
            if key not in solved:
                values = world_values(solver, _world_state(game, world))
                if values is None:  # the budget ran out: this world is dropped
                    break
                solved[key] = values
            count += 1
            for action, value in solved[key].items():
                totals[action] = totals.get(action, 0) + value
        return {action: total / count for action, total in totals.items()}

    def act_on_world(self, state: TableState) -> str:
        """The choice of ``act`` when ``state`` is the one world (every card known): the
        ``open-hand`` reference on tables (``agents.open_hand``)."""
        solver = self._solver_for(state.game)
        solver.allow(NODE_BUDGET)
        values = world_values(solver, state)
        return best_action(values, state.view(state.current_player), self._stream)

    def _solver_for(self, game) -> TableSolver:
        rules = game.rule_array.tobytes()
        if self._solver is None or self._solver.rules.tobytes() != rules:
            self._solver = TableSolver(game)
        return self._solver


def best_action(values: dict[int, float] | None, view, stream) -> str:
    """The action of highest value (action id -> value); among tied ones the table
    heuristic's choice if it is one of them, else one drawn from ``stream``; with no
    values (None or empty: the node budget ran out) the heuristic's choice."""
    if not values:
        return heuristic_action(view)
    best = max(values.values())
    ties = [action_name(action) for action, value in sorted(values.items()) if value == best]
    if len(ties) == 1:
        return ties[0]
    preferred = heuristic_action(view)
    if preferred in ties:
        return preferred
    return ties[policies.draw_below(stream, len(ties))]


def world_values(solver: TableSolver, world: TableState) -> dict[int, int] | None:
    """The open-hand value of each legal action id of ``world``'s mover (module docstring):
    for his side on a two-sided deal, paranoid for him on a three-sided one, and on an
    unsettled one by the kind of the position each action leads to (after the passes of a
    pending announcement round); None if the solver's node limit stopped a search."""
    if deal_kind(world) != UNSETTLED:
        values = solver.action_values(world)
        return None if solver.stopped else values
    mover = world.current_player
    rules = world.game.rule_array
    values = {}
    for action in world.legal_action_ids():
        child = _world_state(world.game, mc.copy_record(world.array))
        mc.apply_checked(child.array, rules, action)
        while child.array[0]["phase"] == mc.ANNOUNCE:  # the other seats pass
            mc.apply_checked(child.array, rules, mc.A_PASS)
        if child.is_terminal:
            values[action] = research_payoffs(child)[mover]
        elif deal_kind(child) == TWO_SIDED:
            values[action] = solver.solve(child, mover)
        else:
            values[action] = solver.paranoid(child, mover)
        if solver.stopped:
            return None
    return values


# ---- ismcts and dmcts -------------------------------------------------------------------


@njit(cache=True)
def greedy_action(state, rules, stream):
    """The rollout policy ``heuristic`` on tables: at a lead or a follow, the card action of
    highest move-ordering score of the open-hand search (``table_search.move_score``: the
    cheapest winner or the cheapest loss when following, a partner's trick smeared,
    marriages first), ties drawn from ``stream``; an exchange whenever legal; elsewhere
    (calls, announcements, bids, closing, claims) a uniform legal action."""
    low, high = mc.legal_masks(state, rules)
    if (high >> (mc.A_EXCHANGE - mc.HIGH)) & 1:
        return mc.A_EXCHANGE
    if (state.phase != mc.LEAD and state.phase != mc.FOLLOW) or low == 0:
        return policies.nth_action(
            low, high, policies.draw_below(stream, popcount(low) + popcount(high))
        )
    best_score = -1
    ties = 0
    best = -1
    cards = low
    while cards:
        action = trailing_zeros(cards)
        cards &= cards - 1
        score = move_score(state, rules, action)
        if score > best_score:
            best_score, best, ties = score, action, 1
        elif score == best_score:
            ties += 1
            if policies.draw_below(stream, ties) == 0:
                best = action
    return best


@njit(cache=True)
def _iterate(kind, pool, rules_array, c, rollout, bound, stream, payoffs):
    """One iteration from the world in ``pool.scratch[0]``: select, expand, a random
    rollout, back up each node's mover's payoff."""
    rules = rules_array[0]
    state = pool.scratch[0]
    node = 0
    depth = 0
    while state.phase != mc.OVER:
        low, high = mc.legal_masks(state, rules)
        action, untried = expand_or_select(kind, pool, node, low, high, c, bound, stream)
        depth += 1
        node = pool.children[node, action]
        pool.path[depth] = node
        pool.movers[depth] = state.to_move
        mc.apply_action(state, rules, action)
        if untried:
            break
    while state.phase != mc.OVER:
        if rollout == policies.RANDOM:
            action = policies.random_action(state, rules, stream)
        else:
            action = greedy_action(state, rules, stream)
        mc.apply_action(state, rules, action)
    seat_payoffs(state, rules, payoffs)
    pool.visits[0] += 1
    for k in range(1, depth + 1):
        node = pool.path[k]
        pool.visits[node] += 1
        pool.points[node] += payoffs[pool.movers[k]]


@njit(cache=True, inline="always")
def _next_world(stream, into, rules_array, source, refusals_left):
    """The next world of a tree search into ``into[0]`` from ``source`` (``(chain arrays,
    dealer, seat, steps, inferred)``): one of the ``inferred`` world records if there are
    any, else the chain's, the replay refusing at most ``refusals_left`` draws: the
    refusals left after it, -1 if they ran out first."""
    chain_arrays, dealer, seat, steps, inferred = source
    if len(inferred):
        into[0] = inferred[policies.draw_below(stream, len(inferred))]
        return refusals_left
    drawn = draw_world(
        stream, into, rules_array, chain_arrays, dealer, seat, steps, refusals_left + 1
    )
    return refusals_left - (drawn - 1) if drawn else -1


@njit(cache=True)
def search(
    kind,
    pool,
    rules_array,
    chain_arrays,
    dealer,
    seat,
    steps,
    stream,
    worlds,
    iterations,
    c,
    rollout,
    bound,
    inferred,
):
    """One decision of ``kind`` (``DMCTS`` or ``ISMCTS``) over the worlds of the chain
    (``WorldChain.arrays``, at ``seat``'s decision), or drawn from the ``inferred`` world
    records if there are any: the action id of most root visits. ``worlds`` counts only
    for ``DMCTS``. After the first world the replay may refuse ``iterations`` drawn deals
    in all; where that budget runs out, the search stops and the iterations made decide."""
    payoffs = np.zeros(MAX_SEATS, dtype=np.int64)
    pool.root_visits[:] = 0
    pool.root_points[:] = 0
    source = (chain_arrays, dealer, seat, steps, inferred)
    if _next_world(stream, pool.world, rules_array, source, REPLAY_TRIES - 1) < 0:
        raise ValueError("the drawn deals were not consistent with the view")
    low, high = mc.legal_masks(pool.world[0], rules_array[0])
    refusals_left = iterations
    if kind == DMCTS:
        for w in range(worlds):
            if w > 0:
                refusals_left = _next_world(stream, pool.world, rules_array, source, refusals_left)
                if refusals_left < 0:
                    break
            reset_tree(pool)
            for _ in range(iterations // worlds + (1 if w < iterations % worlds else 0)):
                pool.scratch[0] = pool.world[0]
                _iterate(kind, pool, rules_array, c, rollout, bound, stream, payoffs)
            merge_root(pool, low, high)
    else:
        reset_tree(pool)
        pool.scratch[0] = pool.world[0]
        for i in range(iterations):
            if i > 0:
                refusals_left = _next_world(
                    stream, pool.scratch, rules_array, source, refusals_left
                )
                if refusals_left < 0:
                    break
            _iterate(kind, pool, rules_array, c, rollout, bound, stream, payoffs)
        merge_root(pool, low, high)
    return most_visited(pool.root_visits, low, high, stream)


class TableTreeSearch:
    """``ismcts`` or ``dmcts`` on a ``TableView`` (module docstring), on the node pool of
    the two-player agent (``pool``), whose records it replaces by table records."""

    def __init__(
        self,
        kind: int,
        seed: int,
        pool,
        worlds: int,
        iterations: int,
        c: float,
        rollout: int,
        solver: bool,
        weighing: tuple[float, int] | None,
    ) -> None:
        if solver:
            raise ValueError(
                "solver=true is not supported on the games of three and four seats: "
                "use solver=false"
            )
        self.kind = kind
        self.worlds = worlds
        self.iterations = iterations
        self.c = c
        self._rollout = rollout
        self.weighing = weighing
        self._pool = pool
        self._stream = policies.new_stream(seed)

    def act(self, view) -> str:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        game = view.game
        dtype = mc.state_dtype(game.rule_array)
        if self._pool.world.dtype != dtype:
            self._pool = self._pool._replace(
                world=np.zeros(1, dtype=dtype), scratch=np.zeros(1, dtype=dtype)
            )
        candidates = self.weighing[1] if self.weighing else 0
        chain, inferred = _worlds_of(view, self._stream, TREE_MIX_STEPS, self.weighing, candidates)
        action = search(
            self.kind,
            self._pool,
            game.rule_array,
            chain.arrays,
            chain.dealer,
            chain.seat,
            chain.steps,
            self._stream,
            self.worlds,
            self.iterations,
            self.c,
            self._rollout,
            game.rules.max_game_points,
            inferred,
        )
        return action_name(action)
