"""Every fair built-in agent on every three- and four-player preset: its choices are legal,
and they never depend on cards its seat cannot see (a swap of two hidden cards between
other seats and the talon, the called card between two other seats included, never
changes a choice); a user's agent that peeks at the deal is caught by the same check; and
``cfr`` refuses a table clearly.

The leak check plays a deal with the agent in one seat (uniformly random play in the
others), then replays it from decks with two cards swapped that the seat cannot see at its
middle decision, keeps the swaps whose replay is legal and leaves the seat's view the same
(``view.key()``), and shows a fresh agent with the same seed that seat's views in order:
each choice must be the one made in the true deal.
"""

from __future__ import annotations

import inspect
import random
import zlib

import numpy as np
import pytest
from test_multi_views import hidden_from

import sixtysix
from sixtysix import agents
from sixtysix.engine.actions import parse_action
from sixtysix.engine.cards import card_name
from sixtysix.table_game import TableState
from sixtysix.theory import cfr

FAIR = {
    info["name"] for info in agents.available() if not info["cheating"] and not info["interactive"]
}
#: The cheapest spec of every fair built-in agent that plays tables (cfr refuses them).
SPECS = {
    "random": "random",
    "heuristic": "heuristic",
    "pimc": "pimc:worlds=4",
    "ismcts": "ismcts:iterations=50",
    "dmcts": "dmcts:iterations=50,worlds=4",
    "openspiel-ismcts": "openspiel-ismcts:simulations=8",
    "best": "best:iterations=50",
}
#: Every table preset, and the announcements on the Snapszer ones (betli needs four seats).
GAMES = {
    "snapszer3": ("snapszer3", {}),
    "snapszer3+durchmars": ("snapszer3", {"announcements": "durchmars"}),
    "snapszer3_called": ("snapszer3_called", {}),
    "snapszer3_called+durchmars": ("snapszer3_called", {"announcements": "durchmars"}),
    "snapszer4": ("snapszer4", {}),
    "snapszer4+durchmars_betli": ("snapszer4", {"announcements": "durchmars_betli"}),
    "snapszer4_called": ("snapszer4_called", {}),
    "snapszer4_called+durchmars_betli": ("snapszer4_called", {"announcements": "durchmars_betli"}),
    "na66": ("na66", {}),
    "na66_3": ("na66_3", {}),
    "na66_2": ("na66_2", {}),
}
#: A small version of each game that costs some agent too long in the default run: the
#: preset's mini (``na66_3`` has none: its rules on the twelve cards J Q K of four suits).
MINIS = {
    "snapszer3": ("mini3_3x3", {}),
    "snapszer3+durchmars": ("mini3_3x3", {"announcements": "durchmars"}),
    "snapszer4": ("mini4_4x3", {}),
    "snapszer4+durchmars_betli": (
        "mini4_4x3",
        {"announcements": "durchmars_betli", "betli_partner": "plays"},
    ),
    "snapszer4_called": ("mini4_called_2x4", {}),
    "snapszer4_called+durchmars_betli": (
        "mini4_called_2x4",
        {"announcements": "durchmars_betli"},
    ),
    "na66_3": (
        "na66_3",
        {
            "ranks": "JQK",
            "suits": 4,
            "deck": 12,
            "hand_size": 4,
            "deal_pattern": "P2 P2",
            "exchange_min_talon": 2,
            "target": 20,
            "marriage_points": 6,
            "bid_unit": 10,
        },
    ),
}
#: The games an agent plays on their mini in the default run (the full one is slow).
ON_MINIS = {
    "pimc": {
        "snapszer3",
        "snapszer3+durchmars",
        "snapszer4_called",
        "snapszer4_called+durchmars_betli",
        "na66_3",
    },
    "openspiel-ismcts": {"snapszer4", "snapszer4+durchmars_betli"},
}
LEGALITY_SEEDS = range(3)
SWAPS = 4  # random swaps tried per deal, after those that move the called card
MIN_DEALS, MIN_SWAPS, MAX_DEALS = 3, 8, 12  # the leak check's coverage (assert_blind)


def game_of(name: str) -> sixtysix.Game:
    """The game ``GAMES`` names, or the mini of ``MINIS`` for ``"mini:NAME"``."""
    preset, overrides = MINIS[name[5:]] if name.startswith("mini:") else GAMES[name]
    return sixtysix.Game(preset, **overrides)


def cases() -> list:
    """Every agent on every game; where ``ON_MINIS`` says so, on the mini in the default
    run and on the full game under ``-m slow``."""
    params = []
    for agent in sorted(SPECS):
        for name in GAMES:
            if name in ON_MINIS.get(agent, ()):
                params.append(pytest.param(agent, name, marks=pytest.mark.slow))
                params.append(pytest.param(agent, f"mini:{name}"))
            else:
                params.append(pytest.param(agent, name))
    return params


def agent_seed(seed: int, seat: int) -> int:
    return int(agents.policies.agent_seed(np.uint64(seed), seat))


def chosen_id(choice, view) -> int:
    """The action id an agent's choice (a string or an id) names; fails if it is illegal."""
    action = parse_action(choice) if isinstance(choice, str) else int(choice)
    assert action in view.legal_action_ids(), f"{choice!r} is not legal: {view.legal_actions()}"
    return action


def play(game, specs: list[str], seed: int) -> list[tuple[int, int]]:
    """The history of ``agents.play_deal`` (agents made with the protocol's seeds, shown
    ``state.view(seat)``); a forfeit (an illegal choice, an exception) fails the test."""
    result = agents.play_deal(game, specs, seed)
    assert result.error is None, result.error
    assert sum(result.decisions) == len(result.history_ids) > 0
    return list(result.history_ids)


# ---- the leak check ------------------------------------------------------------------------


def swapped_deck(state: TableState, first: str, second: str) -> list[str]:
    deck = [card_name(int(card)) for card in state.deck]
    i, j = deck.index(first), deck.index(second)
    deck[i], deck[j] = deck[j], deck[i]
    return deck


def replayed(game, deck, dealer: int, actions) -> TableState | None:
    """The state after ``actions`` from ``deck``, or None if one of them is then illegal."""
    try:
        return game.replay(deck, dealer, actions)
    except sixtysix.IllegalActionError:
        return None


def swaps_to_try(truth: TableState, seat: int, rng: random.Random) -> list[tuple[str, str]]:
    """Pairs of cards ``seat`` cannot see in ``truth``: first the called card with a card of
    each other seat that does not hold it (moving the hidden partnership), then ``SWAPS``
    random pairs from two places (two other seats, or one and the talon), or from one place
    if all hidden cards lie in one (``na66_2``: the other hand)."""
    hidden = hidden_from(truth, seat)
    place = {card: other for other, hand in enumerate(truth.hands) for card in hand}
    pairs = []
    called = truth.called_card
    if called in hidden:
        for other, hand in enumerate(truth.hands):
            movable = [card for card in hand if card in hidden and card != called]
            if other != seat and called not in hand and movable:
                pairs.append((called, rng.choice(movable)))
    across = [(a, b) for a in hidden for b in hidden if place.get(a) != place.get(b) and a < b]
    within = [(a, b) for a in hidden for b in hidden if a < b]
    pool = across or within
    return pairs + rng.sample(pool, min(SWAPS, len(pool)))


def cut_of(game, deck, dealer: int, actions: list[int], mine: list[int], seat: int) -> int:
    """The decision of ``seat`` up to which the leak check replays: its middle one, or in a
    called-card game its last one while the called card is out and hidden from it (so that
    swaps can move the hidden partnership), if it has such a decision."""
    if game.rules.sides == "called_card":
        for k in reversed(mine):
            state = game.replay(deck, dealer, actions[:k])
            if state.called_card and state.called_card in hidden_from(state, seat):
                return k
    return mine[len(mine) // 2]


def leak_check(spec: str, game, seed: int, seat: int) -> dict:
    """Play a deal, then show a fresh ``spec`` agent (same seed) the views of ``seat`` up to
    its middle decision in deals with two cards swapped that the seat cannot see there.

    Returns ``differences`` (swap, decision index, true choice, choice after the swap),
    ``compared`` (swaps replayed with the same view), ``changed`` (of those, the ones that
    changed what another seat holds or the talon), ``partner_moved`` (the ones that gave
    the called card to another seat) and ``choices`` (the views with more than one legal
    action shown after a swap). The other seats play ``random``.
    """
    n = game.num_players
    history = play(game, [spec if other == seat else "random" for other in range(n)], seed)
    actions = [action for _, action in history]
    mine = [k for k, (actor, _) in enumerate(history) if actor == seat]
    report = {"differences": [], "compared": 0, "changed": 0, "partner_moved": 0, "choices": 0}
    if not mine:
        return report
    deal = game.new_deal(seed=seed)
    deck, dealer = deal.deck, deal.dealer
    cut = cut_of(game, deck, dealer, actions, mine, seat)
    truth = game.replay(deck, dealer, actions[:cut])
    for first, second in swaps_to_try(truth, seat, random.Random(seed)):
        swapped = swapped_deck(truth, first, second)
        other = replayed(game, swapped, dealer, actions[:cut])
        if other is None or other.view(seat).key() != truth.view(seat).key():
            continue
        report["compared"] += 1
        report["changed"] += (other.hands, other.talon) != (truth.hands, truth.talon)
        called = truth.called_card
        if called and [called in hand for hand in other.hands] != [
            called in hand for hand in truth.hands
        ]:
            report["partner_moved"] += 1
        agent = agents.make(spec, agent_seed(seed, seat))
        difference, choices = first_difference(
            agent, game, swapped, dealer, actions[: cut + 1], seat
        )
        report["choices"] += choices
        if difference is not None:
            report["differences"].append(((first, second), *difference))
    return report


def first_difference(agent, game, deck, dealer: int, actions: list[int], seat: int):
    """Replay ``actions`` from ``deck``, asking ``agent`` at each decision of ``seat``:
    ``(decision index, action played, agent's choice)`` at the first where it chooses
    otherwise (None if none), and how many views with more than one legal action it was
    shown. A function of its own, so that the innermost frames an agent could walk hold
    only the swapped deal's state, as ``play_deal``'s frame holds only the true one."""
    state = game.new_deal(deck=deck, dealer=dealer)
    choices = 0
    for k, action in enumerate(actions):
        if state.current_player == seat:
            view = state.view(seat)
            choices += len(view.legal_actions()) > 1
            choice = chosen_id(agent.act(view), view)
            if choice != action:
                return (k, action, choice), choices
        state.apply(action)
    return None, choices


def assert_blind(spec: str, name: str) -> None:
    """``spec`` never chooses otherwise after a swap its seat cannot see. Deals from seeds
    0, 1, ... (the tested seat going round the table) until ``MIN_DEALS`` are checked and
    ``MIN_SWAPS`` swaps were compared, each changing what another seat holds or the talon
    (in ``na66_2`` nothing can: the other hand is the rest of the pack), with as many real
    choices shown, and in the called-card games one swap moved the hidden partnership."""
    game = game_of(name)
    totals = {"compared": 0, "changed": 0, "partner_moved": 0, "choices": 0}
    wanted = {
        "compared": MIN_SWAPS,
        "choices": MIN_SWAPS,
        "changed": MIN_SWAPS if game.num_players > 2 else 0,
        "partner_moved": 1 if game.rules.sides == "called_card" else 0,
    }
    for seed in range(MAX_DEALS):
        report = leak_check(spec, game, seed, seat=seed % game.num_players)
        assert report["differences"] == [], (spec, name, seed, report["differences"])
        for key in totals:
            totals[key] += report[key]
        if seed + 1 >= MIN_DEALS and all(totals[key] >= wanted[key] for key in wanted):
            break
    assert all(totals[key] >= wanted[key] for key in wanted), totals
    if game.num_players > 2:
        assert totals["changed"] == totals["compared"]


# ---- the tests ------------------------------------------------------------------------------


def test_every_fair_built_in_agent_is_covered():
    """A new fair agent fails here until it has a spec above (so the tests below run it)."""
    assert set(SPECS) == FAIR - {"cfr"}


@pytest.mark.parametrize(("agent", "name"), cases())
def test_every_choice_is_legal(agent, name):
    """The agent in every seat of several deals, each played to its end without a forfeit."""
    game = game_of(name)
    for seed in LEGALITY_SEEDS:
        play(game, [SPECS[agent]] * game.num_players, seed)


@pytest.mark.parametrize(("agent", "name"), cases())
def test_choices_do_not_depend_on_cards_the_seat_cannot_see(agent, name):
    assert_blind(SPECS[agent], name)


#: The search agents with ``infer=true``, whose worlds are weighed by the other seats'
#: play (their hidden cards must not weigh them).
INFERRING = (
    "pimc:worlds=4,infer=true,candidates=16",
    "ismcts:iterations=50,infer=true,candidates=16",
    "dmcts:iterations=50,worlds=4,infer=true,candidates=16",
)


@pytest.mark.parametrize("spec", INFERRING)
@pytest.mark.parametrize("name", ["snapszer4", "mini:snapszer4_called", "snapszer3_called", "na66"])
def test_inference_weighs_the_worlds_by_the_view_alone(spec, name):
    """Legal play with the agent in every seat, and the leak check."""
    play(game_of(name), [spec] * game_of(name).num_players, 0)
    assert_blind(spec, name)


class Peeker:
    """A user's agent that cheats: it walks its callers' frames to the deal's ``TableState``
    (the one whose view for its seat is the view it was given) and lets the other seats'
    hands and the talon pick its (legal) action."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, view) -> str:
        state = self._find_state(view)
        hidden = [hand for seat, hand in enumerate(state.hands) if seat != view.seat]
        legal = view.legal_actions()
        return legal[zlib.crc32(repr((hidden, state.talon)).encode()) % len(legal)]

    @staticmethod
    def _find_state(view) -> TableState:
        frame = inspect.currentframe()
        while frame is not None:
            for value in frame.f_locals.values():
                if isinstance(value, TableState) and value.view(view.seat).key() == view.key():
                    return value
            frame = frame.f_back
        raise LookupError("no TableState in the callers' frames")


@pytest.mark.parametrize("name", [name for name in GAMES if name != "na66_2"])
def test_the_leak_check_catches_an_agent_that_peeks_at_the_deal(name):
    """In every game but ``na66_2``, where a seat sees all but the other hand (no swap can
    change what another seat holds)."""
    game = game_of(name)
    spec = f"{__name__}:Peeker"
    caught = [leak_check(spec, game, seed, seed % game.num_players) for seed in range(3)]
    assert any(report["differences"] for report in caught), caught


def test_cfr_refuses_a_table_naming_the_game(tmp_path):
    """cfr is the one fair built-in left out above: its strategies are of two players."""
    assert "cfr" in FAIR
    path = tmp_path / "mini.npz"
    cfr.solve("mini_2x3", iterations=1, progress=False).save(path)
    spec = f"cfr:strategy={path}"
    agent = agents.make(spec, seed=0)
    game = sixtysix.Game("snapszer4")
    state = game.new_deal(seed=1)
    view = state.view(state.current_player)
    refusal = r"the cfr agent cannot play Game\('snapszer4'\), a 4-player game: its strategies"
    for ask in (agent.act, agent.policy):
        with pytest.raises(ValueError, match=refusal):
            ask(view)
    first = state.current_player
    specs = [spec if seat == first else "random" for seat in range(game.num_players)]
    result = agents.play_deal(game, specs, seed=1)
    assert result.reason == agents.FORFEIT and result.error_seat == first
    assert "raised ValueError: the cfr agent cannot play Game('snapszer4')" in result.error
