"""The published basic-strategy charts, as data (their sources: game/rules/strategy.py).

Kept apart from :mod:`game.rules.strategy`, which parses and applies them, so a chart can
be read and checked against its source without reading the logic.
"""

from __future__ import annotations

# One grid per published chart. Rows: hard totals 4–21, soft totals 12–21 (soft 12 is
# A,A when it cannot be split) and pairs by rank (T = any ten-card). Columns: upcard.

MULTI_S17 = """
hard  2  3  4  5  6  7  8  9  T  A
 4    H  H  H  H  H  H  H  H  H  H
 5    H  H  H  H  H  H  H  H  H  H
 6    H  H  H  H  H  H  H  H  H  H
 7    H  H  H  H  H  H  H  H  H  H
 8    H  H  H  H  H  H  H  H  H  H
 9    H  D  D  D  D  H  H  H  H  H
10    D  D  D  D  D  D  D  D  H  H
11    D  D  D  D  D  D  D  D  D  H
12    H  H  S  S  S  H  H  H  H  H
13    S  S  S  S  S  H  H  H  H  H
14    S  S  S  S  S  H  H  H  H  H
15    S  S  S  S  S  H  H  H  Rh H
16    S  S  S  S  S  H  H  Rh Rh Rh
17    S  S  S  S  S  S  S  S  S  S
18    S  S  S  S  S  S  S  S  S  S
19    S  S  S  S  S  S  S  S  S  S
20    S  S  S  S  S  S  S  S  S  S
21    S  S  S  S  S  S  S  S  S  S
soft  2  3  4  5  6  7  8  9  T  A
12    H  H  H  H  H  H  H  H  H  H
13    H  H  H  D  D  H  H  H  H  H
14    H  H  H  D  D  H  H  H  H  H
15    H  H  D  D  D  H  H  H  H  H
16    H  H  D  D  D  H  H  H  H  H
17    H  D  D  D  D  H  H  H  H  H
18    S  Ds Ds Ds Ds S  S  H  H  H
19    S  S  S  S  S  S  S  S  S  S
20    S  S  S  S  S  S  S  S  S  S
21    S  S  S  S  S  S  S  S  S  S
pair  2  3  4  5  6  7  8  9  T  A
 2    Ph Ph P  P  P  P  H  H  H  H
 3    Ph Ph P  P  P  P  H  H  H  H
 4    H  H  H  Ph Ph H  H  H  H  H
 5    D  D  D  D  D  D  D  D  H  H
 6    Ph P  P  P  P  H  H  H  H  H
 7    P  P  P  P  P  P  H  H  H  H
 8    P  P  P  P  P  P  P  P  P  P
 9    P  P  P  P  P  S  P  P  S  S
 T    S  S  S  S  S  S  S  S  S  S
 A    P  P  P  P  P  P  P  P  P  P
"""

MULTI_H17 = """
hard  2  3  4  5  6  7  8  9  T  A
 4    H  H  H  H  H  H  H  H  H  H
 5    H  H  H  H  H  H  H  H  H  H
 6    H  H  H  H  H  H  H  H  H  H
 7    H  H  H  H  H  H  H  H  H  H
 8    H  H  H  H  H  H  H  H  H  H
 9    H  D  D  D  D  H  H  H  H  H
10    D  D  D  D  D  D  D  D  H  H
11    D  D  D  D  D  D  D  D  D  D
12    H  H  S  S  S  H  H  H  H  H
13    S  S  S  S  S  H  H  H  H  H
14    S  S  S  S  S  H  H  H  H  H
15    S  S  S  S  S  H  H  H  Rh Rh
16    S  S  S  S  S  H  H  Rh Rh Rh
17    S  S  S  S  S  S  S  S  S  Rs
18    S  S  S  S  S  S  S  S  S  S
19    S  S  S  S  S  S  S  S  S  S
20    S  S  S  S  S  S  S  S  S  S
21    S  S  S  S  S  S  S  S  S  S
soft  2  3  4  5  6  7  8  9  T  A
12    H  H  H  H  H  H  H  H  H  H
13    H  H  H  D  D  H  H  H  H  H
14    H  H  H  D  D  H  H  H  H  H
15    H  H  D  D  D  H  H  H  H  H
16    H  H  D  D  D  H  H  H  H  H
17    H  D  D  D  D  H  H  H  H  H
18    Ds Ds Ds Ds Ds S  S  H  H  H
19    S  S  S  S  Ds S  S  S  S  S
20    S  S  S  S  S  S  S  S  S  S
21    S  S  S  S  S  S  S  S  S  S
pair  2  3  4  5  6  7  8  9  T  A
 2    Ph Ph P  P  P  P  H  H  H  H
 3    Ph Ph P  P  P  P  H  H  H  H
 4    H  H  H  Ph Ph H  H  H  H  H
 5    D  D  D  D  D  D  D  D  H  H
 6    Ph P  P  P  P  H  H  H  H  H
 7    P  P  P  P  P  P  H  H  H  H
 8    P  P  P  P  P  P  P  P  P  Rp
 9    P  P  P  P  P  S  P  P  S  S
 T    S  S  S  S  S  S  S  S  S  S
 A    P  P  P  P  P  P  P  P  P  P
"""

DOUBLE_S17 = """
hard  2  3  4  5  6  7  8  9  T  A
 4    H  H  H  H  H  H  H  H  H  H
 5    H  H  H  H  H  H  H  H  H  H
 6    H  H  H  H  H  H  H  H  H  H
 7    H  H  H  H  H  H  H  H  H  H
 8    H  H  H  H  H  H  H  H  H  H
 9    D  D  D  D  D  H  H  H  H  H
10    D  D  D  D  D  D  D  D  H  H
11    D  D  D  D  D  D  D  D  D  D
12    H  H  S  S  S  H  H  H  H  H
13    S  S  S  S  S  H  H  H  H  H
14    S  S  S  S  S  H  H  H  H  H
15    S  S  S  S  S  H  H  H  Rh H
16    S  S  S  S  S  H  H  H  Rh Rh
17    S  S  S  S  S  S  S  S  S  S
18    S  S  S  S  S  S  S  S  S  S
19    S  S  S  S  S  S  S  S  S  S
20    S  S  S  S  S  S  S  S  S  S
21    S  S  S  S  S  S  S  S  S  S
soft  2  3  4  5  6  7  8  9  T  A
12    H  H  H  H  H  H  H  H  H  H
13    H  H  H  D  D  H  H  H  H  H
14    H  H  D  D  D  H  H  H  H  H
15    H  H  D  D  D  H  H  H  H  H
16    H  H  D  D  D  H  H  H  H  H
17    H  D  D  D  D  H  H  H  H  H
18    S  Ds Ds Ds Ds S  S  H  H  H
19    S  S  S  S  S  S  S  S  S  S
20    S  S  S  S  S  S  S  S  S  S
21    S  S  S  S  S  S  S  S  S  S
pair  2  3  4  5  6  7  8  9  T  A
 2    Ph Ph P  P  P  P  H  H  H  H
 3    Ph Ph P  P  P  P  H  H  H  H
 4    H  H  H  Ph Ph H  H  H  H  H
 5    D  D  D  D  D  D  D  D  H  H
 6    P  P  P  P  P  Ph H  H  H  H
 7    P  P  P  P  P  P  Ph H  H  H
 8    P  P  P  P  P  P  P  P  P  P
 9    P  P  P  P  P  S  P  P  S  S
 T    S  S  S  S  S  S  S  S  S  S
 A    P  P  P  P  P  P  P  P  P  P
"""

DOUBLE_H17 = """
hard  2  3  4  5  6  7  8  9  T  A
 4    H  H  H  H  H  H  H  H  H  H
 5    H  H  H  H  H  H  H  H  H  H
 6    H  H  H  H  H  H  H  H  H  H
 7    H  H  H  H  H  H  H  H  H  H
 8    H  H  H  H  H  H  H  H  H  H
 9    D  D  D  D  D  H  H  H  H  H
10    D  D  D  D  D  D  D  D  H  H
11    D  D  D  D  D  D  D  D  D  D
12    H  H  S  S  S  H  H  H  H  H
13    S  S  S  S  S  H  H  H  H  H
14    S  S  S  S  S  H  H  H  H  H
15    S  S  S  S  S  H  H  H  Rh Rh
16    S  S  S  S  S  H  H  H  Rh Rh
17    S  S  S  S  S  S  S  S  S  Rs
18    S  S  S  S  S  S  S  S  S  S
19    S  S  S  S  S  S  S  S  S  S
20    S  S  S  S  S  S  S  S  S  S
21    S  S  S  S  S  S  S  S  S  S
soft  2  3  4  5  6  7  8  9  T  A
12    H  H  H  H  H  H  H  H  H  H
13    H  H  H  D  D  H  H  H  H  H
14    H  H  D  D  D  H  H  H  H  H
15    H  H  D  D  D  H  H  H  H  H
16    H  H  D  D  D  H  H  H  H  H
17    H  D  D  D  D  H  H  H  H  H
18    Ds Ds Ds Ds Ds S  S  H  H  H
19    S  S  S  S  Ds S  S  S  S  S
20    S  S  S  S  S  S  S  S  S  S
21    S  S  S  S  S  S  S  S  S  S
pair  2  3  4  5  6  7  8  9  T  A
 2    Ph Ph P  P  P  P  H  H  H  H
 3    Ph Ph P  P  P  P  H  H  H  H
 4    H  H  H  Ph Ph H  H  H  H  H
 5    D  D  D  D  D  D  D  D  H  H
 6    P  P  P  P  P  Ph H  H  H  H
 7    P  P  P  P  P  P  Ph H  H  H
 8    P  P  P  P  P  P  P  P  P  Rp
 9    P  P  P  P  P  S  P  P  S  S
 T    S  S  S  S  S  S  S  S  S  S
 A    P  P  P  P  P  P  P  P  P  P
"""

SINGLE_S17 = """
hard  2  3  4  5  6  7  8  9  T  A
 4    H  H  H  H  H  H  H  H  H  H
 5    H  H  H  H  H  H  H  H  H  H
 6    H  H  H  H  H  H  H  H  H  H
 7    H  H  H  H  H  H  H  H  H  H
 8    H  H  H  D  D  H  H  H  H  H
 9    D  D  D  D  D  H  H  H  H  H
10    D  D  D  D  D  D  D  D  H  H
11    D  D  D  D  D  D  D  D  D  D
12    H  H  S  S  S  H  H  H  H  H
13    S  S  S  S  S  H  H  H  H  H
14    S  S  S  S  S  H  H  H  H  H
15    S  S  S  S  S  H  H  H  H  H
16    S  S  S  S  S  H  H  H  Rh Rh
17    S  S  S  S  S  S  S  S  S  S
18    S  S  S  S  S  S  S  S  S  S
19    S  S  S  S  S  S  S  S  S  S
20    S  S  S  S  S  S  S  S  S  S
21    S  S  S  S  S  S  S  S  S  S
soft  2  3  4  5  6  7  8  9  T  A
12    H  H  H  H  H  H  H  H  H  H
13    H  H  D  D  D  H  H  H  H  H
14    H  H  D  D  D  H  H  H  H  H
15    H  H  D  D  D  H  H  H  H  H
16    H  H  D  D  D  H  H  H  H  H
17    D  D  D  D  D  H  H  H  H  H
18    S  Ds Ds Ds Ds S  S  H  H  S
19    S  S  S  S  Ds S  S  S  S  S
20    S  S  S  S  S  S  S  S  S  S
21    S  S  S  S  S  S  S  S  S  S
pair  2  3  4  5  6  7  8  9  T  A
 2    Ph P  P  P  P  P  H  H  H  H
 3    Ph Ph P  P  P  P  Ph H  H  H
 4    H  H  Ph Pd Pd H  H  H  H  H
 5    D  D  D  D  D  D  D  D  H  H
 6    P  P  P  P  P  Ph H  H  H  H
 7    P  P  P  P  P  P  Ph H  Rs H
 8    P  P  P  P  P  P  P  P  P  P
 9    P  P  P  P  P  S  P  P  S  S
 T    S  S  S  S  S  S  S  S  S  S
 A    P  P  P  P  P  P  P  P  P  P
"""

SINGLE_H17 = """
hard  2  3  4  5  6  7  8  9  T  A
 4    H  H  H  H  H  H  H  H  H  H
 5    H  H  H  H  H  H  H  H  H  H
 6    H  H  H  H  H  H  H  H  H  H
 7    H  H  H  H  H  H  H  H  H  H
 8    H  H  H  D  D  H  H  H  H  H
 9    D  D  D  D  D  H  H  H  H  H
10    D  D  D  D  D  D  D  D  H  H
11    D  D  D  D  D  D  D  D  D  D
12    H  H  S  S  S  H  H  H  H  H
13    S  S  S  S  S  H  H  H  H  H
14    S  S  S  S  S  H  H  H  H  H
15    S  S  S  S  S  H  H  H  H  Rh
16    S  S  S  S  S  H  H  H  Rh Rh
17    S  S  S  S  S  S  S  S  S  Rs
18    S  S  S  S  S  S  S  S  S  S
19    S  S  S  S  S  S  S  S  S  S
20    S  S  S  S  S  S  S  S  S  S
21    S  S  S  S  S  S  S  S  S  S
soft  2  3  4  5  6  7  8  9  T  A
12    H  H  H  H  H  H  H  H  H  H
13    H  H  D  D  D  H  H  H  H  H
14    H  H  D  D  D  H  H  H  H  H
15    H  H  D  D  D  H  H  H  H  H
16    H  H  D  D  D  H  H  H  H  H
17    D  D  D  D  D  H  H  H  H  H
18    S  Ds Ds Ds Ds S  S  H  H  H
19    S  S  S  S  Ds S  S  S  S  S
20    S  S  S  S  S  S  S  S  S  S
21    S  S  S  S  S  S  S  S  S  S
pair  2  3  4  5  6  7  8  9  T  A
 2    Ph P  P  P  P  P  H  H  H  H
 3    Ph Ph P  P  P  P  Ph H  H  H
 4    H  H  Ph Pd Pd H  H  H  H  H
 5    D  D  D  D  D  D  D  D  H  H
 6    P  P  P  P  P  Ph H  H  H  H
 7    P  P  P  P  P  P  Ph H  Rs Rh
 8    P  P  P  P  P  P  P  P  P  P
 9    P  P  P  P  P  S  P  P  S  Ps
 T    S  S  S  S  S  S  S  S  S  S
 A    P  P  P  P  P  P  P  P  P  P
"""
