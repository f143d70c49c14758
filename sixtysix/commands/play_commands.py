"""``demo``, ``presets``, ``agents`` and ``play``: random deals, the rule presets, the
built-in agents, and a match against an agent at the terminal."""

from __future__ import annotations

import argparse
import json
import random
from functools import partial

from sixtysix.agents.human import HumanAgent, PlayerLeft

from .. import agents
from ..engine import multi_rules
from ..engine.rules import MINI_PRESETS, OPTION_NAMES, PRESETS, make_rules
from ..game import Game
from ..table_game import TABLE_PRESET_NAMES
from .arguments import (
    ALL_PRESETS,
    add_command,
    add_count,
    add_json,
    add_preset,
    add_rules,
    add_seed,
    buildable_agent_spec,
    check_deal_seeds,
    integer_type,
    seed_type,
)

# ---- demo ------------------------------------------------------------------------------------


def add_demo(commands) -> None:
    """``demo``: random deals as readable logs."""
    demo = add_command(
        commands,
        "demo",
        "play random deals and print them as readable logs",
        "Play random deals with uniformly random legal actions and print every action with "
        "the running card points and the outcome of each deal.",
    )
    add_preset(demo, "sixty_six")
    add_count(demo, "deals", 2, "deals to play")
    add_seed(
        demo, "seed of the actions and of the first deal (the next use seed + 1, seed + 2, ...)"
    )
    demo.set_defaults(run=partial(run_demo, demo))


def run_demo(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Play and print ``args.deals`` random deals."""
    check_deal_seeds(command, args.seed, args.deals)
    game = Game(args.preset)
    chooser = random.Random(args.seed)
    print(f"{args.deals} random deal(s) of {args.preset}, seed {args.seed}\n")
    for number in range(args.deals):
        state = game.new_deal(seed=args.seed + number)
        print(
            f"deal {number + 1}: dealer {state.dealer}, trump {state.trump_suit}, "
            f"face-up {state.trump_card}"
        )
        for player, hand in enumerate(state.hands):
            print(f"  player {player}: {' '.join(hand)}")
        while not state.is_terminal:
            player = state.current_player
            action = chooser.choice(state.legal_actions())
            state.apply(action)
            print(f"  {player}: {action:<20} points {state.card_points}")
        winner, points, reason = state.outcome
        result = "no winner" if winner is None else f"player {winner} wins {points} game point(s)"
        print(f"  -> {result} ({reason})\n")
    return 0


# ---- presets ---------------------------------------------------------------------------------


TABLE_PRESETS = {**multi_rules.TABLE_PRESETS, **multi_rules.TABLE_MINI_PRESETS}
LISTED_PRESETS = [*ALL_PRESETS, *TABLE_PRESETS]


def preset_name(name: str) -> str:
    """An argparse ``type`` for a preset name; an unknown one is refused with the valid ones."""
    if name not in LISTED_PRESETS:
        valid = ", ".join(map(repr, LISTED_PRESETS))
        raise argparse.ArgumentTypeError(f"invalid choice: {name!r} (choose from {valid})")
    return name


def add_presets(commands) -> None:
    """``presets``: the rule presets and their options."""
    presets = add_command(
        commands,
        "presets",
        "list the rule presets and their options",
        "Without NAME: how each two-player preset (the mini presets after them) differs from "
        "sixty_six, and each preset for two to four seats from the multi-player defaults. "
        "With NAME: every option of the named presets, one column per preset.",
    )
    presets.add_argument(
        "names", nargs="*", type=preset_name, metavar="NAME", help="preset to show in full"
    )
    presets.add_argument(
        "--json",
        action="store_true",
        help="print every option value as JSON: of the named presets, or of all presets",
    )
    presets.set_defaults(run=run_presets)


def run_presets(args: argparse.Namespace) -> int:
    """Print the presets' differences, the options of the named ones, or all as JSON."""
    if args.json:
        values = {name: option_values(name) for name in args.names or LISTED_PRESETS}
        print(json.dumps(values, indent=2))
    elif args.names:
        print_option_table(args.names)
    else:
        print_differences()
    return 0


def option_values(preset: str) -> dict:
    """Every rule option of ``preset`` with its value."""
    if preset in TABLE_PRESETS:
        rules = multi_rules.make_table_rules(preset)
        return {option: getattr(rules, option) for option in multi_rules.OPTION_NAMES}
    rules = make_rules(preset)
    return {option: getattr(rules, option) for option in OPTION_NAMES}


def print_differences() -> None:
    """Each preset's options that differ from ``sixty_six``, then how to see every value."""
    for name, changed in {**PRESETS, **MINI_PRESETS}.items():
        values = option_values(name)
        listed = ", ".join(f"{option}={values[option]!r}" for option in values if option in changed)
        print(f"{name}: {listed or '(defaults)'}")
    print("For two to four seats (docs/rules.md, 'Three and four players'):")
    for name, changed in TABLE_PRESETS.items():
        values = option_values(name)
        listed = ", ".join(f"{option}={values[option]!r}" for option in values if option in changed)
        print(f"{name}: {listed or '(the multi-player defaults)'}")
    print("Every value: sixtysix presets NAME [NAME ...], or sixtysix presets --json")


def print_option_table(names: list[str]) -> None:
    """Every option of the presets ``names``: one row per option, one column per preset."""
    tables = [option_values(name) for name in names]
    options = list(dict.fromkeys(option for values in tables for option in values))
    columns = [["option", *options]]
    for name, values in zip(names, tables, strict=True):
        columns.append([name, *(repr(values[o]) if o in values else "-" for o in options)])
    widths = [max(map(len, column)) for column in columns]
    for row in zip(*columns, strict=True):
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=True)]
        print("  ".join(cells).rstrip())


# ---- agents ----------------------------------------------------------------------------------


def add_agents(commands) -> None:
    """``agents``: the built-in agents and their parameters."""
    agent_list = add_command(
        commands,
        "agents",
        "list the built-in agents and their parameters",
        "The built-in agents with their parameters (type and default) and a description; "
        "give one to 'sixtysix tournament --agents' as NAME or NAME:key=value,...",
    )
    add_json(agent_list)
    agent_list.set_defaults(run=run_agents)


def run_agents(args: argparse.Namespace) -> int:
    """Print the built-in agents as an aligned table, or as JSON."""
    listed = agents.available()
    if args.json:
        print(json.dumps(listed, indent=2))
        return 0
    rows = [("name", "parameters", "description")]
    for agent in listed:
        parameters = ", ".join(
            f"{parameter['name']}={parameter['default']!r} ({parameter['type']})"
            for parameter in agent["parameters"]
        )
        rows.append((agent["name"], parameters or "-", agent_description(agent)))
    widths = [max(len(row[column]) for row in rows) for column in range(2)]
    for name, parameters, description in rows:
        print(f"{name:<{widths[0]}}  {parameters:<{widths[1]}}  {description}")
    print(
        "Your own: module.path:ClassName[:key=value,...], built as ClassName(seed=..., key=value)"
    )
    return 0


def agent_description(agent: dict) -> str:
    """An agent's description, with what sets it apart in brackets."""
    notes = [
        note
        for note, on in [
            ("numba fast path", agent["fast_path"]),
            ("cheats: sees hidden cards", agent["cheating"]),
            ("interactive: not for tournaments", agent["interactive"]),
        ]
        if on
    ]
    return agent["description"] + (f" [{'; '.join(notes)}]" if notes else "")


# ---- play ------------------------------------------------------------------------------------


def add_play(commands) -> None:
    """``play``: a match against agents at the terminal."""
    play = add_command(
        commands,
        "play",
        "play a match against an agent at the terminal",
        "Play a whole match (deals to the preset's match target) against an agent, as "
        "player 0: each decision shows your hand, the trump card, the talon, both scores and "
        "the cards you know the opponent holds, and offers the legal actions by number. Type "
        "a number or the action (QH, marry KH, close, exchange, ...); quit, Ctrl-C or the end "
        "of input leaves the match. With a preset for three or four seats (snapszer3, "
        "snapszer3_called, snapszer4, snapszer4_called, na66, na66_3, na66_2 and their minis) "
        "you sit in --seat and agents in the other seats; a decision shows the sides as far as "
        "you know them (a called card's holder stays unnamed until it is played), the call, "
        "auction or announcement, the trick on the table and each seat's points; call AS, "
        "bid 2, durchmars, betli and pass are typed like the other actions.",
    )
    play.add_argument(
        "--opponent",
        type=buildable_agent_spec,
        nargs="+",
        required=True,
        metavar="SPEC",
        help="the agent to play: a built-in name (see 'sixtysix agents'), name:key=value,... "
        "or module.path:ClassName[:key=value,...]; with a preset for three or four seats, one "
        "SPEC plays every other seat, or give one per other seat in seat order",
    )
    add_preset(
        play,
        "sixty_six",
        [*(p for p in ALL_PRESETS if make_rules(p).match_target), *TABLE_PRESET_NAMES],
    )
    play.add_argument(
        "--seat",
        type=integer_type("seat", 0),
        default=0,
        help="your seat with a preset for three or four seats, from 0 (the seats play in turn "
        "0, 1, ...; default: %(default)s); in a two-player match you are player 0",
    )
    play.add_argument(
        "--seed",
        type=seed_type,
        help="seed of the match, in [0, 2**64), to replay one (default: a fresh random seed, "
        "printed)",
    )
    add_rules(play, "claim_mode=manual")
    play.set_defaults(run=partial(run_play, play))


def run_play(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Play a match against ``args.opponent`` at the terminal."""
    for spec in args.opponent:
        if getattr(agents.parse_spec(spec).factory, "interactive", False):
            command.error(f"argument --opponent: {spec!r} is not an agent that plays itself")
    try:
        game = Game(args.preset, **dict(args.rule))
    except ValueError as error:
        command.error(str(error))
    if game.rules.match_target is None:
        command.error("argument --rule: match_target=none plays no match; give a target")
    lineup = seated_agents(command, args, game.num_players)
    seed = random.SystemRandom().randrange(2**32) if args.seed is None else args.seed
    if args.preset in TABLE_PRESET_NAMES:
        print(
            f"{args.preset}: you in seat {args.seat} against {lineup_text(lineup, args.seat)}, "
            f"match seed {seed} (replay: --seed {seed})"
        )
    else:
        print(
            f"{args.preset} against {args.opponent[0]}, match seed {seed} (replay: --seed {seed})"
        )
    try:
        human = HumanAgent(seat=args.seat)
        lineup[args.seat] = human
        result = agents.play_match(game, lineup, seed, observer=human)
        human.end_match(result.scores)
    except KeyboardInterrupt:
        print("\nInterrupted: you left the match.")
        return 130
    except PlayerLeft:
        print("\nYou left the match.")
    return 0


def seated_agents(command: argparse.ArgumentParser, args, seats: int) -> list:
    """The agent specs seat by seat, the person's seat left ``None``: ``--opponent`` once
    for every other seat, or once per other seat in seat order."""
    if args.seat and args.preset not in TABLE_PRESET_NAMES:
        command.error(f"argument --seat: {args.preset} is a two-player match: you are player 0")
    if args.seat >= seats:
        command.error(
            f"argument --seat: invalid seat {args.seat}: {args.preset} has seats 0 to {seats - 1}"
        )
    others = seats - 1
    if len(args.opponent) not in {1, others}:
        wanted = (
            "one SPEC, the opponent's"
            if others == 1
            else f"one SPEC for every other seat or {others}, one per other seat"
        )
        command.error(
            f"argument --opponent: {args.preset} takes {wanted}; "
            f"got {len(args.opponent)}: {' '.join(args.opponent)}"
        )
    specs = iter(args.opponent * others if len(args.opponent) == 1 else args.opponent)
    return [None if seat == args.seat else next(specs) for seat in range(seats)]


def lineup_text(lineup: list, seat: int) -> str:
    """The other seats' agents: ``random in every other seat``, or seat by seat."""
    others = [(other, spec) for other, spec in enumerate(lineup) if other != seat]
    if len(others) > 1 and len({spec for _, spec in others}) == 1:
        return f"{others[0][1]} in every other seat"
    return ", ".join(f"{spec} in seat {other}" for other, spec in others)
