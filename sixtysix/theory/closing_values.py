"""Reference values of a closing decision, and the single-position analyzer.

A :class:`ClosingPosition` is a leader's decision where closing the talon is legal,
described from his side without a history (docs/closing_positions.md has the JSON
format): read with ``from_json``, written with ``to_json``, taken from a game with
``from_view``. Its *worlds* are the hidden assignments consistent with it: the
opponent's hand (his known cards plus unseen ones) and the order of the hidden talon
cards, all equally likely.

The *options* at a position are closing now (and exchange-then-close where the trump
exchange is legal: the close value is the better of the two) and every other action
(each lead, marriage or claim, and the exchange followed by each of them).

Two references value them, in game points from the leader's side:

* ``pimc_reference``: the exact open-hand value (``sixtysix.engine.solver``) of every option in
  every world, averaged over all worlds when they are at most ``limit``, otherwise over
  ``samples`` uniform worlds with 95% intervals. It lets the closer see the hidden cards
  after his first action, so it is optimistic for him (strategy fusion).
* ``best_defense_reference``: the game where chance picks a world, the defender sees it
  and the closer does not (he sees only his own cards and the play), solved with CFR+
  (``sixtysix.theory.cfr``) on the tree of the worlds (``sixtysix.theory.gametree.build_from``). The
  closer's guaranteed value of the average strategy against a best-responding defender
  is a true lower bound on that game's value, which in turn is a lower bound on what
  the closer gets against a defender who cannot see his cards. Solved on every world
  where they are few (``max_worlds``), else, with ``groups``, on that many uniform
  samples of ``max_worlds`` worlds (a mean with a 95% interval); only for options whose
  trees have at most ``max_nodes`` nodes.

``analyze`` puts both together with a verdict; ``render`` prints it for the terminal.
"""

from __future__ import annotations

import functools
import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit
from scipy import stats

from ..engine import multi_core, solver
from ..engine.actions import action_name, masks_to_actions
from ..engine.bits import trailing_zeros
from ..engine.cards import card_name, mask_to_cards, mask_to_names, parse_card
from ..engine.checks import check_integer, check_seed
from ..engine.multi_core import A_CLOSE, A_EXCHANGE, HIGH
from ..engine.rng import seed_rng
from ..engine.worlds import WorldSpec, ranked_hidden, ranked_world_record
from ..game import Game, State
from ..theory import cfr, gametree
from ..view import PlayerView

LEADER = 0  # the position's leader is player 0, the dealer player 1
FIELDS = (
    "preset",
    "trump",
    "face_up",
    "talon_size",
    "hand",
    "gone",
    "opponent_known",
    "points",
    "tricks",
    "marriages",
)
OPTIONAL_FIELDS = ("before_draw", "options")
PIMC_LIMIT = 1000  # enumerate every world up to this many
PIMC_SAMPLES = 48  # otherwise sample this many (docs/closing_positions.md: the times)
Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


# ---- the position -------------------------------------------------------------------------


@dataclass(frozen=True)
class ClosingPosition:
    """A leader's decision where he may close, from his side (``FIELDS``; pairs are
    ``(leader, opponent)``). ``before_draw``: the pre-draw point after a trick won;
    ``options``: rule overrides of the preset, as sorted ``(name, value)`` pairs."""

    preset: str
    trump: str
    face_up: str | None
    talon_size: int
    hand: tuple[str, ...]
    gone: tuple[str, ...]
    opponent_known: tuple[str, ...]
    points: tuple[int, int]
    tricks: tuple[int, int]
    marriages: tuple[tuple[str, ...], tuple[str, ...]]
    before_draw: bool = False
    options: tuple[tuple[str, object], ...] = ()

    def __post_init__(self) -> None:
        legal = self.view.legal_action_ids()
        if A_CLOSE not in legal:
            raise ValueError(
                "closing is not legal at this position (legal: "
                f"{', '.join(action_name(a) for a in legal)}): see close_min_talon, "
                "close_on_first_lead and closing_allowed of the rules"
            )

    # ---- reading and writing ----------------------------------------------------------
    @classmethod
    def from_json(cls, source: dict | str | Path) -> ClosingPosition:
        """A position from a JSON object (a dict, a JSON text or a file path)."""
        is_text = isinstance(source, str) and source.lstrip().startswith("{")
        if isinstance(source, Path) or (isinstance(source, str) and not is_text):
            path = Path(source)
            try:
                text = path.read_text()
            except OSError as error:
                raise ValueError(f"cannot read the position file {str(path)!r}: {error}") from None
            return cls.from_json(_parse_json(text, str(path)))
        data = _parse_json(source, "the position") if isinstance(source, str) else source
        if not isinstance(data, dict):
            raise ValueError(f"a position is a JSON object with the keys {', '.join(FIELDS)}")
        missing = [name for name in FIELDS if name not in data]
        unknown = [name for name in data if name not in FIELDS + OPTIONAL_FIELDS]
        if missing or unknown:
            problem = f"missing {missing}" if missing else f"unknown keys {unknown}"
            raise ValueError(
                f"invalid position: {problem}; a position has the keys {', '.join(FIELDS)} "
                f"(and optionally {', '.join(OPTIONAL_FIELDS)})"
            )
        marriages = _pair_of(data["marriages"], "marriages")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise ValueError(f"options must be an object of rule options, got {options!r}")
        if not isinstance(data["preset"], str):
            raise ValueError(f"preset must be a preset name, got {data['preset']!r}")
        before_draw = data.get("before_draw", False)
        if not isinstance(before_draw, bool):
            raise ValueError(f"before_draw must be true or false, got {before_draw!r}")
        return cls(
            preset=data["preset"],
            trump=data["trump"],
            face_up=_card_name(data["face_up"], "face_up") if data["face_up"] is not None else None,
            talon_size=data["talon_size"],
            hand=_card_names(data["hand"], "hand"),
            gone=_card_names(data["gone"], "gone"),
            opponent_known=_card_names(data["opponent_known"], "opponent_known"),
            points=tuple(_pair_of(data["points"], "points")),
            tricks=tuple(_pair_of(data["tricks"], "tricks")),
            marriages=tuple(tuple(_list_of(m, f"marriages[{i}]")) for i, m in enumerate(marriages)),
            before_draw=before_draw,
            options=tuple(sorted(options.items())),
        )

    def to_json(self) -> dict:
        """The JSON object of the position (``from_json`` reads it back)."""
        data = {
            "preset": self.preset,
            "trump": self.trump,
            "face_up": self.face_up,
            "talon_size": self.talon_size,
            "hand": list(self.hand),
            "gone": list(self.gone),
            "opponent_known": list(self.opponent_known),
            "points": list(self.points),
            "tricks": list(self.tricks),
            "marriages": [list(m) for m in self.marriages],
        }
        if self.before_draw:
            data["before_draw"] = True
        if self.options:
            data["options"] = dict(self.options)
        return data

    @classmethod
    def from_view(cls, view: PlayerView) -> ClosingPosition:
        """The position of a leader's view at a decision where closing is legal (at the start
        of his turn, or after an exchange where that changes no legal action)."""
        if not view.is_my_turn or A_CLOSE not in view.legal_action_ids():
            raise ValueError(f"closing is not legal for the view's player at {view!r}")
        me, other = view.player, view.opponent
        won = view.won
        position = cls(
            preset=view.game.preset,
            trump=view.trump_suit,
            face_up=card_name(view.talon_bottom),
            talon_size=view.talon_size,
            hand=tuple(mask_to_names(view.hand)),
            gone=tuple(mask_to_names(won[0] | won[1])),
            opponent_known=tuple(mask_to_names(view.known_opponent)),
            points=(view.card_points[me], view.card_points[other]),
            tricks=(view.tricks_won[me], view.tricks_won[other]),
            marriages=(tuple(view.declared_marriages[me]), tuple(view.declared_marriages[other])),
            before_draw=view.phase == multi_core.PRE_DRAW,
            options=tuple(sorted(view.game.overrides.items())),
        )
        if position.view.legal_action_ids() != view.legal_action_ids():
            raise ValueError(
                f"the view's decision is not a position at the start of a turn: legal there are "
                f"{', '.join(view.legal_actions())}, at its position "
                f"{', '.join(position.view.legal_actions())} (a claim after an exchange?)"
            )
        return position

    # ---- the game, the state and its worlds ---------------------------------------------
    @functools.cached_property
    def game(self) -> Game:
        return Game(self.preset, **dict(self.options))

    def state(self, opponent_hand=None, talon=None) -> State:
        """The position as a ``State`` (leader player 0) in the world of ``opponent_hand`` and
        ``talon`` (top first, without the face-up card); the first world if not given."""
        return self.game.position(
            trump=self.trump,
            face_up=self.face_up,
            talon_size=self.talon_size,
            hand=self.hand,
            gone=self.gone,
            opponent_known=self.opponent_known,
            points=self.points,
            tricks=self.tricks,
            marriages=self.marriages,
            opponent_hand=opponent_hand,
            talon=talon,
            before_draw=self.before_draw,
        )

    @functools.cached_property
    def view(self) -> PlayerView:
        """The leader's view (the same in every world)."""
        return self.state().view(LEADER)

    @property
    def spec(self) -> WorldSpec:
        return self.view.world_spec()

    def count_worlds(self) -> int:
        return self.spec.count()

    def world(self, rank: int) -> State:
        """The world of number ``rank`` (``0 <= rank < count_worlds()``, the order of
        ``worlds.ranked_hidden``) as a ``State``."""
        spec = self.spec
        rank = check_integer(rank, "world rank", 0, spec.count())
        talon = np.zeros(max(spec.hidden_talon, 1), dtype=np.int64)
        hidden = ranked_hidden(
            rank,
            spec.allowed,
            spec.unknown,
            spec.hidden_opponent,
            talon,
            0,
            spec.hidden_talon,
            spec.ordered,
        )
        hand = int(hidden) | self.view.known_opponent
        order = [int(c) for c in talon[: spec.hidden_talon]]
        return self.state(opponent_hand=mask_to_cards(hand), talon=order)


def _parse_json(text: str, where: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{where} is not valid JSON: {error}") from None


def _list_of(value, what: str) -> list:
    if not isinstance(value, list | tuple):
        raise ValueError(f"{what} must be a list, got {value!r}")
    return list(value)


def _pair_of(value, what: str) -> list:
    value = _list_of(value, what)
    if len(value) != 2:
        raise ValueError(f"{what} must be a [leader, opponent] pair, got {value!r}")
    return value


def _card_name(item, what: str) -> str:
    try:
        return card_name(parse_card(item))
    except ValueError as error:
        raise ValueError(f"{what}: {error}") from None


def _card_names(items, what: str) -> tuple[str, ...]:
    return tuple(_card_name(item, what) for item in _list_of(items, what))


# ---- options --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """One choice at the position: one action, or the exchange and then one."""

    actions: tuple[int, ...]

    @property
    def closes(self) -> bool:
        return self.actions[-1] == A_CLOSE

    @property
    def name(self) -> str:
        return ", ".join(action_name(a) for a in self.actions)


def position_options(position: ClosingPosition) -> list[Option]:
    """The closes first (close, exchange-then-close), then every other action and the exchange
    followed by each other action, in action id order."""
    view = position.view
    rules = position.game.rule_array
    legal = view.legal_action_ids()
    direct = [a for a in legal if a != A_EXCHANGE]
    after = []
    if A_EXCHANGE in legal:
        exchanged = multi_core.copy_record(view.record)
        multi_core.apply_checked(exchanged, rules, A_EXCHANGE)
        after = masks_to_actions(*map(int, multi_core.legal_masks_array(exchanged, rules)))
    options = [Option((a,)) for a in direct] + [Option((A_EXCHANGE, a)) for a in after]
    return sorted(options, key=lambda option: not option.closes)


# ---- (a) the PIMC reference -------------------------------------------------------------------


@dataclass
class PimcReference:
    """Exact values of each option (columns, ``options`` order) in each world (rows):
    every world if ``enumerated``, else uniform samples. ``worlds``: how many there are."""

    options: list[Option]
    values: np.ndarray
    enumerated: bool
    worlds: int
    seconds: float

    @property
    def means(self) -> np.ndarray:
        return self.values.mean(axis=0)

    def half_width(self, column: np.ndarray) -> float:
        """The 95% interval's half width of a mean over the rows (0 when enumerated)."""
        if self.enumerated or len(column) < 2:
            return 0.0
        return float(Z95 * column.std(ddof=1) / math.sqrt(len(column)))


def pimc_reference(
    position: ClosingPosition,
    limit: int = PIMC_LIMIT,
    samples: int = PIMC_SAMPLES,
    seed: int = 0,
) -> PimcReference:
    """Every option's exact value in every world when there are at most ``limit`` worlds,
    else in ``samples`` uniform worlds drawn from ``seed`` (one compiled call)."""
    limit = check_integer(limit, "limit", 0)
    samples = check_integer(samples, "samples", 1)
    seed = check_seed(seed)
    game = position.game
    solver.check_rules(game)
    options = position_options(position)
    spec = position.spec
    worlds = spec.count()
    enumerated = worlds <= limit
    direct = np.array([o.actions[0] for o in options if len(o.actions) == 1], dtype=np.int64)
    followups = np.array([o.actions[1] for o in options if len(o.actions) == 2], dtype=np.int64)
    order = [o for o in options if len(o.actions) == 1] + [
        o for o in options if len(o.actions) == 2
    ]
    values = np.zeros((worlds if enumerated else samples, len(options)), dtype=np.int64)
    started = time.perf_counter()
    solver.solve_worlds(
        solver.shared_workspace(),
        game.rule_array,
        position.view.record,
        *spec.record_arguments,
        enumerated,
        np.array(seed_rng(np.uint64(seed)), dtype=np.uint64),
        game.rules.max_game_points,
        solver.NO_HORIZON,
        direct,
        followups,
        values,
        np.zeros(1, dtype=position.view.record.dtype),
    )
    seconds = time.perf_counter() - started
    columns = [order.index(o) for o in options]
    return PimcReference(
        options, values[:, columns].astype(np.float64), enumerated, worlds, seconds
    )


# ---- (b) the best-defense reference ---------------------------------------------------------

BEST_DEFENSE_WORLDS = 64  # solve the best-defense game on every world up to this many
BEST_DEFENSE_GROUPS = 0  # beyond them, on this many samples of as many worlds (0: not at all)
BEST_DEFENSE_NODES = 1_000_000  # and only while an option's tree has at most this many nodes
MAX_DEFENSE_NODES = gametree.MAX_OBSERVATIONS // 2  # a node adds one observation per player
BEST_DEFENSE_ITERATIONS = 2000  # CFR+ iterations at most
BEST_DEFENSE_TOLERANCE = 0.01  # stop once the bounds are this close (game points)


@njit(cache=True)
def _count_nodes(rules_array, roots, limit):
    """The nodes of the game trees below ``roots`` (records), or ``limit + 1`` once more."""
    rules = rules_array[0]
    stack = np.zeros(solver.MAX_DEPTH + 1, dtype=multi_core.TWO_PLAYER_STATE_DTYPE)
    legal = np.zeros((solver.MAX_DEPTH + 1, 2), dtype=np.int64)  # the (low, high) actions left
    count = 0
    for root in range(len(roots)):
        stack[0] = roots[root]
        depth = 0
        legal[0, 0], legal[0, 1] = multi_core.legal_masks(stack[0], rules)
        count += 1
        while depth >= 0:
            if legal[depth, 0] != 0:
                move = trailing_zeros(legal[depth, 0])
                legal[depth, 0] &= legal[depth, 0] - 1
            elif legal[depth, 1] != 0:
                move = HIGH + trailing_zeros(legal[depth, 1])
                legal[depth, 1] &= legal[depth, 1] - 1
            else:
                depth -= 1
                continue
            stack[depth + 1] = stack[depth]
            multi_core.apply_action(stack[depth + 1], rules, move)
            count += 1
            if count > limit:
                return count
            depth += 1
            legal[depth, 0], legal[depth, 1] = multi_core.legal_masks(stack[depth], rules)
    return count


@dataclass
class DefenseValue:
    """The best-defense game of one option: ``guaranteed`` is the closer's value of the
    CFR+ average strategy against a best-responding defender (a true lower bound on the
    game's value), ``upper`` the closer's best response to the defender's average strategy
    (an upper bound), ``open_hand`` the mean open-hand value of the same worlds (PIMC's), so
    ``gap`` is what seeing the cards is worth to the closer there. ``nodes`` and
    ``iterations`` say what it took. On sampled worlds (``groups`` of them) the values are
    means over the groups, ``half_width`` and ``gap_half_width`` their 95% t intervals,
    ``nodes`` and ``iterations`` the largest group's and ``seconds`` the sum."""

    guaranteed: float
    upper: float
    open_hand: float
    nodes: int
    information_sets: int
    iterations: int
    seconds: float
    groups: int = 0
    half_width: float = 0.0
    gap_half_width: float = 0.0

    @property
    def gap(self) -> float:
        return self.open_hand - self.guaranteed


@dataclass
class BestDefenseReference:
    """``values[i]``: the ``DefenseValue`` of ``options[i]``, None where its tree is too big;
    ``worlds`` in each game, solved on ``groups`` samples of them (0: one game); ``skipped``
    says why a position was not solved at all (or None)."""

    options: list[Option]
    values: list[DefenseValue | None]
    worlds: int
    skipped: str | None = None
    groups: int = 0


def _option_roots(position: ClosingPosition, option: Option, ranks: list[int]) -> np.ndarray:
    """The worlds of these ranks after the option's actions, as deal records."""
    spec = position.spec
    roots = np.zeros(len(ranks), dtype=position.view.record.dtype)
    view = position.view.record[0]
    rules = position.game.rule_array[0]
    for index, rank in enumerate(ranks):
        ranked_world_record(rank, roots, index, view, *spec.record_arguments)
        for action in option.actions:
            multi_core.apply_action(roots[index], rules, action)
    return roots


def best_defense_reference(
    position: ClosingPosition,
    max_worlds: int = BEST_DEFENSE_WORLDS,
    max_nodes: int = BEST_DEFENSE_NODES,
    iterations: int = BEST_DEFENSE_ITERATIONS,
    tolerance: float = BEST_DEFENSE_TOLERANCE,
    ranks: Sequence[int] | None = None,
    groups: int = BEST_DEFENSE_GROUPS,
    seed: int = 0,
) -> BestDefenseReference:
    """Each option's value in the game where chance picks one of the position's worlds
    (uniformly; only the worlds of ``ranks`` if given), the defender sees it and the closer
    does not: CFR+ on the tree of the worlds (``gametree.build_from``) until the bounds are
    ``tolerance`` apart or after ``iterations``; only with at most ``max_worlds`` worlds and
    ``max_nodes`` nodes. Where there are more worlds and ``groups`` is at least 2, each
    option's game is solved on ``groups`` independent uniform samples of ``max_worlds``
    distinct worlds (drawn from ``seed``) instead, and its values averaged over them."""
    max_worlds = check_integer(max_worlds, "max_worlds", 1)
    max_nodes = check_max_nodes(max_nodes)
    iterations = check_integer(iterations, "iterations", 1)
    groups = check_groups(groups)
    options = position_options(position)
    count = position.count_worlds()
    if ranks is not None:
        samples = [sorted({check_integer(r, "world rank", 0, count) for r in ranks})]
        if not samples[0]:
            raise ValueError("ranks is empty; valid: at least one world rank")
    elif count <= max_worlds:
        samples = [list(range(count))]
    elif groups:
        draw = np.random.default_rng(check_seed(seed))
        samples = [
            sorted(int(r) for r in draw.choice(count, size=max_worlds, replace=False))
            for _ in range(groups)
        ]
    else:
        samples = []
    worlds = len(samples[0]) if samples else count
    if not samples or worlds > max_worlds:
        reason = f"{worlds} worlds, more than max_worlds={max_worlds}"
        return BestDefenseReference(options, [None] * len(options), worlds, reason)
    values = [
        _defend(position, option, samples, max_nodes, iterations, tolerance) for option in options
    ]
    groups = len(samples) if len(samples) > 1 else 0  # one sample: every world, or ``ranks``
    return BestDefenseReference(options, values, worlds, groups=groups)


def check_max_nodes(max_nodes: object, name: str = "max_nodes") -> int:
    """``max_nodes`` of a best-defense tree: at least 1, at most what its keys hold."""
    return check_integer(max_nodes, name, 1, MAX_DEFENSE_NODES + 1)


def check_groups(groups: object, name: str = "groups") -> int:
    """``groups`` of sampled worlds: 0 (none) or at least 2 (one gives no interval)."""
    groups = check_integer(groups, name, 0)
    if groups == 1:
        raise ValueError(f"{name}=1 gives no interval; valid: 0 (no sampling) or at least 2")
    return groups


def _defend(position, option, samples, max_nodes, iterations, tolerance) -> DefenseValue | None:
    """The option's best-defense game solved on each sample of world ranks (None if a tree
    has more than ``max_nodes`` nodes), combined over the samples when there are several."""
    game = position.game
    solved = []
    for ranks in samples:
        roots = _option_roots(position, option, ranks)
        if _count_nodes(game.rule_array, roots, max_nodes) > max_nodes:
            return None
        started = time.perf_counter()
        observations = np.zeros((len(ranks), 2), dtype=np.int64)
        observations[:, 1 - LEADER] = np.arange(len(ranks))  # the defender tells worlds apart
        observations[:, LEADER] = roots["hand"][:, LEADER]  # the closer by a card he drew
        tree = gametree.build_from(game, roots, np.full(len(ranks), 1 / len(ranks)), observations)
        solved.append(_solve_defense(tree, iterations, tolerance, _open_hand(game, roots), started))
    return solved[0] if len(solved) == 1 else _over_groups(solved)


def _open_hand(game: Game, roots: np.ndarray) -> float:
    """The mean exact open-hand value of the roots, from the leader's side."""
    workspace, bound = solver.shared_workspace(), game.rules.max_game_points
    total = 0
    for index in range(len(roots)):
        root = roots[index : index + 1]
        total += solver.solve_record(workspace, game.rule_array, root, bound, solver.NO_HORIZON)[0]
    return total / len(roots)


def _solve_defense(tree, iterations: int, tolerance: float, open_hand: float, started: float):
    """CFR+ in rounds until the bounds meet within ``tolerance``: a ``DefenseValue``."""
    done, step = 0, 10
    cfr_plus = cfr.CFRSolver(tree, "cfr+")
    while True:
        chunk = min(step, iterations - done)
        cfr_plus.iterate(chunk)
        done += chunk
        br = cfr.best_response_values(tree, cfr_plus.average_strategy(), checked=False)
        closer_best, defender_best = br[LEADER], br[1 - LEADER]
        if closer_best + defender_best <= tolerance or done >= iterations:
            break
        step = min(2 * step, 200)
    return DefenseValue(
        guaranteed=-defender_best,
        upper=closer_best,
        open_hand=open_hand,
        nodes=tree.nodes,
        information_sets=tree.infosets,
        iterations=done,
        seconds=time.perf_counter() - started,
    )


def _over_groups(solved: list[DefenseValue]) -> DefenseValue:
    """The means of the groups' values, with 95% t intervals over the groups."""
    guaranteed = np.array([value.guaranteed for value in solved])
    gaps = np.array([value.gap for value in solved])
    quantile = stats.t.ppf(0.975, len(solved) - 1) / math.sqrt(len(solved))
    return DefenseValue(
        guaranteed=float(guaranteed.mean()),
        upper=float(np.mean([value.upper for value in solved])),
        open_hand=float(np.mean([value.open_hand for value in solved])),
        nodes=max(value.nodes for value in solved),
        information_sets=max(value.information_sets for value in solved),
        iterations=max(value.iterations for value in solved),
        seconds=sum(value.seconds for value in solved),
        groups=len(solved),
        half_width=float(quantile * guaranteed.std(ddof=1)),
        gap_half_width=float(quantile * gaps.std(ddof=1)),
    )


# ---- the analyzer -------------------------------------------------------------------------------


def _verdict(close_value: float, alternative_value: float) -> str:
    """Close only when it is strictly better than the best alternative."""
    return "close" if close_value > alternative_value else "do not close"


def _best(options: list[Option], values: list[float | None], closes: bool) -> int | None:
    """The index of the best option of one kind, or None if one of them has no value."""
    chosen = [i for i, o in enumerate(options) if o.closes == closes]
    if not chosen or any(values[i] is None for i in chosen):
        return None
    return max(chosen, key=lambda i: values[i])


def analyze(
    position: ClosingPosition,
    *,
    limit: int = PIMC_LIMIT,
    samples: int = PIMC_SAMPLES,
    seed: int = 0,
    best_defense: bool = True,
    max_worlds: int = BEST_DEFENSE_WORLDS,
    max_nodes: int = BEST_DEFENSE_NODES,
    groups: int = BEST_DEFENSE_GROUPS,
) -> dict:
    """Both references of every option, the close value (the better close), the best
    alternative and the verdict (by PIMC; by best defense too where it was solved), as a
    JSON-ready dict (``render`` prints it). Best defense is solved on sampled worlds where
    there are more than ``max_worlds`` and ``groups`` is at least 2, drawn from ``seed``."""
    pimc = pimc_reference(position, limit, samples, seed)
    options, means = pimc.options, [float(m) for m in pimc.means]
    close, alternative = _best(options, means, True), _best(options, means, False)
    defense = None
    if best_defense:
        defense = best_defense_reference(position, max_worlds, max_nodes, groups=groups, seed=seed)
    rows = []
    for i, option in enumerate(options):
        half = pimc.half_width(pimc.values[:, i])
        value = defense.values[i] if defense else None
        rows.append(
            {
                "option": option.name,
                "closes": option.closes,
                "pimc": means[i],
                "pimc_interval": [means[i] - half, means[i] + half],
                "best_defense": value.guaranteed if value else None,
                "best_defense_half_width": value.half_width if value else None,
                "best_defense_upper": value.upper if value else None,
                "gap": value.gap if value else None,
                "tree_nodes": value.nodes if value else None,
                "cfr_iterations": value.iterations if value else None,
            }
        )
    difference = pimc.values[:, close] - pimc.values[:, alternative]
    mean, half = float(difference.mean()), pimc.half_width(difference)
    result = {
        "position": position.to_json(),
        "worlds": pimc.worlds,
        "enumerated": pimc.enumerated,
        "samples": int(pimc.values.shape[0]),
        "close_option": options[close].name,
        "close_value": means[close],
        "best_alternative": options[alternative].name,
        "best_alternative_value": means[alternative],
        "difference": mean,
        "difference_interval": [mean - half, mean + half],
        "verdict": _verdict(means[close], means[alternative]),
        "options": rows,
        "pimc_seconds": pimc.seconds,
    }
    result["best_defense"] = _defense_summary(defense, options)
    return result


def _defense_summary(defense: BestDefenseReference | None, options: list[Option]) -> dict | None:
    """The best-defense close value, best alternative and verdict (None if not solved)."""
    if defense is None:
        return None
    values = [v.guaranteed if v else None for v in defense.values]
    close, alternative = _best(options, values, True), _best(options, values, False)
    closing = defense.values[close] if close is not None else None
    summary = {
        "skipped": defense.skipped,
        "worlds": defense.worlds,
        "groups": defense.groups,
        "close_value": closing.guaranteed if closing else None,
        "close_half_width": closing.half_width if closing else None,
        "close_gap": closing.gap if closing else None,
        "close_gap_half_width": closing.gap_half_width if closing else None,
        "best_alternative": options[alternative].name if alternative is not None else None,
        "best_alternative_value": values[alternative] if alternative is not None else None,
        "verdict": None,
        "seconds": sum(v.seconds for v in defense.values if v),
    }
    if close is not None and alternative is not None:
        summary["verdict"] = _verdict(values[close], values[alternative])
    elif defense.skipped is None and any(v is None for v in values):
        summary["skipped"] = "some option's tree has more than max_nodes nodes"
    return summary


def _signed(value: float | None, width: int = 7, sign: str = "+") -> str:
    return f"{value:{sign}{width}.3f}" if value is not None else " " * (width - 1) + "-"


def render(analysis: dict) -> str:
    """The analysis as text for the terminal."""
    p = analysis["position"]
    known = " ".join(p["opponent_known"]) or "none"
    married = "; ".join(
        f"{who} married {' '.join(m)}"
        for who, m in zip(("leader", "opponent"), p["marriages"], strict=True)
        if m
    )
    when = " (before drawing)" if p.get("before_draw") else ""
    lines = [
        f"{p['preset']}: trump {p['trump']}, face-up {p['face_up']}, talon {p['talon_size']}{when}",
        f"hand {' '.join(p['hand'])}; opponent known {known}",
        f"points {p['points'][0]}-{p['points'][1]}, tricks {p['tricks'][0]}-{p['tricks'][1]}"
        + (f"; {married}" if married else ""),
    ]
    worlds = analysis["worlds"]
    if analysis["enumerated"]:
        lines.append(f"{worlds} worlds, all solved exactly")
    else:
        lines.append(f"{worlds} worlds; {analysis['samples']} sampled (95% intervals)")
    defense = analysis["best_defense"]
    if defense is not None and defense["groups"]:
        lines.append(
            f"best defense on {defense['groups']} samples of {defense['worlds']} worlds "
            "(95% intervals over the samples); gap: PIMC minus best defense on the same worlds"
        )
    name_width = max(len(row["option"]) for row in analysis["options"]) + 2
    lines.append(
        f"{'option':<{name_width}}{'PIMC':>8}{'± 95%':>8}{'best defense':>14}{'± 95%':>8}{'gap':>8}"
    )
    for row in analysis["options"]:
        low, high = row["pimc_interval"]
        half = row["best_defense_half_width"]
        lines.append(
            f"{row['option']:<{name_width}}{_signed(row['pimc'], 8)}{(high - low) / 2:8.3f}"
            f"{_signed(row['best_defense'], 14)}{_signed(half, 8, sign='')}"
            f"{_signed(row['gap'], 8)}"
        )
    low, high = analysis["difference_interval"]
    alternative = f"{analysis['best_alternative_value']:+.3f}"
    lines.append(
        f"close value {analysis['close_value']:+.3f} ({analysis['close_option']}); best "
        f"alternative {analysis['best_alternative']} {alternative}; "
        f"difference {analysis['difference']:+.3f} [{low:+.3f}, {high:+.3f}]"
    )
    lines.append(f"verdict (PIMC): {analysis['verdict']}")
    if defense is not None:
        if defense["verdict"] is not None:
            lines.append(
                f"verdict (best defense): {defense['verdict']} (close {defense['close_value']:+.3f}"
                f", best alternative {defense['best_alternative']} "
                f"{defense['best_alternative_value']:+.3f})"
            )
        else:
            lines.append(f"best defense not solved: {defense['skipped']}")
    return "\n".join(lines)


# ---- the CFR equilibrium on the mini presets --------------------------------------------------


@functools.lru_cache(maxsize=2)
def _equilibrium(path: str) -> tuple:
    """The tree of a solved mini preset and each information set's action values."""
    strategy = cfr.load_strategy(path)
    tree = gametree.build(strategy.preset, strategy.dealer)
    return tree, cfr.information_set_values(tree, strategy.on_tree(tree))


def _equilibrium_row(tree, values, view: PlayerView) -> dict[int, float]:
    """``{action id: value}`` at the view's information set (either seat; the tree's dealer
    plays the view's dealer's role)."""
    player = view.player if view.dealer == tree.dealer else 1 - view.player
    observation = tree.trie.find(*gametree.observations_of(view, player))
    infoset = int(tree.observation_infoset[observation]) if observation >= 0 else -1
    if infoset < 0:
        raise ValueError(f"the solved game has no decision at the view {view!r}")
    legal = tree.infoset_legal[infoset, : tree.infoset_actions[infoset]]
    return {int(action): float(values[infoset, k]) for k, action in enumerate(legal)}


def equilibrium_reference(state: State, strategy_path: str) -> dict:
    """On a mini preset solved by ``sixtysix cfr solve``: the value of closing (the better of
    close and exchange-then-close) and of the best alternative at the leader's decision in
    ``state`` when both play the solved strategy from there on, the histories of his
    information set weighed by chance and the opponent's strategy (the equilibrium's beliefs,
    not uniform worlds). A state reached by play is needed: the information set is its
    history."""
    tree, values = _equilibrium(str(Path(strategy_path).resolve()))
    rows = [_equilibrium_row(tree, values, state.view(state.current_player))]
    if A_EXCHANGE in rows[0]:
        after = state.clone().apply(action_name(A_EXCHANGE))
        rows.append(_equilibrium_row(tree, values, after.view(after.current_player)))
    close = max(row[A_CLOSE] for row in rows if A_CLOSE in row)
    alternatives = [
        (value, Option((action,) if k == 0 else (A_EXCHANGE, action)).name)
        for k, row in enumerate(rows)
        for action, value in row.items()
        if action != A_CLOSE and not (k == 0 and action == A_EXCHANGE)
    ]
    alternative_value, alternative = max(alternatives, key=lambda pair: pair[0])
    return {
        "close_value": close,
        "best_alternative": alternative,
        "best_alternative_value": alternative_value,
        "verdict": _verdict(close, alternative_value),
    }
