"""The generic referee engine: rulings, dice, the ruleset protocol, replay, and the procedure framework
(verbs, the pending decision, the dispatcher's guards, reference checks, legal actions).

It knows nothing of any particular game (import contract in ``.importlinter``).  Data flows one way::

    log (JSON/YAML) --logs--> events --replay--> ruleset.rule(state, event, dice) --> rulings (+ final state)

See docs/architecture.md for the layers and the life of one event.
"""
