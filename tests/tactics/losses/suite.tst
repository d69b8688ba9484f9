# goengine's tactical suite: made by tools/tactics_suite.py from positions of lost
# games where the move played was not an answer;
# answers from GNU Go 3.8's owl_attack/owl_defend reading.
# Run: .venv/bin/python tools/regress.py tests/tactics/losses/suite.tst

# 2026-11-25-gnugo10-handicap5-zen4/game-007.sgf before move 47: kill Q17 (9 stones); the game played S17
loadsgf positions.sgfs:1
1 reg_genmove w
#? [O12]

# 2026-11-25-gnugo10-handicap5-zen4/game-007.sgf before move 201: live N18 (6 stones); the game played R5
loadsgf positions.sgfs:2
2 reg_genmove w
#? [S18]

# 2026-11-25-gnugo10-handicap5-zen4/game-007.sgf before move 277: live Q14 (15 stones); the game played K12
loadsgf positions.sgfs:3
3 reg_genmove w
#? [T12]

# 2026-11-25-gnugo10-handicap7-zen4/game-006.sgf before move 211: live C18 (5 stones); the game played H18
loadsgf positions.sgfs:4
4 reg_genmove w
#? [A18]

