"""Scenario special rules as data, each switched on by its id in the scenario's ``special_rules``.

*Borodino* numbers its special rules 1–16; the main digest names some of them (BOR-NAPOLEON, ...).  A scenario
may list either form; :data:`ALIASES` maps every accepted spelling to one canonical id.  The parameters of a
rule are data too, read from the scenario's ``options`` with the digest values as defaults, so a module can
change them without code.

Rule functions that only a scenario rule needs live here, next to their data, each a small pure function:
``russian_orders_limit``, ``cavalry_reserve_errors``, ``guard_may_act``, ``cinc_movement_allowance``,
``extended_movement_banned`` ...  The phase modules call them; they never read ``special_rules`` themselves.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from modulebuilder.records import field, record
from modulebuilder.model import ActivationGroup, Leader, Scenario

# Canonical ids (digest names) and the other spellings scenarios use (Borodino special-rule numbers).
ALIASES: Mapping[str, str] = {
    "BOR-1": "BOR-RUSSIAN-ORDERS", "BOR-RUSSIAN-ORDERS": "BOR-RUSSIAN-ORDERS",
    "BOR-2": "BOR-MURAT", "BOR-MURAT": "BOR-MURAT", "BOR-CAVALRY-RESERVE": "BOR-MURAT",
    "BOR-3": "BOR-GUARD", "BOR-GUARD": "BOR-GUARD",
    "BOR-4": "BOR-BARRAGE", "BOR-BARRAGE": "BOR-BARRAGE",
    "BOR-5": "BOR-5", "BOR-DESTRUCTION": "BOR-5",
    "BOR-6": "BOR-KUTUZOV", "BOR-KUTUZOV": "BOR-KUTUZOV",
    "BOR-7": "BOR-NAPOLEON", "BOR-NAPOLEON": "BOR-NAPOLEON",
    "BOR-8": "BOR-NO-EXTENDED", "BOR-NO-EXTENDED": "BOR-NO-EXTENDED",
    "BOR-INITIATIVE": "BOR-INITIATIVE", "BOR-0600": "BOR-INITIATIVE",
    "SCH-COMMAND": "SCH-COMMAND", "SCH-1": "SCH-COMMAND", "SCHEVARDINO": "SCH-COMMAND",
}

# Russian orders options (BOR-1, gaps §13.2): army -> number of commands that may be Under Orders.
DEFAULT_ARMY_OPTIONS: Mapping[str, int] = {"1st": 3, "2nd": 2, "reserve": 1}
DEFAULT_BARRAGE_ARMIES = frozenset({"1st", "2nd"})       # "under the first two options"


@record(frozen=True)
class ArmyOrders:
    """BOR-1: each Orders Phase the Russian puts orders on the commands of exactly one army."""
    side: str = "Russian"
    options: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_ARMY_OPTIONS))
    barrage_armies: frozenset[str] = DEFAULT_BARRAGE_ARMIES
    first_turn_rating: int = 3          # [inferred] Kutuzov's initiative rating on turn 1 (gaps §13.2)
    reserve_army: str = "reserve"       # its AGs without orders may neither move nor try 5.28


@record(frozen=True)
class CavalryReserve:
    """BOR-2 (Murat): the cavalry reserve AGs; one of Napoleon's orders lets Murat put ``direct_orders`` of
    their order groups Under Orders; the others roll 5.28 against Murat's AM rating."""
    ags: frozenset[str]
    direct_orders: int = 2
    side: str = "French"
    marker: str = "murat"               # Murat's AM replaces the cavalry-reserve AGs' own AMs in the cup
    io_rating: int = 5
    markers: int = 2


@record(frozen=True)
class CommandActivation:
    """*Schevardino* (gaps §13.1): no AMs, orders or CinCs; commands become active and stay active.
    ``commands``: command id -> (side, unit ids) (option ``commands``; without it every AG is a command);
    ``active``: commands active from the start; ``from_turn``: commands that become active by themselves on a
    turn (the Russian 2nd Grenadiers on turn 2); ``earliest``: the first turn a command may be activated
    (V Corps: 3); ``chooser``: the side that activates one more command each turn; ``forbidden``: side ->
    (hexes, until command) movement restrictions."""
    commands: Mapping[str, tuple[str, frozenset[str]]]
    active: frozenset[str]
    from_turn: Mapping[str, int]
    earliest: Mapping[str, int]
    chooser: str = "French"
    order: tuple[str, ...] = ("French", "Russian")
    restrictions: tuple[Mapping[str, Any], ...] = ()


@record(frozen=True)
class ScenarioRules:
    """Every special rule in force, parsed once per game."""
    ids: frozenset[str]
    army_orders: ArmyOrders | None = None
    cavalry_reserve: CavalryReserve | None = None
    guard_ags: frozenset[str] = frozenset()
    barrage_must_be_ordered: bool = False
    destruction_marker: bool = False
    no_extended_sides: frozenset[str] = frozenset()
    cinc_ma: Mapping[str, int | None] = field(default_factory=dict)   # leader id -> fixed MA (None = d10)
    auto_initiative: Mapping[int, str] = field(default_factory=dict)   # turn -> side
    command_activation: CommandActivation | None = None
    one_marker_on_entry: frozenset[str] = frozenset()                  # 5.32: AGs with one AM on entry
    cga_uses: Mapping[str, int] = field(default_factory=dict)          # 5.34: side -> uses in the game

    def has(self, rule_id: str) -> bool:
        return rule_id in self.ids


def canonical(rule_id: str) -> str:
    return ALIASES.get(rule_id.upper(), rule_id.upper())


def parse(scenario: Scenario) -> ScenarioRules:
    """Read the special rules and their parameters from a scenario."""
    ids = frozenset(canonical(r) for r in scenario.special_rules)
    opt: Mapping[str, Any] = scenario.options
    ags = scenario.counters.activation_groups
    cinc_of = {s.name: s.cinc for s in scenario.sides}

    army = None
    if "BOR-RUSSIAN-ORDERS" in ids:
        army = ArmyOrders(options=dict(opt.get("army_orders", DEFAULT_ARMY_OPTIONS)),
                          barrage_armies=frozenset(opt.get("barrage_armies", DEFAULT_BARRAGE_ARMIES)),
                          first_turn_rating=option_whole(opt, "kutuzov_first_turn_rating", 3))
    cav = None
    if "BOR-MURAT" in ids:
        cav_ags = frozenset(opt.get("cavalry_reserve_ags", ())) or frozenset(
            a.id for a in ags if {"cavalry_reserve", "murat"} & set(a.flags))
        cav = CavalryReserve(ags=cav_ags, direct_orders=option_whole(opt, "murat_direct_orders", 2),
                             marker=str(opt.get("murat_marker", "murat")),
                             io_rating=option_whole(opt, "murat_io_rating", 5),
                             markers=option_whole(opt, "murat_markers", 2))
    guard = frozenset()
    if "BOR-GUARD" in ids:
        guard = frozenset(opt.get("guard_ags", ())) or frozenset(
            a.id for a in ags if "guard" in a.flags and a.side == "French")
    cinc_ma: dict[str, int | None] = {}
    if "BOR-KUTUZOV" in ids and cinc_of.get("Russian"):
        cinc_ma[cinc_of["Russian"]] = option_whole(opt, "kutuzov_ma", 4)
    if "BOR-NAPOLEON" in ids and cinc_of.get("French"):
        cinc_ma[cinc_of["French"]] = None
    auto = {}
    if "BOR-INITIATIVE" in ids:
        auto[option_whole(opt, "auto_initiative_turn", scenario.turns.first)] = str(opt.get("auto_initiative_side",
                                                                                   "French"))
    if "auto_initiative" in opt:                     # {turn: side} as a plain option
        auto.update({int(t): str(s) for t, s in dict(opt["auto_initiative"]).items()})
    cmd = None
    if "SCH-COMMAND" in ids:
        commands = {cid: (str(c.get("side")), frozenset(c.get("units", ())))
                    for cid, c in dict(opt.get("commands", {})).items()}
        if not commands:
            commands = {a.id: (a.side, frozenset(u.id for u in scenario.counters.units if u.ag == a.id))
                        for a in ags}
        cmd = CommandActivation(
            commands=commands, restrictions=tuple(opt.get("restrictions", ())),
            active=frozenset(opt.get("active_commands", ())),
            from_turn={k: int(v) for k, v in dict(opt.get("commands_active_from_turn", {})).items()},
            earliest={k: int(v) for k, v in dict(opt.get("command_earliest_turn", {})).items()},
            chooser=str(opt.get("command_chooser", "French")),
            order=tuple(opt.get("side_order", ("French", "Russian"))))
    no_ext = frozenset(opt.get("no_extended_sides", ("Russian",) if "BOR-NO-EXTENDED" in ids else ()))
    return ScenarioRules(
        ids=ids, army_orders=army, cavalry_reserve=cav, guard_ags=guard,
        barrage_must_be_ordered="BOR-BARRAGE" in ids, destruction_marker="BOR-5" in ids,
        no_extended_sides=no_ext, cinc_ma=cinc_ma, auto_initiative=auto, command_activation=cmd,
        one_marker_on_entry=frozenset(opt.get("one_marker_on_entry", ())),
        cga_uses=_cga_uses(opt.get("cga_uses", opt.get("combined_group_activation"))))


def _cga_uses(value: Any) -> dict[str, int]:
    """5.34 "number of uses: scenario": ``cga_uses: {French: 2}``; ``false``/absent = none (Borodino)."""
    if not isinstance(value, Mapping):
        return {}
    return {str(side): int(n) for side, n in value.items() if n}


# --------------------------------------------------------------------------------------------- rule functions

def russian_orders_limit(rules: ScenarioRules, army: str | None) -> int | None:
    """BOR-1: how many commands the chosen army option allows (None = not a known option)."""
    if rules.army_orders is None or army is None:
        return None
    return rules.army_orders.options.get(army)


def barrage_allowed_with_army(rules: ScenarioRules, army: str | None) -> bool:
    """BOR-1: the Russian may give up an order for the barrage only under the 1st or 2nd Army option."""
    return rules.army_orders is None or army in rules.army_orders.barrage_armies


def reserve_without_orders_frozen(rules: ScenarioRules, ag: ActivationGroup, under_orders: bool) -> bool:
    """BOR-1: a Reserve-army AG not given orders may neither move nor try to change its orders (5.28)."""
    return (rules.army_orders is not None and ag.side == rules.army_orders.side
            and ag.army == rules.army_orders.reserve_army and not under_orders)


def guard_may_act(rules: ScenarioRules, ag_id: str, under_orders: bool) -> bool:
    """BOR-3: Imperial Guard units act only under Napoleon's orders (never by a 5.28 roll)."""
    return ag_id not in rules.guard_ags or under_orders


def in_cavalry_reserve(rules: ScenarioRules, ag_id: str) -> bool:
    return rules.cavalry_reserve is not None and ag_id in rules.cavalry_reserve.ags


def cinc_movement_allowance(rules: ScenarioRules, leader: Leader) -> int | None:
    """5.62 + BOR-KUTUZOV / BOR-NAPOLEON: a fixed MA, or None when it is rolled (Napoleon's d10).
    A counter printed without an MA (``ma: null``) is rolled too; otherwise the printed MA (default 8)."""
    if leader.id in rules.cinc_ma:
        return rules.cinc_ma[leader.id]
    return leader.ma


def extended_movement_banned(rules: ScenarioRules, side: str) -> bool:
    """BOR-NO-EXTENDED: Russian units never use extended (march) movement."""
    return side in rules.no_extended_sides


def forbidden_hexes(rules: ScenarioRules, side: str, hexes: Iterable[str],
                    active_commands: frozenset[str]) -> frozenset[str]:
    """Schevardino movement restrictions: no French unit east of hex column 36 (lower columns), no Russian
    unit into 4400 until French V Corps is active.  ``hexes`` are the map's hexes (CCRR, 2-digit columns)."""
    cmd = rules.command_activation
    if cmd is None:
        return frozenset()
    out: set[str] = set()
    for r in cmd.restrictions:
        if r.get("side") != side:
            continue
        if r.get("rule") == "no_column_below":
            col = int(r["column"])
            out.update(h for h in hexes if int(h[:-2]) < col)
        elif r.get("rule") == "no_entry_until_reinforcement" and r.get("until") not in active_commands:
            out.update(r.get("hexes", ()))
    return frozenset(out)


# --------------------------------------------------------------------------------------------- option values

def option_whole(opt: Mapping[str, Any], key: str, default: int) -> int:
    """A whole-number option; anything else raises ValueError naming the option (the ruleset's
    ``check_scenario`` reports it as a problem of the scenario, before any event is ruled on)."""
    value = opt.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"options.{key}: expected a whole number, not {value!r}")
    return value


def option_choice(opt: Mapping[str, Any], key: str, allowed: tuple[str, ...]) -> str:
    """An option with a fixed set of values, the first the default; anything else raises ValueError."""
    value = opt.get(key, allowed[0])
    if value not in allowed:
        raise ValueError(f"options.{key}: {value!r} is not one of {', '.join(allowed)}")
    return str(value)
