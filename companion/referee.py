"""The referee's hands: what a button press or a tap on the page makes happen.

Buttons only enqueue a request here; one worker thread acts on them in order,
through the Table like every other command. Reading the table photographs it,
asks the vision reader for an observation, and turns a complete reading into
a roll; a die it could not read waits for the table to name it. The referee
keeps no state of its own: its status, notice, latest reading and a flagged
Sepulchre reading are the Table's desk, changed under the Table's lock and logged.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import CompanionError, DeviceError, IllegalPlay
from .table import Table
from .vocabulary import BUSY, ERROR, LOOK, READY, SEISMIC, TURN, UNDERTAKER, UNDO


@dataclass
class Reading:
    """The latest photo's dice: read faces, and unreadable dice the table may name."""

    dice: list[dict[str, Any]] = field(default_factory=list)
    unreadable: list[dict[str, Any]] = field(default_factory=list)
    photo: str | None = None
    ms: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"dice": self.dice, "unreadable": self.unreadable, "photo": self.photo, "ms": self.ms}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Reading:
        return cls(list(data["dice"]), list(data["unreadable"]), data.get("photo"), float(data.get("ms", 0.0)))


class Referee:
    def __init__(
        self,
        table: Table,
        camera=None,
        reader: Callable[[Any], dict[str, Any]] | None = None,
        photo_dir: Path | None = None,
        annotate: Callable[[Any, dict], Any] | None = None,
        piece_reader: Callable[[Any], tuple[dict[str, Any], Any, float]] | None = None,  # (reading, image read, scale)
        board_camera=None,
        graves: Any = None,
    ):
        self.table = table
        self.camera = camera
        self.board_camera = board_camera or camera  # the demo replays board photos apart from dice photos
        self.reader = reader
        self.piece_reader = piece_reader
        self.graves = graves  # GRAVES.json's content: where the pieces are read (None: no graves configured)
        self.annotate = annotate
        self.photo_dir = photo_dir
        self._photo_count = 0
        self._requests: queue.Queue = queue.Queue()
        self._lights: list[Callable[[str, Any], None]] = []
        self._stop = threading.Event()
        self._worker = threading.Thread(target=self._work, name="referee", daemon=True)
        self._worker.start()

    # -- what the page shows: the Table's desk ------------------------------------------------

    @property
    def status(self) -> str:
        return self.table.desk()["status"]

    @property
    def notice(self) -> str:
        return self.table.desk()["notice"]

    @property
    def reading(self) -> Reading | None:
        reading = self.table.desk()["reading"]
        return Reading.from_json(reading) if reading else None

    @property
    def graves_seen(self) -> dict[str, Any] | None:
        """A Sepulchre reading the rules flagged, awaiting a fix or an override."""
        return self.table.desk()["flagged_graves"]

    # -- requests from buttons (any thread) ----------------------------------------------------

    def request(self, name: str) -> None:
        self._requests.put(name)

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """For tests and benches: wait until every queued request has been handled (no polling:
        the queue's own condition is notified as each request is done)."""
        done = self._requests.all_tasks_done
        with done:
            return done.wait_for(lambda: self._requests.unfinished_tasks == 0, timeout)

    def close(self) -> None:
        self._stop.set()
        self._requests.put(None)
        self._worker.join(timeout=2)

    def _work(self) -> None:
        while not self._stop.is_set():
            name = self._requests.get()
            try:
                if name is not None:
                    self.handle(name)
            except CompanionError:
                pass  # handle() has said it: amber or red, with the reason
            except Exception as error:  # the worker must outlive any bug; say it, keep going
                self._say(f"internal error: {error}", ERROR)
            finally:
                self._requests.task_done()

    def handle(self, name: str) -> None:
        """One button's request, from a pin or the page. A refusal is said (amber, or red for a device) and
        raised: said here, the status never stays "reading the dice…" after a read that was refused."""
        try:
            self._handle(name)
        except CompanionError as error:
            self._say(str(error), LOOK if isinstance(error, IllegalPlay) else ERROR)
            raise

    def _handle(self, name: str) -> None:
        hint = means_nothing(name, self.table.game)
        if hint:  # a button with no meaning in this game: a hint, not a warning
            self._say(hint, READY)
            return
        if name == TURN:
            self.table.dispatch({"type": "next_turn"})
        elif name == UNDO:
            self.table.undo()
        elif name == UNDERTAKER:
            self.read_table()  # says for itself: ready, or amber while dice wait to be named
            return
        elif name == SEISMIC:
            self.table.dispatch({"type": "stage_turn"})
        else:
            raise IllegalPlay(f"unknown button {name!r}")
        self._say("", READY)

    # -- the undertaker: photograph and read ---------------------------------------------------

    def read_table(self) -> Reading | None:
        if self.table.game == "sepulchre":
            self.read_graves()
            return None
        if self.table.game != "rolling-bones":
            raise IllegalPlay("reading the table needs a Rolling Bones or Sepulchre game on it")
        if self.camera is None:
            raise DeviceError("no camera: enter the roll on the page instead")
        if self.reader is None:
            raise DeviceError("no dice reader: enter the roll on the page instead")
        self._say("reading the dice…", BUSY)
        image = _captured(self.camera)
        observation = self.reader(image)
        reading = Reading(
            list(observation["dice"]),
            list(observation["unreadable"]),
            self._save_photo(image, observation),
            float(observation.get("ms", 0.0)),
        )
        with self.table.lock:
            self._settle(reading)
        return reading

    def read_graves(self) -> None:
        """Sepulchre: photograph the graves, count the pieces, let the Undertaker check the change."""
        if self.board_camera is None:
            raise DeviceError("no camera: enter the graves on the page instead")
        if self.piece_reader is None:
            raise DeviceError("no piece reader (enroll one: companion pieces enroll --set demo DIR)")
        self._say("reading the graves…", BUSY)
        image = _captured(self.board_camera)
        # the image it read (the board warped flat, or the photo) and that image's px per px of the reading
        reading, image, scale = self.piece_reader(image)
        if reading["unreadable"]:
            n = len(reading["unreadable"])
            marks = [{**u, "center": [v * scale for v in u["center"]]} for u in reading["unreadable"]]
            photo = self._save_photo(image, {"dice": [], "unreadable": marks})
            self._say(
                f"{n} piece{'s' if n > 1 else ''} not readable (overlapping?): straighten and press again, "
                "or count them on the page",
                LOOK,
                reading=None,
                flagged_graves=None,
                graves_photo=photo,  # the photo, the unreadable pieces ringed, beside the counts by touch
            )
            return
        with self.table.lock:
            try:
                self.table.dispatch({"type": "observe", "graves": reading["graves"]})
            except IllegalPlay as flag:
                self._say(
                    f"rule flag — {flag}. Fix the pieces and press again, or override on the page",
                    LOOK,
                    reading=None,
                    flagged_graves=reading["graves"],
                )
                return
            change = self.table.view().get("last_change") or ["no change"]
            self._say("; ".join(change), READY, reading=None, flagged_graves=None, graves_photo=None)

    def override(self, reason: str) -> None:
        """Record the flagged Sepulchre reading anyway; the reason is kept with it."""
        with self.table.lock:
            graves = self.graves_seen
            if graves is None:
                raise IllegalPlay("no flagged reading to override")
            self.table.dispatch({"type": "override", "graves": graves, "reason": reason})
            self._say("override recorded", READY, flagged_graves=None)

    def name_die(self, index: int, face: str) -> None:
        """The table names an unreadable die (index into ``unreadable``)."""
        with self.table.lock:
            reading = self.reading
            if reading is None or not 0 <= index < len(reading.unreadable):
                raise IllegalPlay("no unreadable die with that number")
            die = reading.unreadable.pop(index)
            reading.dice.append({"face": face, "center": die.get("center"), "confidence": 1.0, "named": True})
            self._settle(reading)

    def _settle(self, reading: Reading) -> None:
        """A reading with dice still to name waits for the table; a whole one becomes the roll."""
        if reading.unreadable:
            n = len(reading.unreadable)
            self._say(dice_not_readable(n), LOOK, reading=reading.to_json())
            return
        faces = [d["face"] for d in reading.dice]
        self.table.dispatch({"type": "roll", "faces": faces})
        self._say(f"read {len(faces)} dice", READY, reading=reading.to_json())

    def _save_photo(self, image, observation) -> str | None:
        if self.photo_dir is None:
            return None
        import cv2

        self.photo_dir.mkdir(parents=True, exist_ok=True)
        shown = self.annotate(image, observation) if self.annotate else image
        self._photo_count += 1
        name = f"latest-{self._photo_count}.jpg"
        for old in self.photo_dir.glob("latest-*.jpg"):
            old.unlink(missing_ok=True)
        cv2.imwrite(str(self.photo_dir / name), shown, [cv2.IMWRITE_JPEG_QUALITY, 85])
        return name

    def camera_changed(self, ok: bool, why: str) -> None:
        """The camera went away or came back (from the camera's watcher thread)."""
        if ok:
            self._say("camera is back", READY)
        else:
            self._say(camera_gone(why), ERROR)

    # -- status and lights ---------------------------------------------------------------------

    def follow(self, light: Callable[[str, Any], None]) -> None:
        """``light(status, view)`` is called on every change: the LEDs hang here."""
        self._lights.append(light)

    def _say(self, notice: str, status: str, **desk: Any) -> None:
        """Show ``notice`` and ``status`` (and any other desk fields given) on the page and the lights.
        A busy status passes by: it is shown, not logged, so a restart never comes back busy."""
        self.table.update_desk(lambda old: {**old, "notice": notice, "status": status, **desk}, log=status != BUSY)
        for light in self._lights:
            light(status, self.table.view())

    def view(self) -> dict[str, Any]:
        return self.table.desk()


GAME_NAMES = {
    "rolling-bones": "Rolling Bones",
    "sepulchre": "Sepulchre",
    "dark-tomb": "Dark Tomb",
    "ghosts": "Ghosts in the Graveyard",
    "mausoleum": "Mausoleum",
}
BUTTON_GAMES = {  # the games a button means something in (UNDO: all of them)
    TURN: ("rolling-bones", "sepulchre", "dark-tomb", "mausoleum"),
    UNDERTAKER: ("rolling-bones", "sepulchre"),
    SEISMIC: ("dark-tomb",),
}
BUTTON_USES = {
    TURN: "passes the turn",
    UNDERTAKER: "reads the dice or the graves",
    SEISMIC: "runs Dark Tomb's Stage turn",
}


def means_nothing(button: str, game: str | None) -> str:
    """The hint for a button pressed where it means nothing (empty if it means something here)."""
    if game is None:
        return "" if button not in BUTTON_GAMES else "no game on the table: start one on the page"
    if button not in BUTTON_GAMES or game in BUTTON_GAMES[button]:
        return ""
    if game == "ghosts" and button == TURN:
        return "the turn passes by itself once a guess or a search is entered"
    return f"{button.upper()} {BUTTON_USES[button]}: nothing to do in {GAME_NAMES.get(game, game)}"


def dice_not_readable(n: int) -> str:
    """The notice for a throw the camera could not read whole."""
    return f"{n} {'dice' if n > 1 else 'die'} not readable: tap to name or re-throw"


def camera_gone(why: str) -> str:
    return f"camera gone: {why} — the table still works by hand"


def _captured(camera) -> Any:
    """A photo, or the camera's loss said the way its watcher says it (not overwritten by a terser line)."""
    try:
        return camera.capture()
    except DeviceError as error:
        raise DeviceError(camera_gone(getattr(camera, "why", "") or str(error))) from None
