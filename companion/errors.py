"""The one error family for things a person can get wrong.

A leaf module (no imports from the rest of the package) so that the pure
rules engines in ``companion.games`` can raise these too. The CLI prints
``str(error)`` on one line and exits 2; the web answers 4xx with it.
"""


class CompanionError(Exception):
    """Something a person can fix: bad input, a refused play, a missing device."""


class BadInput(CompanionError, ValueError):
    """A file, JSON document or form field that does not say what it must."""


class IllegalPlay(CompanionError):
    """A command the rules of the game refuse right now."""


class DeviceError(CompanionError):
    """A camera, pin or other physical part that is missing or busy."""


class StoreError(CompanionError):
    """The event log cannot be opened or written."""
