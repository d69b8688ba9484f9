"""Training the engine's networks from game records.

A package beside the engine: it imports goengine (board, features, networks)
and the engine never imports it. dataset holds the train/held-out split and the
compact game store, sampler turns stored games into minibatches, trainer runs
the supervised loop, tasks says what the policy and value networks learn, and
evaluation scores a network file on held-out games. The command-line entry
points are in tools/ (train_policy.py, train_value.py, eval_*.py, make_shards.py).
"""
