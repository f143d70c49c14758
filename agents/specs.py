"""Agent spec strings: the registry of built-in agents, parsing, and ``make``.

A spec is ``name`` or ``name:key=value,key=value`` for a built-in agent
(``pimc:worlds=64``), or ``module.path:ClassName`` with optional
``:key=value,...`` for a user's class, built as ``ClassName(seed=..., **params)``.
Values are parsed to the parameter's type: the annotation (or the default's
type) of the constructor's keyword. A built-in agent's parameters are the
keywords ``BUILTIN`` describes, with the constructor's types and defaults.
Specs have one canonical form (parameters sorted, values normalised), which
tournaments record.
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass

from .cfr_player import CfrAgent
from .human import HumanAgent
from .mcts import DeterminizedMCTSAgent, InformationSetMCTSAgent
from .open_hand import OpenHandAgent
from .openspiel_bots import FINAL_POLICIES, OpenSpielISMCTSAgent, OpenSpielMCTSAgent
from .pimc import PimcAgent
from .policy_agents import HeuristicAgent, RandomAgent

_TYPES = {"int": int, "float": float, "bool": bool, "str": str}
_TRUE, _FALSE = ("true", "yes", "1"), ("false", "no", "0")


@dataclass(frozen=True)
class Parameter:
    """One parameter of a built-in agent: a keyword of its constructor, with the
    constructor's type and default."""

    name: str
    type: type
    default: object
    help: str


@dataclass(frozen=True)
class AgentInfo:
    """A built-in agent: its class, a one-line description and its parameters."""

    name: str
    factory: type
    description: str
    parameters: tuple[Parameter, ...] = ()


#: The inference parameters of the search agents (``agents.world_weights``).
INFERENCE_PARAMETERS = {
    "infer": "weigh the worlds by the likelihood of the other seats' actions",
    "model_noise": "noise of the inference's model of their play (two players: the "
    "heuristic's rules; tables: the rollout's card choice)",
    "candidates": "worlds drawn and weighed before the worlds searched are resampled",
}


def _constructor_types(factory: type) -> dict[str, type]:
    """The keyword parameters of a class's constructor (seed aside) and their types."""
    declared = {}
    for name, parameter in inspect.signature(factory).parameters.items():
        if name == "seed" or parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        annotation = parameter.annotation
        if isinstance(annotation, str):
            annotation = _TYPES.get(annotation, str)
        elif annotation is parameter.empty:
            default = parameter.default
            annotation = type(default) if type(default) in _TYPES.values() else str
        declared[name] = annotation if annotation in _TYPES.values() else str
    return declared


def _builtin(name: str, factory: type, description: str, **helps: str) -> AgentInfo:
    """A built-in agent whose parameters are the constructor keywords ``helps`` describes,
    typed and defaulted as the constructor declares them."""
    keywords = inspect.signature(factory).parameters
    types = _constructor_types(factory)
    parameters = tuple(
        Parameter(key, types[key], keywords[key].default, text) for key, text in helps.items()
    )
    return AgentInfo(name, factory, description, parameters)


BUILTIN: dict[str, AgentInfo] = {
    info.name: info
    for info in (
        _builtin("random", RandomAgent, "uniform over the legal actions"),
        _builtin(
            "heuristic",
            HeuristicAgent,
            "expert rules of thumb while the talon is open; exact counting over the worlds "
            "at closing and in the strict phase",
            noise="probability of a uniform legal action instead (weaker players, for ladders)",
            worlds="worlds counted per strict-phase or closing decision (0: the rules alone)",
            close_at="close when closing is worth at least this many game points on average",
        ),
        _builtin(
            "pimc",
            PimcAgent,
            "perfect-information Monte Carlo: the open-hand solver's mean values over worlds",
            worlds="worlds per decision (all of them when there are fewer)",
            horizon="tricks searched while the talon is open before a heuristic playout (0: none)",
            **INFERENCE_PARAMETERS,
            postpone="value each action at the next own decision, one choice for alike worlds",
        ),
        _builtin(
            "dmcts",
            DeterminizedMCTSAgent,
            "determinized MCTS: one UCT tree per sampled world, root visits summed over worlds",
            worlds="worlds sampled per decision, one tree each",
            iterations="iterations per decision, shared evenly by the worlds",
            c="UCT exploration constant (rewards in [-1, 1])",
            rollout="rollout policy: random or heuristic",
            solver="value positions with the talon closed or exhausted exactly (open-hand solver)",
            **INFERENCE_PARAMETERS,
        ),
        _builtin(
            "ismcts",
            InformationSetMCTSAgent,
            "single-observer information-set MCTS: one tree, a fresh world each iteration",
            iterations="iterations per decision, one world each",
            c="UCB exploration constant (rewards in [-1, 1])",
            rollout="rollout policy: random or heuristic",
            solver="value positions with the talon closed or exhausted exactly in each world",
            **INFERENCE_PARAMETERS,
            pimc_worlds="worlds of a PIMC judge that decides closing and plays the strict phase "
            "(two players; 0: none)",
        ),
        _builtin(
            "cfr",
            CfrAgent,
            "a CFR strategy file: exact on a mini preset (cfr solve) or MCCFR (cfr train)",
            strategy="path of a strategy file from 'sixtysix cfr solve' or 'sixtysix cfr train'",
        ),
        _builtin(
            "openspiel-ismcts",
            OpenSpielISMCTSAgent,
            "OpenSpiel's ISMCTS bot on python_sixty_six, over worlds drawn from the view",
            simulations="simulations per decision",
            c="UCT exploration constant (in game points)",
            rollouts="random rollouts per new node",
            final_policy=f"how the move is chosen: {', '.join(FINAL_POLICIES)}",
        ),
        _builtin(
            "openspiel-mcts",
            OpenSpielMCTSAgent,
            "OpenSpiel's UCT bot on the true state (sees every card: a reference only)",
            simulations="simulations per decision",
            c="UCT exploration constant (in game points)",
            rollouts="random rollouts per leaf",
            solve="back up proven values (MCTS-Solver)",
        ),
        _builtin(
            "open-hand",
            OpenHandAgent,
            "the open-hand solver on the true state (sees every card: a reference only)",
        ),
        _builtin(
            "human",
            HumanAgent,
            "you, at the terminal: each decision is shown and asked for ('sixtysix play')",
        ),
    )
}


#: Names for settings of a built-in agent: the spec they stand for. A spec ``best:key=value``
#: overrides the alias's parameters; agents and results carry the spec written out.
ALIASES = {
    "best": "ismcts:iterations=20000",
}
ALIAS_DESCRIPTIONS = {
    "best": "the strongest built-in setting measured (docs/agents.md#the-best-setting)",
}


@dataclass(frozen=True)
class Spec:
    """A parsed spec: the class to build, its typed parameters and the canonical string."""

    factory: type
    params: dict
    canonical: str
    info: AgentInfo | None  # None for a user's class


def parse_spec(spec: str) -> Spec:
    """Parse and check a spec string; a bad one raises ``ValueError`` saying what is valid."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"invalid agent spec {spec!r}: give a name such as {_names()}")
    parts = spec.strip().split(":")
    if parts[0] not in BUILTIN and len(parts) >= 2 and "=" not in parts[1]:
        return _user_spec(spec, parts)
    if len(parts) > 2:
        raise ValueError(f"invalid agent spec {spec!r}: write name:key=value,key=value")
    name, text = parts[0], parts[1] if len(parts) == 2 else ""
    if name in ALIASES:
        return _alias_spec(spec, name, text)
    info = BUILTIN.get(name)
    if info is None:
        raise ValueError(
            f"unknown agent {name!r} in spec {spec!r}: built-in agents are {_names()}, "
            "or give module.path:ClassName for your own"
        )
    declared = {parameter.name: parameter.type for parameter in info.parameters}
    params = _parse_params(spec, text, declared)
    return Spec(info.factory, params, _canonical(name, params), info)


def _alias_spec(spec: str, alias: str, text: str) -> Spec:
    """An alias's spec with the parameters of ``text`` over its own."""
    target = parse_spec(ALIASES[alias])
    declared = {parameter.name: parameter.type for parameter in target.info.parameters}
    params = target.params | _parse_params(spec, text, declared)
    return Spec(target.factory, params, _canonical(target.info.name, params), target.info)


def make(spec: str, seed: int = 0):
    """The agent a spec names, seeded with ``seed``."""
    parsed = parse_spec(spec)
    try:
        agent = parsed.factory(seed=seed, **parsed.params)
    except (TypeError, ValueError) as error:
        raise ValueError(f"agent spec {spec!r}: {error}") from error
    if not callable(getattr(agent, "act", None)):
        raise ValueError(f"agent spec {spec!r}: {parsed.factory.__name__} has no act(view) method")
    try:
        agent.spec = parsed.canonical
    except AttributeError:  # a user's class with slots: it keeps its own name
        pass
    return agent


def policy_of(spec: str) -> tuple[int, float] | None:
    """The numba policy code and noise of the built-in agent a spec names, or None if it has
    no fast path."""
    if parse_spec(spec).info is None:
        return None
    agent = make(spec, 0)
    return None if agent.fast_policy is None else (agent.fast_policy, agent.noise)


def available() -> list[dict]:
    """The built-in agents and aliases: name, description, parameters with types and
    defaults (an alias's own values as defaults), and whether they cheat (look at hidden
    cards)."""
    entries = [(info.name, info.description, info, {}) for info in BUILTIN.values()]
    for alias, target in ALIASES.items():
        parsed = parse_spec(target)
        description = f"{ALIAS_DESCRIPTIONS[alias]}: {target}"
        entries.append((alias, description, parsed.info, parsed.params))
    return [
        {
            "name": name,
            "description": description,
            "parameters": [
                {
                    "name": parameter.name,
                    "type": parameter.type.__name__,
                    "default": values.get(parameter.name, parameter.default),
                    "help": parameter.help,
                }
                for parameter in info.parameters
            ],
            "cheating": info.factory.cheating,
            "interactive": info.factory.interactive,
            "fast_path": info.factory.fast_policy is not None,
        }
        for name, description, info, values in entries
    ]


def _names() -> str:
    return ", ".join([*BUILTIN, *ALIASES])


def _user_spec(spec: str, parts: list[str]) -> Spec:
    """A ``module.path:ClassName[:key=value,...]`` spec."""
    if len(parts) > 3:
        raise ValueError(f"invalid agent spec {spec!r}: write module.path:ClassName:key=value,...")
    module_name, class_name = parts[0], parts[1]
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(
            f"agent spec {spec!r}: cannot import module {module_name!r} ({error}); "
            f"built-in agents are {_names()}"
        ) from error
    factory = getattr(module, class_name, None)
    if not inspect.isclass(factory):
        classes = [
            name
            for name, value in vars(module).items()
            if inspect.isclass(value) and callable(getattr(value, "act", None))
        ]
        raise ValueError(
            f"agent spec {spec!r}: module {module_name!r} has no class {class_name!r}; "
            f"its agent classes are {', '.join(sorted(classes)) or 'none'}"
        )
    declared = _constructor_types(factory)
    params = _parse_params(spec, parts[2] if len(parts) == 3 else "", declared)
    return Spec(factory, params, _canonical(f"{module_name}:{class_name}", params), None)


def _parse_params(spec: str, text: str, declared: dict[str, type]) -> dict:
    """``key=value,...`` parsed to the declared types."""
    params = {}
    for item in filter(None, text.split(",")):
        key, equals, value = item.partition("=")
        key = key.strip()
        valid = ", ".join(declared) or "none"
        if not equals:
            raise ValueError(f"agent spec {spec!r}: {item!r} is not key=value")
        if key not in declared:
            raise ValueError(f"agent spec {spec!r}: unknown parameter {key!r}; valid: {valid}")
        if key in params:
            raise ValueError(f"agent spec {spec!r}: parameter {key!r} is given twice")
        params[key] = _parse_value(spec, key, value.strip(), declared[key])
    return params


def _parse_value(spec: str, key: str, value: str, kind: type):
    """One value as ``kind``."""
    if kind is bool:
        if value.lower() in _TRUE + _FALSE:
            return value.lower() in _TRUE
    elif kind is str:
        return value
    else:
        try:
            return kind(value)
        except ValueError:
            pass
    valid = "true or false" if kind is bool else f"a number of type {kind.__name__}"
    raise ValueError(f"agent spec {spec!r}: {key}={value!r} is not valid; {key} must be {valid}")


def _canonical(name: str, params: dict) -> str:
    """``name`` with its parameters sorted by key."""
    if not params:
        return name
    values = ",".join(
        f"{key}={str(value).lower() if isinstance(value, bool) else value}"
        for key, value in sorted(params.items())
    )
    return f"{name}:{values}"
