"""Jongg's pictures: plain data in, PNG bytes out.

The renderer depends on Pillow and nothing of `bot`. Callers build a scene (frozen records of
strings, ints and tuples, with tiles as text codes such as `3B`, `N`, `0`, `J`) and call the
matching `render_*` function, which returns PNG bytes. The same scene always gives the same
bytes. Sizes follow the keyword `scale` (1 by default).

    render_rack(RackScene)            a player's private rack (one or two racks)
    render_table(TableScene)          the public table: seats, discards, wall, turn, Charleston
    render_card_pages(CardSheet)      a card's hands by section, a few sections a page
    render_analysis(AnalysisScene)    nearest hands with the missing tiles greyed
    render_result(ResultScene)        the winning hand and scores, or a wall game summary
    render_series(SeriesScene)        a series of games: each person's games and total

Every picture is sized to be read on a phone, where Discord shows it about 400 pixels wide;
`renderer.measure` states that rule and reports what a picture drew, so tests measure it.
"""

from renderer.analysis import render_analysis
from renderer.card import render_card_pages
from renderer.codes import TILE_CODES, sort_tiles
from renderer.rack import render_rack
from renderer.result import render_result
from renderer.scenes import (
    AnalysisScene,
    CardGroup,
    CardHand,
    CardSection,
    CardSheet,
    CharlestonStep,
    LaidGroup,
    Latest,
    NearestHand,
    Rack,
    RackScene,
    ResultScene,
    ResultSeat,
    ScoreItem,
    SeatScene,
    TableScene,
)
from renderer.series import SeriesCell, SeriesRow, SeriesScene, render_series
from renderer.table import render_table

__all__ = [
    "TILE_CODES",
    "AnalysisScene",
    "CardGroup",
    "CardHand",
    "CardSection",
    "CardSheet",
    "CharlestonStep",
    "LaidGroup",
    "Latest",
    "NearestHand",
    "Rack",
    "RackScene",
    "ResultScene",
    "ResultSeat",
    "ScoreItem",
    "SeatScene",
    "SeriesCell",
    "SeriesRow",
    "SeriesScene",
    "TableScene",
    "render_analysis",
    "render_card_pages",
    "render_rack",
    "render_result",
    "render_series",
    "render_table",
    "sort_tiles",
]
