"""referee: replays logged games under a ruleset and rules on every move."""
__version__ = "0.1.0"
