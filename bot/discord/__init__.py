"""The Discord app: it only translates between Discord and the table service.

`client` starts everything, `commands` holds the slash commands, `components` the buttons and
menus (restart-safe `DynamicItem`s), `prompts` builds each seat's private message from its view,
and `notify` implements the table service's `Notifier` with thread posts and DMs.
"""
