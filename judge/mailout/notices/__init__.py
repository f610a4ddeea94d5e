"""The notices of a game's events, one module per family: results (and the game's start, end and
rollback), seats (players coming and going, votes), deadlines, press (and order confirmations),
game (the Master's changes to the game) and keeper (the judgekeeper's alerts). Each module lists
its `HANDLERS`; `judge.mailout.mailings` joins them into one table checked at import."""
