"""The names every layer shares: the table's buttons and the referee's statuses.

A button press on a pin, the page's copy of a button and the referee's worker all
speak these words; the status LED and the page show the statuses.
"""

TURN, UNDO, UNDERTAKER, SEISMIC = "turn", "undo", "undertaker", "seismic"
BUTTONS = (TURN, UNDO, UNDERTAKER, SEISMIC)  # UNDO is a hold of TURN on the pins

READY, BUSY, LOOK, ERROR = "ready", "busy", "look", "error"
