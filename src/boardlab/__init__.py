"""BoardLab: play, solve and study Dodgem and its relatives, and Dot Dash."""

__version__ = "0.1.0"
