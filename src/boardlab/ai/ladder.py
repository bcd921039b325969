"""The measured ladder: each level's rating (Bradley–Terry, Elo scale, the random mover at 0)
from the seeded leagues in docs/ai-levels.md and docs/ai-levels-dotdash.md, for front ends to
show beside the level names. `benchmarks/ladder.py` measures them again.

Ratings are given only for the boards they were measured on (game, variant and size): the
levels are tuned per board, so a rating from another board would say little."""

from __future__ import annotations

# (game, variant, board size) -> player -> rating; measured 2026-11-23/24 (see the docs) with
# every level at its settings for that board (Dot Dash level 4 at 1 s a move on 13×13 and
# larger but frozen 13×13 and 14×14, a fixed depth elsewhere; Dodgem level 4 from the table
# where one exists, else its search: 6×6 and larger)
MEASURED: dict[tuple[str, str, int], dict[str, int]] = {
    ("dodgem", "classic", 3): {"random": 0, "1": 461, "2": 626, "3": 901, "4": 1176},
    ("dodgem", "classic", 4): {"random": 0, "1": 658, "2": 911, "3": 1125, "4": 1248},
    ("dodgem", "classic", 5): {"random": 0, "1": 525, "2": 772, "3": 1047, "4": 1292},
    ("dodgem", "blocked-loses", 5): {"random": 0, "1": 561, "2": 822, "3": 1105, "4": 1379},
    ("dodgem", "misere", 4): {"random": 0, "1": 439, "2": 636, "3": 835, "4": 1042},
    ("dodgem", "blocked-loses", 4): {"random": 0, "1": 626, "2": 874, "3": 1154, "4": 1356},
    ("dodgem", "piecepack", 5): {"random": 0, "1": 563, "2": 837, "3": 1075, "4": 1200},
    ("dodgem", "piecepack", 4): {"random": 0, "1": 550, "2": 765, "3": 947, "4": 1042},
    ("dodgem", "piecepack", 3): {"random": 0, "1": 374, "2": 529, "3": 666, "4": 753},
    ("dodgem", "blocked-loses", 3): {"random": 0, "1": 436, "2": 690, "3": 941, "4": 1196},
    ("dodgem", "classic", 6): {"random": 0, "1": 763, "2": 1023, "3": 1177, "4": 1385},
    ("dodgem", "misere", 5): {"random": 0, "1": 599, "2": 769, "3": 919, "4": 1178},
    ("dodgem", "misere", 3): {"random": 0, "1": 412, "2": 672, "3": 828, "4": 938},
    ("dotdash", "standard", 9): {"random": 0, "1": 655, "2": 900, "3": 1156, "4": 1430},
    ("dotdash", "standard", 13): {"random": 0, "1": 487, "2": 635, "3": 787, "4": 1063},
    ("dodgem", "blocked-loses", 6): {"random": 0, "1": 763, "2": 1038, "3": 1223, "4": 1420},
    ("dodgem", "piecepack", 6): {"random": 0, "1": 348, "2": 679, "3": 799, "4": 918},
    ("dodgem", "classic", 7): {"random": 0, "1": 529, "2": 741, "3": 954, "4": 1215},
    ("dodgem", "blocked-loses", 7): {"random": 0, "1": 446, "2": 617, "3": 842, "4": 1068},
    ("dodgem", "piecepack", 7): {"random": 0, "1": 763, "2": 972, "3": 1135, "4": 1344},
    ("dodgem", "classic", 8): {"random": 0, "1": 559, "2": 808, "3": 1162, "4": 1336},
    ("dodgem", "piecepack", 8): {"random": 0, "1": 645, "2": 925, "3": 1105, "4": 1330},
    # blocked-loses 8×8 with the 25,000-node level 3
    ("dodgem", "blocked-loses", 8): {"random": 0, "1": 645, "2": 925, "3": 1150, "4": 1430},
    # misère 6×6 to 8×8: noisy levels, level 4 too (no table); many games drawn
    ("dodgem", "misere", 6): {"random": 0, "1": 763, "2": 1023, "3": 1283, "4": 1469},
    ("dodgem", "misere", 7): {"random": 0, "1": 763, "2": 927, "3": 1070, "4": 1278},
    ("dodgem", "misere", 8): {"random": 0, "1": 568, "2": 765, "3": 950, "4": 1196},
    ("dotdash", "standard", 7): {"random": 0, "1": 419, "2": 665, "3": 771, "4": 979},
    # 8×8 under every rule measured again with its own level 1 (no race solving)
    ("dotdash", "standard", 8): {"random": 0, "1": 427, "2": 710, "3": 1015, "4": 1213},
    ("dotdash", "standard", 10): {"random": 0, "1": 661, "2": 825, "3": 1083, "4": 1322},
    ("dotdash", "standard", 11): {"random": 0, "1": 636, "2": 899, "3": 1102, "4": 1420},
    ("dotdash", "standard", 12): {"random": 0, "1": 654, "2": 850, "3": 1059, "4": 1350},
    # 14×14 and up: level 4 at its default 1 s a move (standard 14×14 0.25 s, 15×15 0.5 s,
    # frozen 15×15 and capture 14×14 0.5 s, with and without the limit), neighbouring levels only
    ("dotdash", "standard", 14): {"random": 0, "1": 568, "2": 753, "3": 897, "4": 1060},
    ("dotdash", "standard", 15): {"random": 0, "1": 763, "2": 949, "3": 1182, "4": 1415},
    ("dotdash", "standard", 16): {"random": 0, "1": 763, "2": 887, "3": 1072, "4": 1236},
    ("dotdash", "standard", 17): {"random": 0, "1": 763, "2": 949, "3": 1239, "4": 1424},
    # standard 18×18: level 4 at 1.5 s, its pairing with level 3 measured again
    ("dotdash", "standard", 18): {"random": 0, "1": 763, "2": 907, "3": 1050, "4": 1340},
    # standard 19×19 with the coarse level 3 (the unlimited variant below alike)
    ("dotdash", "standard", 19): {"random": 0, "1": 763, "2": 1023, "3": 1187, "4": 1351},
    # frozen and capture, 7×7 to 13×13 (13×13 neighbouring levels only); capture 9×9 and
    # 13×13, frozen 12×12 and 13×13 measured again with level 1's rate for the rule (capture
    # 13×13: levels 1 and 2 again, the upper pairings' scores from its earlier ladder)
    ("dotdash", "frozen", 9): {"random": 0, "1": 614, "2": 812, "3": 1121, "4": 1376},
    ("dotdash", "capture", 9): {"random": 0, "1": 528, "2": 779, "3": 1065, "4": 1332},
    ("dotdash", "frozen", 7): {"random": 0, "1": 430, "2": 687, "3": 819, "4": 970},
    ("dotdash", "capture", 7): {"random": 0, "1": 526, "2": 722, "3": 897, "4": 1068},
    ("dotdash", "frozen", 8): {"random": 0, "1": 411, "2": 697, "3": 950, "4": 1207},
    ("dotdash", "capture", 8): {"random": 0, "1": 449, "2": 738, "3": 951, "4": 1307},
    ("dotdash", "frozen", 10): {"random": 0, "1": 658, "2": 829, "3": 1102, "4": 1312},
    ("dotdash", "capture", 10): {"random": 0, "1": 669, "2": 806, "3": 1081, "4": 1372},
    ("dotdash", "frozen", 11): {"random": 0, "1": 643, "2": 860, "3": 1143, "4": 1441},
    ("dotdash", "capture", 11): {"random": 0, "1": 627, "2": 928, "3": 1138, "4": 1487},
    # frozen 12×12 measured again with level 4 solving races 2 plies deep
    ("dotdash", "frozen", 12): {"random": 0, "1": 648, "2": 859, "3": 1102, "4": 1307},
    ("dotdash", "capture", 12): {"random": 0, "1": 634, "2": 881, "3": 1203, "4": 1474},
    ("dotdash", "frozen", 13): {"random": 0, "1": 763, "2": 996, "3": 1229, "4": 1519},
    ("dotdash", "capture", 13): {"random": 0, "1": 763, "2": 1053, "3": 1286, "4": 1546},
    # frozen on 14×14 to 19×19, capture on 14×14 to 18×18 (neighbouring levels only; frozen
    # 18×18 measured again with level 1's rate for frozen stones, with and without the limit)
    ("dotdash", "frozen", 14): {"random": 0, "1": 568, "2": 753, "3": 986, "4": 1276},
    ("dotdash", "frozen", 15): {"random": 0, "1": 763, "2": 927, "3": 1070, "4": 1360},
    ("dotdash", "frozen", 16): {"random": 0, "1": 763, "2": 1023, "3": 1187, "4": 1447},
    # frozen 17×17 (with and without the limit) measured again with level 3 solving races 3
    # plies deep
    ("dotdash", "frozen", 17): {"random": 0, "1": 763, "2": 949, "3": 1239, "4": 1472},
    ("dotdash", "frozen", 18): {"random": 0, "1": 763, "2": 996, "3": 1286, "4": 1495},
    ("dotdash", "frozen", 19): {"random": 0, "1": 763, "2": 907, "3": 1092, "4": 1277},
    ("dotdash", "capture", 14): {"random": 0, "1": 763, "2": 1053, "3": 1313, "4": 1546},
    ("dotdash", "capture", 15): {"random": 0, "1": 763, "2": 996, "3": 1229, "4": 1415},
    # capture 16×16: level 3 with one move in a hundred random, measured again
    ("dotdash", "capture", 16): {"random": 0, "1": 763, "2": 887, "3": 1011, "4": 1219},
    # capture 18×18: level 2 with one move in fifty random, measured again
    ("dotdash", "capture", 18): {"random": 0, "1": 568, "2": 753, "3": 939, "4": 1147},
    # without the reserve limit on 13×13 and up, neighbouring levels only (measured on their
    # own: level 4 thinks on a clock there but under frozen stones on 13×13 and 14×14, and
    # from 14×14 up some games use up a reserve)
    # standard-unlimited 13×13: level 4 against level 3 over 80 games (seeds 1 and 2)
    ("dotdash", "standard-unlimited", 13): {"random": 0, "1": 763, "2": 949, "3": 1134, "4": 1485},
    ("dotdash", "frozen-unlimited", 13): {"random": 0, "1": 763, "2": 996, "3": 1229, "4": 1519},
    ("dotdash", "capture-unlimited", 13): {"random": 0, "1": 763, "2": 1053, "3": 1286, "4": 1576},
    ("dotdash", "frozen-unlimited", 14): {"random": 0, "1": 568, "2": 753, "3": 1013, "4": 1337},
    ("dotdash", "standard-unlimited", 14): {"random": 0, "1": 568, "2": 753, "3": 897, "4": 1130},
    ("dotdash", "standard-unlimited", 15): {"random": 0, "1": 763, "2": 949, "3": 1182, "4": 1415},
    ("dotdash", "frozen-unlimited", 15): {"random": 0, "1": 763, "2": 907, "3": 1050, "4": 1340},
    ("dotdash", "standard-unlimited", 16): {"random": 0, "1": 763, "2": 887, "3": 1072, "4": 1280},
    ("dotdash", "frozen-unlimited", 16): {"random": 0, "1": 763, "2": 1023, "3": 1187, "4": 1420},
    ("dotdash", "frozen-unlimited", 17): {"random": 0, "1": 763, "2": 949, "3": 1239, "4": 1472},
    ("dotdash", "standard-unlimited", 17): {"random": 0, "1": 763, "2": 949, "3": 1239, "4": 1382},
    ("dotdash", "frozen-unlimited", 18): {"random": 0, "1": 763, "2": 996, "3": 1286, "4": 1519},
    # standard-unlimited 18×18: level 4 at 1.5 s, its pairing with level 3 measured again
    ("dotdash", "standard-unlimited", 18): {"random": 0, "1": 763, "2": 907, "3": 1050, "4": 1340},
    ("dotdash", "frozen-unlimited", 19): {"random": 0, "1": 763, "2": 907, "3": 1092, "4": 1235},
    ("dotdash", "standard-unlimited", 19): {"random": 0, "1": 763, "2": 1023, "3": 1187, "4": 1372},
    # capture-unlimited 14×14 as capture 14×14 (below level 4 they scored alike, pair by pair)
    ("dotdash", "capture-unlimited", 14): {"random": 0, "1": 763, "2": 1053, "3": 1313, "4": 1546},
    ("dotdash", "capture-unlimited", 15): {"random": 0, "1": 763, "2": 996, "3": 1229, "4": 1438},
    # capture-unlimited 16×16 as capture 16×16 (their leagues below level 4 were the same game
    # for game before level 3's random moves)
    ("dotdash", "capture-unlimited", 16): {"random": 0, "1": 763, "2": 887, "3": 1011, "4": 1219},
    # capture-unlimited 18×18 as capture 18×18 (not measured on its own since level 2's random
    # moves; before them its 10-game ladder's steps were 95, 70, 65, 75%, capture's 98, 78, 60, 65%)
    ("dotdash", "capture-unlimited", 18): {"random": 0, "1": 568, "2": 753, "3": 939, "4": 1147},
    # capture 17×17 with the coarse level 3 (also one move in fifty random): levels 1 and 2
    # from the ladder, 2-3 and 3-4 measured again (with and without the limit the cross
    # tables were the same game for game but for two of level 4's games, before level 3's
    # random moves)
    ("dotdash", "capture", 17): {"random": 0, "1": 763, "2": 1023, "3": 1167, "4": 1375},
    ("dotdash", "capture-unlimited", 17): {"random": 0, "1": 763, "2": 1023, "3": 1167, "4": 1375},
    # capture 19×19 with levels 1 to 3 solving races 4 plies deep (every pairing measured
    # again; capture-unlimited 19×19: its pairings below level 4 measured, level 4's taken
    # from capture's: see docs/ai-levels-dotdash.md)
    ("dotdash", "capture", 19): {"random": 0, "1": 763, "2": 949, "3": 1112, "4": 1276},
    ("dotdash", "capture-unlimited", 19): {"random": 0, "1": 763, "2": 927, "3": 1091, "4": 1254},
}
# On 7×7 no player can hold more stones than its reserve of 60 (the board has 49 points), so
# the unlimited variants are the limited ones there; on 8×8 to 11×11 their leagues gave the
# same results, pairing by pairing (no game ran out of its reserve), and on 12×12 the same
# ratings and intervals
for _limited in ("standard", "frozen", "capture"):
    for _size in (7, 8, 9, 10, 11, 12):
        MEASURED["dotdash", f"{_limited}-unlimited", _size] = MEASURED["dotdash", _limited, _size]


def ladder_ratings(game: str, variant: str, size: int) -> dict[str, int] | None:
    """The ratings by player measured on exactly this board, or None if it was not measured."""
    return MEASURED.get((game, variant, size))
