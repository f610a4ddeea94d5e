"""The judgekeeper's limits on how much one incoming mail (or one sender) can make the judge send,
hold or do: the `[limits]` section of judge.toml and its defaults (the password pauses are
`throttle.Policy`)."""
from __future__ import annotations

from dataclasses import dataclass

from judge.maps.bounds import MapBounds


@dataclass(frozen=True)
class Limits:
    replies_per_sender: int = 20  # replies, copies included, to one sender within the window
    signed_replies_per_sender: int = 100  # the same for mail that gave a right password
    reply_window_minutes: int = 60
    addresses_per_player: int = 3  # a player's mail goes to the first few of his ADDRESS line
    recipients_per_mail: int = 200  # addresses reached by all the mails answering one mail
    # a game's map, shipped file and MORPH lines together, checked at CREATE and MORPH (the
    # largest shipped map has under 500 lines, 200 places, 10 powers and 4 IN/FROM blocks)
    forming_games_per_sender: int = 5  # games one address may have in preparation or forming
    games_per_sender_per_day: int = 10  # games one address may CREATE in any 24 hours (PURGEd too)
    cpu_seconds_per_sender_per_hour: int = 60  # past it, his mail waits behind everyone else's
    commands_per_mail: int = 300  # the rest of a longer mail is not carried out
    password_hashes_per_mail: int = 10  # passwords set or checked (each hash costs ~0.1 s of CPU)
    map_lines: int = 5000  # lines read, every USEd file counted
    map_bytes: int = 250_000
    map_places: int = 500  # the largest real map, imperial, has 394; each place costs picture time
    map_powers: int = 50
    map_blocks: int = 40  # IN and FROM blocks
    map_uses: int = 20  # files read through USE or MAP
    map_use_depth: int = 4  # a USE in a USEd file in ...
    map_parse_milliseconds: int = 2000  # CPU time the map may take to read, every later load too

    picture_seconds: int = 20  # a PNG or PDF not drawn within this (in a child process) is left out
    picture_memory_mb: int = 512  # the address space of the process that draws it
    picture_pixels: int = 16_000_000  # a picture rendered larger (the PDF at its zoom) is refused
    picture_bytes: int = 4_000_000  # a picture file larger than this is left out of its mail
    reply_picture_bytes: int = 500_000  # each this many bytes of MAP's picture count one more reply
    press_kept_per_game: int = 1000  # press messages a game keeps for its pages; the oldest go

    def map_bounds(self) -> MapBounds:
        return MapBounds(lines=self.map_lines, bytes=self.map_bytes, places=self.map_places,
                         powers=self.map_powers, blocks=self.map_blocks, uses=self.map_uses,
                         use_depth=self.map_use_depth)
