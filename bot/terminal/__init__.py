"""The terminal front end of `jongg play`: the table service's games shown as text (and
pictures saved to a folder) and the person's moves read from typed answers. It sits beside the
Discord app, above the table service: `bot.tables` knows nothing of it."""
