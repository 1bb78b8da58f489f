"""The shared tables' views, by page: the lobby and invitations (lobby.py), a table's pages
(table.py), its seat actions, a view each (actions.py), and its live events (events.py),
all answering through rendering.py, as the single-player game's views do."""
