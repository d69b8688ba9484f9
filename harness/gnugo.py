"""GNU Go as an oracle: a GNU Go process spoken to over GTP (harness.gtp_client), with
the few questions the checks ask of it (its ladder, owl and scoring readers)."""

import tempfile

from goengine import BLACK, WHITE
from goengine.game import coords
from harness.gtp_client import GtpProcess

GNUGO = "/usr/games/gnugo"
COLOR_NAME = {BLACK: "black", WHITE: "white"}


class GnuGo(GtpProcess):
    """GNU Go in GTP mode with `options` (level 0 by default: its readers, not its
    play, are what the oracles ask for). send() returns the answer's text and raises
    harness.gtp_client.GtpFailure when GNU Go refuses a command."""

    def __init__(self, path=GNUGO, options=("--level", "0")):
        super().__init__([path, "--mode", "gtp", *options], name="gnugo")

    def send(self, command, timeout=600.0):
        """GNU Go's reading can take minutes on a hard position: a long default timeout."""
        return super().send(command, timeout)

    def set_position(self, board):
        """Clear GNU Go's board and put `board`'s stones on it (no move history)."""
        size = board.size
        self.send(f"boardsize {size}")
        self.send("clear_board")
        stones = board.stones()
        for move in range(size * size):
            color = stones[move // size, move % size]
            if color:
                self.send(f"play {COLOR_NAME[color]} {coords.to_gtp(move, size)}")

    def load_record(self, sgf, move=None):
        """Load an SGF record (text or bytes) with its history, the whole game or the
        position before `move`: GNU Go's loadsgf reads only files, so through one."""
        with tempfile.NamedTemporaryFile("wb" if isinstance(sgf, bytes) else "w",
                                         suffix=".sgf") as file:
            file.write(sgf)
            file.flush()
            self.send(f"loadsgf {file.name}" if move is None else
                      f"loadsgf {file.name} {move}")

    def ladder_capturable(self, move, size):
        """Does the ladder capture the chain outright?  GNU Go answers 1 for
        that, and 2 or 3 when the capture needs a ko, which is no ladder
        capture for our planes."""
        return self.send(f"ladder_attack {coords.to_gtp(move, size)}").split()[0] == "1"
