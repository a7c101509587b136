"""The parts that print a Space Empires 4X kit: counters, hex maps, aid cards, record sheets, the booklet."""
