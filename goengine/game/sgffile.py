"""Game records: read SGF games and replay them as training positions.

Sources are `*.sgfs.gz` / `*.sgfs` collections (one complete SGF game per line),
plain `.sgf` files, and folders holding any of those. A broken record raises
`SgfError` (a ValueError) so callers can skip it and count it; `read_games`
does exactly that.
"""

import gzip
import os
from dataclasses import dataclass, field

from goengine import BLACK, PASS, WHITE, Board, IllegalMove, __version__
from goengine.game import coords

COLORS = {"b": BLACK, "w": WHITE}
SGF_SUFFIXES = (".sgf", ".sgfs", ".sgfs.gz")


class SgfError(ValueError):
    """A game record that cannot be parsed or replayed."""


@dataclass
class Game:
    """One parsed game: everything a trainer needs, with moves as board indices."""
    size: int = 19
    komi: float = 0.0
    setup_black: list = field(default_factory=list)
    setup_white: list = field(default_factory=list)
    moves: list = field(default_factory=list)   # [(color, move)], move may be PASS
    winner: int = None                          # BLACK, WHITE, or None (draw/void/unknown)
    result: str = ""
    name: str = ""
    # Setup nodes after the first move: (moves before it, black, white, empty points).
    later_setup: list = field(default_factory=list)
    # The last PL[]: (moves before it, colour), or None.
    player_to_move: tuple = None
    # What training knows of the final board (training.labels.FinalLabel), or None.
    label: object = None
    # Its index in the GameStore it came from (training's teacher labels are keyed by it).
    index: int = None
    # Whether the record gave a komi that could be read (else komi is 0.0, and a
    # controller keeps its own: goengine.game.state.from_record's default_komi).
    komi_given: bool = True
    # One line for each defect that was passed over (a KM[] that is no number).
    warnings: list = field(default_factory=list)

    @property
    def won_on_the_board(self):
        """A winner by score or resignation, not on time or by forfeit
        (B+T, W+Time, B+F, W+Forfeit), where the board says nothing about why."""
        reason = self.result.strip().upper()[2:]
        return self.winner is not None and not reason.startswith(("T", "F"))


def parse_winner(result):
    """RE[] value -> BLACK / WHITE / None. Draws ("0", "Draw"), void and "?" have no winner."""
    result = (result or "").strip().upper()
    if result.startswith("B+"):
        return BLACK
    if result.startswith("W+"):
        return WHITE
    return None


def parse_game(text, name=""):
    """Parse one SGF game (str or bytes): the main line. Raises SgfError on any defect.

    Any valid FF[4] record: setup stones (AB/AW/AE) in the root or in later
    nodes, PL[] for the side to move, moves with passes. Setup nodes before
    the first move make the starting position; setup nodes after it are kept
    in Game.later_setup (replayed by game.from_record, not by training).
    """
    # Imported here: replaying stored games (training on the GPU machine, which
    # has no sgfmill) needs Game and iter_positions but never parses SGF text.
    from sgfmill import sgf

    if isinstance(text, str):
        text = text.encode("utf-8")
    try:
        record = sgf.Sgf_game.from_bytes(text)
        root = record.get_root()
        size = record.get_size()
        komi, komi_given, warnings = 0.0, root.has_property("KM"), []
        if komi_given:
            try:
                komi = record.get_komi()
            except ValueError:
                raw = root.get_raw("KM").decode("utf-8", "replace")
                komi_given = False
                warnings.append(f"KM[{raw}] is not a number: ignored")
        result = root.get("RE") if root.has_property("RE") else ""
        if not name and root.has_property("GN"):
            name = root.get("GN")
        nodes = []
        for number, node in enumerate(record.get_main_sequence()):
            try:
                nodes.append((node.get_setup_stones(), node.get_move(),
                              node.get("PL") if node.has_property("PL") else None))
            except ValueError as exc:
                raise SgfError(f"{name or 'game'}: node {number}: "
                               f"{str(exc) or f'a point off the {size}x{size} board'}") from None
    except SgfError:
        raise
    except (ValueError, KeyError, IndexError) as exc:
        raise SgfError(f"{name or 'game'}: {str(exc) or type(exc).__name__}") from None

    def point(rowcol):
        return PASS if rowcol is None else coords.from_rowcol(rowcol[0], rowcol[1], size)

    def points(rowcols):
        return sorted(point(rc) for rc in rowcols)

    game = Game(size=size, komi=komi, result=result, winner=parse_winner(result), name=name,
                komi_given=komi_given, warnings=warnings)
    stones = {}   # the starting position: point -> colour
    for (black, white, empty), (colour, rowcol), to_play in nodes:
        if black or white or empty:
            if game.moves:
                game.later_setup.append((len(game.moves), points(black), points(white),
                                         points(empty)))
            else:
                for p in points(empty):
                    stones.pop(p, None)
                stones.update({p: BLACK for p in points(black)})
                stones.update({p: WHITE for p in points(white)})
        if colour is not None:
            game.moves.append((COLORS[colour], point(rowcol)))
        if to_play is not None:
            game.player_to_move = (len(game.moves), COLORS[to_play])
    game.setup_black = sorted(p for p, c in stones.items() if c == BLACK)
    game.setup_white = sorted(p for p, c in stones.items() if c == WHITE)
    return game


def new_board(game):
    """A goengine Board with the game's size, komi and setup (handicap) stones."""
    # The record is authoritative: only simple ko is enforced, so a rare superko
    # repetition allowed by the server's rules does not break the replay.
    board = Board(game.size, game.komi, superko=False)
    if game.setup_black or game.setup_white:
        board.setup_stones(black=game.setup_black, white=game.setup_white)
        if game.moves:
            board.to_move = game.moves[0][0]
    return board


def iter_positions(game, copy=True):
    """Yield (board_before_move, color, move) for every move (passes included).

    board.to_move == color. With copy=False the same live Board is yielded each
    time (fast, but only valid until the next step). An illegal move raises
    SgfError after the positions before it have been yielded.
    """
    board = new_board(game)
    setup_at = game.later_setup[0][0] if game.later_setup else None
    for number, (color, move) in enumerate(game.moves):
        if number == setup_at:
            raise SgfError(f"{game.name}: setup stones after move {number}: not replayed here")
        board.to_move = color
        yield (board.copy() if copy else board), color, move
        try:
            board.play(move, color)
        except IllegalMove as exc:
            raise SgfError(f"{game.name}: move {number + 1} "
                           f"{coords.to_gtp(move, game.size)}: {exc}") from None


def iter_sgf_files(path):
    """Files under `path` (a file or a folder, recursively, sorted) that hold SGF games."""
    if os.path.isdir(path):
        for root, dirs, files in os.walk(path):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(SGF_SUFFIXES):
                    yield os.path.join(root, name)
    elif os.path.exists(path):
        yield path
    else:
        raise FileNotFoundError(path)


def iter_records(path):
    """Yield (name, sgf_text) for each game in one file; name is "file:line" for collections."""
    base = os.path.basename(path)
    if path.endswith(".sgf"):
        with open(path, "rb") as f:
            yield base, f.read()
        return
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        for number, line in enumerate(f, 1):
            if line.strip():
                yield f"{base}:{number}", line


def read_record(name):
    """(SGF bytes, record name) of the file `name`, or, where no such file exists and the
    name is FILE:N, of game N of the collection FILE (one SGF a line, as iter_records
    names them): what GTP's loadsgf reads, so that a regression suite's positions can sit
    in one collection (tests/tactics/*/positions.sgfs). OSError for a missing file,
    ValueError for a collection without game N."""
    base, _, number = name.rpartition(":")
    if os.path.exists(name) or not base or not number.isdigit():
        with open(name, "rb") as f:
            return f.read(), os.path.basename(name)
    for record_name, text in iter_records(base):
        if record_name == f"{os.path.basename(base)}:{number}":
            return text, record_name
    raise ValueError(f"{base} has no game on line {number}")


def read_games(paths, errors=None, limit=None):
    """Parse the games of files/folders in order, skipping broken ones.

    `errors`, if a list, collects (name, message) of every skipped record.
    `limit` stops after that many good games.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    count = 0
    for path in paths:
        for filename in iter_sgf_files(os.fspath(path)):
            for name, text in iter_records(filename):
                if limit is not None and count >= limit:
                    return
                try:
                    game = parse_game(text, name)
                except SgfError as exc:
                    if errors is not None:
                        errors.append((name, str(exc)))
                    continue
                count += 1
                yield game


def game_to_sgf(game, application=("goengine", __version__)):
    """A game.GameState as SGF bytes (sgfmill): size, komi, rules, handicap, moves."""
    from sgfmill import sgf
    record = sgf.Sgf_game(game.size)
    root = record.get_root()
    root.set('KM', game.komi)
    root.set('RU', game.ruleset.capitalize() if game.ruleset != 'tromp-taylor' else 'Tromp-Taylor')
    root.set('AP', application)
    size = game.size

    def rowcol(move):
        return None if move == PASS else coords.to_rowcol(move, size)
    if game.setup_black:
        root.set_setup_stones([rowcol(p) for p in game.setup_black],
                              [rowcol(p) for p in game.setup_white])
        if game.handicap:
            root.set('HA', game.handicap)
    elif game.setup_white:
        root.set_setup_stones([], [rowcol(p) for p in game.setup_white])
    if game.moves and game.moves[0][0] != (WHITE if game.handicap else BLACK):
        root.set('PL', 'b' if game.moves[0][0] == BLACK else 'w')
    elif not game.moves and (game.setup_black or game.setup_white):
        root.set('PL', 'b' if game.to_move == BLACK else 'w')
    node = root
    for color, move in game.moves:
        node = node.new_child()
        node.set_move('b' if color == BLACK else 'w', rowcol(move))
    return record.serialise()
