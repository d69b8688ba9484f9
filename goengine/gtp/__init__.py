"""GTP v2: the protocol (lines, ids, errors), the command families, the engine object and
time control. Imports the layers below; nothing below imports it."""
