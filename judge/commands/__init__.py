"""The e-mail command language: DPjudge's mail commands, the judge's contract.

Public API
----------
- `dispatch.run_mail(incoming, games, settings, now) -> (Reply | None, events, Change)`: one read
  mail (`judge.mailin.message.Incoming`) carried out against the games as `games` (a read-only
  `session.GameAccess`) shows them; it writes nothing. None: mail never answered (bounces,
  auto-replies, lists, our own). `events` are `judge.events` values and the notices of `judge.notices`
  (press, absences, zone, Master change, rename, creation, REVIVE password), for the mail layer
  (`judge.mailout.mailings.Mailer.for_events`). `change.Change` is what the mail does to the
  files, which the inbox runner (`judge.runtime.inbox.carry_out`) writes in one commit.
- `dispatch.run_commands(session, lines)`: the commands alone.
- `results.Reply` / `Outcome`: the results buffer, one reply per mail; `judge.mailout.mailings.render_reply(env, reply)
  -> (subject, body)` is the one function that words it, from templates/reply.txt.
- `session.Settings` (from `Config` by `Settings.from_config`), `session.Refusal`.
- `registry.Command`: one class per command, with `name`, `help`, the words that call it, the stage
  (before / after SIGNON), the password level it needs, whether it writes, its arity and the words
  the reply masks; `dispatch.REGISTRY` holds them all (`help_lines()`).
- `auth`: identities (`Fgame`, `france@game`, `Mgame`, `3game`, `JK@game`), password levels
  (judgekeeper > Master > power > omniscient, read-only), compared in constant time.
- `judge.runtime.inbox.MailHandler(config)`: the daemon's `handle_mail(raw, now)`;
  `pipe_mail` is `judge mail`.

Families: `signon` (SIGNON, SIGNOFF), `roles` (JOIN, OBSERVE / MONITOR / ALLOWed types, TAKEOVER,
RESIGN), `admin` (CREATE, PURGE, RENAME), `info` (LIST, SUMMARY, HISTORY, MAP), `orders` (order
lines, CLEAR / NMR, STATUS, a power's name), `press` (PRESS, BROADCAST, OFFICIAL and the press
rules), `setters` (SET ..., VOTE), `master` (FORM, ACTIVATE, WAIT, TERMINATE, PROCESS[!], PREVIEW,
ROLLBACK / ROLLFORWARD, RESIGN / DUMMY / REVIVE power, REVEAL), `morph` (MORPH).

Choices where the spec is silent
--------------------------------
- A mail's commands run in the order written, and the reply follows that order. Order lines are
  stored when the next command comes (or the mail ends), so STATUS or PROCESS after them sees them.
  The first refusal, a refused order set included, stops the mail; what was done before it stands
  (orders stored, press sent, SET commands set) and the rest is quoted back unprocessed. A RESIGN
  (`RESIGN Fgame password`) takes effect at the end of a mail without errors, after the press in it.
- Passwords compare without regard to case ("case never matters"), in constant time. Those the judge
  sets (SET PASSWORD, JOIN, OBSERVE, TAKEOVER, CREATE, REVIVE) are stored as salted scrypt hashes
  (`judge.passwords`: `$scrypt$ln=14,r=8,p=1$salt$hash` on the PASSWORD line); a plain password
  written by hand keeps working. The privacy password of a private game stays as written.
- Wrong passwords are counted per game and role (power, observer, Master, judgekeeper), whoever
  sent them: after five in a row, that role's password checks are paused (refused unchecked) for a
  minute, and each further one doubles the pause up to a day (`throttle`, `[passwords]` of
  judge.toml, kept in the game's `.password-failures`). Each pause mails the role's registered
  addresses a notice with an UNLOCK code; a mail with `UNLOCK code` before its SIGNON has its
  password checked during the pause. A reply to a mail that gave a right password has its own,
  higher reply limit, so strangers' mail "from" a player cannot silence him.
- A password good for other roles has its own count of every check that tested it: the Master's
  and an omniscient player's (ten free, any role of their game), the judgekeeper's (twenty free,
  any game: kept in `.password-failures` at the games' root). While it is paused it is simply not
  tested for other roles (their own passwords still are), and its owner gets the notice and code.
  A private game's privacy password (JOIN, OBSERVE, TAKEOVER) is counted as a role of its game;
  its Master gets the notice, and the code to pass on to the players he invites.
- The sender must be one plain address (`judge.mailin.message.plain_address`: ASCII, no quotes,
  comments, encoded words or control characters; one mailbox, not a group or a list): anything else
  is neither answered nor carried out, and SET ADDRESS refuses it. Control characters in the mail's
  lines and headers are read as spaces.
- The reply's "Unprocessed portion" masks password words as the echo of a processed line does.
- The reply goes to the sender; when a power or the Master signs on from an address that is not
  its own, the registered addresses get a copy (Cc). A player's mail goes to a few addresses
  (`Settings.addresses_per_player`, 3 by default: SET ADDRESS takes no more, and a longer ADDRESS
  line written by hand is mailed at its first ones only); each copy of a reply is one reply of the
  sender's limit (`judge.runtime.sender_history.allowance`).
- The Master's OFFICIAL changes the subject and drops the press header of the press after it, not
  its readers: OFFICIAL then PRESS TO ITALY reaches Italy only.
- One mail changes one game (no lock is ever taken in two orders).
- CREATE reports problems in its status lines and creates nothing (DPjudge's web page showed them).
- The press echo is in the reply (QUIET leaves it out); the mail layer sends the readers' copies.
- Anything not a command after SIGNON is an order line, except a `SET` word, which must be a SET
  command; a single word naming a power switches whose orders follow.
- MAP is answered (no maps are drawn) without stopping the mail.
- The game's state and listing live in `games/<name>/state` (`judge.game.standing`). LIST of all games
  shows the unlisted ones and those in preparation only to their Master (by the sender's address)
  and the judgekeeper; a game in preparation is not even named to others. JOIN, OBSERVE, TAKEOVER,
  orders and PROCESS are refused in preparation and terminated games; a waiting game takes orders
  and the Master's PROCESS, but the cycle ignores its deadline.
"""
