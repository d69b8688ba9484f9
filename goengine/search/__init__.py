"""APV-MCTS: the tree (Cython), the search loop that owns the stop rule, its SearchConfig
and the network thread. Imports the game, rollout and nn layers."""
