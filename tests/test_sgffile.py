"""goengine.game.sgffile: parsing, replay (setup stones, passes, captures), broken records."""

import gzip

import pytest
from sgfmill import sgf, sgf_moves

from goengine import BLACK, PASS, WHITE
from goengine.game import coords, sgffile
from training.dataset import GameStore
from goengine.game.sgffile import (SgfError, iter_positions, parse_game, parse_winner,
                              read_games)
from tests.conftest import DATA_DIR

SIMPLE = "(;GM[1]FF[4]SZ[19]KM[6.5]RE[B+R]GN[g1];B[pd];W[dp];B[pq];W[dd])"
HANDICAP = "(;GM[1]FF[4]SZ[19]KM[0.5]HA[2]AB[pd][dp]RE[W+3.5];W[pp];B[dd])"
PASSES = "(;GM[1]FF[4]SZ[9]KM[7]RE[0];B[ee];W[];B[tt];W[cc])"


def test_moves_colours_and_coordinates():
    game = parse_game(SIMPLE)
    assert (game.size, game.komi, game.winner, game.result, game.name) == (19, 6.5, BLACK, "B+R", "g1")
    assert [(c, coords.to_gtp(m, 19)) for c, m in game.moves] == [
        (BLACK, "Q16"), (WHITE, "D4"), (BLACK, "Q3"), (WHITE, "D16")]


@pytest.mark.parametrize("result, winner", [
    ("B+R", BLACK), ("W+T", WHITE), ("B+3.5", BLACK), ("w+F", WHITE),
    ("0", None), ("Draw", None), ("Void", None), ("?", None), ("", None), (None, None)])
def test_winner_from_result(result, winner):
    assert parse_winner(result) == winner


@pytest.mark.parametrize("result, on_the_board", [
    ("B+R", True), ("W+3.5", True), ("B+Resign", True), ("W+T", False), ("b+time", False),
    ("W+F", False), ("B+Forfeit", False), ("0", False), ("Void", False), ("", False)])
def test_only_wins_by_score_or_resignation_are_won_on_the_board(result, on_the_board):
    game = parse_game(SIMPLE.replace("RE[B+R]", f"RE[{result}]"))
    assert game.result == result and game.won_on_the_board == on_the_board


def test_positions_are_boards_before_each_move():
    game = parse_game(SIMPLE)
    positions = list(iter_positions(game))
    assert [(c, m) for _, c, m in positions] == game.moves
    for number, (board, color, move) in enumerate(positions):
        assert board.to_move == color and board.move_number == number
        assert board.color_at(move) == 0
    assert positions[3][0].color_at(coords.from_gtp("Q16", 19)) == BLACK


def test_handicap_setup_stones_and_white_first():
    game = parse_game(HANDICAP)
    assert sorted(game.setup_black) == sorted([coords.from_gtp("Q16", 19), coords.from_gtp("D4", 19)])
    board, color, move = next(iter_positions(game))
    assert color == WHITE and board.to_move == WHITE
    assert board.color_at(coords.from_gtp("Q16", 19)) == BLACK
    assert board.color_at(coords.from_gtp("D4", 19)) == BLACK
    assert game.winner == WHITE and game.komi == 0.5


def test_passes_are_replayed():
    game = parse_game(PASSES)
    assert [m for _, m in game.moves][1:3] == [PASS, PASS]
    assert game.winner is None
    positions = list(iter_positions(game))
    assert positions[2][0].passes == 1 and positions[3][0].passes == 2
    assert positions[3][1] == WHITE


def test_captures_remove_stones():
    game = parse_game("(;GM[1]SZ[9];B[ah];W[ai];B[cc];W[dd];B[bi];W[ee])")
    boards = [b for b, _, _ in iter_positions(game)]
    a1 = coords.from_gtp("A1", 9)
    assert boards[4].color_at(a1) == WHITE
    assert boards[5].color_at(a1) == 0 and boards[5].captures(BLACK) == 1


@pytest.mark.parametrize("text", [
    "", "not an sgf", "(;GM[1]SZ[19];B[pd];W[zz])", "(;GM[1]SZ[19;B[pd]"])
def test_broken_records_raise_sgf_error(text):
    with pytest.raises(SgfError):
        parse_game(text)


def test_a_komi_that_is_no_number_is_passed_over_with_a_warning():
    game = parse_game("(;GM[1]SZ[19]KM[abc];B[pd])")
    assert len(game.moves) == 1 and not game.komi_given and game.komi == 0.0
    assert game.warnings == ["KM[abc] is not a number: ignored"]
    assert parse_game("(;GM[1]SZ[19]KM[6.5];B[pd])").komi_given
    assert not parse_game("(;GM[1]SZ[19];B[pd])").komi_given


def test_illegal_move_raises_after_earlier_positions():
    game = parse_game("(;GM[1]SZ[9];B[ee];W[ee];B[cc])")
    seen = []
    with pytest.raises(SgfError, match="move 2"):
        for position in iter_positions(game):
            seen.append(position)
    assert len(seen) == 2


def test_read_games_from_collections_files_and_folders(tmp_path):
    folder = tmp_path / "games"
    (folder / "sub").mkdir(parents=True)
    with gzip.open(folder / "a.sgfs.gz", "wt") as f:
        f.write(SIMPLE + "\n" + "(;GM[1]SZ[19];B[zz]\n" + "\n" + HANDICAP + "\n")
    (folder / "sub" / "b.sgf").write_text(PASSES)
    (folder / "notes.txt").write_text("ignored")
    errors = []
    games = list(read_games([folder], errors=errors))
    assert [g.result for g in games] == ["B+R", "W+3.5", "0"]
    assert len(errors) == 1 and errors[0][0] == "a.sgfs.gz:2"
    assert [g.name for g in games][:2] == ["a.sgfs.gz:1", "a.sgfs.gz:4"]
    assert len(list(read_games(folder, limit=2))) == 2
    with pytest.raises(FileNotFoundError):
        list(read_games(tmp_path / "missing"))


def test_game_store_round_trip(tmp_path):
    games = [parse_game(t) for t in (SIMPLE, HANDICAP, PASSES)]
    store = GameStore.from_games(games)
    store.save(str(tmp_path / "s.npz"))
    loaded = GameStore.load(str(tmp_path / "s.npz"))
    both = GameStore.concatenate([loaded, store])
    assert len(both) == 6
    for i, game in enumerate(games + games):
        again = both[i]
        assert (again.moves, again.winner, again.result, again.size, again.komi, again.name) == \
            (game.moves, game.winner, game.result, game.size, game.komi, game.name)
        assert sorted(again.setup_black) == sorted(game.setup_black)


def test_real_games_match_sgfmill():
    path = DATA_DIR / "tygem-9d-2016-12.sgfs.gz"
    if not path.exists():
        pytest.skip(f"{path} not found")
    for game in read_games(path, limit=3):
        board = list(iter_positions(game, copy=False))[-1][0]  # live board: after the last move
        text = gzip.open(path, "rt").readlines()[int(game.name.split(":")[1]) - 1]
        ref, moves = sgf_moves.get_setup_and_moves(sgf.Sgf_game.from_string(text))
        for colour, point in moves:
            if point is not None:
                ref.play(point[0], point[1], colour)
        for row in range(19):
            for col in range(19):
                expected = {None: 0, "b": BLACK, "w": WHITE}[ref.get(row, col)]
                assert board.color_at(coords.from_rowcol(row, col, 19)) == expected


def test_setup_after_the_first_move_is_kept_and_ends_a_training_replay():
    game = parse_game("(;FF[4]GM[1]SZ[9]AB[aa];AW[bb]PL[W];W[ee];B[cc];AB[gg]AE[aa];W[dd])")
    assert game.setup_black == [coords.from_sgf("aa", 9)]
    assert game.setup_white == [coords.from_sgf("bb", 9)]       # a setup node before any move
    assert game.later_setup == [(2, [coords.from_sgf("gg", 9)], [], [coords.from_sgf("aa", 9)])]
    replayed = []
    with pytest.raises(SgfError, match="setup stones after move 2"):
        for _, color, move in iter_positions(game):
            replayed.append(move)
    assert replayed == [coords.from_sgf("ee", 9), coords.from_sgf("cc", 9)]


def test_a_record_is_read_from_a_file_or_as_game_n_of_a_collection(tmp_path):
    """loadsgf FILE:N (tests/tactics' suites): game N of a collection, one SGF a line;
    a file of that very name wins; no game N and no file are errors."""
    collection = tmp_path / 'games.sgfs'
    collection.write_text('(;SZ[9];B[ee])\n(;SZ[9];B[cc];W[gg])\n')
    text, name = sgffile.read_record(f'{collection}:2')
    assert name == 'games.sgfs:2' and sgffile.parse_game(text).moves == [
        (BLACK, coords.from_gtp('c7', 9)), (WHITE, coords.from_gtp('g3', 9))]
    with pytest.raises(ValueError, match='no game on line 3'):
        sgffile.read_record(f'{collection}:3')
    with pytest.raises(OSError):
        sgffile.read_record(str(tmp_path / 'missing.sgfs:1'))
    odd = tmp_path / 'odd.sgf:1'
    odd.write_text('(;SZ[9];B[aa])')
    assert sgffile.read_record(str(odd)) == (b'(;SZ[9];B[aa])', 'odd.sgf:1')
