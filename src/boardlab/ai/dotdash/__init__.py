"""Dot Dash computer players: the compiled alpha-beta search, levels 1-4, the pie agent."""
