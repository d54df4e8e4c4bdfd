"""What the pictures show, not only their size: the drawn tile, the winning tile, whose
turn it is, the last tile thrown (also right after a call), the discards counted by tile,
Siamese racks as the game holds them, and tile faces a phone tells apart."""

from __future__ import annotations

import functools
import io
import itertools
from collections import Counter
from collections.abc import Callable

import pytest
from gallery import GAMES, NAMES, Moment, moments
from PIL import Image, ImageChops, ImageDraw

from bot.demo import demo_finished_royale_table, demo_royale_table
from bot.engine.game import SIAMESE, Phase, RuleSet, spectator_view, view
from bot.engine.game.rules import ROYALE
from bot.engine.game.state import finishing
from bot.engine.tiles import format_tile, tile_name
from bot.library import shipped_card
from bot.scenes import card_sheet, rack_scene, result_scene, table_scene
from renderer import (
    TILE_CODES,
    AnalysisScene,
    CardGroup,
    CardHand,
    CardSection,
    CardSheet,
    LaidGroup,
    Latest,
    NearestHand,
    RackScene,
    SeatScene,
    TableScene,
    render_analysis,
    render_card_pages,
    render_rack,
    render_result,
    render_table,
)
from renderer.card import suit_key
from renderer.measure import Box, Drawing, recording
from renderer.table import MULTIPLY
from renderer.tiles import index_cap, tile_sprite

#: Each wind differs from every other wind on at least this share of its face, outside the
#: corner where an index would be. One compass rotated (the old winds) differed on about 5%.
WINDS_APART = 0.075


def _drawn(render: Callable[[], bytes]) -> tuple[Drawing, bytes]:
    with recording() as drawings:
        png = render()
    return drawings[0], png


def _pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _moment(rules: RuleSet, name: str) -> Moment:
    seed = {r.name: s for r, s in GAMES}[rules.name]
    return moments(rules, seed)[name]


def _all_moments(name: str) -> list[tuple[RuleSet, Moment]]:
    return [(rules, moments(rules, seed)[name]) for rules, seed in GAMES
            if name in moments(rules, seed)]


def _texts(drawing: Drawing) -> list[str]:
    return [run.text for run in drawing.texts]


def _face_in(drawing: Drawing, box: Box) -> str:
    """The code of the one tile face drawn exactly in `box`."""
    (code,) = [tile.code for tile in drawing.tiles if tile.box == box]
    return code


# -- the rack --------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [rules for rules, _ in GAMES], ids=lambda r: r.name)
def test_the_drawn_tile_changes_the_rack_picture(rules: RuleSet) -> None:
    moment = _moment(rules, "own turn")
    seen = view(moment.state, 0)
    assert moment.drawn is not None
    drawn, with_png = _drawn(lambda: render_rack(rack_scene(seen, name="A",
                                                            drawn=moment.drawn)))
    plain, without_png = _drawn(lambda: render_rack(rack_scene(seen, name="A")))
    difference = ImageChops.difference(_pixels(with_png), _pixels(without_png))
    changed = sum(1 for value in difference.convert("L").get_flattened_data() if value > 32)
    tile = drawn.tiles[0]
    assert changed > tile.width * (tile.box[3] - tile.box[1]), "at least a tile's worth"
    (ring,) = drawn.marked("drawn")
    assert _face_in(drawn, ring) == format_tile(moment.drawn)
    assert plain.marked("drawn") == []
    # A tile more or less is a different picture too.
    concealed = rack_scene(seen, name="A").concealed
    assert render_rack(RackScene(concealed[1:], drawn=concealed[0])) != render_rack(
        RackScene(concealed[1:]))


# -- the winning tile ------------------------------------------------------------------------

@pytest.mark.parametrize(("rules", "moment"), [
    pair for pair in _all_moments("over")
    if pair[1].state.result is not None and pair[1].state.result.declared])
def test_the_winning_tile_is_ringed_where_it_lies(rules: RuleSet, moment: Moment) -> None:
    state = moment.state
    seen = spectator_view(state)
    assert seen.result is not None
    won = finishing(seen.result.reason, seen.result.mahjongs)  # the one the picture shows
    assert won is not None and won.winning is not None
    group, place = won.winning
    scene = result_scene(seen, state.card, bots=(False,) * rules.players)
    drawing, _ = _drawn(lambda: render_result(scene))
    (ring,) = drawing.marked("winning")
    faces = drawing.tiles
    marked = next(i for i, tile in enumerate(faces) if tile.box == ring)
    assert marked == sum(len(g) for g in won.groups[:group]) + place, "in its group, in place"
    assert faces[marked].code == format_tile(won.groups[group][place])
    assert f"Winning tile: {tile_name(won.groups[group][place])} (ringed)" in _texts(drawing)
    # The table picture rings the winning tile of every Mah Jongg laid out.
    table, _ = _drawn(lambda: render_table(table_scene(seen, bots=(False,) * rules.players)))
    ringed = sorted(_face_in(table, ring) for ring in table.marked("winning"))
    assert ringed == sorted(format_tile(m.groups[m.winning[0]][m.winning[1]])
                            for m in seen.result.mahjongs if m.winning is not None)
    explained = " ".join(_texts(table)).count("winning tile ringed")
    assert explained == len(ringed), "each ring is explained by its rack's label"
    last = seen.result.mahjongs[-1]
    if last.discarder is not None and last.winning is not None:
        tile = tile_name(last.groups[last.winning[0]][last.winning[1]])
        said = f"{NAMES[last.seat]} went Mah Jongg on {NAMES[last.discarder]}'s {tile}"
        assert said in _texts(table), "the discard that won is the last tile thrown"


# -- the table -------------------------------------------------------------------------------

@pytest.mark.parametrize(("rules", "moment"), _all_moments("called"))
def test_right_after_a_call_the_table_names_the_called_tile(rules: RuleSet,
                                                            moment: Moment) -> None:
    seen = spectator_view(moment.state)
    assert seen.called is not None
    scene = table_scene(seen, bots=(False,) * rules.players)
    caller, thrower = NAMES[seen.called.seat], NAMES[seen.called.discarder]
    drawing, _ = _drawn(lambda: render_table(scene))
    texts = _texts(drawing)
    assert f"{caller} called {thrower}'s {tile_name(seen.called.kind)}" in texts
    assert f"{caller} to play" in texts and "TURN" in texts
    assert drawing.marked("latest") == [], "no discard lying on the table is the latest"


def test_whose_turn_it_is_is_on_every_table_picture_of_a_game() -> None:
    for rules, seed in GAMES:
        for name, moment in moments(rules, seed).items():
            seen = spectator_view(moment.state)
            if seen.phase not in (Phase.TURN, Phase.CLAIM):
                continue
            scene = table_scene(seen, bots=(False,) * rules.players)
            drawing, _ = _drawn(functools.partial(render_table, scene))
            texts = _texts(drawing)
            badges = [text for text in texts if text in ("TURN", "NEXT")]
            assert len(badges) == 1, f"{rules.name} {name}: {badges}"
            if seen.phase is Phase.TURN:
                assert scene.turn == seen.turn and f"{NAMES[seen.turn]} to play" in texts
            else:
                assert seen.claim is not None and scene.calls_open
                assert scene.turn == (seen.claim.discarder + 1) % rules.players
                assert f"{NAMES[scene.turn]} plays next" in texts


@pytest.mark.parametrize(("rules", "moment"), _all_moments("claim"))
def test_discards_are_counted_by_tile_and_the_latest_is_ringed(rules: RuleSet,
                                                               moment: Moment) -> None:
    seen = spectator_view(moment.state)
    drawing, _ = _drawn(lambda: render_table(table_scene(seen, bots=(False,) * rules.players)))
    counts = Counter(format_tile(kind) for _, kind in seen.discards)
    shown = sorted(text for text in _texts(drawing) if text.startswith(MULTIPLY))
    assert shown == sorted(f"{MULTIPLY}{n}" for n in counts.values() if n > 1)
    rings = drawing.marked("latest")
    last = format_tile(seen.discards[-1][1])
    assert rings and all(_face_in(drawing, ring) == last for ring in rings)
    thrower = NAMES[seen.discards[-1][0]]
    assert f"{thrower} discarded {tile_name(seen.discards[-1][1])}: calls are open" in _texts(
        drawing)


def test_siamese_racks_are_shown_as_the_game_holds_them() -> None:
    moment = _moment(SIAMESE, "mah jongg shown")
    seen = spectator_view(moment.state)
    table, _ = _drawn(lambda: render_table(table_scene(seen, bots=(False, False))))
    texts = _texts(table)
    assert texts.count("both racks") == 2, "each player's hidden tiles serve both racks"
    assert sum(1 for text in texts if text.startswith("Rack 1:")) == 2
    assert sum(1 for text in texts if text.startswith("Rack 2:")) == 2
    assert any("points" in text and "Mah Jongg" in text for text in texts)
    wall_back = 1
    assert len(table.backs) == sum(s.concealed_count for s in seen.seats) + wall_back, (
        "one back per hidden tile, however many")
    mine = view(moment.state, 0)
    rack, _ = _drawn(lambda: render_rack(rack_scene(mine, name="A")))
    assert sorted(tile.code for tile in rack.tiles[:len(mine.concealed)]) == sorted(
        format_tile(kind) for kind in mine.concealed)
    assert f"Your {len(mine.concealed)} concealed tiles serve both racks" in _texts(rack)



def test_a_seats_two_racks_are_laid_out_compactly() -> None:
    """At a table of two-rack seats, each rack's face-up tiles lie on one line (a whole Mah
    Jongg too), a rack's exposures beside its name, and two racks with nothing face up share
    a line."""
    scene = demo_finished_royale_table()
    drawing, _ = _drawn(lambda: render_table(scene))
    faces = iter(drawing.tiles[1:])  # after the header's latest tile, seat by seat
    tops: list[set[int]] = []
    for rack in (rack for seat in scene.seats for rack in seat.racks):
        codes = ([code for group in rack.mahjong for code in group.tiles]
                 or [code for group in rack.exposures for code in group])
        shown = [next(faces) for _ in codes]
        assert [face.code for face in shown] == codes
        if shown:
            tops.append({face.box[1] for face in shown})
    assert tops and all(len(line) == 1 for line in tops), "one line a rack"
    beside = [run for run in drawing.texts if run.text == "Rack 2:"]
    assert beside, "exposures follow their rack's name"
    for run in beside:
        middle = (run.box[1] + run.box[3]) / 2
        assert any(face.box[1] < middle < face.box[3] and face.box[0] > run.box[2]
                   for face in drawing.tiles)
    empty, _ = _drawn(lambda: render_table(demo_royale_table()))
    lines = [run.box[1] for run in empty.texts if run.text.endswith(": No exposures")]
    assert len(lines) == 8 and len(set(lines)) == 4, "a seat's two empty racks share a line"

# -- tile faces ------------------------------------------------------------------------------

def _outside_the_corner(code: str, width: int) -> Image.Image:
    face = tile_sprite(code, width).convert("L")
    ImageDraw.Draw(face).rectangle((0, 0, round(0.45 * width), round(0.5 * width)), fill=0)
    return face


@pytest.mark.parametrize("width", [24, 64])
def test_each_wind_differs_from_the_others_beyond_its_corner(width: int) -> None:
    for one, other in itertools.combinations("NEWS", 2):
        difference = ImageChops.difference(_outside_the_corner(one, width),
                                           _outside_the_corner(other, width))
        share = sum(1 for v in difference.get_flattened_data() if v > 64) / (
            difference.width * difference.height)
        assert share >= WINDS_APART, f"{one} and {other} differ on {share:.1%} of the face"


def _frame_mask(code: str, width: int) -> tuple[set[tuple[int, int]], tuple[int, int, int]]:
    """The inked pixels (well off the ivory face) of the band where the dragons' frame lies
    (under the corner index, round the character inside it), and their mean colour."""
    face = tile_sprite(code, width).convert("RGB")
    pixels = face.load()
    inked: set[tuple[int, int]] = set()
    total = [0, 0, 0]
    for y in range(round(0.5 * width), round(1.22 * width)):
        for x in range(round(0.12 * width), round(0.88 * width)):
            inside = 0.26 * width < x < 0.74 * width and 0.63 * width < y < 1.09 * width
            r, g, b = pixels[x, y]
            if not inside and abs(r - 251) + abs(g - 246) + abs(b - 230) > 240:
                inked.add((x, y))
                total = [total[0] + r, total[1] + g, total[2] + b]
    count = max(1, len(inked))
    return inked, (total[0] // count, total[1] // count, total[2] // count)


def test_the_three_dragons_share_one_frame_in_three_colours() -> None:
    masks = {code: _frame_mask(code, 64) for code in ("R", "G", "0")}
    for (one, (a, colour_a)), (other, (b, colour_b)) in itertools.combinations(
            masks.items(), 2):
        assert len(a & b) / len(a | b) > 0.8, f"{one} and {other} share the frame"
        assert sum(abs(x - y) for x, y in zip(colour_a, colour_b, strict=True)) > 120, (
            f"{one} and {other} differ in colour")
    assert tile_sprite("R", 64).tobytes() != tile_sprite("G", 64).tobytes()


def _corner_ink(code: str, width: int) -> frozenset[tuple[int, int]]:
    """The inked pixels (any colour) in the corner where a tile's index sits."""
    face = tile_sprite(code, width).convert("RGB")
    pixels = face.load()
    return frozenset(
        (x, y) for y in range(round(0.1 * width), round(0.48 * width))
        for x in range(round(0.05 * width), round(0.42 * width))
        if min(pixels[x, y]) < 160)


@pytest.mark.parametrize("width", [26, 64])
def test_dragons_and_soap_carry_a_corner_index_like_every_other_tile(width: int) -> None:
    corners = {code: _corner_ink(code, width) for code in ("R", "G", "0", "5C", "F")}
    for code, ink in corners.items():
        assert len(ink) > 0.02 * width * width, f"{code} has an index in its corner"
    for one, other in itertools.combinations(("R", "G", "0"), 2):
        apart = len(corners[one] ^ corners[other]) / len(corners[one] | corners[other])
        assert apart > 0.3, f"{one} and {other} are told apart by their index, not colour"
    assert all(index_cap(code, width) for code in TILE_CODES if code != "X")


def test_craks_print_one_wan_character_under_their_rank() -> None:
    width = 64
    lower = (0, round(0.62 * width), width, round(1.2 * width))
    upper = (round(0.48 * width), round(0.08 * width), round(0.9 * width), round(0.5 * width))
    lowers = {tile_sprite(f"{rank}C", width).crop(lower).tobytes() for rank in range(1, 10)}
    uppers = {tile_sprite(f"{rank}C", width).crop(upper).tobytes() for rank in range(1, 10)}
    assert len(lowers) == 1, "the same 萬 on every Crak"
    assert len(uppers) == 9, "each rank in Chinese beside its index"


def test_the_analysis_labels_exposures_and_explains_grey_only_when_it_shows_grey() -> None:
    exposed = AnalysisScene(("2B", "2B", "J"), exposures=(("2D",) * 4,))
    drawing, _ = _drawn(lambda: render_analysis(exposed))
    headings = [text for text in _texts(drawing) if text in ("Your hand", "Exposed")]
    assert headings == ["Your hand", "Exposed"]
    assert "Greyed tiles are the ones still needed" not in _texts(drawing)
    near = NearestHand("s1", 1, (LaidGroup(("3B", "3B"), (False, True)),))
    drawing, _ = _drawn(lambda: render_analysis(AnalysisScene(("3B",), nearest=(near,))))
    assert "Greyed tiles are the ones still needed" in _texts(drawing)
    assert "Exposed" not in _texts(drawing)


# -- card sheets -----------------------------------------------------------------------------

def test_card_groups_carry_their_suit_letter_and_every_page_has_the_key() -> None:
    sheet = card_sheet(shipped_card("jongg-teaching"))
    first = sheet.sections[0].hands[0].groups
    assert [(group.text, group.suit) for group in first] == [
        ("2222", "a"), ("555", "a"), ("8888", "a"), ("FFF", "")]
    with recording() as drawings:
        pages = render_card_pages(sheet)
    assert len(drawings) == len(pages) > 1
    for drawing in drawings:
        texts = _texts(drawing)
        assert any(text.startswith("Key · a, b, c: a suit each") for text in texts), texts
        assert {"a", "b", "c"} <= set(texts), "the letters printed after the groups"


def test_a_fixed_suit_is_named_by_its_letter_not_by_colour_alone() -> None:
    sheet = CardSheet("Fixed", (CardSection("S", (CardHand(
        (CardGroup("111", 0, "B"), CardGroup("222", 0, "a")), 25, False),)),))
    assert suit_key(sheet) == ("Key · a, b, c: a suit each, any suits you pick, all "
                               "different; B, C, D: Bams, Craks, Dots. Colours only tell "
                               "the suits apart.")
    with recording() as drawings:
        render_card_pages(sheet)
    assert {"B", "a"} <= set(_texts(drawings[0]))


@pytest.mark.parametrize("name", ["jongg-original", "jongg-teaching"])
def test_card_text_is_at_least_9_px_tall_on_a_phone(name: str) -> None:
    with recording() as drawings:
        render_card_pages(card_sheet(shipped_card(name)))
    for drawing in drawings:
        smallest = drawing.smallest_text()
        assert smallest is not None
        assert smallest.cap * drawing.phone_scale >= 9.0, smallest


def test_the_header_names_the_game_and_says_long_names_whole() -> None:
    royale = _moment(ROYALE, "claim")
    scene = table_scene(spectator_view(royale.state), bots=(False,) * 4, title="Table 10")
    assert scene.title == "Table 10 · 4-player Royale-style"
    standard = _moment(GAMES[0][0], "claim")
    assert table_scene(spectator_view(standard.state), bots=(False,) * 4,
                       title="Table 7").title == "Table 7"
    long_name = "Zoë-Ångström and her very long name"
    seats = (SeatScene("Ann", "E"), SeatScene(long_name, "S"))
    drawing, _ = _drawn(lambda: render_table(TableScene(
        seats, discards=("5C",), turn=1, latest=Latest("5C", 1, 0), calls_open=False)))
    header = " ".join(_texts(drawing)[:6])
    assert f"{long_name} to play" in header and f"Ann called {long_name}'s 5 Crak" in header
