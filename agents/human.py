"""A person at the terminal as an agent: the ``human`` of ``sixtysix play``.

``HumanAgent.act(view)`` shows what the player knows (``render_view``), announces the moves
made since the player's last decision (``describe_steps``), and asks for a choice: an
option number or action notation (``QH``, ``marry KH``, ``close``, ...; ``parse_choice``).
Everything it prints is read from the view, so it never shows a hidden card; only
``end_deal`` shows both dealt hands, once the deal is over. ``sixtysix play`` (the command
line) plays a match with it.
"""

from __future__ import annotations

import sys

from sixtysix.engine import multi_core as mc
from sixtysix.engine.actions import action_name, parse_action
from sixtysix.engine.cards import (
    NUM_CARDS,
    NUM_SUITS,
    RANKS,
    RANKS_PER_SUIT,
    SUIT_MASK,
    SUITS,
    card_index,
    card_name,
    mask_text,
    parse_card,
    rank_of,
    suit_of,
)

from .base import Agent

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
QUIT_WORDS = ("quit", "exit")
REASON_TEXTS = {
    "claim": "the winner reached the target and went out",
    "closer_claim": "the winner closed the talon and reached the target",
    "opponent_claim_after_close": "the closer's opponent reached the target",
    "false_claim": "a false claim",
    "closer_false_claim": "the closer claimed falsely",
    "failed_close": "the closer did not reach the target",
    "higher_total": "the higher total once the cards ran out",
    "draw": "equal totals: a draw",
    "last_trick": "the winner took the last trick",
    "no_score": "nobody reached the target: no score",
}
_WORD_ALIASES = {"swap": "exchange", "go-out": "claim", "out": "claim"}


class PlayerLeft(BaseException):
    """The person left the match (end of input or 'quit'); not an agent failure, so the
    deal loop does not turn it into a forfeit."""


class HumanAgent(Agent):
    """Asks a person for every decision: reads lines from ``input`` (default ``sys.stdin``)
    and writes to ``output`` (default ``sys.stdout``).

    As the observer of ``agents.play_match`` it is told where each deal begins and ends
    (``begin_deal``, ``end_deal``); the match score is shown with each decision. The person
    is player 0 there (``end_deal`` shows the deal from seat 0).
    """

    spec = "human"
    interactive = True

    def __init__(self, seed: int = 0, input=None, output=None) -> None:
        super().__init__(seed)
        self.input = input
        self.output = output
        self.match_scores: tuple[int, int] | None = None
        self.match_target: int | None = None
        self._deal: tuple | None = None  # the deal whose moves were announced
        self._announced = 0  # history entries of that deal announced so far

    def say(self, text: str = "") -> None:
        """Write a line to the person."""
        print(text, file=self.output or sys.stdout, flush=True)

    def act(self, view) -> str:
        self.announce(view)
        self.say(render_view(view, self.match_scores, self.match_target))
        legal = offered_actions(view)
        while True:
            print("Your choice: ", end="", file=self.output or sys.stdout, flush=True)
            line = (self.input or sys.stdin).readline()
            if not line or line.strip().lower() in QUIT_WORDS:
                raise PlayerLeft("end of input" if not line else "quit")
            try:
                return parse_choice(line, legal)
            except ValueError as error:
                self.say(f"  {error}")

    def begin_deal(self, match, state) -> None:
        """Announce the match's next deal ``state`` and keep the match score to show."""
        self.match_scores, self.match_target = tuple(match.scores), match.game.rules.match_target
        dealer = "you deal" if state.dealer == 0 else "the opponent deals"
        self.say(f"\n=== Deal {len(match.deals) + 1}: {dealer} ===")

    def end_deal(self, match, state, result) -> None:
        """Announce the deal's last moves, its outcome (or the forfeit) with both dealt hands,
        and the match score after it."""
        self.announce(state.view(0))
        self.say(deal_summary(state, result.outcome, result.error))
        scores = match.scores
        self.say(f"Match score: you {scores[0]}, opponent {scores[1]}")

    def end_match(self, scores) -> None:
        """Announce the winner of the match."""
        won = "You win" if scores[0] > scores[1] else "The opponent wins"
        self.say(f"\n*** {won} the match {scores[0]}-{scores[1]} ***")

    def announce(self, view) -> None:
        """Say what happened in the view's deal since the last announcement."""
        deal = (view.dealer, view.initial_hand, view.initial_face_up)
        if deal != self._deal or len(view.history_ids) < self._announced:
            self._deal, self._announced = deal, 0
        for line in describe_steps(view, self._announced):
            self.say(f"  {line}")
        self._announced = len(view.history_ids)


# ---- reading the choice ---------------------------------------------------------------------


def parse_choice(text: str, legal: list[str]) -> str:
    """The action of ``legal`` that ``text`` names: an option number (from 1) or notation,
    case-insensitive (``QH`` plays QH, ``marry H`` the one marriage of hearts, ``swap``
    exchanges); ``ValueError`` saying why not."""
    words = text.strip().lower().replace("marry claim", "marry-claim").split()
    if not words:
        raise ValueError(f"type an option number from 1 to {len(legal)}, or an action")
    if len(words) == 1 and words[0].isdigit():
        number = int(words[0])
        if 1 <= number <= len(legal):
            return legal[number - 1]
        raise ValueError(f"{number} is not an option: choose a number from 1 to {len(legal)}")
    name = _action_text(words, legal)
    if name is None:
        raise ValueError(
            f"{text.strip()!r} is not an action: type an option number, a card to play (QH), "
            f"or one of {', '.join(legal)}"
        )
    if name not in legal:
        raise ValueError(f"{name} is not legal here; legal: {', '.join(legal)}")
    return name


def _action_text(words: list[str], legal: list[str]) -> str | None:
    """The canonical action string ``words`` spell, or None if they spell none."""
    verb, rest = _WORD_ALIASES.get(words[0], words[0]), words[1:]
    if verb == "exchange" and not rest and "exchange-on-close" in legal:
        return "exchange-on-close"
    if verb in ("marry", "marry-claim") and len(rest) == 1 and _suit(rest[0]) is not None:
        suit = SUITS[_suit(rest[0])]
        if verb == "marry-claim":
            return f"marry-claim {suit}"
        offered = [action for action in legal if action.startswith("marry ") and action[-1] == suit]
        if len(offered) == 1:
            return offered[0]
        if offered:
            raise ValueError(f"say which card to lead: {' or '.join(offered)}")
        return f"marry K{suit}"  # not legal: refused with the legal actions
    if len(words) == 1:
        words = ["play", words[0]] if _card(words[0]) is not None else [verb]
    elif verb == "lead":
        words = ["play", *rest]
    try:
        return action_name(parse_action(" ".join(words)))
    except ValueError:
        return None


def _card(text: str) -> int | None:
    try:
        return parse_card(text)
    except ValueError:
        return None


def _suit(text: str) -> int | None:
    """The suit a letter or a suit name (``h``, ``hearts``) names, else None."""
    for suit, name in enumerate(SUIT_NAMES):
        if text in (name, name[:-1], SUITS[suit].lower()):
            return suit
    return None


# ---- what the player sees -------------------------------------------------------------------


def render_view(view, match_scores=None, match_target=None) -> str:
    """The position as the view's player knows it: match score, trump and talon, points,
    tricks, marriages, the opponent's known cards, the hand and the numbered options."""
    me, them = view.player, view.opponent
    points, pending, tricks = view.card_points, view.pending_marriage_points, view.tricks_won
    lines = [f"--- trick {view.tricks_played + 1}: {_situation(view)} ---"]
    if match_scores is not None:
        target = f" (playing to {match_target})" if match_target else ""
        lines.append(f"Match score: you {match_scores[0]}, opponent {match_scores[1]}{target}")
    lines += [
        f"Trump: {SUIT_NAMES[view.trump]} ({view.trump_suit}); {_talon_text(view)}",
        f"Points: you {points[me]}{_pending(pending[me])}, "
        f"opponent {points[them]}{_pending(pending[them])} (target {view.game.rules.target})",
        f"Tricks: you {tricks[me]}, opponent {tricks[them]}",
        f"Marriages: you {_marriages(view, me)}; opponent {_marriages(view, them)}",
        f"Opponent holds {_count(view.opponent_hand_size, 'card')}; known: "
        f"{_cards(view.known_opponent, view.trump) or 'none'}",
        f"Your hand: {_cards(view.hand, view.trump)}   (* trump)",
    ]
    legal = offered_actions(view)
    width = len(str(len(legal)))
    lines += [f"  {number:>{width}}) {action}" for number, action in enumerate(legal, 1)]
    lines.append("Type a number or an action (QH, marry KH, close, ...); quit leaves the match.")
    return "\n".join(lines)


def offered_actions(view) -> list[str]:
    """The legal actions in the order they are numbered: card plays as the hand shows the
    cards, then marriages, then the other actions."""

    def order(action: str) -> tuple[int, int, int]:
        action_id = parse_action(action)
        if action_id >= mc.A_EXCHANGE:
            return (2, action_id, 0)
        card = action_id % NUM_CARDS
        return (int(action_id >= mc.A_MARRY), suit_of(card), -rank_of(card))

    return sorted(view.legal_actions(), key=order)


def _situation(view) -> str:
    """What the decision is about, in a few words."""
    return {
        mc.LEAD: "you lead",
        mc.FOLLOW: f"you follow the opponent's {view.led_card}",
        mc.PRE_DRAW: "you won the trick: close the talon before drawing, or draw",
        mc.CLOSE_EXCHANGE: "the opponent closed the talon: you may exchange, or pass",
        mc.FINAL_CLAIM: "the last trick is played: claim, or pass",
    }.get(view.phase, "the deal is over")


def _talon_text(view) -> str:
    """The face-up card and the talon: open, closed (by whom) or used up (who took it)."""
    who = "you" if view.closed_by == view.player else "the opponent"
    if view.closed_by is not None:
        return (
            f"talon closed by {who}: {_count(view.talon_size, 'card')}, the turned-down trump card "
            f"{card_name(view.talon_bottom)} at the bottom"
        )
    if view.talon_size:
        talon = _count(view.talon_size, "card")
        return f"face-up card {card_name(view.face_up_card)}; talon {talon} (face-up included)"
    last = _face_up(view)
    taker = "you" if any(step.drew == last for step in view.read_history()) else "the opponent"
    return f"talon used up; the face-up card {card_name(last)} was taken by {taker}"


def _face_up(view) -> int:
    """The last face-up card: the dealt one, or after an exchange the exchange card (a deal
    has at most one exchange)."""
    exchanges = (mc.A_EXCHANGE, mc.A_EXCHANGE_ON_CLOSE)
    exchanged = any(action in exchanges for _, action in view.history_ids)
    return _exchange_card(view) if exchanged else view.initial_face_up


def _exchange_card(view) -> int:
    return card_index(view.trump, RANKS.index(view.game.rules.exchange_rank))


def _pending(points: int) -> str:
    return f" (+{points} in marriages, counted after a trick)" if points else ""


def _marriages(view, player: int) -> str:
    declared = [
        f"{SUIT_NAMES[suit]} ({_marriage_points(view, suit)})"
        for suit in map(SUITS.index, view.declared_marriages[player])
    ]
    return ", ".join(declared) or "none"


def _marriage_points(view, suit: int) -> int:
    return view.game.rules.marriage_points * (2 if suit == view.trump else 1)


def _cards(mask: int, trump: int) -> str:
    """Cards suit by suit, strongest first, trumps marked with ``*``."""
    groups = []
    for suit in range(NUM_SUITS):
        names = mask_text(mask & SUIT_MASK << suit * RANKS_PER_SUIT)
        if names:
            mark = "*" if suit == trump else ""
            groups.append(" ".join(f"{name}{mark}" for name in reversed(names.split())))
    return " | ".join(groups)


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}{'' if number == 1 else 's'}"


# ---- what happened --------------------------------------------------------------------------


def describe_steps(view, start: int = 0) -> list[str]:
    """Lines telling the view's player the actions from index ``start`` on, each finished
    trick with its winner, and the cards the player drew."""
    points = view.game.rule_array[0]["card_points"]
    lines = []
    led = -1
    for step in view.read_history():
        if step.leads:
            led = step.card
        if step.index < start:
            continue
        mine = step.actor == view.player
        lines.append(_action_text_of(view, step, "You" if mine else "Opponent", mine))
        if step.follows:
            winner = "you" if view.won[view.player] >> led & 1 else "the opponent"
            worth = int(points[led] + points[step.card])
            cards = f"{card_name(led)} and {card_name(step.card)}"
            lines.append(f"Trick {step.tricks_before + 1}: {winner} took {cards} ({worth} points)")
        if step.drew >= 0:
            lines.append(f"You draw {card_name(step.drew)}")
    return lines


def _action_text_of(view, step, who: str, mine: bool) -> str:
    """One action as a sentence: ``Opponent leads QH``, ``You close the talon``."""

    def verb(you: str, they: str) -> str:
        return you if mine else they

    action = step.action
    if step.marriage_suit >= 0:
        suit = step.marriage_suit
        marriage = f"{SUIT_NAMES[suit]} ({_marriage_points(view, suit)})"
        if action >= mc.A_MARRY_CLAIM:
            return f"{who} {verb('declare', 'declares')} {marriage} and {verb('claim', 'claims')}"
        lead = f" and {verb('lead', 'leads')} {card_name(step.card)}" if step.card >= 0 else ""
        return f"{who} {verb('marry', 'marries')} {marriage}{lead}"
    if step.leads:
        return f"{who} {verb('lead', 'leads')} {card_name(step.card)}"
    if step.follows:
        return f"{who} {verb('play', 'plays')} {card_name(step.card)}"
    if action in (mc.A_EXCHANGE, mc.A_EXCHANGE_ON_CLOSE):
        given, taken = card_name(_exchange_card(view)), card_name(view.initial_face_up)
        return f"{who} {verb('exchange', 'exchanges')} {given} for the face-up {taken}"
    if action == mc.A_CLOSE:
        when = " before drawing" if step.pre_draw_close else ""
        return f"{who} {verb('close', 'closes')} the talon{when}"
    if action == mc.A_DRAW:
        return f"{who} {verb('do', 'does')} not close the talon: both draw"
    if action == mc.A_PASS:
        declined = "exchange on the close" if step.answers_close else "claim"
        return f"{who} {verb('do', 'does')} not {declined}"
    if action == mc.A_CLAIM:
        return f"{who} {verb('claim', 'claims')} to have reached the target"
    return f"{who}: {action_name(action)}"


# ---- the end of a deal ------------------------------------------------------------------


def deal_summary(state, outcome, error: str | None = None) -> str:
    """A finished deal for player 0: the outcome, the totals, both hands as dealt and the
    cards each player won."""
    winner, game_points, reason = outcome
    who = {None: "nobody wins", 0: "you win", 1: "the opponent wins"}[winner]
    because = error or REASON_TEXTS[reason]
    mine, theirs = state.view(0), state.view(1)
    won = state.won
    lines = [
        f"Deal over: {who} {_count(game_points, 'game point')} ({because})",
        f"Points: you {state.card_points[0]}, opponent {state.card_points[1]}; "
        f"tricks: you {state.tricks_won[0]}, opponent {state.tricks_won[1]}",
        f"Dealt hands: you {_cards(mine.initial_hand, state.trump)}; "
        f"opponent {_cards(theirs.initial_hand, state.trump)}; "
        f"face-up card {card_name(mine.initial_face_up)}",
        f"Cards won: you {_cards(won[0], state.trump) or 'none'}; "
        f"opponent {_cards(won[1], state.trump) or 'none'}",
    ]
    return "\n".join(lines)


__all__ = [
    "HumanAgent",
    "PlayerLeft",
    "deal_summary",
    "describe_steps",
    "offered_actions",
    "parse_choice",
    "render_view",
]
