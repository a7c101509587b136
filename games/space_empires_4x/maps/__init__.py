"""Space Empires 4X's meaning of its hex maps (rules) and its booklet's map pictures (draw); the core reads,
composes and prints the maps (generator/maps)."""
