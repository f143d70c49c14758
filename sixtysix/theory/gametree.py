"""The whole game tree of a mini preset as flat arrays, built once with the numba kernels.

``build(game)`` is the game ``python_sixty_six(preset=..., dealer=1)`` plays: every deal
(both hands as sets, the face-up card and the talon order) equally likely, as a forest
of deal roots of probability ``1 / deals`` each, with decision nodes and terminals below
(no chance nodes inside). ``build_from(game, records, probabilities, root_observations)``
is the same from given root records, e.g. the worlds of a position.

Information sets (perfect recall) are nodes of a trie of observations: a player's
observation id at a root is given (``build``: his dealt hand and the face-up card), and
after each action it is ``intern(previous id, action id, his own hand after it)``. For
``build`` trees this is the view key (``PlayerView.key()``): one information set per
information-state string of OpenSpiel's ``python_sixty_six``. Interning is exact: a
step is the integer ``previous << 39 | action << 32 | hand`` (hands are 32-bit masks,
action ids below 128), so a tree holds fewer than ``2**24`` observation ids.

Nodes are in breadth-first order (by depth; a node's children are contiguous, in
ascending action id order, which is the engine's and OpenSpiel's order): a forward loop
meets every parent before its children, a backward one every child before its parent,
and the nodes of one depth, ``level_start[d] .. level_start[d + 1]``, hold whole
information sets (an information set's histories all have the same length).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numba import njit, types
from numba.typed import Dict

from ..engine import multi_core
from ..engine.bits import popcount, trailing_zeros
from ..engine.cards import mask_text
from ..engine.checks import check_player
from ..engine.rules import rules_text
from ..engine.solver import signed_outcome
from ..game import Game
from ..view import PlayerView

MAX_DEPTH = 64  # actions below a root; a mini deal has a few dozen at most
ROOT_VALUE_LIMIT = 1 << 40  # root observation values are in [0, 2**40)
PLAYER_SHIFT = 40  # a root's key: player << 40 | value
ACTION_SHIFT = 32  # a step: action << 32 | hand (a 32-bit mask)
STEP_SHIFT = ACTION_SHIFT + 7  # a step's key: previous id << 39 | step (action ids < 128)
MAX_OBSERVATIONS = 1 << (63 - STEP_SHIFT)  # observation ids that fit a step's key


def deal_observation(hand: int, face_up: int) -> int:
    """The root observation of a player in ``build``: his dealt hand and the face-up card."""
    return hand << 5 | face_up


class ObservationTrie:
    """Exact interning of observation sequences: ids with a parent id and a step each.

    A root id's step is ``player << 40 | value``; any other id's is
    ``action << 32 | hand`` (the action and the player's own hand after it). A parent
    id is always smaller than its children's.
    """

    def __init__(self, parent: np.ndarray, step: np.ndarray) -> None:
        self.parent = np.asarray(parent, dtype=np.int32)
        self.step = np.asarray(step, dtype=np.int64)
        keys = np.where(
            self.parent < 0, -1 - self.step, self.parent.astype(np.int64) << STEP_SHIFT | self.step
        )  # roots get negative keys, apart from every step
        self._order = np.argsort(keys, kind="stable")
        self._keys = keys[self._order]

    def __len__(self) -> int:
        return len(self.parent)

    def _find(self, key: int) -> int:
        at = int(np.searchsorted(self._keys, key))
        if at < len(self._keys) and self._keys[at] == key:
            return int(self._order[at])
        return -1

    def find(self, player: int, root_value: int, steps: Iterable[tuple[int, int]]) -> int:
        """The id of ``player``'s observations (root value, then ``(action, hand after)``
        steps), or -1 if no history of the tree gives them."""
        found = self._find(-1 - (player << PLAYER_SHIFT | root_value))
        for action, hand in steps:
            if found < 0:
                break
            found = self._find(found << STEP_SHIFT | action << ACTION_SHIFT | hand)
        return found

    def sequence(self, observation: int) -> list[int]:
        """``[player, root value, action, hand, action, hand, ...]`` of an id."""
        steps = []
        while self.parent[observation] >= 0:
            step = int(self.step[observation])
            steps[:0] = [step >> ACTION_SHIFT, step & ((1 << ACTION_SHIFT) - 1)]
            observation = int(self.parent[observation])
        root = int(self.step[observation])
        return [root >> PLAYER_SHIFT, root & (ROOT_VALUE_LIMIT - 1), *steps]


@dataclass(eq=False)
class GameTree:
    """A game tree as flat arrays (module docstring). Per node: ``player`` (-1 at
    terminals), ``infoset`` (-1 at terminals), ``first_child``, ``children``,
    ``action`` (leading to the node, -1 at roots), ``utility`` (player 0's signed game
    points at terminals), ``depth``, ``parent`` (-1 at roots), ``observation`` (both
    players' observation ids). Roots are nodes ``0 .. roots - 1`` with probabilities
    ``root_probability``. Per information set: ``infoset_player``, ``infoset_actions``
    (how many), ``infoset_legal`` (action ids, ascending, padded with -1),
    ``infoset_node`` (a representative node). ``observation_infoset`` maps an
    observation id of ``trie`` to its information set (-1: the player does not act)."""

    game: Game
    dealer: int | None  # build: the dealer of every deal; build_from: None
    decks: np.ndarray | None  # build: the deck of each root, for replays
    root_probability: np.ndarray
    player: np.ndarray
    infoset: np.ndarray
    first_child: np.ndarray
    children: np.ndarray
    action: np.ndarray
    utility: np.ndarray
    depth: np.ndarray
    parent: np.ndarray
    observation: np.ndarray
    level_start: np.ndarray
    infoset_player: np.ndarray
    infoset_actions: np.ndarray
    infoset_legal: np.ndarray
    infoset_node: np.ndarray
    observation_infoset: np.ndarray
    trie: ObservationTrie
    _keys: dict = field(default_factory=dict, repr=False)

    @property
    def nodes(self) -> int:
        return len(self.player)

    @property
    def roots(self) -> int:
        return len(self.root_probability)

    @property
    def infosets(self) -> int:
        return len(self.infoset_player)

    @property
    def max_actions(self) -> int:
        return self.infoset_legal.shape[1]

    @property
    def sizes(self) -> dict:
        """Histories (decision and terminal nodes; no chance nodes), terminals, roots and
        information sets per player."""
        return {
            "histories": self.nodes,
            "terminals": int(np.count_nonzero(self.player < 0)),
            "roots": self.roots,
            "information_sets": tuple(
                int(np.count_nonzero(self.infoset_player == p)) for p in (0, 1)
            ),
        }

    def history(self, node: int) -> tuple[int, list[int]]:
        """``(root, action ids from the root)`` of a node."""
        actions = []
        while self.parent[node] >= 0:
            actions.append(int(self.action[node]))
            node = int(self.parent[node])
        return node, actions[::-1]

    def view_key(self, infoset: int) -> str:
        """The view key (OpenSpiel's information-state string) of an information set."""
        if self.decks is None:
            raise ValueError(
                "view keys need the deal of each root; this tree was built from records "
                "(build_from), so it has none"
            )
        key = self._keys.get(infoset)
        if key is None:
            root, actions = self.history(int(self.infoset_node[infoset]))
            state = self.game.replay(self.decks[root], self.dealer, actions)
            key = self._keys[infoset] = state.view(int(self.infoset_player[infoset])).key()
        return key

    def information_set_of(self, view: PlayerView) -> int:
        """The information set of the view's player at ``view`` (a ``build`` tree's)."""
        if self.decks is None:
            raise ValueError("information_set_of needs a tree of whole deals (build)")
        if rules_text(view.game.rules) != rules_text(self.game.rules):
            raise ValueError(
                f"the view's rules ({rules_text(view.game.rules)}) are not the tree's "
                f"({rules_text(self.game.rules)})"
            )
        infoset = -1
        if view.dealer == self.dealer:
            observation = self.trie.find(*observations_of(view))
            infoset = int(self.observation_infoset[observation]) if observation >= 0 else -1
        if infoset < 0 or self.infoset_player[infoset] != view.player:
            raise ValueError(
                f"no information set of this tree (dealer {self.dealer}) is the view "
                f"{view!r} (dealer {view.dealer}, dealt {mask_text(view.initial_hand)}, "
                f"history {list(view.history)}): the player must be to move"
            )
        return infoset


def observations_of(view: PlayerView, player: int | None = None) -> tuple:
    """``(player, root value, steps)`` of a view for ``ObservationTrie.find`` (the view's
    player unless ``player`` is given)."""
    steps = [
        (action, hand)
        for (_, action), hand in zip(view.history_ids, view.own_hand_log, strict=True)
    ]
    root = deal_observation(view.initial_hand, view.initial_face_up)
    return view.player if player is None else player, root, steps


# ---- building ------------------------------------------------------------------------------


def all_decks(game: Game, dealer: int) -> np.ndarray:
    """Every deal of ``game`` once, as decks (first dealt first): the non-dealer's hand and
    the dealer's as sets (ascending), then every order of the face-up card and the talon."""
    rules = game.rule_array[0]
    hand_size = int(rules["hand_size"])
    deck_size = int(rules["deck_size"])
    deal_order = [int(p) for p in rules["deal_order"][:deck_size]]  # the face-up card last
    hands = 2 * hand_size
    order = np.array(deal_order[:hands] + deal_order[-1:] + deal_order[hands:-1])
    cards = sorted(game.deck_cards)
    rest_size = deck_size - 2 * hand_size
    count = math.comb(deck_size, hand_size) * math.comb(deck_size - hand_size, hand_size)
    decks = np.empty((count * math.factorial(rest_size), deck_size), dtype=np.int64)
    row = 0
    for first in itertools.combinations(cards, hand_size):
        others = [card for card in cards if card not in first]
        for second in itertools.combinations(others, hand_size):
            rest = [card for card in others if card not in second]
            for talon in itertools.permutations(rest):
                decks[row, order] = (*first, *second, *talon)
                row += 1
    return decks


def build(game: Game | str, dealer: int = 1) -> GameTree:
    """The whole game of ``game`` (a ``Game`` or a preset name) with ``dealer`` dealing:
    every deal equally likely, as ``python_sixty_six(preset=..., dealer=dealer)``."""
    game = Game(game) if isinstance(game, str) else game
    dealer = check_player(dealer, "dealer")
    decks = all_decks(game, dealer)
    records = np.zeros(len(decks), dtype=multi_core.TWO_PLAYER_STATE_DTYPE)
    for record, deck in zip(records, decks, strict=True):
        multi_core.deal(record, game.rule_array[0], deck, dealer)
    observations = np.zeros((len(decks), 2), dtype=np.int64)
    for player in (0, 1):
        observations[:, player] = _deal_observations(game, decks, dealer, player)
    tree = build_from(game, records, np.full(len(decks), 1.0 / len(decks)), observations)
    tree.dealer, tree.decks = dealer, decks
    return tree


def _deal_observations(game: Game, decks: np.ndarray, dealer: int, player: int) -> np.ndarray:
    """``deal_observation`` of ``player`` for every deck."""
    rules = game.rule_array[0]
    hand_size = int(rules["hand_size"])
    first = hand_size if player == dealer else 0  # the non-dealer's hand is dealt first
    hand = np.zeros(len(decks), dtype=np.int64)
    for position in rules["deal_order"][first : first + hand_size]:
        hand |= np.int64(1) << decks[:, position]
    return deal_observation(hand, decks[:, int(rules["face_up_position"])])


def build_from(
    game: Game | str,
    records: np.ndarray,
    probabilities: Sequence[float],
    root_observations: np.ndarray,
) -> GameTree:
    """The tree below the root ``records`` (``multi_core.TWO_PLAYER_STATE_DTYPE``) with their
    ``probabilities``; ``root_observations[root, player]`` (integers in [0, 2**40)) are
    equal for roots the player cannot tell apart."""
    game = Game(game) if isinstance(game, str) else game
    records = np.ascontiguousarray(records)
    if records.dtype != multi_core.TWO_PLAYER_STATE_DTYPE or records.ndim != 1 or not len(records):
        raise ValueError(
            "records must be a non-empty 1-d array of multi_core.TWO_PLAYER_STATE_DTYPE records"
        )
    probabilities = np.asarray(probabilities, dtype=np.float64)
    root_observations = np.asarray(root_observations)
    if probabilities.shape != (len(records),) or np.any(probabilities < 0):
        raise ValueError(f"give one probability >= 0 per root ({len(records)} roots)")
    if root_observations.shape != (len(records), 2) or not np.issubdtype(
        root_observations.dtype, np.integer
    ):
        raise ValueError(f"root_observations must be integers of shape ({len(records)}, 2)")
    if root_observations.min() < 0 or root_observations.max() >= ROOT_VALUE_LIMIT:
        raise ValueError("root observations must be integers in [0, 2**40)")

    # Root observation ids: one per distinct (player, value), in key order.
    root_keys = np.arange(2, dtype=np.int64) << PLAYER_SHIFT | root_observations.astype(np.int64)
    distinct, root_ids = np.unique(root_keys, return_inverse=True)
    root_ids = root_ids.reshape(len(records), 2).astype(np.int64)

    words = records.view(np.int64).reshape(len(records), -1)
    nodes = _walk(game.rule_array, words, root_ids, Dict.empty(types.int64, types.int64), None)
    arrays = _NodeArrays(nodes)
    steps = Dict.empty(types.int64, types.int64)
    _walk(game.rule_array, words, root_ids, steps, arrays)
    parent, step = _trie_arrays(steps, len(distinct))
    parent[: len(distinct)] = -1
    step[: len(distinct)] = distinct
    return _assemble(game, probabilities, arrays, ObservationTrie(parent, step))


class _NodeArrays:
    """The per-node arrays in walk (preorder) order."""

    def __init__(self, nodes: int) -> None:
        self.player = np.empty(nodes, dtype=np.int8)
        self.parent = np.empty(nodes, dtype=np.int32)
        self.action = np.empty(nodes, dtype=np.int8)  # action ids are below 128
        self.depth = np.empty(nodes, dtype=np.int16)
        self.children = np.empty(nodes, dtype=np.int8)
        self.utility = np.empty(nodes, dtype=np.float64)
        self.observation = np.empty((nodes, 2), dtype=np.int32)


def _walk(rules_array, words, root_ids, steps, arrays: _NodeArrays | None) -> int:
    """Walk every root's tree depth first; fill ``arrays`` (if given) and intern the
    observations in ``steps``; the number of nodes."""
    stack = np.zeros(MAX_DEPTH + 1, dtype=multi_core.TWO_PLAYER_STATE_DTYPE)
    fill = arrays is not None
    arrays = arrays or _NodeArrays(0)
    return _walk_kernel(
        rules_array,
        words,
        root_ids,
        stack,
        stack.view(np.int64).reshape(MAX_DEPTH + 1, -1),
        fill,
        steps,
        arrays.player,
        arrays.parent,
        arrays.action,
        arrays.depth,
        arrays.children,
        arrays.utility,
        arrays.observation,
    )


@njit(cache=True)
def _walk_kernel(
    rules_array,
    roots,
    root_ids,
    stack,
    words,
    fill,
    steps,
    player,
    parent,
    action,
    depth_of,
    children,
    utility,
    observation,
):
    rules = rules_array[0]
    width = words.shape[1]
    legal = np.zeros((MAX_DEPTH + 1, 2), dtype=np.int64)  # the (low, high) actions left
    node_at = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    seen = np.zeros((MAX_DEPTH + 1, 2), dtype=np.int64)
    next_id = root_ids.max() + 1
    count = 0
    for root in range(roots.shape[0]):
        for k in range(width):
            words[0, k] = roots[root, k]
        depth = 0
        while True:
            # Enter the node on stack[depth]: its index is ``count``.
            state = stack[depth]
            node = count
            count += 1
            over = state.phase == multi_core.OVER
            low, high = multi_core.legal_masks(state, rules)
            if depth == 0:
                seen[0, 0] = root_ids[root, 0]
                seen[0, 1] = root_ids[root, 1]
            if fill:
                player[node] = -1 if over else state.to_move
                parent[node] = node_at[depth - 1] if depth > 0 else -1
                if depth == 0:
                    action[node] = -1
                depth_of[node] = depth
                children[node] = popcount(low) + popcount(high)
                utility[node] = signed_outcome(state) if over else 0.0
                observation[node, 0] = seen[depth, 0]
                observation[node, 1] = seen[depth, 1]
            if low != 0 or high != 0:
                if depth == MAX_DEPTH:
                    raise ValueError("the game tree is deeper than MAX_DEPTH")
                legal[depth, 0] = low
                legal[depth, 1] = high
                node_at[depth] = node
            else:
                # A leaf: go up to the deepest node with children left.
                while depth > 0 and legal[depth - 1, 0] == 0 and legal[depth - 1, 1] == 0:
                    depth -= 1
                if depth == 0:
                    break
                depth -= 1
            # Step into the next child (ascending action ids) of the node at ``depth``.
            if legal[depth, 0] != 0:
                move = trailing_zeros(legal[depth, 0])
                legal[depth, 0] &= legal[depth, 0] - 1
            else:
                move = multi_core.HIGH + trailing_zeros(legal[depth, 1])
                legal[depth, 1] &= legal[depth, 1] - 1
            for k in range(width):
                words[depth + 1, k] = words[depth, k]
            child = stack[depth + 1]
            multi_core.apply_action(child, rules, move)
            for p in range(2):
                key = seen[depth, p] << STEP_SHIFT | np.int64(move) << ACTION_SHIFT | child.hand[p]
                if fill:
                    known = steps.get(key, -1)
                    if known < 0:
                        if next_id == MAX_OBSERVATIONS:
                            raise ValueError("the tree has more observations than a key holds")
                        known = next_id
                        steps[key] = known
                        next_id += 1
                    seen[depth + 1, p] = known
            if fill:
                action[count] = move
            depth += 1
    return count


@njit(cache=True)
def _trie_arrays(steps, first_step_id):
    """``(parent, step)`` of every observation id (roots left for the caller to fill)."""
    size = first_step_id + len(steps)
    parent = np.empty(size, dtype=np.int32)
    step = np.empty(size, dtype=np.int64)
    for key, known in steps.items():
        parent[known] = key >> STEP_SHIFT
        step[known] = key & ((np.int64(1) << STEP_SHIFT) - 1)
    return parent, step


def _assemble(game, probabilities, walked: _NodeArrays, trie: ObservationTrie) -> GameTree:
    """Reorder the walked nodes breadth first and index the information sets."""
    order = np.argsort(walked.depth, kind="stable")
    position = np.empty_like(order)
    position[order] = np.arange(len(order))
    parent = walked.parent[order]
    parent = np.where(parent >= 0, position[np.maximum(parent, 0)], -1).astype(np.int32)
    depth = walked.depth[order]
    player = walked.player[order]
    observation = walked.observation[order]
    children = walked.children[order]
    first_child = _first_children(parent)
    level_start = np.searchsorted(depth, np.arange(int(depth.max()) + 2)).astype(np.int64)
    width = max(1, int(children.max()))
    action = walked.action[order]
    (infoset, observation_infoset, infoset_node, infoset_legal) = _index_infosets(
        player, observation, first_child, children, action, len(trie), width
    )
    return GameTree(
        game=game,
        dealer=None,
        decks=None,
        root_probability=probabilities,
        player=player,
        infoset=infoset,
        first_child=first_child,
        children=children,
        action=action,
        utility=walked.utility[order],
        depth=depth,
        parent=parent,
        observation=observation,
        level_start=level_start,
        infoset_player=player[infoset_node],
        infoset_actions=children[infoset_node],
        infoset_legal=infoset_legal,
        infoset_node=infoset_node,
        observation_infoset=observation_infoset,
        trie=trie,
    )


@njit(cache=True)
def _first_children(parent):
    first = np.full(len(parent), -1, dtype=np.int32)
    for node in range(len(parent) - 1, -1, -1):
        if parent[node] >= 0:
            first[parent[node]] = node
    return first


@njit(cache=True)
def _index_infosets(player, observation, first_child, children, action, observations, width):
    """Number the information sets in node order; check that each one's histories offer
    the same actions (perfect recall makes them so)."""
    nodes = len(player)
    infoset = np.full(nodes, -1, dtype=np.int32)
    observation_infoset = np.full(observations, -1, dtype=np.int32)
    representative = np.empty(nodes, dtype=np.int32)
    count = 0
    for node in range(nodes):
        mover = player[node]
        if mover < 0:
            continue
        seen = observation[node, mover]
        known = observation_infoset[seen]
        if known < 0:
            known = count
            observation_infoset[seen] = known
            representative[count] = node
            count += 1
        else:
            other = representative[known]
            same = children[other] == children[node]
            for k in range(children[node]):
                same = same and action[first_child[other] + k] == action[first_child[node] + k]
            if not same:
                raise AssertionError("two histories of one information set differ in actions")
        infoset[node] = known
    legal = np.full((count, width), -1, dtype=np.int8)
    for k in range(count):
        node = representative[k]
        for a in range(children[node]):
            legal[k, a] = action[first_child[node] + a]
    return infoset, observation_infoset, representative[:count].copy(), legal
