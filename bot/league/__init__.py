"""League play: seasons, standings, skill ratings, tournament rounds and exports.

The store keeps the data (`db.leagues`, `db.league_games`, `db.league_stats`,
`db.league_rounds`); this package holds the rules of league play:

    service.py     the league service: what the front ends ask of a server's leagues
    record.py      record a finished game in its season (the table service's hook)
    ratings.py     Weng-Lin / OpenSkill Plackett-Luce ratings, shown as mu - 3 sigma
    standings.py   ranking with a minimum number of games; text table and picture data
    pairings.py    seating tournament rounds so opponents mix
    tournament.py  the per-game time limit: when it runs out, and the all-zero result
    export.py      the season's CSV, written and read back

Import the module you need; this file imports nothing so the table service can import
`bot.league.record` without pulling in the rest.
"""
