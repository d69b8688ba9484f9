"""Engines run against each other and against GNU Go's readers: the GTP client, GNU Go as
an oracle, and refereed match games. Programs under tools/ use it; the engine never does."""
