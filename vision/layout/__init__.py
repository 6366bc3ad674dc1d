from mjscore.vision.layout.search import *  # noqa: F401,F403  (stop-gap while the split lands)
from mjscore.vision.layout.search import _iou, sort_key  # noqa: F401
