"""The networks: input planes (Cython), network definitions, network files and inference.
Imports only goengine.game."""
