"""Space Empires 4X's hex maps: the layout files, where each part of a board sits, and its drawing."""
