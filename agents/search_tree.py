"""The node pool and tree kernels shared by the Monte Carlo tree searches of
``agents.mcts`` (two players) and ``agents.table_search_agents`` (three and four seats):
a tree of nodes indexed by action id, UCB selection (with availability counts for
ISMCTS), the root statistics merged over trees, and the most-visited root action."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from sixtysix.engine import multi_core as mc
from sixtysix.engine.actions import NUM_ACTIONS
from sixtysix.engine.bits import popcount, trailing_zeros

from . import policies

DMCTS = 0  # search kinds
ISMCTS = 1

MAX_PATH = policies.MAX_PLIES + 1
UNSOLVED = np.int64(1) << 40  # beyond every game-point value: no exact value kept


class Pool(NamedTuple):
    """The nodes of one search tree (node 0 is the root) and the buffers of one decision."""

    children: np.ndarray  # (capacity, NUM_ACTIONS) int32: the child per action id, where
    #                       the node's expanded bit is set (other entries are stale)
    expanded: np.ndarray  # (capacity, 2): the actions that have a child, as the two words
    #                       (low, high) of a legal set
    visits: np.ndarray
    points: np.ndarray  # sum of signed game points, from the view of who moved into the node
    available: np.ndarray  # ismcts: times the node's action was legal when its parent was passed
    exact: np.ndarray  # dmcts: a leaf's exact value (player 0's view), or UNSOLVED
    size: np.ndarray  # [number of nodes in use]
    path: np.ndarray  # nodes of the current iteration, root first
    movers: np.ndarray  # the player who moved into each node of the path
    root_visits: np.ndarray  # per root action id: visits summed over the trees
    root_points: np.ndarray  # per root action id: game points (the searcher's view) summed
    world: np.ndarray  # one-element two-player table record: dmcts's current world
    scratch: np.ndarray  # one-element two-player table record: this iteration's position


def new_pool(capacity: int) -> Pool:
    """A node pool for trees of up to ``capacity`` nodes."""
    return Pool(
        children=np.empty((capacity, NUM_ACTIONS), dtype=np.int32),
        expanded=np.zeros((capacity, 2), dtype=np.int64),
        visits=np.zeros(capacity, dtype=np.int64),
        points=np.zeros(capacity, dtype=np.int64),
        available=np.zeros(capacity, dtype=np.int64),
        exact=np.zeros(capacity, dtype=np.int64),
        size=np.zeros(1, dtype=np.int64),
        path=np.zeros(MAX_PATH, dtype=np.int64),
        movers=np.zeros(MAX_PATH, dtype=np.int64),
        root_visits=np.zeros(NUM_ACTIONS, dtype=np.int64),
        root_points=np.zeros(NUM_ACTIONS, dtype=np.int64),
        world=np.zeros(1, dtype=mc.TWO_PLAYER_STATE_DTYPE),
        scratch=np.zeros(1, dtype=mc.TWO_PLAYER_STATE_DTYPE),
    )


# ---- the tree --------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def clear_node(pool, node):
    pool.expanded[node, 0] = 0
    pool.expanded[node, 1] = 0
    pool.visits[node] = 0
    pool.points[node] = 0
    pool.available[node] = 0
    pool.exact[node] = UNSOLVED


@njit(cache=True, inline="always")
def reset_tree(pool):
    """An empty tree: the root alone."""
    clear_node(pool, 0)
    pool.size[0] = 1


@njit(cache=True, inline="always")
def add_child(pool, node, action):
    """A fresh child of ``node`` for ``action``."""
    child = pool.size[0]
    pool.size[0] = child + 1
    clear_node(pool, child)
    pool.children[node, action] = child
    pool.expanded[node, action // mc.HIGH] |= np.int64(1) << (action % mc.HIGH)
    return child


@njit(cache=True, inline="always")
def has_action(low, high, action):
    """Whether ``action`` is in the set ``(low, high)``."""
    word = low if action < mc.HIGH else high
    return (word >> (action % mc.HIGH)) & 1


@njit(cache=True, inline="always")
def select(kind, pool, node, low, high, c, bound):
    """The action of highest UCB score among the actions ``(low, high)`` (children of
    ``node``), the first id on ties."""
    log_parent = math.log(pool.visits[node])
    best_score = -math.inf
    best = -1
    for word in range(2):
        candidates = low if word == 0 else high
        while candidates:
            action = word * mc.HIGH + trailing_zeros(candidates)
            candidates &= candidates - 1
            child = pool.children[node, action]
            visits = pool.visits[child]
            log_n = math.log(pool.available[child]) if kind == ISMCTS else log_parent
            score = pool.points[child] / (bound * visits) + c * math.sqrt(log_n / visits)
            if score > best_score:
                best_score = score
                best = action
    return best


@njit(cache=True, inline="always")
def merge_root(pool, low, high):
    """Add the root children's statistics to the per-action root statistics."""
    for action in range(NUM_ACTIONS):
        expanded = has_action(pool.expanded[0, 0], pool.expanded[0, 1], action)
        if has_action(low, high, action) and expanded:
            child = pool.children[0, action]
            pool.root_visits[action] += pool.visits[child]
            pool.root_points[action] += pool.points[child]


@njit(cache=True, inline="always")
def most_visited(visits, low, high, stream):
    """The legal action with the most visits; ties drawn uniformly from ``stream`` (an index
    into the tied action ids, ascending)."""
    most = -1
    ties = 0
    for action in range(NUM_ACTIONS):
        if has_action(low, high, action):
            if visits[action] > most:
                most = visits[action]
                ties = 1
            elif visits[action] == most:
                ties += 1
    pick = policies.draw_below(stream, ties) if ties > 1 else 0
    for action in range(NUM_ACTIONS):
        if has_action(low, high, action) and visits[action] == most:
            if pick == 0:
                return action
            pick -= 1
    return -1


@njit(cache=True, inline="always")
def expand_or_select(kind, pool, node, low, high, c, bound, stream):
    """One step down the tree from ``node``, whose legal actions are ``(low, high)``: a new
    child for an untried action drawn uniformly from ``stream`` (an index into the untried
    ids, ascending), else the UCB choice (``select``); ``ismcts`` counts every expanded legal
    child as available. Returns ``(action, number of untried actions)``."""
    untried_low = low & ~pool.expanded[node, 0]
    untried_high = high & ~pool.expanded[node, 1]
    untried = popcount(untried_low) + popcount(untried_high)
    if untried:
        pick = policies.draw_below(stream, untried)
        action = policies.nth_action(untried_low, untried_high, pick)
        add_child(pool, node, action)
    else:
        action = select(kind, pool, node, low, high, c, bound)
    if kind == ISMCTS:
        for word in range(2):
            available = (low if word == 0 else high) & pool.expanded[node, word]
            while available:
                child = pool.children[node, word * mc.HIGH + trailing_zeros(available)]
                pool.available[child] += 1
                available &= available - 1
    return action, untried
