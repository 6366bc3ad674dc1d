"""Layout step: from the recognizer's tiles (boxes, kinds, angles) to the hand on the table.

A winning hand photographed on the table shows a *concealed part* (the tiles from the rack,
usually one contiguous block), *exposed sets* (set apart by a gap, lying in a row in front of
the rack, or holding one sideways tile: the claimed discard), *declared concealed kongs*
(four tiles with the outer or the middle two face down, ``X``) and *flowers/seasons* laid
aside. This package turns the geometry into those groups, with a reason and a confidence for
every decision, and writes the hand in spec §1 notation (without the winning tile: the photo
cannot show which tile won; see :func:`hand_notation`).

Modules, one job each: ``notation`` (group kinds, the engine's tokens and notation),
``model`` (:class:`Group`, :class:`Layout`), ``geometry`` (steps 1-3), ``sets`` (blocks into
sets), ``search`` (step 4: the role search, :func:`group_tiles`), ``build`` (an assignment ->
a layout), ``alternatives`` (nearby regroupings), ``edits`` (one tile changed or dropped).

How it works (all in the row frame, so any photo rotation works):

1. Row direction: the direction to each tile's nearest neighbour, averaged as a doubled
   angle (tiles in a row touch; rows lie further apart), falling back to the tiles' face
   angles; the reading sense (left -> right) follows the dominant face angle.
2. Rows: gaps across the row direction larger than half a tile height.
3. Blocks: gaps along a row larger than ``gap_ratio`` tile widths (a sideways tile is wider,
   which the expected pitch accounts for); a claimed set and declared concealed kongs
   (``X a a X``, ``a X X a``) are cut out of a block they touch (``sets``).
4. Roles: every assignment of blocks to "concealed" or "sets" is scored (concealed count is
   3n+2, sets blocks split into pungs/chows/kongs, sideways tiles mark exposed sets, the
   concealed part lies in one row, the concealed row is the one nearest the camera); the best
   one wins and the margin to the runner-up is the decision's confidence.

DECISION: in a one-row photo the concealed tiles are expected to touch; concealed sets laid
apart by a gap read as exposed (the layout cannot tell them apart; fix with ``--hand`` or the
review). Group ``confidence`` is the confidence of the *grouping* decision, not of the tile
readings (those stay on each :class:`TileRead`).
"""

from .alternatives import alternative_layouts
from .edits import with_kind, with_tile_added, without_tile
from .model import Group, Layout, hand_notation, layout_from_groups
from .notation import (BONUS, CONCEALED, CONCEALED_KONG, EXPOSED, GROUP_KINDS, compact,
                                           group_notation, is_bonus, set_type, sort_key)
from .search import GAP_RATIO, candidate_layouts, group_tiles, unstretch_factors

__all__ = ["BONUS", "CONCEALED", "CONCEALED_KONG", "EXPOSED", "GAP_RATIO", "GROUP_KINDS", "Group", "Layout",
           "alternative_layouts", "candidate_layouts", "compact", "group_notation", "group_tiles",
           "hand_notation", "is_bonus", "layout_from_groups", "set_type", "sort_key", "unstretch_factors",
           "with_kind", "with_tile_added", "without_tile"]
