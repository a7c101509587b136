"""Documents from Markdown: the rules booklet and reference sheets of a kit."""
