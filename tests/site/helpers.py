"""Shared values for the site (accounts, sessions) tests."""

PASSWORD = "felt-table-42-Aces"
