"""The page's one mode (issue 9 item 1): what the table is doing now.

The app root (``web.app``) holds exactly one ``Mode``; it decides what a tap or a
panel button may do, in place of separate busy/searching/finishing flags. A sheet
over the table (``web.dialogs``) is not a mode: it covers the table in any mode
and leaves the mode as it was.

DOM contract: ``body[data-mode]`` is the mode's value; ``body[data-state]`` keeps
its older, coarser meaning — ``loading``, ``won``, else ``ready``.
"""

from __future__ import annotations

from enum import Enum


class Mode(Enum):
    LOADING = "loading"      # Python is starting, or the first deal is being found
    READY = "ready"          # the player plays
    SEARCHING = "searching"  # a verified deal is being found to deal (New deal, Deal of the day)
    THINKING = "thinking"    # the solver looks for Finish's line (F2); Finish again stops it
    FINISHING = "finishing"  # a Finish line (F1 or F2) is being played card by card
    WON = "won"              # the game on the table is won: no more moves

    @property
    def state(self) -> str:
        """``body[data-state]``: loading / won / ready."""
        return self.value if self in (Mode.LOADING, Mode.WON) else "ready"
