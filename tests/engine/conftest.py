import pytest

from modulebuilder.model import (ActivationGroup, CounterSet, Face, Grid, Leader, MapDef, Placement, Scenario,
                                 SideDef, TurnTrack, Unit)


def _inf(uid: str, side: str, ag: str) -> Unit:
    return Unit(id=uid, name=uid, kind="infantry", side=side, ag=ag,
                front=Face(assault=4, cohesion=5, ma=4, dfe=1), back=Face(assault=3, cohesion=4, ma=4, dfe=1))


@pytest.fixture
def small_scenario() -> Scenario:
    """An 8x8 map, Napoleon and Kutuzov, two French AGs and a Russian one (model objects, no YAML)."""
    units = (_inf("fa1", "French", "i-corps"), _inf("fa3", "French", "i-corps"), _inf("fb1", "French", "cav"),
             _inf("r1", "Russian", "ru-2"))
    leaders = (Leader("napoleon", "Napoleon", "French", 3, None, -2, 3, 8),
               Leader("kutuzov", "Kutuzov", "Russian", 2, 4, -1, 2, 4))
    ags = tuple(ActivationGroup(id=a, name=a, side=s, colour="#888888", io_rating=5)
                for a, s in (("i-corps", "French"), ("cav", "French"), ("ru-2", "Russian")))
    setup = (Placement("fa1", "0206", facing=12), Placement("fa3", "0806", facing=12),
             Placement("fb1", "0107", facing=12), Placement("r1", "0502", facing=6),
             Placement("napoleon", "0207"), Placement("kutuzov", "0702"))
    return Scenario(id="small", name="small", ruleset="triumph-and-glory",
                    map=MapDef(id="m", title="m", grid=Grid("pointy", "even", 1, 1, 8, 8), default_terrain="clear",
                               terrain={}),
                    counters=CounterSet(activation_groups=ags, units=units, leaders=leaders),
                    sides=(SideDef("French", cinc="napoleon"), SideDef("Russian", cinc="kutuzov")),
                    turns=TurnTrack(1, 2), setup=setup)
