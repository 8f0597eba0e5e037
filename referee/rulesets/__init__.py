"""Ruleset plugins.  Each is found through the entry-point group ``referee.rulesets`` and implements
:class:`referee.engine.ruleset.Ruleset`; the engine imports none of them directly."""
