"""The generic referee engine: rulings, dice, the ruleset protocol, replay and reports.

It knows nothing of any particular game.  Data flows one way::

    log (JSON/YAML) --logs--> events --replay--> ruleset.rule(state, event, dice) --> rulings (+ final state)
"""
