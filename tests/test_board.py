"""Rules on hand-made positions: captures, suicide, ko, superko, snapback,
edges, ladders, scoring, and bad input leaving the board unchanged."""

import numpy as np
import pytest

from goengine import BLACK, PASS, WHITE, Board, IllegalMove
from goengine.rollout import scoring
from goengine.game.coords import from_gtp


def pts(text, size=19):
    return [from_gtp(v, size) for v in text.split()]


def board_with(black="", white="", size=19, to_move=BLACK, **kw):
    board = Board(size, **kw)
    board.setup_stones(black=pts(black, size), white=pts(white, size))
    board.to_move = to_move
    return board


def snapshot(board):
    return (board.stones().tobytes(), board.to_move, board.move_number, board.hash,
            board.ko, board.captures(BLACK), board.captures(WHITE), board.history)


def test_single_and_multi_stone_captures_update_liberties():
    board = board_with(black="C3 D2 E3", white="D3", to_move=BLACK)
    assert board.chain_liberties(from_gtp("D3", 19)) == 1
    assert board.play(from_gtp("D4", 19)) == 1
    assert board.color_at(from_gtp("D3", 19)) == 0
    assert board.captures(BLACK) == 1
    assert board.chain_liberties(from_gtp("D4", 19)) == 4
    assert board.chain_liberties(from_gtp("D2", 19)) == 4   # the capture gave D2 D3 back


def test_edge_chain_capture():
    board = board_with(black="A2 B2 C2", white="A1 B1 C1", to_move=BLACK, size=9)
    assert board.chain_stones(from_gtp("A1", 9)) == sorted(pts("A1 B1 C1", 9))
    assert board.chain_liberties(from_gtp("B1", 9)) == 1
    assert board.play(from_gtp("D1", 9)) == 3
    assert board.captures(BLACK) == 3
    assert board.chain_liberties(from_gtp("B2", 9)) == 3 + 3 + 1   # row 3 above, row 1 below, D2


def test_suicide_is_illegal_and_changes_nothing():
    board = board_with(black="A2 B1", size=9, to_move=WHITE)
    before = snapshot(board)
    assert board.why_illegal(from_gtp("A1", 9)) == "suicide"
    with pytest.raises(IllegalMove):
        board.play(from_gtp("A1", 9))
    assert snapshot(board) == before
    # Multi-stone suicide: white B1 would join A1 with no liberties.
    board = board_with(black="A2 B2 C1", white="A1", size=9, to_move=WHITE)
    assert board.why_illegal(from_gtp("B1", 9)) == "suicide"
    # ... but a move that captures is not suicide.
    board = board_with(black="B1", white="A2 B2 C1", size=9, to_move=WHITE)
    assert board.is_legal(from_gtp("A1", 9))


def test_simple_ko():
    # Black takes the ko at D4 by playing... classic shape around E4/D4.
    board = board_with(black="C4 D5 D3", white="E5 E3 F4 D4", to_move=BLACK)
    assert board.play(from_gtp("E4", 19)) == 1           # black captures D4
    assert board.ko == from_gtp("D4", 19)
    assert board.why_illegal(from_gtp("D4", 19)) == "ko"
    before = snapshot(board)
    with pytest.raises(IllegalMove):
        board.play(from_gtp("D4", 19))
    assert snapshot(board) == before
    board.play(from_gtp("Q16", 19))                       # ko threat elsewhere
    board.play(from_gtp("Q4", 19))
    assert board.is_legal(from_gtp("D4", 19))             # now white may retake
    assert board.play(from_gtp("D4", 19)) == 1


def test_ko_after_passes_simple_ko_versus_positional_superko():
    # Black takes the ko, both pass, white retakes: simple ko allows it, but
    # the retake recreates the position before black's capture, which
    # positional superko forbids.
    for superko, legal in ((False, True), (True, False)):
        board = board_with(black="C4 D5 D3", white="E5 E3 F4 D4", to_move=BLACK, superko=superko)
        board.play(from_gtp("E4", 19))
        board.play(PASS)
        board.play(PASS)
        assert board.is_legal(from_gtp("D4", 19)) is legal
        if not legal:
            assert board.why_illegal(from_gtp("D4", 19)) == "superko"
            before = snapshot(board)
            with pytest.raises(IllegalMove):
                board.play(from_gtp("D4", 19))
            assert snapshot(board) == before


def test_snapback():
    board = board_with(black="A1 A2 B2 C2", white="A3 B3 C3 D3 D2 D1", size=9, to_move=WHITE)
    assert board.play(from_gtp("B1", 9)) == 0             # throw-in, itself in atari
    assert board.chain_liberties(from_gtp("B1", 9)) == 1
    assert board.chain_liberties(from_gtp("A1", 9)) == 1
    assert board.play(from_gtp("C1", 9)) == 1             # black takes the thrown-in stone
    assert board.ko == PASS                               # C1 joined C2: no ko
    assert board.chain_liberties(from_gtp("C1", 9)) == 1  # and is itself in atari
    assert board.play(from_gtp("B1", 9)) == 5             # snapback: 5 black stones
    assert board.captures(WHITE) == 5
    assert board.chain_liberties(from_gtp("B1", 9)) == 3


def test_superko_matches_brute_force_history():
    # Random games on a small board with superko on: every listed legal move
    # leads to a position never seen before, and every refused one to a repeat.
    import random
    rng = random.Random(3)
    for game in range(20):
        board = Board(4, superko=True)
        seen = {board.hash}
        for _ in range(60):
            legal = set(board.legal_moves())
            for move in range(16):
                if board.color_at(move) != 0:
                    continue
                trial = board.copy()
                trial.superko = False
                reason = board.why_illegal(move)
                if reason in ("suicide", "ko"):
                    continue
                trial.play(move)
                assert (trial.hash in seen) == (move not in legal)
            move = rng.choice(sorted(legal)) if legal and rng.random() < 0.9 else PASS
            board.play(move)
            seen.add(board.hash)


def test_bad_input_raises_and_changes_nothing():
    board = board_with(black="D4", white="Q16")
    before = snapshot(board)
    for bad in (361, -2, 10**6):
        with pytest.raises(ValueError):
            board.play(bad)
    with pytest.raises(IllegalMove):
        board.play(from_gtp("D4", 19))            # occupied
    with pytest.raises(ValueError):
        board.play(0, color=3)
    with pytest.raises(ValueError):
        board.play(None)
    with pytest.raises(IllegalMove):
        board.setup_stones(black=pts("A1 D4"))      # D4 occupied: nothing placed
    assert snapshot(board) == before
    for size in (1, 26, 0, -5):
        with pytest.raises(ValueError):
            Board(size)


def test_any_size_from_2_to_25():
    for size in (2, 5, 9, 13, 19, 25):
        board = Board(size)
        assert len(board.legal_moves()) == size * size
        board.play(size * size - 1)
        assert board.color_at(size * size - 1) == BLACK
        moves, _ = board.random_playouts(3, seed=size)
        assert moves > 0


def test_copy_is_independent():
    board = board_with(black="D4", white="Q16")
    copy = board.copy()
    copy.play(from_gtp("K10", 19))
    assert board.color_at(from_gtp("K10", 19)) == 0
    assert copy.history != board.history
    assert copy.hash != board.hash


def test_eyes():
    board = board_with(black="A2 B1 B2", size=9)
    assert board.is_eye(from_gtp("A1", 9), BLACK)
    assert not board.is_eye(from_gtp("A1", 9), WHITE)
    # A false eye in the middle: two diagonal opponent stones.
    board = board_with(black="D5 C4 E4 D3", white="C5 E3", size=9)
    assert not board.is_eye(from_gtp("D4", 9), BLACK)
    board = board_with(black="D5 C4 E4 D3", white="C5", size=9)
    assert board.is_eye(from_gtp("D4", 9), BLACK)
    # On the edge one diagonal opponent stone is enough to make it false.
    board = board_with(black="C1 E1 D2", white="C2", size=9)
    assert not board.is_eye(from_gtp("D1", 9), BLACK)


def test_ladder_capture_and_breaker():
    board = board_with(black="C4 D5 E3", white="D4")
    assert board.is_ladder_capture(from_gtp("D3", 19))    # the ladder runs up and right
    assert not board.is_ladder_capture(from_gtp("K10", 19))
    broken = board.copy()
    broken.setup_stones(white=pts("Q16"))                   # a ladder breaker on its path
    assert not broken.is_ladder_capture(from_gtp("D3", 19))
    # Escape: white in atari after black D3; extending at E4 fails without a
    # breaker and works with one.
    board.play(from_gtp("D3", 19))
    assert not board.is_ladder_escape(from_gtp("E4", 19))
    broken.play(from_gtp("D3", 19))
    assert broken.is_ladder_escape(from_gtp("E4", 19))


def test_area_score_tromp_taylor():
    board = board_with(black="C1 C2 C3 C4 C5", white="D1 D2 D3 D4 D5", size=5, komi=0.5)
    # Black owns columns A-C (15), white D-E (10).
    assert board.area_counts() == (15, 10)
    assert board.area_score() == pytest.approx(4.5)
    board = Board(9, komi=7.5)
    assert board.area_score() == pytest.approx(-7.5)        # empty board: nobody's area
    assert not board.is_game_over()
    board.play(PASS)
    board.play(PASS)
    assert board.is_game_over()


def test_ownership_plays_on_after_the_game_ended():
    # Scoring asks for ownership after both players passed: the playouts must
    # still be played, or dead stones would count as alive.
    board = board_with(black="E1 E2 E3 E4 E5 E6 E7 E8 E9 H5",
                       white="F1 F2 F3 F4 F5 F6 F7 F8 F9", size=9)
    before = scoring.ownership(board, 200, seed=4)   # light playouts
    board.play(PASS)
    board.play(PASS)
    after = scoring.ownership(board, 200, seed=4)
    assert after[4, 7] < 0                       # the black stone at H5 is white's
    assert np.array_equal(after, before)         # same position, same seed: same playouts


def test_a_board_pickles_whole():
    """Ray ships boards to its workers: the copy plays on exactly as the original."""
    import pickle
    board = Board(9, komi=6.5)
    for move in (20, 21, 29, 30, 12, 38, 22, 31):
        board.play(move)
    board.setup_stones(black=[80])
    copy = pickle.loads(pickle.dumps(board))
    assert (copy.size, copy.komi, copy.superko, copy.to_move) == (9, 6.5, True, board.to_move)
    assert copy.history == board.history and copy.hash == board.hash
    assert copy.legal_moves() == board.legal_moves()
    assert copy.captures(BLACK) == board.captures(BLACK)
    for move in copy.legal_moves()[:5]:
        a, b = board.copy(), copy.copy()
        a.play(move), b.play(move)
        assert a.hash == b.hash and a.legal_moves() == b.legal_moves()
