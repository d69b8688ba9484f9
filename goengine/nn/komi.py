"""The komis a four-headed network knows, without torch (the trainer's feature
workers make score targets with them; nets reads the heads with them)."""

# The komi of every game the shipped networks learned from (Tygem, KM[6.5]): the
# value head knows no other, and nets.value_at_komi moves it to the game's.
TRAINED_KOMI = 6.5

# The komi the score head's margin counts: TRAINED_KOMI's whole-point neighbour, so a
# margin falls on one bin and has the games' komi in it (docs/DECISIONS.md, "score head's komi").
SCORE_KOMI = 7.0
