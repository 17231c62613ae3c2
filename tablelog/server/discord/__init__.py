"""The table in Discord: slash commands over Discord's HTTP interactions (issue 29).

``POST /discord/interactions`` (enabled by ``tablelog serve --discord-public-key HEX``): each
request's Ed25519 signature is checked first (:mod:`.signature`); a channel is bound to a table
and a Discord user linked to a seat (:mod:`.bindings`, a file next to the tables); a slash
command becomes a command line that takes the API's one path, parse → authorise → execute →
render (:mod:`.interactions`); ``tablelog discord commands`` prints (or registers) the
application commands (:mod:`.catalogue`). See docs/DISCORD.md.
"""
