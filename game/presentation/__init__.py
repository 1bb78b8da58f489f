"""View models and every player-facing word of the table: one place to edit wording.

``table.py`` (the table), ``cards.py`` (what a card shows), ``notices.py`` (the status
line and every refusal sentence), ``side_bet_menu.py`` (the side bets being built, their
names and words), ``bet_spots.py`` (the chip rack's selected chip, the current spot and
the side-bet circles), ``side_bet_panels.py`` (side-bet offers and results); the markup
is the templates' own.
Reads come from game/selectors/; the rules engine decides, these modules only say it.
"""
