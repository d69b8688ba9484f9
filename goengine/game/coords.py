"""The one place that converts between move ints and the outside world's
coordinates: GTP vertices ("D4"), SGF points ("dp") and (row, col) pairs.

A move is row * size + col with row 0 at the bottom (GTP row 1), or PASS (-1).
"""

from goengine import PASS

GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"   # GTP skips I
SGF_LETTERS = "abcdefghijklmnopqrstuvwxy"


def from_rowcol(row, col, size):
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"({row}, {col}) is off the {size}x{size} board")
    return row * size + col


def top_down(size):
    """Every point in reading order from the top left (A19 first on 19x19): how GUIs and
    KataGo lay out a map of the board."""
    return [from_rowcol(row, col, size) for row in range(size - 1, -1, -1)
            for col in range(size)]


def to_rowcol(move, size):
    """(row, col) of a move, None for pass (sgfmill's convention)."""
    if move == PASS:
        return None
    return divmod(move, size)


def to_gtp(move, size):
    if move == PASS:
        return "pass"
    row, col = divmod(move, size)
    return f"{GTP_COLUMNS[col]}{row + 1}"


def from_gtp(vertex, size):
    """Parse a GTP vertex, case-insensitively; ValueError if malformed or off board."""
    text = vertex.strip().upper()
    if text == "PASS":
        return PASS
    if len(text) < 2 or text[0] not in GTP_COLUMNS or not text[1:].isdigit():
        raise ValueError(f"invalid vertex {vertex!r}")
    col = GTP_COLUMNS.index(text[0])
    row = int(text[1:]) - 1
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"vertex {vertex!r} is off the {size}x{size} board")
    return row * size + col


def to_sgf(move, size):
    """SGF point ("dp"; row 'a' is the top), "" for pass."""
    if move == PASS:
        return ""
    row, col = divmod(move, size)
    return SGF_LETTERS[col] + SGF_LETTERS[size - 1 - row]


def from_sgf(point, size):
    """Parse an SGF point; "" and "tt" (on boards up to 19) are passes."""
    if point == "" or (point == "tt" and size <= 19):
        return PASS
    if len(point) != 2 or point[0] not in SGF_LETTERS or point[1] not in SGF_LETTERS:
        raise ValueError(f"invalid SGF point {point!r}")
    col = SGF_LETTERS.index(point[0])
    row = size - 1 - SGF_LETTERS.index(point[1])
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"SGF point {point!r} is off the {size}x{size} board")
    return row * size + col
