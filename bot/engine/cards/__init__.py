"""Cards: the language (parser), the records (model), variations (compile), checks (check)."""

from bot.engine.cards.check import load_card
from bot.engine.cards.model import Card, Hand, Shift

__all__ = ["Card", "Hand", "Shift", "load_card"]
