"""The game's views, by page: the table (table.py) and its actions (actions.py), both
answering through rendering.py; side bets, question reports, statistics, fairness and the
Daily Shoe. Views are thin: they parse the request, call one service or selector, and
render what the presentation builds."""
