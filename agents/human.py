"""A person at the terminal as an agent: the ``human`` of ``sixtysix play``.

``HumanAgent.act(view)`` shows what the player knows (``render_view``; for three or four
seats, a ``TableView``, ``render_table_view``), announces the moves made since the player's
last decision (``describe_steps``, ``describe_table_steps``), and asks for a choice: an
option number or action notation (``QH``, ``marry KH``, ``close``, ``call AS``, ``bid 2``,
``durchmars``, ...; ``parse_choice``). Everything it prints is read from the view, so it
never shows a hidden card nor, in a called-card game, the partnership before the reveal;
only ``end_deal`` shows every dealt hand, once the deal is over. ``sixtysix play`` (the
command line) plays a match with it.
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
from sixtysix.match import TableMatch
from sixtysix.table_view import TableView

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
_WORD_ALIASES = {
    "swap": "exchange",
    "go-out": "claim",
    "out": "claim",
    "durchmars": "announce durchmars",
    "betli": "announce betli",
    "moon": "bid 5",
}


class PlayerLeft(BaseException):
    """The person left the match (end of input or 'quit'); not an agent failure, so the
    deal loop does not turn it into a forfeit."""


class HumanAgent(Agent):
    """Asks a person for every decision: reads lines from ``input`` (default ``sys.stdin``)
    and writes to ``output`` (default ``sys.stdout``).

    As the observer of ``agents.play_match`` it is told where each deal begins and ends
    (``begin_deal``, ``end_deal``); the match score is shown with each decision. The person
    is player 0 of a two-player match, and ``seat`` at a table of three or four.
    """

    spec = "human"
    interactive = True

    def __init__(self, seed: int = 0, input=None, output=None, seat: int = 0) -> None:
        super().__init__(seed)
        self.input = input
        self.output = output
        self.seat = seat
        self.match_scores: tuple[int, int] | None = None
        self.match_target: int | None = None
        self.table_match: TableMatch | None = None  # the match at a table being played
        self._deal: tuple | None = None  # the deal whose moves were announced
        self._announced = 0  # history entries of that deal announced so far

    def say(self, text: str = "") -> None:
        """Write a line to the person."""
        print(text, file=self.output or sys.stdout, flush=True)

    def act(self, view) -> str:
        self.announce(view)
        if isinstance(view, TableView):
            match = self.table_match
            score = match and table_match_score(match, self.seat, with_target=True)
            self.say(render_table_view(view, score))
        else:
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
        if isinstance(match, TableMatch):
            self.table_match = match
            dealer = "you deal" if state.dealer == self.seat else f"seat {state.dealer} deals"
        else:
            self.match_scores = tuple(match.scores)
            self.match_target = match.game.rules.match_target
            dealer = "you deal" if state.dealer == 0 else "the opponent deals"
        self.say(f"\n=== Deal {len(match.deals) + 1}: {dealer} ===")

    def end_deal(self, match, state, result) -> None:
        """Announce the deal's last moves, its outcome (or the forfeit) with every dealt hand,
        and the match score after it."""
        if isinstance(match, TableMatch):
            self.announce(state.view(self.seat))
            self.say(table_deal_summary(state, self.seat, result.outcome, result.error))
            self.say(table_match_score(match, self.seat))
            return
        self.announce(state.view(0))
        self.say(deal_summary(state, result.outcome, result.error))
        scores = match.scores
        self.say(f"Match score: you {scores[0]}, opponent {scores[1]}")

    def end_match(self, scores) -> None:
        """Announce the winner of the match."""
        if self.table_match is not None:
            self.say(f"\n*** {table_match_winner(self.table_match, self.seat)} ***")
            return
        won = "You win" if scores[0] > scores[1] else "The opponent wins"
        self.say(f"\n*** {won} the match {scores[0]}-{scores[1]} ***")

    def announce(self, view) -> None:
        """Say what happened in the view's deal since the last announcement."""
        if isinstance(view, TableView):
            deal = (view.dealer, view.first_batch or view.hand_at_deal, view.face_up_at_deal)
            history, describe = view.history, describe_table_steps
        else:
            deal = (view.dealer, view.initial_hand, view.initial_face_up)
            history, describe = view.history_ids, describe_steps
        if deal != self._deal or len(history) < self._announced:
            self._deal, self._announced = deal, 0
        for line in describe(view, self._announced):
            self.say(f"  {line}")
        self._announced = len(history)


# ---- reading the choice ---------------------------------------------------------------------


def parse_choice(text: str, legal: list[str]) -> str:
    """The action of ``legal`` that ``text`` names: an option number (from 1) or notation,
    case-insensitive (``QH`` plays QH, or calls it at a call; ``marry H`` the one marriage
    of hearts, ``swap`` exchanges, ``durchmars`` announces it, ``moon`` bids 5);
    ``ValueError`` saying why not."""
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
    if verb in ("marry", "marry-claim", "meld") and len(rest) == 1 and _suit(rest[0]) is not None:
        suit = SUITS[_suit(rest[0])]
        if verb != "marry":
            return f"{verb} {suit}"
        offered = [action for action in legal if action.startswith("marry ") and action[-1] == suit]
        if len(offered) == 1:
            return offered[0]
        if offered:
            raise ValueError(f"say which card to lead: {' or '.join(offered)}")
        return f"marry K{suit}"  # not legal: refused with the legal actions
    if len(words) == 1:
        calling = any(action.startswith("call ") for action in legal)
        words = ["call" if calling else "play", words[0]] if _card(words[0]) is not None else [verb]
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
    """The legal actions in the order they are numbered: card plays (or calls) as the hand
    shows the cards, then marriages, then the other actions, ``pass`` last."""

    def order(action: str) -> tuple[int, int, int]:
        action_id = parse_action(action)
        if action_id == mc.A_PASS:
            return (3, 0, 0)
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


# ---- three and four seats -------------------------------------------------------------------

TABLE_REASON_TEXTS = {
    "claim": "the winners reached the target",
    "closer_claim": "the closing side reached the target",
    "opponent_claim_after_close": "the closer's opponents reached the target",
    "false_claim": "a false claim",
    "closer_false_claim": "the closing side claimed falsely",
    "failed_close": "the closing side did not reach the target",
    "last_trick": "nobody reached the target: the last trick decides",
    "durchmars_made": "the durchmars was made",
    "durchmars_failed": "the durchmars failed",
    "betli_made": "the betli was made",
    "betli_failed": "the betli failed",
    "contract_made": "the contract was made",
    "contract_set": "the contract was set",
    "moon_made": "the moon was made",
    "moon_failed": "the moon failed",
    "redeal": "everybody passed: no game",
    "higher_total": "the higher total once the cards ran out",
    "draw": "equal totals: a draw",
    "no_score": "nobody reached the target: no score",
}
_ONE_PER_LINE = 12  # options listed one per line; more (the cards of a call) go in rows
_COLUMNS = 5  # options per row


def render_table_view(view: TableView, match_line: str | None = None) -> str:
    """The position as the view's seat knows it at a table of two to four: the match score,
    the sides as far as the seat knows them, the call, auction or announcement, trump and
    talon, each seat's trick points and marriages, the trick on the table, the hand and
    the numbered options."""
    me = view.seat
    lines = [f"--- {_table_situation(view)} ---"]
    if match_line:
        lines.append(match_line)
    lines += [
        f"You are seat {me} of {view.num_players} (seats play in turn 0, 1, ...); "
        f"{_seat(me, view.dealer)} dealt",
        f"Sides: {_sides_text(view)}",
        *_contract_lines(view),
        f"Trump: {_trump_text(view)}; {_table_talon_text(view)}",
        f"Points in tricks: {_points_text(view)}",
        f"Marriages: {_table_marriages(view)}",
    ]
    if view.phase in ("lead", "follow", "meld"):
        played = [
            f"{_seat(me, seat)} {'led' if k == 0 else 'played'} {card}"
            for k, (seat, card) in enumerate(view.trick)
        ]
        lines.append(f"On the table: {', '.join(played) or 'nothing yet'}")
    lines.append(f"Your hand: {_cards(view.hand_mask, _trump_index(view)) or 'none'}   (* trump)")
    legal = offered_actions(view)
    width = len(str(len(legal)))
    options = [f"{number:>{width}}) {action}" for number, action in enumerate(legal, 1)]
    if len(options) > _ONE_PER_LINE:
        cell = max(map(len, options))
        rows = [options[k : k + _COLUMNS] for k in range(0, len(options), _COLUMNS)]
        lines += ["  " + "  ".join(option.ljust(cell) for option in row).rstrip() for row in rows]
    else:
        lines += [f"  {option}" for option in options]
    lines.append(
        "Type a number or an action (a card to play or call, marry KH, bid 2, durchmars, "
        "pass, ...); quit leaves the match."
    )
    return "\n".join(lines)


def describe_table_steps(view: TableView, start: int = 0) -> list[str]:
    """Lines telling the view's seat the actions from index ``start`` on, by seat, each
    finished trick with its taker, and the cards the seat drew."""
    me = view.seat
    size = view.num_players - (view.sitting_out is not None)
    hands = (view.first_batch or view.hand_at_deal, *view.hand_history)
    trick: list[int] = []
    tricks = 0
    lines = []
    for index, (seat, action) in enumerate(view.history):
        if action < mc.A_CALL:
            trick.append(action % mc.A_MARRY)
        shown = index >= start
        if shown:
            lines.append(_table_step_text(view, index, seat, action, len(trick) == 1))
        if len(trick) == size:
            tricks += 1
            if shown:
                lines.append(_trick_text(view, tricks, trick))
            trick = []
        gained = hands[index + 1] & ~hands[index]
        if shown and gained and not (seat == me and action == mc.A_EXCHANGE):
            got = (
                "receive the rest of your hand:" if mc.A_CALL <= action < mc.A_EXCHANGE else "draw"
            )
            lines.append(f"You {got} {_cards(gained, _trump_index(view))}")
    return lines


def table_deal_summary(state, seat: int, outcome, error: str | None = None) -> str:
    """A finished deal at a table for ``seat``: the outcome, each seat's game points, the
    sides, points and tricks, every hand as dealt with the talon, and the cards won."""
    winners, reason, scores = outcome
    n = state.num_players
    final = state.view(seat)
    trump = _trump_index(final)
    one_other = len(winners) == 1 and winners[0] != seat
    who = _seats(seat, winners) + (" wins" if one_other else " win")
    dealt = [
        f"{_seat(seat, other)} {_cards(hand, trump)}"
        for other, hand in enumerate(state.hand_log[0])
    ]
    talon = [card_name(int(state.deck[p])) for p in state.game.talon_positions]
    if talon:
        order = "top first, the face-up card last" if state.face_up_at_deal else "top first"
        dealt.append(f"talon ({order}) {' '.join(talon)}")
    lines = [
        f"Deal over: {who if winners else 'nobody wins'} ({error or TABLE_REASON_TEXTS[reason]})",
        "Game points: " + ", ".join(f"{_seat(seat, s)} {scores[s]}" for s in range(n)),
        f"Sides: {_sides_of(seat, state.sides)}",
        "Points with the marriages that count: "
        + ", ".join(
            f"{_seat(seat, s)} {state.card_points[s]} ({_count(state.tricks_won[s], 'trick')})"
            for s in range(n)
        ),
        f"Dealt hands: {'; '.join(dealt)}",
        "Cards won: "
        + "; ".join(
            f"{_seat(seat, s)} {_cards(final.won_masks[s], trump) or 'none'}" for s in range(n)
        ),
    ]
    return "\n".join(lines)


def table_match_score(match: TableMatch, seat: int, with_target: bool = False) -> str:
    """The score of a match at a table: by team, or by seat."""
    scores = match.scores
    if match.teams:
        mine = match.owner(seat)
        text = (
            f"your team ({_seats(seat, _team(match, mine))}) {scores[mine]}, the other team "
            f"({_seats(seat, _team(match, 1 - mine))}) {scores[1 - mine]}"
        )
    else:
        text = ", ".join(f"{_seat(seat, s)} {score}" for s, score in enumerate(scores))
    target = f" (playing to {match.game.rules.match_target})" if with_target else ""
    return f"Match score: {text}{target}"


def table_match_winner(match: TableMatch, seat: int) -> str:
    """Who won a finished match at a table, and the final score (yours first)."""
    scores = match.scores
    if match.teams:
        mine = match.owner(seat)
        won = "Your team wins" if match.winner == mine else "The other team wins"
        return f"{won} the match {scores[mine]}-{scores[1 - mine]}"
    won = "You win" if match.winner == seat else f"Seat {match.winner} wins"
    listed = ", ".join(f"{_seat(seat, s)} {score}" for s, score in enumerate(scores))
    return f"{won} the match: {listed}"


def _team(match: TableMatch, team: int) -> list[int]:
    return [s for s in range(match.game.num_players) if match.owner(s) == team]


def _seat(me: int, seat: int) -> str:
    """``you`` for the person's own seat, else ``seat N``."""
    return "you" if seat == me else f"seat {seat}"


def _seats(me: int, seats) -> str:
    """Seats as ``you and seat 2``."""
    names = [_seat(me, seat) for seat in sorted(seats, key=lambda seat: seat != me)]
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def _trump_index(view: TableView) -> int:
    return -1 if view.trump_suit is None else SUITS.index(view.trump_suit)


def _caller(view: TableView) -> int:
    """The seat that calls in a called-card game: the first leader (3C.2, 4C.2)."""
    return (view.dealer + 1) % view.num_players


def _announced(view: TableView) -> tuple[int, int] | None:
    """``(seat, action)`` of the deal's announcement (durchmars or betli), if any."""
    return next(
        ((seat, action) for seat, action in view.history if action in (mc.A_DURCHMARS, mc.A_BETLI)),
        None,
    )


def _bids(view: TableView) -> list[tuple[int, int]]:
    """The auction so far: ``(seat, action)`` of every bid and pass before the first play."""
    if view.game.rules.sides != "contract":
        return []
    auction = []
    for seat, action in view.history:
        if action < mc.A_CALL:
            break
        auction.append((seat, action))
    return auction


def _sides_text(view: TableView) -> str:
    """The sides as far as the seat knows them (in a called-card game the partner stays
    unnamed until the seat knows him)."""
    rules, n, me = view.game.rules, view.num_players, view.seat
    if rules.sides == "called_card":
        text = _called_sides_text(view)
    elif n == 4 and rules.sides in ("fixed_opposite", "contract"):  # snapszer4, na66
        partner = (me + 2) % 4
        text = (
            f"you and seat {partner} against {_seats(me, [s for s in range(n) if s % 2 != me % 2])}"
        )
    else:
        lone = _lone_seat(view)
        if lone is None:
            text = "each for himself" if n > 2 else f"you against seat {1 - me}"
        else:
            others = [s for s in range(n) if s != lone]
            text = f"{_seat(me, lone)} alone against {_seats(me, others)}"
    if view.sitting_out is not None:
        text += f"; {_seat(me, view.sitting_out)} sits out, the hand face down"
    return text


def _lone_seat(view: TableView) -> int | None:
    """The seat that plays alone against the others in a game of each for himself: the
    closer or announcer (1.1.4), or the declarer of ``na66_3`` once the auction is over."""
    if view.game.rules.sides == "contract":
        bids = [seat for seat, action in _bids(view) if action > mc.A_BID]
        return bids[-1] if bids and view.phase != "bid" and view.num_players == 3 else None
    if view.closed_by is not None:
        return view.closed_by
    announced = _announced(view)
    return announced[0] if announced else None


def _called_sides_text(view: TableView) -> str:
    me, n = view.seat, view.num_players
    caller = _caller(view)
    if view.called_card is None:
        if me == caller:
            return "you call a card; its holder becomes your partner"
        return f"seat {caller} calls a card; its holder becomes the caller's partner"
    announced = _announced(view)
    if announced and announced[1] == mc.A_BETLI:
        lone = announced[0]
        return f"{_seat(me, lone)} (betli) alone against {_seats(me, _others(n, [lone]))}"
    holder = _called_holder(view)
    if holder is None:
        unknown = "" if me == caller else " (not you)"
        return (
            f"{_seat(me, caller)} (the caller) and the holder of {view.called_card}{unknown} "
            f"against the others: who holds it stays unknown until it is played"
        )
    if holder == caller:
        return f"{_seat(me, caller)} (the caller) alone against {_seats(me, _others(n, [caller]))}"
    rest = _seats(me, _others(n, [caller, holder]))
    return (
        f"{_seat(me, caller)} (the caller) and {_seat(me, holder)} (the holder of "
        f"{view.called_card}) against {rest}"
    )


def _others(n: int, seats) -> list[int]:
    return [s for s in range(n) if s not in seats]


def _called_holder(view: TableView) -> int | None:
    """The holder of the called card if the seat knows him (its own hand, the card played,
    or a durchmars announced by a seat other than the caller), else None."""
    if not view.is_partner_known:
        return None
    called = parse_card(view.called_card)
    if view.hand_mask >> called & 1:
        return view.seat
    for seat, action in view.history:
        if action in (mc.A_PLAY + called, mc.A_MARRY + called):
            return seat
        if action == mc.A_DURCHMARS and seat != _caller(view):
            return seat
    return None


def _contract_lines(view: TableView) -> list[str]:
    """The call, the auction and its contract, or the announcement, as far as made."""
    me = view.seat
    lines = []
    if view.called_card is not None:
        lines.append(f"Called card: {view.called_card}, called by {_seat(me, _caller(view))}")
    bids = _bids(view)
    if bids:
        said = [f"{_seat(me, seat)} {_bid_text(view, action)}" for seat, action in bids]
        lines.append(f"Auction: {', '.join(said)}")
        top = [(seat, action - mc.A_BID) for seat, action in bids if action > mc.A_BID]
        if top and view.phase != "bid":
            declarer, level = top[-1]
            goal = (
                "to win every trick alone"
                if level == mc.MOON
                else f"{level * view.game.rules.bid_unit} points for the declarer's side"
            )
            lines.append(f"Contract: {_seat(me, declarer)}, level {level}: {goal}")
    announced = _announced(view)
    if announced:
        seat, action = announced
        lines.append(f"Announced: {action_name(action)[9:]} by {_seat(me, seat)}")
    return lines


def _bid_text(view: TableView, action: int) -> str:
    return "passed" if action == mc.A_PASS else f"bid {_level_text(view, action - mc.A_BID)}"


def _level_text(view: TableView, level: int) -> str:
    """A bid's level: ``2 (66 points)``, or the moon."""
    if level == mc.MOON:
        return "the moon (5)"
    return f"{level} ({level * view.game.rules.bid_unit} points)"


def _trump_text(view: TableView) -> str:
    if view.trump_suit is not None:
        return f"{SUIT_NAMES[_trump_index(view)]} ({view.trump_suit})"
    announced = _announced(view)
    if announced and announced[1] == mc.A_BETLI:
        return "none (betli)"
    source = view.game.rules.trump_source
    return {
        "called_card": "not yet: the suit of the called card",
        "first_lead": "not yet: the suit of the declarer's first lead",
    }.get(source, "none")


def _table_talon_text(view: TableView) -> str:
    """The talon: none, open (with the face-up card), closed (by whom) or used up."""
    me = view.seat
    if not view.game.talon_positions:
        return "no talon"
    if view.closed_by is not None:
        closer = _seat(me, view.closed_by)
        return f"talon closed by {closer}: {_count(view.talon_size, 'card')} out of play"
    if view.talon_size:
        talon = f"talon {_count(view.talon_size, 'card')}"
        if view.face_up:
            return f"{talon}, the face-up card {view.face_up} at the bottom"
        return f"{talon}, face down"
    if view.face_up_at_deal is None:
        return "talon used up"
    taker = view.receipts[view.game.talon_positions[-1]][0]
    exchanged = any(action == mc.A_EXCHANGE for _, action in view.history)
    last = _exchange_card_name(view) if exchanged else view.face_up_at_deal
    return f"talon used up; {_seat(me, taker)} took the face-up card {last}"


def _points_text(view: TableView) -> str:
    me, n = view.seat, view.num_players
    text = ", ".join(
        f"{_seat(me, s)} {view.trick_points[s]} ({_count(view.tricks_won[s], 'trick')})"
        for s in range(n)
    )
    rules = view.game.rules
    if n == 4 and rules.sides in ("fixed_opposite", "contract"):
        ours = view.trick_points[me] + view.trick_points[(me + 2) % 4]
        theirs = sum(view.trick_points) - ours
        text += f"; your side {ours}, the other side {theirs}"
    if rules.sides != "contract":
        text += f"; target {rules.target}"
    return text


def _table_marriages(view: TableView) -> str:
    me = view.seat
    declared = [
        f"{_seat(me, seat)} {_table_marriage(view, SUITS.index(suit))}"
        for seat, suits in enumerate(view.declared_marriages)
        for suit in suits
    ]
    return ", ".join(declared) or "none"


def _table_marriage(view: TableView, suit: int) -> str:
    points = view.game.rules.marriage_points * (2 if suit == _trump_index(view) else 1)
    return f"{SUIT_NAMES[suit]} ({points})"


def _table_situation(view: TableView) -> str:
    trick = f"trick {sum(view.tricks_won) + 1}"
    return {
        "call": "you call a card: its suit becomes trump, its holder your partner",
        "announce": "announce durchmars or betli, or pass",
        "bid": "your bid, or pass",
        "lead": f"{trick}: you lead",
        "follow": f"{trick}: you follow",
        "meld": f"{trick}: your partner leads; you may show a marriage too",
        "final-claim": "the last trick is played: claim, or pass",
    }.get(view.phase, "the deal is over")


def _table_step_text(view: TableView, index: int, seat: int, action: int, leads: bool) -> str:
    """One action as a sentence: ``Seat 2 leads QH``, ``You call AS``, ``Seat 1 bids 2``."""
    mine = seat == view.seat
    who = _upper(_seat(view.seat, seat))

    def verb(you: str, they: str) -> str:
        return f"{who} {you if mine else they}"

    if action < mc.A_MARRY:
        return f"{verb('lead', 'leads') if leads else verb('play', 'plays')} {card_name(action)}"
    if action < mc.A_CALL:
        card = action - mc.A_MARRY
        marriage = _table_marriage(view, suit_of(card))
        lead = "lead" if mine else "leads"
        return f"{verb('marry', 'marries')} {marriage} and {lead} {card_name(card)}"
    if action < mc.A_EXCHANGE:
        card = action - mc.A_CALL
        return f"{verb('call', 'calls')} {card_name(card)}: {SUIT_NAMES[suit_of(card)]} are trump"
    if action == mc.A_EXCHANGE:
        given, taken = _exchange_card_name(view), view.face_up_at_deal
        return f"{verb('exchange', 'exchanges')} {given} for the face-up {taken}"
    if action == mc.A_CLOSE:
        return f"{verb('close', 'closes')} the talon"
    if action == mc.A_CLAIM:
        return f"{verb('claim', 'claims')} to have reached {view.game.rules.target}"
    if action == mc.A_PASS:
        return verb(*_pass_words(view, index))
    if action in (mc.A_DURCHMARS, mc.A_BETLI):
        return f"{verb('announce', 'announces')} {action_name(action)[9:]}"
    if action < mc.A_MARRY_CLAIM:
        return f"{verb('bid', 'bids')} {_level_text(view, action - mc.A_BID)}"
    marriage = _table_marriage(view, (action - mc.A_MARRY_CLAIM) % 4)
    if action < mc.A_MELD:
        return f"{verb('declare', 'declares')} {marriage} and {'claim' if mine else 'claims'}"
    return f"{verb('show', 'shows')} the marriage of {marriage} beside the leader's lead"


def _exchange_card_name(view: TableView) -> str:
    """The trump that is exchanged for the face-up card (1.8.1)."""
    return view.game.rules.exchange_card_rank + view.trump_suit


def _pass_words(view: TableView, index: int) -> tuple[str, str]:
    """What a pass declined: a claim after the last trick, a bid, or an announcement."""
    if any(action < mc.A_CALL for _, action in view.history[:index]):
        return "do not claim", "does not claim"
    if view.game.rules.sides == "contract":
        return "pass", "passes"
    return "pass: no announcement", "passes: no announcement"


def _trick_text(view: TableView, number: int, cards: list[int]) -> str:
    mask = sum(1 << card for card in cards)
    taker = next(s for s, won in enumerate(view.won_masks) if won & mask == mask)
    points = view.game.rule_array[0]["card_points"]
    worth = sum(int(points[card]) for card in cards)
    names = " ".join(card_name(card) for card in cards)
    return f"Trick {number}: {_seat(view.seat, taker)} took {names} ({worth} points)"


def _sides_of(me: int, sides) -> str:
    """The true sides at the end of a deal, as ``you and seat 2 against seat 1 and seat 3``."""
    distinct = list(dict.fromkeys(sides))
    if len(distinct) > 2:
        return "each for himself"
    return " against ".join(_seats(me, side) for side in distinct)


__all__ = [
    "HumanAgent",
    "PlayerLeft",
    "deal_summary",
    "describe_steps",
    "describe_table_steps",
    "offered_actions",
    "parse_choice",
    "render_table_view",
    "render_view",
    "table_deal_summary",
    "table_match_score",
    "table_match_winner",
]
