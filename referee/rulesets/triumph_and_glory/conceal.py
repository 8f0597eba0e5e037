"""The state as one side may know it (the ruleset's ``conceal`` hook, referee.engine.hidden): what 5.23 and the
secret parts of the Orders Phase hide from ``viewer`` is sealed, so a question asked from that side's seat (a
hosted game's "what if") is ruled without it or refused.

5.23 (seed 000, 5.23): «Маркеры Приказов не открываются до того времени, как первый Маркер Активации этой ГП в
этот ход не был вынут. То есть Статус частей ГП … должен оставаться для противника тайным до того момента,
когда она непосредственно активизируется» — an order group's status is the opponent's secret until its AG's
first marker is drawn this turn.  Sealed for every other side, exactly what ``views.orders_view`` does not show:

* the status of each order group whose AG has not been drawn this turn (``under_orders``: open for the groups of
  drawn AGs, ``state.revealed``);
* the barrage bought in the Orders Phase (5.33), until its marker goes into the cup with the others (5.32: the
  cup's contents are on the table, and in every side's view, once it is filled);
* the BOR-1 army option chosen this turn and last turn's (it sets Kutuzov's initiative rating, 4.0), and last
  turn's Under-Orders groups (which a failed orders-delay roll keeps, 5.29).

Public, and left as they are: the groups themselves (5.12: the units on the map), whether orders were given,
the orders-delay outcome and its failures count, the cup, the initiative.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.engine.hidden import PartlySealed, Sealed

from .state import INITIATIVE, ORDERS, SideOrders, TGState


def conceal(state: TGState, viewer: str) -> TGState:
    orders = {side: (o if side == viewer else _sealed(state, side, o)) for side, o in state.orders.items()}
    return replace(state, orders=orders)


def _sealed(state: TGState, side: str, o: SideOrders) -> SideOrders:
    drawn = frozenset(i for i, g in enumerate(o.groups) if state.unit(g[0]).ag in state.revealed)
    before_cup = state.phase in (ORDERS, INITIATIVE)
    return replace(
        o,
        under_orders=PartlySealed(f"{side}'s order status of a group not yet activated this turn (5.23)",
                                  o.under_orders, drawn),
        barrage=Sealed(f"whether {side} ordered a barrage this turn (5.33, 5.23)") if before_cup else o.barrage,
        army=Sealed(f"{side}'s army option this turn (BOR-1, 5.23)"),
        previous_army=Sealed(f"{side}'s army option last turn (BOR-1)"),
        previous_uo=Sealed(f"{side}'s Under-Orders groups last turn (5.29)"))


def hidden_act(state: TGState, event: Mapping[str, Any]) -> str | None:
    """What another side may not see of a recorded act: the orders themselves (5.23: each group's status is
    secret until its AG is first drawn that turn; the state's view opens each group as 5.23 does, and the
    orders event, which names every group at once, stays closed until the game ends).  The rule, or None."""
    if event.get("type") == "orders":
        return "5.23"
    return None
