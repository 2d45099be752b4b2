"""The computer's levels, in the order settings, saves and statistics number them: the one list.

``gin.ai`` re-exports it (``ai.LEVELS``) and makes a player of each name.  It
lives in this tiny module so that the title screen can name the levels
without loading the computer players (RAM on the Pico).
"""

LEVELS = ("easy", "normal", "hard", "expert")  # new levels go at the end: saves store the index
