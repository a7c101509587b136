"""A typeset document (the rules booklet, a reference sheet): rendered Markdown blocks -> platypus story ->
PDF -> figure art laid on -> imposed PDF. generator/documents/make.py drives it.

markdown.py parses rendered chapters into plain blocks, story.py turns blocks into flowables (tables,
figures' room and callouts), document.py lays the pages out, overlay.py lays each figure's art on them,
impose.py folds them into a saddle-stitched booklet.
"""
from pnpgen.documents.deferred_patterns import defer_reportlab_patterns

defer_reportlab_patterns()   # before story and document import reportlab.platypus
