"""The configuration as the `judge` commands find it: `--config FILE` before or after the command,
else `$JUDGE_CONFIG`, else `./judge.toml`, else the defaults; and the folders a game command reads."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from judge.runtime.config import Config, ConfigError, load_config

CONFIG_HELP = "the judge.toml to use (default: $JUDGE_CONFIG, else ./judge.toml, else defaults)"
EX_CONFIG = 78  # sysexits.h: a configuration error (systemd's unit does not restart on it)


def add_config_option(sub: argparse.ArgumentParser) -> None:
    """`--config` after the command too; given there, it wins over one given before."""
    sub.add_argument("--config", metavar="FILE", default=argparse.SUPPRESS, help=CONFIG_HELP)


def read_config(args: argparse.Namespace) -> Config | None:
    """The configuration, or None with its problems printed."""
    try:
        return load_config(args.config)
    except ConfigError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return None


def game_folders(args: argparse.Namespace) -> tuple[Path, list[Path]] | None:
    """The games folder and the map folders of a command on games: `--games`, else the
    configuration's [paths] games (its [paths] maps searched after `--map-dir`); None when the
    configuration has errors (printed)."""
    if args.games is not None:
        return args.games, list(args.map_dir)
    config = read_config(args)
    if config is None:
        return None
    return Path(config.paths.games), [*args.map_dir, Path(config.paths.maps)]
