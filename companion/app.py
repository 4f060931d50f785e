"""The composition root: build the table, devices and page from config, and serve them.

One process owns the camera and the GPIO lines, so the server is waitress
with threads, never a reloader or several workers.
"""

from __future__ import annotations

import logging
import random
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import config as config_module
from .devices.controls import Controls, PinMap, mock_factory
from .errors import BadInput, CompanionError, DeviceError
from .games.registry import all_games
from .referee import Referee
from .store import EventStore
from .table import Table
from .vision.model_sets import models_dir

log = logging.getLogger("companion")


@dataclass
class Companion:
    table: Table
    referee: Referee
    controls: Controls | None
    app: Any

    def close(self) -> None:
        self.referee.close()
        if self.controls:
            self.controls.close()
        camera = self.referee.camera
        if camera is not None:
            camera.close()
        self.table.store.close()


def build(
    settings: dict[str, Any],
    demo: bool = False,
    pin_factory=None,
    instance: Path | None = None,
    rng: random.Random | None = None,
) -> Companion:
    from .web import create_app

    instance = Path(instance or config_module.data_dir() / ("demo" if demo else "table"))
    store = EventStore(
        instance / "table.sqlite3" if demo or not settings["store"].get("path") else config_module.store_path(settings)
    )
    table = Table(store, all_games(), rng=rng)
    if not table.resume() and demo:
        table.new_game("rolling-bones", {"players": ["Ann", "Bob"], "target": settings["rolling_bones"]["target"]})

    camera, reader, annotate = _camera_and_reader(settings, demo)
    piece_reader, board_camera, graves = _piece_reader(settings, demo)
    referee = Referee(
        table,
        camera,
        reader,
        photo_dir=instance / "photos",
        annotate=annotate,
        piece_reader=piece_reader,
        board_camera=board_camera,
        graves=graves,
    )

    controls = None
    factory = pin_factory if pin_factory is not None else (mock_factory() if demo else None)
    try:
        controls = Controls(PinMap.load(settings.get("pins")), referee.request, pin_factory=factory)
    except CompanionError:
        referee.close()
        store.close()
        raise
    show = _lights(controls)
    referee.follow(show)
    from .devices.camera import ReconnectingCamera

    if isinstance(camera, ReconnectingCamera):
        camera.on_change = referee.camera_changed  # page and status LED say when it goes and comes back
    table.bus.listen(lambda _message: show(referee.status, table.view()))
    show(referee.status, table.view())

    app = create_app(table, referee, settings, instance_path=instance)
    return Companion(table, referee, controls, app)


def _camera_and_reader(settings: dict[str, Any], demo: bool):
    """The camera from config (demo: the demo photos), and the dice reader when its models exist."""
    camera: Any = None
    try:
        if demo:
            from .devices.camera import FolderCamera

            camera = FolderCamera(settings["camera"].get("folder") or models_dir() / "demo" / "photos")
        else:
            from .devices.camera import ReconnectingCamera, open_camera

            # unplugged and plugged back: the watcher reopens it; the referee reports both (see build)
            camera = ReconnectingCamera(lambda: open_camera(settings["camera"]))
    except DeviceError as error:
        log.warning("camera: %s (the page still takes rolls by hand)", error)
    reader = annotate = None
    try:
        from .vision.annotate import annotate_reading
        from .vision.reader import DiceReader

        dice_reader = DiceReader.load(settings.get("dice", {}).get("set", "demo"))
        reader, annotate = dice_reader.read, annotate_reading
    except (ImportError, CompanionError) as error:
        log.warning("dice reader: %s (the page still takes rolls by hand)", error)
    return camera, reader, annotate


def _piece_reader(settings: dict[str, Any], demo: bool):
    """The Sepulchre reader with its graves (GRAVES.json from [sepulchre] graves; the demo's own), the camera over the
    board, and GRAVES.json's content (kept to teach the pieces on the page when no set is enrolled yet)."""
    from .jsonfile import read_json

    section = settings.get("sepulchre", {})
    demo_boards = models_dir() / "demo" / "boards"
    graves_file = section.get("graves") or (demo_boards / "graves.json" if demo else "")
    board_camera = None
    if demo and demo_boards.is_dir() and not section.get("folder"):
        from .devices.camera import FolderCamera

        board_camera = FolderCamera(demo_boards)
    if not graves_file:
        return None, board_camera, None
    graves = None
    try:
        from .vision.pieces import PieceReader, graves_reading

        graves = read_json(graves_file)
        return graves_reading(PieceReader.load(section.get("set", "demo")), graves), board_camera, graves
    except (ImportError, CompanionError) as error:
        log.warning("piece reader: %s (the page still takes the graves by hand)", error)
        return None, board_camera, graves


def _lights(controls: Controls):
    def show(status: str, view: dict[str, Any]) -> None:
        if view.get("game") == "dark-tomb" and view.get("whose_turn") == "stage":
            controls.show_seat(None)  # the Stage turn: all seats chase
        elif view.get("game") in ("rolling-bones", "sepulchre"):
            controls.show_seat(view.get("current"))
        elif view.get("game") == "dark-tomb":
            order = view.get("order", [])
            controls.show_seat(order.index(view["whose_turn"]) if view.get("whose_turn") in order else None)
        if status != controls.status:
            controls.show_status(status)

    return show


def run(config_file: str | None = None, demo: bool = False, host: str | None = None, port: int | None = None) -> None:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    settings = config_module.load(config_file)
    # The demo stays on this machine unless a config file says where to listen.
    host = host or (settings["server"]["host"] if config_file or not demo else "127.0.0.1")
    port = port or int(settings["server"]["port"])
    if not 1 <= port <= 65535:  # waitress would take 99999 modulo 65536 and listen elsewhere
        raise BadInput(f"port {port}: a port is a number from 1 to 65535")
    companion = build(settings, demo=demo)
    where = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    print(
        f"Crypt Companion on http://{where}:{port}/  (kiosk: /kiosk){'  [demo: mock pins]' if demo else ''}", flush=True
    )
    from waitress.server import create_server

    from .watchdog import keep_alive, notify
    from .web import MAX_UPLOAD_BYTES

    stop = threading.Event()
    try:
        # Threads hold the live (SSE) connections: enough for the kiosk and ~30 phones.
        server = create_server(
            companion.app,
            host=host,
            port=port,
            threads=48,
            channel_timeout=60,
            ident="companion",
            max_request_body_size=MAX_UPLOAD_BYTES,  # refused with 413 before the body is read, not after
            asyncore_use_poll=True,  # select() fails past descriptor 1024, and live pages hold hundreds
        )
    except OSError as error:
        companion.close()
        raise DeviceError(f"cannot listen on {host}:{port}: {error.strerror}") from None
    live = _live_server(companion, settings, host)
    notify("READY=1")
    keep_alive(companion.table, stop)
    try:
        server.run()
    finally:
        if live is not None:
            live.close()
        stop.set()
        companion.close()


def live_server(companion, most: int | None = None):
    """The live-update server (web/stream.py) for this companion's table, not yet listening."""
    from .web.hosts import addressed_here
    from .web.live import shared_snapshot
    from .web.stream import MOST_STREAMS, LiveServer

    return LiveServer(
        lambda: shared_snapshot(companion.table, companion.referee),
        companion.table.bus.listen,
        lambda header: addressed_here(header, companion.app.extensions["host_names"]),
        most=MOST_STREAMS if most is None else most,
    )


def _live_server(companion, settings: dict[str, Any], host: str):
    """Start the live-update server unless turned off; without it pages use /events."""
    port = int(settings["server"]["live_port"])
    if port < 0:
        return None
    live = live_server(companion)
    try:
        companion.app.extensions["live_port"] = live.start(host, port)
    except DeviceError as error:
        print(f"warning: {error}; pages use /events on the main port (at most 24 at once)", flush=True)
        return None
    return live
