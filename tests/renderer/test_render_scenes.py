"""Scene records: plain data, checked when built; a table cannot carry hidden tiles."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from renderer import scenes
from renderer.scenes import (
    CardGroup,
    CharlestonStep,
    LaidGroup,
    Latest,
    Rack,
    RackScene,
    ResultScene,
    ResultSeat,
    SeatScene,
    TableScene,
)


def _tile_fields(record: type, seen: set[type] | None = None) -> set[str]:
    """Names of every field, at any depth, whose type can hold tile codes (strings in a
    tuple)."""
    seen = seen if seen is not None else set()
    found: set[str] = set()
    hints = typing.get_type_hints(record, vars(scenes))
    for field in dataclasses.fields(record):
        hint = hints[field.name]
        text = str(hint)
        if "tuple[str" in text or "tuple[tuple[str" in text:
            found.add(f"{record.__name__}.{field.name}")
        for arg in _all_args(hint):
            if isinstance(arg, type) and dataclasses.is_dataclass(arg) and arg not in seen:
                seen.add(arg)
                found |= _tile_fields(arg, seen)
    return found


def _all_args(hint: object) -> list[object]:
    args = list(typing.get_args(hint))
    for arg in list(args):
        args += _all_args(arg)
    return [*args, hint]


def test_the_table_scene_holds_no_concealed_tile_codes() -> None:
    # Only what lies face up: the discards, each rack's exposures and laid-out Mah Jongg.
    assert _tile_fields(TableScene) == {"TableScene.discards", "Rack.exposures",
                                        "LaidGroup.tiles"}


def test_a_seat_hides_its_tiles_behind_a_count() -> None:
    with pytest.raises(TypeError):
        SeatScene("Ann", concealed_count=("3B", "4B"))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        SeatScene("Ann", concealed_count=True)
    with pytest.raises(TypeError):
        SeatScene("Ann", racks=(RackScene(("3B",)),))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        TableScene(seats=(SeatScene("Ann"), RackScene(("3B",))))  # type: ignore[arg-type]


def test_scenes_are_frozen() -> None:
    seat = SeatScene("Ann")
    with pytest.raises(dataclasses.FrozenInstanceError):
        seat.name = "Bob"  # type: ignore[misc]


@pytest.mark.parametrize("make", [
    lambda: RackScene(("3B", "11B")),
    lambda: RackScene(("3B",), drawn="Z"),
    lambda: Rack(exposures=(("N", "q"),)),
    lambda: RackScene((), racks=()),
    lambda: RackScene((), racks=(Rack(), Rack(), Rack())),
    lambda: SeatScene("Ann", wind="Q"),
    lambda: TableScene(seats=(SeatScene("A"), SeatScene("B")), latest=Latest("3B", 2)),
    lambda: TableScene(seats=(SeatScene("A"), SeatScene("B")), latest=Latest("3B", 0, 5)),
    lambda: Latest("3Q", 0),
    lambda: TableScene(seats=(SeatScene("Ann"),)),
    lambda: TableScene(seats=(SeatScene("A"), SeatScene("B")), turn=2),
    lambda: TableScene(seats=(SeatScene("A"), SeatScene("B")), discards=("3b",)),
    lambda: CharlestonStep("Pass", 8, 7),
    lambda: CardGroup("222", 3),
    lambda: LaidGroup(("1B", "1B"), (True,)),
    lambda: LaidGroup(("1B", "1B"), winning=2),
    lambda: ResultScene(seats=(ResultSeat("A"),), winner=1),
])
def test_bad_scenes_fail_where_they_are_built(make: typing.Callable[[], object]) -> None:
    with pytest.raises((ValueError, TypeError)):
        make()
