"""Dodgem computer players: the bit-mask search, levels 1-4, the table player, forced results."""
