"""Player names that have broken renderers elsewhere: emoji, accents, CJK, right-to-left
scripts, control and invisible characters, nothing at all, and 200 characters."""

ODD_NAMES = [
    "Zoë-Ångström",
    "山田太郎",
    "😀🎉 party",
    "👩‍👩‍👧‍👦 family",
    "\uff26\uff55\uff4c\uff4c\uff57\uff49\uff44\uff54\uff48",  # fullwidth letters
    "שלום עליכם",
    "مرحبا",
    "e\u0301te\u0301",
    "tab\there\nnewline\x00null",
    "\u200b\u200d\ufe0f",
    "",
    "   ",
    "W" * 200,
    "名" * 200,
]
