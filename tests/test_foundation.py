"""The foundation: one-way layers, the installed namespace, numpy integers, compiled codes,
history as action ids, and the answers to bad input that the API layer gives."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

import sixtysix
from sixtysix.engine import multi_rules, rules
from sixtysix.engine.actions import action_name

PACKAGE = Path(sixtysix.__file__).parent
REPOSITORY = PACKAGE.parent
IGNORED = shutil.ignore_patterns("__pycache__", "*.egg-info")

#: The layers, bottom first, one folder each (docs/architecture.md draws the same): the engine
#: (data, helpers and the numba kernels), the package's face (the modules directly in
#: ``sixtysix/``, its ``__init__`` included), game theory, the players, the studies, the
#: commands. ``agents`` and ``experiments`` are the top-level folders installed as
#: ``sixtysix.agents`` and ``sixtysix.experiments``.
LAYERS = ("engine", "sixtysix", "theory", "agents", "experiments", "commands")
LAYER_OF = {folder: level for level, folder in enumerate(LAYERS)}
INNER_FOLDERS = ("engine", "theory", "commands")  # inside sixtysix/
OUTER_FOLDERS = ("agents", "experiments")  # beside it, installed inside it


def module_files() -> dict[str, Path]:
    """Every module by its dotted name under ``sixtysix``: ``game``, ``engine.multi_core``,
    ``agents.policies``; a folder's ``__init__`` by the folder's name, the package's as
    ``sixtysix``."""
    paths = {
        path.relative_to(PACKAGE).with_suffix("").parts: path for path in PACKAGE.rglob("*.py")
    }
    for folder in OUTER_FOLDERS:
        paths |= {(folder, path.stem): path for path in (REPOSITORY / folder).glob("*.py")}
    files = {}
    for parts, path in paths.items():
        name = ".".join(part for part in parts if part != "__init__")
        files[name or "sixtysix"] = path
    return files


def layer_of(module: str) -> int:
    head = module.split(".")[0]
    return LAYER_OF[head if head in LAYER_OF else "sixtysix"]


def runtime_imports(path: Path, package: str = "") -> set[str]:
    """The project modules a source file of ``package`` (dotted under ``sixtysix``, "" for
    the top) imports anywhere (inside functions too), except under ``if TYPE_CHECKING:``; a
    name that is not a module stands for the package that defines it (``from sixtysix import
    Game``: ``sixtysix``, the package's ``__init__``)."""
    known = module_files()
    found = set()

    def add(name: str) -> None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        found.add(name or "sixtysix")

    def add_from(module: str, names) -> None:
        for alias in names:
            submodule = f"{module}.{alias.name}" if module else alias.name
            add(submodule if submodule in known else module)

    def visit(node):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            return
        if isinstance(node, ast.ImportFrom) and node.level:
            parts = package.split(".") if package else []
            parts = parts[: len(parts) - node.level + 1]
            add_from(".".join([*parts, *([node.module] if node.module else [])]), node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "sixtysix":
            add_from(node.module.removeprefix("sixtysix").lstrip("."), node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "sixtysix":
                    add(alias.name.removeprefix("sixtysix").lstrip("."))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text()))
    return found


def package_of(module: str, path: Path) -> str:
    """The package a module's relative imports start from."""
    return module if path.stem == "__init__" and module != "sixtysix" else module.rpartition(".")[0]


def test_every_module_has_a_layer():
    for module in module_files():
        assert 0 <= layer_of(module) < len(LAYERS), module


def test_imports_point_down_or_sideways_and_never_close_a_cycle():
    files = module_files()
    graph = {
        module: runtime_imports(path, package_of(module, path)) - {module}
        for module, path in files.items()
    }
    for module, imported in graph.items():
        upward = [name for name in imported if layer_of(name) > layer_of(module)]
        assert not upward, f"{module} (layer {layer_of(module)}) imports {upward} from above"
    done, on_path = set(), []

    def walk(module):
        assert module not in on_path, "import cycle: " + " -> ".join([*on_path, module])
        if module in done:
            return
        on_path.append(module)
        for name in graph[module]:
            walk(name)
        on_path.pop()
        done.add(module)

    for module in graph:
        walk(module)


def test_the_cycle_check_sees_imports_inside_functions(tmp_path):
    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\nfrom . import multi_core\n"
        "if TYPE_CHECKING:\n    from ..game import State\n"
        "def f():\n    from .worlds import hide_from\n"
    )
    assert runtime_imports(source, "engine") == {"engine.multi_core", "engine.worlds"}


def test_the_layer_check_reads_every_folder(tmp_path):
    source = tmp_path / "m.py"
    source.write_text(
        "from sixtysix.engine import multi_core\nfrom sixtysix import Game\n"
        "from sixtysix.agents import make\nfrom . import specs\nfrom ..theory.cfr import X\n"
        "import sixtysix.experiments.no_such_module\n"
    )
    found = runtime_imports(source, "agents")
    assert found == {
        "engine.multi_core",
        "sixtysix",
        "agents",
        "agents.specs",
        "theory.cfr",
        "experiments",
    }
    names = ("engine.multi_core", "game", "theory.cfr", "commands.cli")
    assert [layer_of(name) for name in names] == [0, 1, 2, 5]


# ---- the installed namespace ---------------------------------------------------------------


def test_agents_and_experiments_import_only_inside_the_namespace(tmp_path):
    code = (
        "from sixtysix import agents, experiments\n"
        "import importlib.util\n"
        "print(importlib.util.find_spec('agents'), importlib.util.find_spec('experiments'))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert run.stdout.split() == ["None", "None"]


def test_the_wheel_installs_agents_and_experiments_inside_sixtysix(tmp_path):
    source = tmp_path / "source"  # a copy, so the build leaves nothing in the checkout
    for name in ("sixtysix", "agents", "experiments"):
        shutil.copytree(REPOSITORY / name, source / name, ignore=IGNORED)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPOSITORY / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), "."],
        cwd=source,
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("sixtysix-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "sixtysix/agents/__init__.py" in names
    assert "sixtysix/experiments/__init__.py" in names
    assert "sixtysix/commands/reference/random_playout.c" in names
    tops = {name.split("/")[0] for name in names}
    assert tops == {"sixtysix", next(top for top in tops if top.endswith(".dist-info"))}


# ---- numpy integers, seeds -----------------------------------------------------------------


def test_numpy_integers_are_accepted_where_python_integers_are():
    game = sixtysix.Game("sixty_six", target=np.int64(66), hand_size=np.int32(6))
    assert game.rules == sixtysix.Game().rules
    assert type(game.rules.target) is int
    assert (
        sixtysix.Game("sixty_six", strict_must_head=np.bool_(False)).rules.strict_must_head is False
    )
    deal = sixtysix.Game().new_deal(seed=np.uint64(3), dealer=np.int8(1))
    assert deal.deck.tolist() == sixtysix.Game().new_deal(seed=3, dealer=1).deck.tolist()
    match = sixtysix.Match(sixtysix.Game(), seed=np.int64(1))
    assert match.seed == 1 and type(match.seed) is int


@pytest.mark.parametrize("bad", [2**64, 2**70, -1, 1.0, True, "1", None])
def test_match_and_deal_seeds_outside_the_64_bit_range_are_refused(bad):
    message = re.escape(f"invalid seed {bad!r}: seed must be an integer in [0, 2**64)")
    with pytest.raises(ValueError, match=message):
        sixtysix.Match(sixtysix.Game(), seed=bad)
    if bad is not None:  # new_deal(seed=None) asks for a seed or a deck
        with pytest.raises(ValueError, match=message):
            sixtysix.Game().new_deal(seed=bad)


# ---- compiled codes --------------------------------------------------------------------------

#: The field of the compiled table record (``compile_rules``) of each enumerated two-player
#: option: its place in ``multi_rules.CHOICES`` (an on/off field for a two-valued option).
COMPILED_FIELD = {
    "trick_winner_rule": "trick_rule",
    "exchange_timing": "exchange_any_time",
    "marriage_lead_card": "marry_lead_card",
    "marriage_points_validation": "marry_pending",
    "exhausted_no_claim_rule": "exhausted_rule",
    "claim_mode": "claim_mode",
    "false_claim_penalty": "false_claim_fixed_2",
    "game_point_scale": "czech_scale",
    "schwarz_basis": "schwarz_zero_points",
    "closer_win_basis": "closer_at_end",
    "opponent_out_after_close": "opponent_out_fixed_2",
    "failed_close_penalty": "failed_close",
}


@pytest.mark.parametrize("option", list(COMPILED_FIELD))
def test_each_enumerated_value_compiles_to_its_place_in_choices(option):
    for value in rules.CHOICES[option]:
        compiled = rules.compile_rules(rules.make_rules("sixty_six", **{option: value}))
        assert compiled[0][COMPILED_FIELD[option]] == multi_rules.option_code(option, value)


def test_the_kernels_constants_name_the_values_they_stand_for():
    named = {
        "TRICK_STANDARD": ("trick_winner_rule", "standard"),
        "TRICK_VALUE_OPEN": ("trick_winner_rule", "value_open_phase"),
        "TRICK_VALUE_ALWAYS": ("trick_winner_rule", "value_always"),
        "LEAD_EITHER": ("marriage_lead_card", "either"),
        "LEAD_KING": ("marriage_lead_card", "king"),
        "LEAD_QUEEN": ("marriage_lead_card", "queen"),
        "EXHAUSTED_HIGHER_TOTAL": ("exhausted_no_claim_rule", "higher_total_wins"),
        "EXHAUSTED_LAST_TRICK": ("exhausted_no_claim_rule", "last_trick_winner"),
        "EXHAUSTED_NO_SCORE": ("exhausted_no_claim_rule", "no_score"),
        "CLAIM_MANUAL": ("claim_mode", "manual"),
        "CLAIM_OPTIONAL_VERIFIED": ("claim_mode", "optional_verified"),
        "CLAIM_AUTOMATIC": ("claim_mode", "automatic"),
        "CLAIM_NONE": ("claim_mode", "none"),
        "FAILED_TWO_OR_THREE": ("failed_close_penalty", "two_or_three_by_tricks_at_close"),
        "FAILED_ALWAYS_3": ("failed_close_penalty", "always_3"),
        "FAILED_BY_CLOSER_POINTS": ("failed_close_penalty", "by_closer_points"),
        "FAILED_CZECH": ("failed_close_penalty", "czech_6_or_3"),
    }
    for constant, (option, value) in named.items():
        assert getattr(multi_rules, constant) == multi_rules.option_code(option, value), constant
    covered = {(option, value) for option, value in named.values()}
    for option in {option for option, _ in named.values()}:
        assert {(option, v) for v in multi_rules.CHOICES[option]} <= covered, option


def test_the_most_game_points_are_a_fact_of_the_rules():
    assert sixtysix.make_rules("czech").max_game_points == 6
    assert {sixtysix.make_rules(p).max_game_points for p in sixtysix.PRESETS if p != "czech"} == {3}


# ---- history as action ids -------------------------------------------------------------------


def test_history_is_kept_as_ids_and_shown_as_strings():
    state = sixtysix.Game("schnapsen").new_deal(seed=5)
    while not state.is_terminal:
        state.apply(state.legal_action_ids()[-1])
    assert all(isinstance(action, int) for _, action in state.history_ids)
    assert state.history == [(p, action_name(a)) for p, a in state.history_ids]
    view = state.view(0)
    assert view.history_ids == tuple(state.history_ids)
    assert view.history == tuple(state.history)


def test_replay_takes_the_states_own_deck_and_ids_or_strings():
    game = sixtysix.Game("sixty_six")
    state = game.new_deal(seed=9)
    for _ in range(7):
        state.apply(state.legal_action_ids()[0])
    ids = [action for _, action in state.history_ids]
    strings = [action for _, action in state.history]
    for deck in (
        state.deck,
        list(state.deck),
        [sixtysix.engine.cards.card_name(c) for c in state.deck],
    ):
        for actions in (ids, strings):
            again = sixtysix.replay(game, deck, state.dealer, actions)
            assert again.array.tobytes() == state.array.tobytes()
            assert again.history_ids == state.history_ids


def test_a_deck_of_indices_is_checked_like_one_of_strings():
    game = sixtysix.Game("schnapsen")
    deck = game.new_deal(seed=1).deck.tolist()
    nine = sixtysix.engine.cards.parse_card("9C")  # no nines in schnapsen
    message = rf"card {nine} is not in the 20-card deck of this game \(JC "
    with pytest.raises(ValueError, match=message):
        game.new_deal(deck=[nine, *deck[1:]], dealer=0)
    twice = re.escape(f"card {deck[0]} ({sixtysix.engine.cards.card_name(deck[0])}) appears twice")
    with pytest.raises(ValueError, match=twice):
        game.new_deal(deck=[deck[0], *deck[:-1]], dealer=0)
    with pytest.raises(ValueError, match="the deck is missing"):
        game.new_deal(deck=deck[:-1], dealer=0)


@pytest.mark.parametrize("bad", ["play XX", "Play QX", "fold", "marry-claim Z"])
def test_an_unknown_action_string_is_named_as_given_with_the_legal_actions(bad):
    state = sixtysix.Game().new_deal(seed=2)
    legal = ", ".join(state.legal_actions())
    word = bad.split()[-1]
    with pytest.raises(sixtysix.IllegalActionError) as caught:
        state.apply(bad)
    message = str(caught.value)
    assert repr(word) in message or repr(bad) in message
    assert message.endswith(f"legal actions: {legal}")
    assert state.history_ids == []


# ---- the house: folders, names, function lengths, private names -----------------------------

LONGEST_FUNCTION = 80  # lines, outside the numba kernels
FACE_MODULES = 12  # modules directly in sixtysix/, its __init__ included


def is_numba_kernel(node: ast.FunctionDef) -> bool:
    """Decorated with numba's ``njit`` / ``jit`` (called or not, any module path)."""
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in ("njit", "jit", "generated_jit"):
            return True
    return False


def long_functions() -> list[str]:
    found = []
    for module, path in module_files().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > LONGEST_FUNCTION and not is_numba_kernel(node):
                    found.append(f"{module}.{node.name} ({lines} lines)")
    return found


def is_project_module(module: str | None, level: int) -> bool:
    """A module of this project: ``sixtysix...``, a relative import, or a test helper."""
    head = (module or "").split(".")[0]
    return bool(level) or head == "sixtysix" or (REPOSITORY / "tests" / f"{head}.py").is_file()


def private_imports(paths) -> list[str]:
    """``from m import _name`` and ``module._name`` where ``module`` is one of this project's
    modules, imported (``os._exit`` and other libraries' names are not ours to judge)."""
    found = []
    for path in paths:
        tree = ast.parse(path.read_text())
        modules = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and is_project_module(node.module, node.level):
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.append(f"{path.name}: from {node.module} import {alias.name}")
                    modules.add(alias.asname or alias.name)
            elif isinstance(node, ast.Import):
                modules |= {
                    alias.asname or alias.name.split(".")[0]
                    for alias in node.names
                    if is_project_module(alias.name, 0)
                }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and isinstance(node.value, ast.Name)
                and node.value.id in modules
            ):
                found.append(f"{path.name}: {node.value.id}.{node.attr}")
    return found


def test_the_folders_are_the_layers_and_the_face_is_small():
    assert {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").is_file()} == set(
        INNER_FOLDERS
    )
    face = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(face) <= FACE_MODULES, face


def test_no_two_modules_share_a_file_name():
    names = [path.stem for path in module_files().values() if path.stem != "__init__"]
    assert sorted({name for name in names if names.count(name) > 1}) == []


def test_no_function_outside_the_numba_kernels_is_long():
    assert long_functions() == []


def test_no_private_name_is_used_across_modules():
    paths = [*module_files().values(), *REPOSITORY.joinpath("tests").glob("*.py")]
    assert private_imports(paths) == []
