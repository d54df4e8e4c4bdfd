"""Make data/fonts/JonggTileGlyphs.otf: the few Chinese characters our tile faces print.

The subset comes from Noto Serif CJK TC Bold (SIL Open Font License 1.1), as Debian's
fonts-noto-cjk package ships it. fontTools is needed only to run this script, not to run
Jongg:

    pip install fonttools
    apt-get download fonts-noto-cjk && dpkg-deb -x fonts-noto-cjk_*.deb noto
    python scripts/subset_tile_font.py noto/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc

The family is renamed (a modified font may not keep the original's name) and the copyright
and licence entries are kept; data/fonts/LICENSE-NotoSerifCJK.txt goes with it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

#: Crak numerals, the Crak character, the dragons and the winds.
CHARACTERS = "一二三四五六七八九萬中發東南西北"
#: Traditional Chinese, the form American sets print (萬, 發).
TC_INDEX = 3
FAMILY = "Jongg Tile Glyphs"
OUT = Path(__file__).resolve().parent.parent / "data" / "fonts" / "JonggTileGlyphs.otf"


def main(source: str) -> None:
    """Subset the collection's TC face to CHARACTERS and write it under the new name."""
    font = TTCollection(source).fonts[TC_INDEX]
    options = subset.Options()
    options.name_IDs = [0, 7, 13, 14]
    options.layout_features = []
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=CHARACTERS)
    subsetter.subset(font)
    names = font["name"]
    for name_id, value in ((1, FAMILY), (2, "Bold"), (4, f"{FAMILY} Bold"),
                           (6, "JonggTileGlyphs-Bold")):
        names.setName(value, name_id, 3, 1, 0x409)
    font["CFF "].cff.fontNames = ["JonggTileGlyphs-Bold"]
    font.save(OUT)
    print(f"{OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main(sys.argv[1])
