"""The komis a four-headed network knows, without torch (the trainer's feature
workers make score targets with them; nets reads the heads with them)."""

# The komi of every game the shipped networks learned from (Tygem, KM[6.5]): the
# value head knows no other, and nets.value_at_komi moves it to the game's.
TRAINED_KOMI = 6.5

# The komi the score head's margin counts, TRAINED_KOMI's whole-point neighbour (so a
# game's margin falls on one bin). Not the board margin without komi: neither head sees
# the komi, and the shipped networks' trunks hardly tell who is to move (their score
# heads, trained on board margins, were off by the komi, -6.4 points for Black to
# move and +6.8 for White on held-out games: docs/RESULTS.md, 2026-11-27), so only a
# margin with the games' komi in it is one they can learn.
SCORE_KOMI = 7.0
