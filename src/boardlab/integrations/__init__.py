"""Doors to outside frameworks: OpenSpiel games and bots (`boardlab.integrations.openspiel`),
PettingZoo environments (`boardlab.integrations.pettingzoo`) and a perfect-play oracle that
scores learners against the tablebase (`boardlab.integrations.oracle`).

The first two need their extras (`pip install boardlab[openspiel]`, `boardlab[pettingzoo]`);
nothing here is imported by `import boardlab`.
"""
