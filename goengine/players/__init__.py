"""What the GTP layer drives: the Player contract, the policy and random players, and the
MCTS player with tree reuse, pondering and analysis. Imports the layers below."""
