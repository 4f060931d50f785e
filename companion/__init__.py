"""Crypt Companion: referee, scorekeeper and monster for graveyard board games."""

__version__ = "0.1.0"
