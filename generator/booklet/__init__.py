"""The rules booklet: Markdown chapters with Jinja numbers -> blocks -> platypus story -> PDF -> imposed PDF.

markdown.py parses the rendered chapters into plain blocks, tables.py turns kit data into table rows,
figures.py renders counter art from the real templates, story.py turns blocks into flowables,
document.py lays the pages out, impose.py folds them into a saddle-stitched booklet.
"""
