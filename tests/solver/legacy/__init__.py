"""The slice solver BoardLab used before the tier solver, kept only as a reference for tests.

`solve_in_memory` gives the complete code array in the old slice order; the tier solver must
agree with it on every position."""
