"""Which move we really play: the one place that turns a player's thinking into the answer
of genmove (Leela Zero's UCTSearch::get_best_move does the same in one function).

Every player ranks moves its own way (the search by visits, the policy by probability);
genmove asks it to think, and Decision applies the rules that make the answer a sensible
one, in this order, for every player, and logs why at each branch under --verbose:

* no sensible move left: pass;
* the opponent passed (outside kgs-genmove_cleanup): pass when our count wins beyond the
  points in doubt, resign when it loses beyond them (where we resign at all), else play on;
* the resign rule (goengine.players.resign) on the player's own win rate;
* the search's pass is refused where it would end the game unless our count says we win
  (then the best move that is not a self-atari), and the root may not pass in cleanup
  nor in the first half of the game unless the opponent passed (pass_barred);
* an illegal move is never returned (legal_or_pass).
"""

import time

import numpy as np

from goengine import PASS
from goengine.game import coords
from goengine.game.moves import RESIGN
from goengine.players.resign import ResignRule


def opponent_passed(game, color):
    """Whether the opponent's last move was a pass: a pass now ends the game."""
    last = game.last_move
    return last is not None and last[1] == PASS and last[0] != color


def self_atari(board, move, color):
    """Whether `color` playing `move` leaves its own chain in atari without capturing."""
    after = board.copy()
    captured = after.captures(color)
    after.play(move, color)
    return after.chain_liberties(move) == 1 and after.captures(color) == captured


def sensible_mask(board, color):
    """Bool array (size*size,): legal for `color` and not filling its own true eye (the
    rule AlphaGo's rollouts and search use)."""
    mask = np.zeros(board.size * board.size, dtype=bool)
    for move in board.legal_moves(color):
        if move != PASS and not board.is_eye(move, color):
            mask[move] = True
    return mask


class Decision:
    """The rules above, with the player's resign rule."""

    def __init__(self, resign_rule=None):
        self.resign_rule = resign_rule or ResignRule(0.0)

    def before_thinking(self, game, color, cleanup, winner, log=None):
        """genmove's answer where no thinking is needed, else None: with `winner` the
        winner beyond doubt by the player's count of the board (None where it was not
        counted: needs_count), PASS with no sensible move left or after the opponent's
        pass where our count wins, RESIGN where it loses (answer_to_pass)."""
        mask = sensible_mask(game.board_for(color), color)
        answer = self.answer_to_pass(game, color, mask, cleanup, winner)
        if answer is not None and log:
            log('goengine: resigning: our count loses beyond doubt' if answer == RESIGN else
                'goengine: passing: no sensible move left' if not mask.any() else
                'goengine: passing: the opponent passed and our count wins beyond doubt')
        return answer

    @staticmethod
    def needs_count(game, color, cleanup):
        """Whether before_thinking reads the player's count of the board: only where the
        game may end now (no sensible move left, or the opponent passed), never in
        cleanup."""
        if cleanup:
            return False
        return opponent_passed(game, color) or not sensible_mask(game.board_for(color),
                                                                  color).any()

    def decide(self, game, color, result, cleanup, log=None):
        """genmove's answer from the player's SearchResult `result`: RESIGN by the resign
        rule on its win rate, else its best legal move (from_ranking). log: where each
        branch says why (None: quiet)."""
        say = log or (lambda line: None)
        if self.should_resign(game, color, result.resign_winrate):
            say(f'goengine: resigning: win rate {result.resign_winrate:.3f} < '
                f'{self.resign_threshold:.3f}')
            return RESIGN
        move = self.from_ranking(game, color, result.ranked, cleanup)
        if result.ranked and result.ranked[0] == PASS and move != PASS:
            say('goengine: not passing: our count does not say we win beyond doubt')
        elif result.visits:
            say(f'goengine: playing {coords.to_gtp(move, game.size)}: the most visited legal '
                f'move of {result.visits} root visits')
        else:
            say(f'goengine: playing {coords.to_gtp(move, game.size)}: the first of the '
                f"player's {len(result.ranked)} ranked moves")
        return move

    @property
    def resign_threshold(self):
        return self.resign_rule.threshold

    def answer_to_pass(self, game, color, mask, cleanup, winner):
        """Before any search, with `winner` the winner beyond doubt by our count of the
        board, or None: when no sensible move is left (`mask`, bool over the points),
        RESIGN where that count loses and we resign at all (a pass only asks the opponent
        to end a lost game), else PASS; outside cleanup, the count's answer to the
        opponent's pass (answer_by_count); else None: play on. Cleanup never counts."""
        if not mask.any():
            lost = not cleanup and self.answer_by_count(game, color, winner) == RESIGN
            return RESIGN if lost else PASS
        if cleanup or not opponent_passed(game, color):
            return None
        return self.answer_by_count(game, color, winner)

    def answer_by_count(self, game, color, winner):
        """PASS if our count says `color` wins beyond doubt, RESIGN if it says we lose
        beyond doubt and we resign at all (the opponent would only pass again while we
        fill our own area); else None."""
        if winner == color:
            return PASS
        if winner is not None and self.resign_rule.should_resign(game, color, 0.0):
            return RESIGN          # a count lost beyond doubt: a win rate of 0
        return None

    def should_resign(self, game, color, winrate):
        """The resign rule on the player's estimate (None: no estimate, no resigning)."""
        if self.resign_rule.threshold <= 0:
            return False
        return self.resign_rule.should_resign(game, color, winrate)

    @staticmethod
    def pass_barred(game, color, cleanup, ban_fraction):
        """Whether the search's root may not pass now: in cleanup, and in the first
        ban_fraction of the game (SearchConfig.pass_ban_fraction) unless the opponent
        passed."""
        early = game.move_number < int(game.size * game.size * ban_fraction)
        return cleanup or (early and not opponent_passed(game, color))

    def from_ranking(self, game, color, ranked, cleanup):
        """The move to play from the search's root moves, best first: the first legal
        one; where that is a pass that would end the game (the opponent passed, not in
        cleanup), the first that is neither a pass nor a self-atari (in a seki, filling
        a shared liberty gives the group away), since answer_to_pass already found that
        our count does not win beyond doubt. PASS when nothing is left."""
        board = game.board_for(color)
        legal = [m for m in ranked if m == PASS or board.is_legal(m, color)]
        move = legal[0] if legal else PASS
        if move == PASS and opponent_passed(game, color) and not cleanup:
            move = next((m for m in legal if m != PASS and not self_atari(board, m, color)),
                        PASS)
        return move


def genmove(player, game, color, limits, cleanup=False, report=None, interval=1.0):
    """The move `color` should play now: a point, PASS or RESIGN. The player's count
    answers a pass where the game may end (Decision.before_thinking); else the player
    thinks and its Decision picks from what it found; an illegal move is never returned.

    limits: a goengine.search.limits.SearchLimits, the time manager's (seconds to aim
    for, the most while a search is unsure, playouts); the time spent before thinking
    counts. cleanup: kgs-genmove_cleanup, so do not pass while dead opponent stones can
    still be captured. report: an optional callable taking a SearchResult, called about
    every `interval` seconds while thinking (lz-genmove_analyze)."""
    start = time.monotonic()
    decision = player.decision
    log = player.log if player.verbose else None
    winner = (player.count_winner(game, color) if decision.needs_count(game, color, cleanup)
              else None)
    move = decision.before_thinking(game, color, cleanup, winner, log)
    if move is None:
        result = player.think(game, color, limits.after(time.monotonic() - start), cleanup,
                              report, interval)
        move = decision.decide(game, color, result, cleanup, log)
    return legal_or_pass(game.board, color, move, player.log)


def legal_or_pass(board, color, move, log):
    """`move`, or PASS (with a line to `log`) where the board forbids it: the GTP layer's
    last guard, so that no player's slip reaches the controller."""
    if move not in (PASS, RESIGN) and not board.is_legal(move, color):
        log(f'player chose illegal move {move}; passing instead')
        return PASS
    return move
