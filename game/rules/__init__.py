"""The Blackjack Trivia rules engine: plain Python, no Django imports.

Everything RULES.md decides is decided in this package. Randomness is injected.
"""
