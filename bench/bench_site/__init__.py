"""The site as the web benchmark serves it: the project's settings and URLs plus one bare
view to compare the game's actions with. Only bench/web_bench.py loads this package (it is
not on the project's path), so the bare view never exists in the deployed site."""
