"""Space Empires 4X's rules booklet: its chapters' context and helpers, its figures drawn from the counter
templates, the scenario maps; typeset by the core's booklet story and document (generator/booklet)."""
