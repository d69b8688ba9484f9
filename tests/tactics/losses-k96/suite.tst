# goengine's tactical suite: made by tools/tactics_suite.py from positions of lost
# games where the move played was not an answer;
# answers from GNU Go 3.8's owl_attack/owl_defend reading.
# Run: .venv/bin/python tools/regress.py tests/tactics/losses-k96/suite.tst

# 2026-11-29-gnugo10-handicap7-auto-avx2/game-006.sgf before move 149: live P19 (10 stones); the game played K17
loadsgf positions.sgfs:1
1 reg_genmove w
#? [R15|S15|S16]

# 2026-11-29-gnugo10-handicap7-auto-avx2/game-007.sgf before move 167: kill Q7 (9 stones); the game played T7
loadsgf positions.sgfs:2
2 reg_genmove w
#? [T6]

# 2026-11-29-gnugo10-handicap7-auto-avx2/game-007.sgf before move 211: live P9 (11 stones); the game played N13
loadsgf positions.sgfs:3
3 reg_genmove w
#? [T6]

# 2026-11-29-gnugo10-handicap7-auto-avx2/game-014.sgf before move 87: live L5 (5 stones); the game played K7
loadsgf positions.sgfs:4
4 reg_genmove w
#? [K4|J5|K5]

# 2026-11-29-gnugo10-handicap7-auto-avx2/game-014.sgf before move 321: live N11 (7 stones); the game played T7
loadsgf positions.sgfs:5
5 reg_genmove w
#? [N7]

# 2026-11-29-gnugo10-handicap7-auto-avx2/game-021.sgf before move 91: kill B17 (6 stones); the game played E11
loadsgf positions.sgfs:6
6 reg_genmove w
#? [B15|A17|C18]

# 2026-11-29-gnugo10-handicap7-auto-avx2/game-022.sgf before move 167: kill L18 (5 stones); the game played L14
loadsgf positions.sgfs:7
7 reg_genmove w
#? [K16]

