"""The matches: the match master and the helpers it composes (chat, absence and clocks, the bots at
the table, following other processes), the lobby, seats, notices, the wire form of a table, and
where bots think."""
