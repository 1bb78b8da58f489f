"""Shared tables (../shared/spec/TABLES.md, rule ids T-…): several players at one dealer.

apps.py      the app (label ``tables``, its own migrations; the tables keep game_* names)
models.py    the table, its seats, its questions and its event log (state lives here, T-13)
services/    every write: one function per action, under the table's row lock (T-12), by area
clock_runner.py  applies the deadlines that ran out (T-5, T-7, T-8), for the clock process
live.py      the live channel: Redis pub/sub across servers, or in process (T-10, T-13)
sse.py       the Server-Sent Events stream a table page listens to (T-10, T-14)
presentation/    what each viewer sees, in words (T-4, T-11): the scene, one viewer's view,
                 the seats, the offers, the log, the notices, the lobby's rules line
views/       thin views, by page: the lobby and invitations, a table's pages, its seat
             actions (a view each), its event stream; how they answer (rendering.py)
"""
