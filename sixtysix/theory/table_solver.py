"""Open-hand solver for the games for two to four seats (RULES_MULTI sections 1.13.6
and 9): every hand and the talon's order are known, so a deal is a game of perfect
information.

Payoff of a finished deal (the research payoff of 1.13.6, ``research_payoffs``): in a
*two-sided* deal seat ``x`` gets ``scores[x] - scores[y]`` for any seat ``y`` not on
``x``'s final side: +g / -g in the Snapszer games, the signed contract difference in
``na66`` (the declarer's level, or minus it, against the defenders' units). In a
*three-sided* deal (a ``snapszer3`` deal before a close or an announcement) the payoff
vector is ``scores`` itself (general-sum).

What the deal is (``deal_kind``), from the position given:

* ``"two-sided"``: the two final sides are known now and cannot change: the fixed
  partnerships (``snapszer4``), ``na66`` with four (or two) seats from the start and
  with three seats after the auction, a called-card game once the call is made with
  the called card in a hand (and, with betli possible, after the announcement round),
  and ``snapszer3`` after a close or an announced durchmars (the closer or announcer
  against the two others, although ``state.sides`` still shows every seat alone there).
  ``solve`` gives the exact value for a seat's side by alpha-beta with that side as
  the maximizer: a decision node is a MAX node iff its mover is on that side.
* ``"three-sided"``: a ``snapszer3`` deal that no close or announcement has split
  (more generally, a deal with every seat for himself and more than two seats).
  Alpha-beta does not apply (section 9); ``paranoid`` gives the paranoid value for one
  seat (Sturtevant & Korf: every other seat minimizes his payoff), ``maxn`` the max^n
  vector (Luckhardt & Irani). Their payoff is ``scores`` at every leaf, also at the
  leaves reached after a close inside the search.
* ``"unsettled"``: the final sides are decided by the play itself: a called-card deal
  before the call, or with the called card still in the talon (whoever draws it becomes
  the caller's partner, RULES_MULTI M3, so the drawer depends on the tricks), a betli
  still possible in the announcement round of a called-card game (it would re-split the
  table), or the auction of ``na66_3`` (the declarer is not known). A seat whose side is
  not fixed at a node has no fixed maximizing side, so the deal is not a two-team
  zero-sum game from the position given and ``solve`` raises ``ValueError`` naming the
  situation. (Section 9 says of ``snapszer3_called`` that "the sides are settled inside
  the search"; that is true of each leaf, but not of the nodes before the draw.)
  ``paranoid`` and ``maxn`` still apply: each leaf is paid by 1.13.6 with the sides
  as they are at that leaf.

Conventions:

* ``maxn`` breaks ties for the mover by the first legal action in ascending action-id
  order (the order of ``legal_action_ids``) among those maximizing his own component.
* ``best_actions`` lists, in ascending id order, every legal action of the player to
  move whose exact child value equals the root value: the value of ``solve`` for a
  two-sided deal, the paranoid value otherwise (or as ``method`` says).
* ``maxn``'s table is keyed on the record bytes (``state.array.tobytes()``) and kept
  between calls by a :class:`TableSolver`; the alpha-beta table starts afresh each call.

The alpha-beta searches (``solve``, ``paranoid``, ``action_values``) run in numba
(``sixtysix.engine.table_search``: an explicit stack, zero-window tests, a table keyed
by two 64-bit hashes of the record). ``maxn`` is a plain Python recursion over a small
numba expansion kernel: exact, fast enough for the minis of RULES_MULTI section 10.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine import multi_core as mc
from ..engine import table_search
from ..engine.actions import masks_to_actions
from ..engine.multi_rules import (
    DURCHMARS_BETLI,
    SIDES_CALLED,
    SIDES_CONTRACT,
    SIDES_FIXED,
    SIDES_NONE,
)
from ..table_game import TableGame, TableState

TWO_SIDED = "two-sided"
THREE_SIDED = "three-sided"
UNSETTLED = "unsettled"
METHODS = ("auto", "solve", "paranoid")

__all__ = [
    "TableSolver",
    "best_actions",
    "action_values",
    "deal_kind",
    "maxn",
    "paranoid",
    "research_payoffs",
    "solve",
    "two_sides",
]


# ---- sides and payoffs ------------------------------------------------------------------


def _seats_mask(n: int) -> int:
    return (1 << n) - 1


def _leaf_partition(record, rules) -> tuple[int, int] | None:
    """The two side masks of a finished deal (``None`` if it is not two-sided)."""
    n = int(rules["num_players"])
    everyone = _seats_mask(n)
    if int(rules["sides"]) == SIDES_NONE:
        if int(record["closed_by"]) >= 0:
            side = 1 << int(record["closed_by"])
        elif int(record["announced"]) != 0:
            side = int(record["team"][int(record["announcer"])])
        elif n == 2:
            side = 1
        else:
            return None
        return side, everyone & ~side
    teams = {int(record["team"][seat]) & everyone for seat in range(n)}
    if len(teams) != 2:
        return None
    first, second = sorted(teams)
    if first | second != everyone or first & second:
        return None
    return first, second


def _side_values(record, n: int, partition: tuple[int, int]) -> tuple[int, ...]:
    """``scores[x] - scores[y]`` for a seat ``y`` on the other side (1.13.6)."""
    scores = record["scores"]
    a, b = partition
    first_a = (a & -a).bit_length() - 1
    first_b = (b & -b).bit_length() - 1
    value = int(scores[first_a]) - int(scores[first_b])
    return tuple(value if (a >> seat) & 1 else -value for seat in range(n))


def _scores(record, n: int) -> tuple[int, ...]:
    return tuple(int(points) for points in record["scores"][:n])


def research_payoffs(state: TableState) -> tuple[int, ...]:
    """The payoff vector of a finished deal (1.13.6), with the sides at the end: the side
    values ``scores[x] - scores[y]`` if the deal ended two-sided, else ``scores``."""
    if not state.is_terminal:
        raise ValueError("research_payoffs needs a finished deal")
    record = state.array[0]
    partition = _leaf_partition(record, state.game.rule_array[0])
    if partition is None:
        return _scores(record, state.num_players)
    return _side_values(record, state.num_players, partition)


def _classify(state: TableState) -> tuple[str, tuple[int, int] | None, str]:
    """(kind, partition if two-sided, why if unsettled)."""
    record = state.array[0]
    rules = state.game.rule_array[0]
    n = state.num_players
    if state.is_terminal:
        partition = _leaf_partition(record, rules)
        return (THREE_SIDED, None, "") if partition is None else (TWO_SIDED, partition, "")
    sides = int(rules["sides"])
    phase = int(record["phase"])
    if sides == SIDES_NONE:
        partition = _leaf_partition(record, rules)
        return (THREE_SIDED, None, "") if partition is None else (TWO_SIDED, partition, "")
    if sides == SIDES_CALLED:
        if phase == mc.CALL:
            return UNSETTLED, None, "the call has not been made, so the sides are not known"
        if int(record["holder"]) < 0 and int(record["announced"]) != mc.BETLI:
            return (
                UNSETTLED,
                None,
                f"the called card {state.called_card} is still in the talon: whoever draws "
                "it becomes the caller's partner (RULES_MULTI M3), so the sides depend on "
                "the play",
            )
        if phase == mc.ANNOUNCE and int(rules["announcements"]) == DURCHMARS_BETLI:
            return (
                UNSETTLED,
                None,
                "a betli may still be announced, and it would re-split the sides (MP-A15)",
            )
    if sides == SIDES_CONTRACT and n == 3 and phase == mc.BID:
        return UNSETTLED, None, "the auction decides the declarer, hence the sides"
    if sides in (SIDES_FIXED, SIDES_CALLED, SIDES_CONTRACT):
        partition = _leaf_partition(record, rules)
        if partition is not None:
            return TWO_SIDED, partition, ""
    return UNSETTLED, None, f"the sides {state.sides} are not two fixed sides"


def deal_kind(state: TableState) -> str:
    """``"two-sided"``, ``"three-sided"`` or ``"unsettled"`` (see the module docstring)."""
    return _classify(state)[0]


def _payoff_rule(state: TableState) -> tuple[int, tuple[int, int] | None]:
    """The payoff rule of a search of ``state`` and its two sides if it is two-sided."""
    kind, partition, _ = _classify(state)
    if kind == THREE_SIDED:
        return PAY_SCORES, None
    if kind == TWO_SIDED:
        return PAY_ROOT_SIDES, partition
    return PAY_LEAF_SIDES, None


def _search_problem(
    state: TableState, seat: int, method: str = "auto"
) -> tuple[int, int, int, int]:
    """The arguments ``(maximizing seats, seat paid, payoff rule, the paid seat's side at the
    root)`` of a ``table_search`` search for ``seat``'s value of ``state``: ``solve`` (his
    side's exact value on a two-sided deal) or ``paranoid`` (he maximizes, every other
    seat minimizes: the payoff of every seat for himself on a three-sided deal, of the
    sides at each leaf on an unsettled one); ``auto``, ``solve`` where the deal is
    two-sided, else ``paranoid``. The side is 0 unless the root is two-sided."""
    pay, partition = _payoff_rule(state)
    own_side = 0
    if partition is not None:
        a, b = partition
        own_side = a if (a >> seat) & 1 else b
    if method == "auto":
        method = "solve" if pay == PAY_ROOT_SIDES else "paranoid"
    if method == "solve":
        two_sides(state)  # refuses a three-sided or unsettled deal
        return own_side, seat, pay, own_side
    return 1 << seat, seat, pay, own_side


def two_sides(state: TableState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The two final sides of a two-sided deal as seat tuples; ``ValueError`` otherwise."""
    kind, partition, why = _classify(state)
    if partition is None:
        if kind == THREE_SIDED:
            raise ValueError(
                "this deal is three-sided (every seat for himself, no close or "
                "announcement): alpha-beta does not apply, use paranoid or maxn"
            )
        raise ValueError(f"the final sides are not settled: {why}; use paranoid or maxn")
    n = state.num_players
    return tuple(tuple(s for s in range(n) if (mask >> s) & 1) for mask in partition)


# ---- the searches -------------------------------------------------------------------------

# Columns of a node's row (the kernel writes one per child; ``_row`` makes the root's).
ACTION, PHASE, MOVER, SCORES, TEAMS = 0, 1, 2, 3, 7
ROW = 11
#: The payoff rule of a search: ``scores`` at every leaf (a three-sided root), the side
#: values of the root's settled partition, or the side values of each leaf's own sides
#: (an unsettled root).
PAY_SCORES = table_search.PAY_SCORES
PAY_ROOT_SIDES = table_search.PAY_ROOT_SIDES
PAY_LEAF_SIDES = table_search.PAY_LEAF_SIDES


@njit(cache=True)
def _expand_kernel(state_array, rules_array, children, rows):
    """Write the child record of every legal action into ``children`` and its row
    (action id, phase, mover, scores, teams) into ``rows``, ascending; return how many."""
    low, high = mc.legal_masks_array(state_array, rules_array)
    count = 0
    for action in range(mc.NUM_TABLE_ACTIONS):
        legal = (low >> action) & 1 if action < mc.HIGH else (high >> (action - mc.HIGH)) & 1
        if legal:
            children[count] = state_array[0]
            mc.apply_checked(children[count : count + 1], rules_array, action)
            child = children[count]
            rows[count, ACTION] = action
            rows[count, PHASE] = child.phase
            rows[count, MOVER] = child.to_move
            for seat in range(4):
                rows[count, SCORES + seat] = child.scores[seat]
                rows[count, TEAMS + seat] = child.team[seat]
            count += 1
    return count


def _row(array: np.ndarray) -> list[int]:
    record = array[0]
    return [
        -1,
        int(record["phase"]),
        int(record["to_move"]),
        *(int(x) for x in record["scores"]),
        *(int(x) for x in record["team"]),
    ]


def _low_seat(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _row_vector(row: list[int], n: int, pay: int, partition) -> tuple[int, ...]:
    """The payoff vector of a finished node's row under the search's payoff rule."""
    if pay == PAY_LEAF_SIDES:
        everyone = _seats_mask(n)
        teams = {row[TEAMS + seat] & everyone for seat in range(n)}
        partition = None
        if len(teams) == 2:
            first, second = sorted(teams)
            if first | second == everyone and not first & second:
                partition = (first, second)
    if pay == PAY_SCORES or partition is None:
        return tuple(row[SCORES : SCORES + n])
    a, b = partition
    value = row[SCORES + _low_seat(a)] - row[SCORES + _low_seat(b)]
    return tuple(value if (a >> seat) & 1 else -value for seat in range(n))


class TableSolver:
    """Open-hand searches on positions of one ``TableGame``. ``nodes`` counts the
    positions the searches reached."""

    def __init__(self, game: TableGame, table_bits: int = table_search.TT_BITS_DEFAULT) -> None:
        table_search.check_rules(game.rule_array)
        self.game = game
        self.rules = game.rule_array
        self.num_players = game.num_players
        self._maxn_nodes = 0
        self._vectors: dict[tuple, dict[bytes, tuple[int, ...]]] = {}
        self._pool: list[tuple[np.ndarray, np.ndarray]] = []
        self._workspace = table_search.new_workspace(mc.state_dtype(self.rules), table_bits)

    @property
    def nodes(self) -> int:
        return self._maxn_nodes + int(self._workspace.counters[1])

    def allow(self, nodes: int) -> None:
        """Stop the alpha-beta searches (``solve``, ``paranoid``, ``action_values``) where
        one would take them past ``nodes`` more nodes from now (``stopped`` then says so,
        and their values are meaningless); by default they never stop."""
        table_search.limit_nodes(self._workspace, int(self._workspace.counters[1]) + nodes)

    @property
    def stopped(self) -> bool:
        """Whether the limit of ``allow`` stopped a search since it was set."""
        return bool(table_search.stopped(self._workspace))

    # ---- public -----------------------------------------------------------------------
    def solve(self, state: TableState, seat: int | None = None) -> int:
        """The exact open-hand value of a two-sided deal for ``seat``'s side (default: the
        player to move), by alpha-beta with that side as the maximizer."""
        self._check(state)
        problem = _search_problem(state, self._seat(state, seat), "solve")
        return int(table_search.solve_record(self._workspace, self.rules, state.array, *problem)[0])

    def paranoid(self, state: TableState, seat: int | None = None) -> int:
        """The paranoid value for ``seat`` (default: the player to move): ``seat``
        maximizes his payoff, every other seat (partners included) minimizes it."""
        self._check(state)
        problem = _search_problem(state, self._seat(state, seat), "paranoid")
        return int(table_search.solve_record(self._workspace, self.rules, state.array, *problem)[0])

    def maxn(self, state: TableState) -> tuple[int, ...]:
        """The max^n vector: every mover maximizes his own payoff component; ties go to
        the first legal action in ascending id order."""
        self._check(state)
        pay, partition = _payoff_rule(state)
        return self._maxn(pay, partition)(state.array, _row(state.array), 0)

    def action_values(
        self, state: TableState, seat: int | None = None, method: str = "auto"
    ) -> dict[int, int]:
        """The exact value of each legal action of the player to move (id -> value for
        ``seat``, default the mover), by ``solve`` or ``paranoid`` (``"auto"``: ``solve``
        for a two-sided deal, else ``paranoid``)."""
        self._check(state)
        if method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
        if state.is_terminal:
            return {}
        problem = _search_problem(state, self._seat(state, seat), method)
        low, high = mc.legal_masks_array(state.array, self.rules)
        actions = np.array(masks_to_actions(int(low), int(high)), dtype=np.int64)
        values = table_search.solve_children(
            self._workspace, self.rules, state.array, *problem, actions
        )
        return dict(zip(actions.tolist(), values.tolist(), strict=True))

    def best_actions(
        self, state: TableState, seat: int | None = None, method: str = "auto"
    ) -> list[int]:
        """The legal action ids (ascending) of the player to move that achieve the root
        value of ``action_values`` (the max if the mover maximizes, else the min)."""
        values = self.action_values(state, seat, method)
        if not values:
            return []
        max_mask = _search_problem(state, self._seat(state, seat), method)[0]
        maximizing = (max_mask >> state.current_player) & 1
        target = max(values.values()) if maximizing else min(values.values())
        return [action for action, value in values.items() if value == target]

    # ---- helpers ----------------------------------------------------------------------
    def _check(self, state: TableState) -> None:
        if state.game.rule_array is not self.rules and (
            state.game.rule_array.tobytes() != self.rules.tobytes()
        ):
            raise ValueError("this TableSolver was made for another game's rules")

    def _seat(self, state: TableState, seat: int | None) -> int:
        if seat is None:
            if state.is_terminal:
                raise ValueError("the deal is over: give the seat whose value you want")
            return state.current_player
        if not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be 0..{self.num_players - 1}, got {seat!r}")
        return int(seat)

    def _buffers(self, depth: int) -> tuple[np.ndarray, np.ndarray]:
        """The child records and rows of the node at ``depth`` (reused: a node's children
        live until its search returns, and every descendant uses a deeper buffer)."""
        while len(self._pool) <= depth:
            self._pool.append(
                (
                    np.empty(mc.NUM_TABLE_ACTIONS, dtype=mc.state_dtype(self.rules)),
                    np.empty((mc.NUM_TABLE_ACTIONS, ROW), dtype=np.int64),
                )
            )
        return self._pool[depth]

    def _maxn(self, pay: int, partition):
        """Max^n with exact vectors in the table; ties to the lowest action id."""
        table = self._vectors.setdefault((pay, partition), {})
        n, rules, pool, buffers = self.num_players, self.rules, self._pool, self._buffers

        def search(array, row, depth):
            if row[PHASE] == mc.OVER:
                return _row_vector(row, n, pay, partition)
            key = array.tobytes()
            vector = table.get(key)
            if vector is not None:
                return vector
            mover = row[MOVER]
            children, rows = pool[depth] if depth < len(pool) else buffers(depth)
            count = _expand_kernel(array, rules, children, rows)
            self._maxn_nodes += 1
            for index, child_row in enumerate(rows[:count].tolist()):
                value = search(children[index : index + 1], child_row, depth + 1)
                if vector is None or value[mover] > vector[mover]:
                    vector = value
            table[key] = vector
            return vector

        return search


# ---- one-shot functions (a fresh TableSolver each) --------------------------------------


def _solver(state: TableState) -> TableSolver:
    return TableSolver(state.game)


def solve(state: TableState, seat: int | None = None) -> int:
    """The exact open-hand value of a two-sided deal for ``seat``'s side (default: the
    player to move): alpha-beta with that side as the maximizer, payoffs of 1.13.6.
    ``ValueError`` for a three-sided or an unsettled deal (module docstring)."""
    return _solver(state).solve(state, seat)


def paranoid(state: TableState, seat: int | None = None) -> int:
    """The paranoid value for ``seat`` (default: the player to move; Sturtevant & Korf):
    a lower bound on what he can guarantee against any play of the others."""
    return _solver(state).paranoid(state, seat)


def maxn(state: TableState) -> tuple[int, ...]:
    """The max^n vector (Luckhardt & Irani); ties go to the lowest action id."""
    return _solver(state).maxn(state)


def action_values(
    state: TableState, seat: int | None = None, method: str = "auto"
) -> dict[int, int]:
    """Each legal action's exact value for ``seat`` (see ``TableSolver.action_values``)."""
    return _solver(state).action_values(state, seat, method)


def best_actions(state: TableState, seat: int | None = None, method: str = "auto") -> list[int]:
    """The legal action ids achieving the root value (two-sided: ``solve``; otherwise the
    paranoid value for ``seat``, default the mover)."""
    return _solver(state).best_actions(state, seat, method)
