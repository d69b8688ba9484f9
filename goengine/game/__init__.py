"""The game: the board (Cython: chains, liberties, ko, ladders), game state with history
and undo, coordinates, SGF records and move types. The lowest layer: it imports no other."""
