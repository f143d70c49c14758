"""The agent protocol: specs, ``make``, playing deals and matches, forfeits, the numba fast
path against the Python path, and that no agent's choice depends on cards it cannot know."""

from __future__ import annotations

import inspect
import math
import textwrap

import numpy as np
import pytest

import sixtysix
from sixtysix import agents
from sixtysix.engine.rules import CHOICES

POLICY_AGENTS = ["random", "heuristic"]  # the search agents: tests/test_search_agents.py
CLAIM_MODES = CHOICES["claim_mode"]


# ---- specs ----------------------------------------------------------------------------------


def test_available_lists_the_built_ins_with_their_descriptions():
    listed = {info["name"]: info for info in agents.available()}
    assert {"random", "heuristic"} <= set(listed)
    for info in listed.values():
        assert info["description"] and isinstance(info["parameters"], list)
        assert info["cheating"] is (info["name"] in {"openspiel-mcts", "open-hand"})


@pytest.mark.parametrize("name", sorted(set(agents.BUILTIN) - {"cfr"}))  # cfr: test_cfr_agent.py
def test_make_builds_a_seeded_agent_with_its_canonical_spec(name):
    agent = agents.make(f" {name} ", seed=7)
    assert agent.spec == name and agent.seed == 7


def test_the_best_alias_stands_for_its_setting_written_out():
    listed = {info["name"]: info for info in agents.available()}
    target = agents.specs.ALIASES["best"]
    assert target in listed["best"]["description"]
    assert agents.make("best", seed=1).spec == agents.make(target, seed=1).spec == target
    assert agents.make("best:iterations=40").spec == "ismcts:iterations=40"
    defaults = {p["name"]: p["default"] for p in listed["best"]["parameters"]}
    assert defaults["iterations"] == agents.parse_spec(target).params["iterations"]
    with pytest.raises(ValueError, match="unknown parameter 'worlds'"):
        agents.make("best:worlds=3")


def built(spec: str):
    """What a spec builds: the agent's public fields but its spec, or the error it raises."""
    try:
        agent = agents.make(spec, seed=3)
    except ValueError as error:
        return type(error.__cause__), str(error.__cause__)
    return type(agent), {k: v for k, v in vars(agent).items() if k[0] != "_" and k != "spec"}


@pytest.mark.parametrize("name", list(agents.BUILTIN))
def test_a_built_in_agents_defaults_are_its_constructors(name):
    info = agents.BUILTIN[name]
    keywords = inspect.signature(info.factory).parameters
    listed = next(entry for entry in agents.available() if entry["name"] == name)
    assert [p["name"] for p in listed["parameters"]] == [p.name for p in info.parameters]
    for parameter, shown in zip(info.parameters, listed["parameters"], strict=True):
        assert parameter.default == keywords[parameter.name].default == shown["default"]
        assert shown["type"] == parameter.type.__name__ == type(parameter.default).__name__
    spelled = ",".join(
        f"{p.name}={str(p.default).lower() if p.type is bool else p.default}"
        for p in info.parameters
    )
    if spelled:
        assert built(name) == built(f"{name}:{spelled}")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "give a name such as random, heuristic"),
        ("nobody", "unknown agent 'nobody'"),
        ("random:depth=3", "unknown parameter 'depth'; valid: none"),
        ("heuristic:depth=3", "unknown parameter 'depth'; valid: noise, worlds, close_at"),
        ("heuristic:noise=lots", "noise='lots' is not valid; noise must be a number of type float"),
        ("heuristic:noise=1.5", "invalid noise 1.5: noise must be a probability in"),
        ("random:depth", "'depth' is not key=value"),
        ("random:a=1:b=2", "write name:key=value"),
        ("no_such_module_xyz:Bot", "cannot import module 'no_such_module_xyz'"),
        (
            "sixtysix.agents.policy_agents:Nobody",
            "classes are Agent, HeuristicAgent, PolicyAgent, RandomAgent",
        ),
    ],
)
def test_bad_specs_are_named_with_what_is_valid(spec, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        agents.make(spec, seed=0)


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    """A user's module of agents, importable as ``user_bots``."""
    (tmp_path / "user_bots.py").write_text(
        textwrap.dedent(
            """
            import random

            class FirstLegal:
                def __init__(self, seed, offset: int = 0, greedy: bool = False, rate=0.5):
                    self.seed, self.offset, self.greedy, self.rate = seed, offset, greedy, rate

                def act(self, view):
                    legal = view.legal_actions()
                    return legal[self.offset % len(legal)]

            class Seeded:
                def __init__(self, seed):
                    self.rng = random.Random(seed)

                def act(self, view):
                    return self.rng.choice(view.legal_action_ids())

            class Raises:
                def __init__(self, seed):
                    pass

                def act(self, view):
                    raise RuntimeError("boom")

            class Illegal:
                def __init__(self, seed):
                    pass

                def act(self, view):
                    return "close" if "close" not in view.legal_actions() else "claim"
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    return "user_bots"


def test_a_users_class_is_built_with_typed_parameters(user_module):
    agent = agents.make(f"{user_module}:FirstLegal:greedy=yes,offset=2,rate=0.25", seed=3)
    assert (agent.seed, agent.offset, agent.greedy, agent.rate) == (3, 2, True, 0.25)
    assert agent.spec == f"{user_module}:FirstLegal:greedy=true,offset=2,rate=0.25"


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ("offset=two", "offset='two' is not valid; offset must be a number of type int"),
        ("greedy=maybe", "greedy must be true or false"),
        ("speed=1", "unknown parameter 'speed'; valid: offset, greedy, rate"),
        ("offset=1,offset=2", "parameter 'offset' is given twice"),
    ],
)
def test_a_users_parameters_are_checked(user_module, params, message):
    with pytest.raises(ValueError, match=message):
        agents.make(f"{user_module}:FirstLegal:{params}", seed=0)


def test_a_users_agent_plays_a_deal(user_module):
    result = agents.play_deal(sixtysix.Game(), (f"{user_module}:Seeded", "random"), seed=5)
    assert result.error is None and result.specs == (f"{user_module}:Seeded", "random")
    again = agents.play_deal(sixtysix.Game(), (f"{user_module}:Seeded", "random"), seed=5)
    assert again.history_ids == result.history_ids


# ---- playing deals and matches ------------------------------------------------------------


@pytest.mark.parametrize("preset", sixtysix.PRESETS)
def test_play_deal_plays_the_seeded_deal_to_its_end(preset):
    game = sixtysix.Game(preset)
    result = agents.play_deal(game, ("heuristic", "random"), seed=11)
    played = [action for _, action in result.actions]
    state = game.replay(game.new_deal(seed=11).deck, result.dealer, played)
    assert state.is_terminal and state.outcome == result.outcome
    assert state.card_points == result.card_points
    assert sum(result.decisions) == len(result.history_ids)
    assert all(seconds >= 0 for seconds in result.decision_seconds)
    assert result.engine == "python" and result.error is None


def test_a_failing_agent_forfeits_its_deal(user_module):
    game = sixtysix.Game("schnapsen")
    for name, words in (("Raises", "raised RuntimeError: boom"), ("Illegal", "not legal here")):
        result = agents.play_deal(game, ("random", f"{user_module}:{name}"), seed=2)
        assert result.error_seat == 1 and words in result.error
        assert result.error.startswith(f"P1 ({user_module}:{name})")
        assert result.outcome == (0, game.rules.max_game_points, agents.FORFEIT)


def test_a_decision_over_the_time_limit_forfeits_the_deal():
    result = agents.play_deal(sixtysix.Game(), ("random", "random"), seed=1, time_limit=0.0)
    assert result.error_seat is not None and "over the time limit of 0.0 s" in result.error
    assert sum(result.decisions) == 1


def test_play_match_plays_to_the_target_and_scores_forfeits(user_module):
    game = sixtysix.Game("schnapsen")
    match = agents.play_match(game, ("heuristic", "random"), seed=4)
    assert max(match.scores) >= game.rules.match_target and match.winner in (0, 1)
    assert sum(deal.outcome[1] for deal in match.deals) >= max(match.scores)
    forfeited = agents.play_match(game, ("random", f"{user_module}:Raises"), seed=4)
    points = game.rules.max_game_points
    assert forfeited.winner == 0 and forfeited.scores == (points * len(forfeited.deals), 0)
    assert len(forfeited.deals) == -(-game.rules.match_target // points)
    assert all(deal.error_seat == 1 for deal in forfeited.deals)


def test_a_match_needs_a_match_target():
    with pytest.raises(ValueError, match="plays single deals"):
        agents.play_match(sixtysix.Game("vu_schnapsen"), ("random", "random"), seed=0)


def test_play_deal_wants_two_agents():
    for play in (agents.play_deal, agents.play_match):
        with pytest.raises(ValueError, match="needs two agents, one per seat; got 3"):
            play(sixtysix.Game(), ("random",) * 3, seed=0)
    with pytest.raises(ValueError, match="needs two agents, one per seat; got 1"):
        agents.play_deals(sixtysix.Game(), ("random",), [0])


# ---- the numba fast path agrees with the Python agents -------------------------------------


def _same_play(fast, slow):
    for field in ("seed", "dealer", "specs", "outcome", "card_points", "closed_by"):
        assert getattr(fast, field) == getattr(slow, field), field
    for field in ("close_trick", "tricks_played", "decisions", "history_ids", "error"):
        assert getattr(fast, field) == getattr(slow, field), field


@pytest.mark.parametrize("preset", [*sixtysix.PRESETS, *sixtysix.MINI_PRESETS])
@pytest.mark.parametrize(
    "pair",
    [
        ("random", "random"),
        ("heuristic:worlds=0", "random"),
        ("heuristic:noise=0.3,worlds=0", "heuristic:worlds=0"),
    ],
)
def test_numba_deals_match_the_python_agents_move_for_move(preset, pair):
    game = sixtysix.Game(preset)
    seeds = [3, 2**64 - 1, 12345678901234567890, *range(20)]
    fast = agents.play_deals(game, pair, seeds)
    assert {result.engine for result in fast} == {"numba"}
    assert all(math.isnan(s) for result in fast for s in result.decision_seconds)
    for fast_result, seed in zip(fast, seeds, strict=True):
        _same_play(fast_result, agents.play_deal(game, pair, seed))


@pytest.mark.parametrize("claim_mode", CLAIM_MODES)
def test_numba_and_python_agree_under_every_claim_mode(claim_mode):
    game = sixtysix.Game("schnapsen", claim_mode=claim_mode)
    pair = ("heuristic:worlds=0", "heuristic:worlds=0")
    for fast_result in agents.play_deals(game, pair, range(30)):
        _same_play(fast_result, agents.play_deal(game, pair, fast_result.seed))


def test_noise_makes_the_heuristic_weaker_and_one_is_random():
    game = sixtysix.Game()
    seeds = range(2000)

    def wins(pair):
        return sum(r.winner == 0 for r in agents.play_deals(game, pair, seeds))

    assert wins(("heuristic:worlds=0", "random")) > wins(("heuristic:noise=0.5,worlds=0", "random"))
    fully = agents.play_deals(game, ("heuristic:noise=1,worlds=0", "random"), seeds[:50])
    python = [
        agents.play_deal(game, ("heuristic:noise=1,worlds=0", "random"), seed)
        for seed in seeds[:50]
    ]
    assert [r.history_ids for r in fully] == [r.history_ids for r in python]
    assert agents.make("heuristic:noise=0.25", 1).spec == "heuristic:noise=0.25"


def test_play_deals_takes_the_python_path_for_agent_objects():
    game = sixtysix.Game()
    results = agents.play_deals(game, (agents.make("random", 1), "random"), [0, 1])
    assert [result.engine for result in results] == ["python", "python"]


# ---- no agent sees what its player cannot know ----------------------------------------------


def assert_blind_to_hidden_cards(spec: str, game, seed: int, worlds: int = 6) -> None:
    """Play a deal; then, for every decision of seat 0, show a fresh agent with the same seed
    the same views in worlds that differ only in cards seat 0 cannot know (the opponent's
    hidden cards, the hidden talon): it must choose the same actions."""
    result = agents.play_deal(game, (spec, "random"), seed=seed)
    actions = [action for _, action in result.history_ids]
    deck = game.new_deal(seed=seed).deck
    final = game.replay(deck, result.dealer, actions)
    rng = np.random.default_rng(seed)
    mine = [k for k, (player, _) in enumerate(result.history_ids) if player == 0]
    cut = mine[len(mine) // 2] if mine else 0  # worlds of the view halfway through
    view = game.replay(deck, result.dealer, actions[:cut]).view(0)
    agent_seed = int(agents.policies.agent_seed(np.uint64(seed), 0))
    for world in view.sample_worlds(worlds, rng):
        agent = agents.make(spec, agent_seed)
        for k in mine:
            if k > cut:
                break
            state = game.replay(world.deck, world.dealer, actions[:k])
            assert (
                state.view(0).key() == game.replay(deck, result.dealer, actions[:k]).view(0).key()
            )
            assert agents.protocol._legal_id(agent.act(state.view(0)), state.view(0)) == actions[k]
    assert final.is_terminal


@pytest.mark.parametrize("spec", [*POLICY_AGENTS, "heuristic:noise=0.5"])
@pytest.mark.parametrize("preset", ["sixty_six", "schnapsen", "vu_schnapsen"])
def test_agents_do_not_see_hidden_cards(spec, preset):
    for seed in range(4):
        assert_blind_to_hidden_cards(spec, sixtysix.Game(preset), seed)


@pytest.mark.parametrize("spec", ["random", "heuristic:worlds=0", "heuristic:noise=0.3,worlds=0"])
def test_policy_is_the_distribution_act_samples(spec):
    """``policy(view)`` sums to 1 over the legal actions and matches act's frequencies."""
    state = sixtysix.Game("schnapsen").new_deal(seed=4)
    view = state.view(state.current_player)
    policy = agents.make(spec, 0).policy(view)
    assert set(policy) == set(view.legal_actions())
    assert sum(policy.values()) == pytest.approx(1.0)
    draws = 2000
    counts = {action: 0 for action in policy}
    for seed in range(draws):
        counts[agents.make(spec, seed).act(view)] += 1
    for action, probability in policy.items():
        spread = 4 * math.sqrt(probability * (1 - probability) / draws) + 1e-9
        assert abs(counts[action] / draws - probability) <= spread
