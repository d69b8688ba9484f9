"""The GTP engine: the game, the player and the clocks behind the commands.

GtpEngine executes one GTP line at a time (goengine.gtp.protocol parses it, a handler
family in goengine.gtp.commands answers it). As a last line of defence any exception
other than GtpError is reported as an internal error and the game is restored
to its state before the command.
"""

import sys
import threading
import time
import traceback

from goengine.game.state import GameState
from goengine.gtp.commands import FAMILIES
from goengine.gtp.family import move_text
from goengine.gtp.protocol import GtpError, format_response, parse_command
from goengine.game.moves import RESIGN
from goengine.players.decision import genmove
from goengine.players.policy_player import SimplePlayer
from goengine.gtp.timecontrol import TimeManager


class GtpEngine:
    """Executes GTP lines against a GameState with a Player.

    handle(line) returns the complete response text for that line ('' for
    empty/comment lines) and also passes every piece to `write` as soon as
    it exists (streaming commands write several pieces).
    """

    def __init__(self, player=None, game=None, clock=None, write=None, interrupt=None,
                 log=None, verbose=False, ponder=False):
        self.player = player or SimplePlayer()
        self.game = game or GameState()
        self.clock = clock or TimeManager()
        self.write = write or (lambda text: None)
        # Anything with wait(timeout) -> bool; serve() installs its stdin reader.
        self.interrupt = interrupt or threading.Event()
        self.verbose = verbose
        self.ponder = ponder
        self._log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
        self.quit_requested = False
        self.last_command = None
        self.handlers = {}
        for family in FAMILIES:
            for name, method in family(self).commands():
                self.handlers[name] = method
        self._current_id = None
        self._pieces = []
        self.streamed = False
        self._score_cache = None
        self.game.listeners.append(self._game_changed)

    def _game_changed(self, event, game):
        """Clock hook: a new game (clear_board, boardsize, loadsgf) restarts the clocks."""
        if event in ('clear', 'load'):
            self.clock.reset()

    def log(self, message):
        self._log(f'goengine: {message}')

    # -- one line ------------------------------------------------------

    def handle(self, line):
        cmd = parse_command(line)
        if cmd is None:
            return ''
        self._current_id, self._pieces, self.streamed = cmd.id, [], False
        self.last_command = cmd.name
        if self.verbose:
            self.log(f'<< {line.strip()}')
        snapshot = self.game.copy()
        handler = self.handlers.get(cmd.name)
        try:
            if not cmd.name:
                raise GtpError('missing command')
            if handler is None:
                raise GtpError('unknown command')
            result = handler(cmd.args)
            if self.streamed:     # head and info lines are out: end the response
                tail = (result + '\n\n') if result else '\n'
            else:
                tail = format_response(cmd.id, True, result)
        except GtpError as exc:
            tail = self._failure(cmd.id, str(exc))
        except Exception as exc:   # a bug: report it, keep the game as it was
            self.log(f'internal error in {cmd.name}: {traceback.format_exc()}')
            self._restore(snapshot)
            tail = self._failure(cmd.id, f'internal error: {type(exc).__name__}')
        self.write_partial(tail)
        response = ''.join(self._pieces)
        if self.verbose:
            self.log(f'>> {response.rstrip()}')
        return response

    def _failure(self, cmd_id, message):
        if self.streamed or self._pieces:    # a stream was started: just end it
            return '\n'
        return format_response(cmd_id, False, message)

    def _restore(self, snapshot):
        listeners = self.game.listeners
        self.game.__dict__.update(snapshot.__dict__)
        self.game.listeners = listeners

    def response_head(self):
        """First line of a streamed success response ('=id')."""
        self.streamed = True
        return '=' + ('' if self._current_id is None else str(self._current_id)) + '\n'

    def write_partial(self, text):
        if text:
            self._pieces.append(text)
            self.write(text)

    # -- moves ---------------------------------------------------------

    def choose(self, color, cleanup=False, report=None, interval=1.0):
        """Ask the player for a move within the time budget; charge the clock."""
        game = self.game
        limits = self.clock.move_time(color, game.move_number, game.size)
        start = time.monotonic()
        move = genmove(self.player, game.copy(), color, limits, cleanup=cleanup,
                       report=report, interval=interval)
        self.clock.charge(color, time.monotonic() - start)
        return move

    def commit(self, color, move):
        if move != RESIGN:
            self.game.play(color, move)

    def generate(self, color, play=True, cleanup=False):
        move = self.choose(color, cleanup=cleanup)
        if play:
            self.commit(color, move)
        return move_text(move, self.game.size)

    @property
    def scorer(self):
        """The dead-stone judge: the player's (scoring.Scorer)."""
        return self.player.scorer

    def score(self):
        """(score, dead stones, seki stones) for the current position, cached by position."""
        board = self.game.board
        key = (board.hash, board.size, board.komi)
        if self._score_cache is None or self._score_cache[0] != key:
            dead, seki = self.scorer.stone_status(board)
            self._score_cache = (key, self.scorer.final_score(board, dead), dead, seki)
        return self._score_cache[1:]

    # -- idle time -----------------------------------------------------

    def idle(self):
        """Ponder after our own move until the next command arrives (if enabled)."""
        ours = ('genmove', 'kgs-genmove_cleanup', 'lz-genmove_analyze')
        if self.ponder and self.last_command in ours and not self.game.is_over():
            self.player.ponder(self.game.copy(), self.interrupt)
