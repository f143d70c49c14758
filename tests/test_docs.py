"""The docs: a README of one screen that links every page of docs/, links that lead somewhere,
and the README's two commands (the test command exactly the one CI runs)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]
README = REPOSITORY / "README.md"
DOCS = REPOSITORY / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
README_MAX_LINES = 250
MAIN_JOB = "pip install -e . && sixtysix tournament"
TEST_COMMAND = 'pip install -e ".[dev]" && pytest'

FENCE = re.compile(r"^```.*?^```", re.S | re.M)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def prose(text: str) -> str:
    """The text without code, where brackets and parentheses are not links."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def relative_links(path: Path) -> list[str]:
    return [
        target
        for target in LINK.findall(prose(path.read_text(encoding="utf-8")))
        if not re.match(r"[a-z][a-z0-9+.-]*:", target)  # http:, https:, mailto:, ...
    ]


def anchors(path: Path) -> set[str]:
    """GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces to
    hyphens, repeats numbered."""
    found: set[str] = set()
    for heading in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        anchor, repeat = slug, 0
        while anchor in found:
            repeat += 1
            anchor = f"{slug}-{repeat}"
        found.add(anchor)
    return found


def test_readme_fits_one_screen():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; move text into docs/"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(REPOSITORY).as_posix())
def test_every_relative_link_leads_to_a_file_and_anchor(page):
    broken = []
    for target in relative_links(page):
        file_part, _, anchor = target.partition("#")
        destination = (page.parent / file_part).resolve() if file_part else page
        if not destination.exists():
            broken.append(f"{target}: no file {destination}")
        elif anchor and destination.suffix == ".md" and anchor not in anchors(destination):
            broken.append(f"{target}: no heading with the anchor #{anchor}")
    assert not broken, f"{page.name}: " + "; ".join(broken)


def test_every_docs_page_is_linked_from_the_readme():
    linked = {
        (README.parent / target.partition("#")[0]).resolve() for target in relative_links(README)
    }
    missing = [page.name for page in PAGES[1:] if page.resolve() not in linked]
    assert not missing, f"docs pages the README does not link: {missing}"


def test_the_readme_gives_the_two_commands_and_ci_runs_the_second():
    blocks = re.findall(r"^```bash\n(.*?)^```", README.read_text(encoding="utf-8"), re.S | re.M)
    commands = [block.strip() for block in blocks]
    assert MAIN_JOB in commands and TEST_COMMAND in commands
    assert commands.index(MAIN_JOB) < commands.index(TEST_COMMAND)
    ci = (REPOSITORY / ".ci" / "run").read_text(encoding="utf-8")
    ci_lines = [line.strip() for line in ci.splitlines()]
    ci_commands = [line for line in ci_lines if line and not line.startswith("#")]
    assert "pytest" in ci_commands[-1] and ci_commands[-1] == TEST_COMMAND
