"""`companion …` subcommands. Errors a person can cause print one line and exit 2."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from .errors import BadInput, CompanionError
from .jsonfile import read_json


def _print_json(data: Any) -> None:
    print(json.dumps(data))


# -- bones --------------------------------------------------------------------------------


def bones_score(args: argparse.Namespace) -> None:
    from .games.rolling_bones import Layout

    score = Layout.from_json(read_json(args.layout)).score()
    if args.json:
        _print_json(score.to_json())
        return
    parts = ", ".join(f"{name} {points:+d}" for name, points in score.sections.items() if points)
    hat = " (hat: doubled)" if score.hat else ""
    print(f"{score.total} points{hat}: {parts or 'nothing laid'}; {score.correct} correct, {score.wrong} wrong")


def bones_best(args: argparse.Namespace) -> None:
    from .games.rolling_bones import Layout, best_layout, can_bury, parse_faces

    data = read_json(args.roll)
    if not isinstance(data, dict):
        raise BadInput('a roll is a JSON object with "faces" and "layout"')
    faces = parse_faces(data.get("faces"))
    if len(faces) > 18:
        raise BadInput(f"a roll has at most 18 dice, not {len(faces)}")
    layout = Layout.from_json(data.get("layout", {"slots": {}, "hat": False}))
    best = best_layout(faces, layout)
    result = {"score": best.score().total, "layout": best.to_json(), "can_bury": can_bury(faces)}
    if args.json:
        _print_json(result)
        return
    laid = [slot for slot in best.slots if slot not in layout.slots]
    hat = " and the hat" if best.hat and not layout.hat else ""
    advice = "a gravestone shows: you may bury" if result["can_bury"] else "no gravestone: you cannot bury yet"
    print(f"lay {', '.join(laid) or 'nothing'}{hat}: {result['score']} points; {advice}")


def bones_advise(args: argparse.Namespace) -> None:
    from .advisor_memo import points_advisor
    from .games.rolling_bones.advice import advice_for, parse_state

    state = parse_state(read_json(args.state))
    result = advice_for(state, points_advisor())
    if args.json:
        _print_json(result)
        return
    print(result["summary"])


# -- tomb ---------------------------------------------------------------------------------


def tomb_stage_turn(args: argparse.Namespace) -> None:
    import random

    from .games.dark_tomb import Scenario, report, run_stage_turn

    scenario = Scenario.from_json(read_json(args.scenario))
    rng = random.Random(args.seed) if args.seed is not None else random.SystemRandom()
    result = run_stage_turn(scenario, rng)
    if args.json:
        _print_json(result.to_json())
    else:
        print(report(scenario, result))


def tomb_check(args: argparse.Namespace) -> None:
    from .games.dark_tomb import Scenario, ascii_map

    scenario = Scenario.from_json(read_json(args.scenario))
    print(ascii_map(scenario))
    print(
        f"ok: {len(scenario.characters)} characters, {len(scenario.monsters)} monsters, "
        f"{scenario.grid.width}x{scenario.grid.height} map"
    )


# -- ghosts -------------------------------------------------------------------------------


def ghosts_deduce(args: argparse.Namespace) -> None:
    import time

    from .games.ghosts import Knowledge, deduce

    knowledge = Knowledge.from_json(read_json(args.state))
    started = time.perf_counter()
    deduction = deduce(knowledge)
    result = {**deduction.to_json(), "ms": round((time.perf_counter() - started) * 1000, 1)}
    if args.json:
        _print_json(result)
        return
    likeliest = sorted(deduction.haunt, key=lambda t: (-deduction.haunt[t], t))[:5]
    print(
        f"{deduction.consistent} sets of secrets fit; {deduction.held} held. Likeliest haunt: "
        + ", ".join(f"{t} ({deduction.haunt[t]:.1%})" for t in likeliest)
    )


# -- mausoleum ----------------------------------------------------------------------------


def mausoleum_check(args: argparse.Namespace) -> None:
    from .card_lists import packaged_cards
    from .games.mausoleum import cards_from_json, from_position, summary

    position = read_json(args.state)
    listed = position.get("cards", packaged_cards()) if isinstance(position, dict) else None
    print(summary(from_position(position, cards_from_json(listed))))


# -- dice ---------------------------------------------------------------------------------


def dice_enroll(args: argparse.Namespace) -> None:
    from .vision.model_sets import safe_name
    from .vision.reader import DiceReader

    safe_name(args.set)  # a bad name is said before a long enrollment, not after
    reader = DiceReader.enroll(args.dir)
    folder = reader.save(args.set)
    print(
        f"enrolled {len(set(reader.labels))} faces from {args.dir} as set {args.set!r} ({folder}); "
        f"die {reader.photo_die_side:.0f} px across"
    )
    if reader.left_out:
        print(
            f"warning: left out {len(reader.left_out)} photo{'s' if len(reader.left_out) > 1 else ''}: "
            f"{'; '.join(reader.left_out)}",
            file=sys.stderr,
        )
    if warning := reader.size_warning():
        print(f"warning: {warning}", file=sys.stderr)
    few = [face for face, n in reader.photos_learned().items() if n < 2]
    if few:
        # a face known from one photo is the first to be misread (its one picture's light, its one angle)
        print(
            f"warning: learned from one photo only: {', '.join(few)}; photograph "
            f"{'it' if len(few) == 1 else 'them'} again (the teaching sheet: three photos) and enroll again",
            file=sys.stderr,
        )


def dice_read(args: argparse.Namespace) -> None:
    from .devices.camera import read_image
    from .vision.annotate import annotate_reading
    from .vision.reader import DiceReader

    reader = DiceReader.load(args.set)
    image = read_image(args.image)
    reading = reader.read(image)
    if args.annotate:
        import cv2

        try:
            written = cv2.imwrite(args.annotate, annotate_reading(image, reading))
        except cv2.error:  # a name OpenCV has no writer for (.txt, no extension): it raises instead of saying False
            written = False
        if not written:
            raise BadInput(f"cannot write {args.annotate} (a .png or .jpg path in a folder that exists)")
    if args.json:
        _print_json(reading)
        return
    faces = ", ".join(d["face"] for d in reading["dice"]) or "no dice"
    print(f"{len(reading['dice'])} read: {faces}")
    for die in reading["unreadable"]:
        print(f"unreadable at {die['center']}: {die['why']}")


# -- pieces -------------------------------------------------------------------------------


def pieces_enroll(args: argparse.Namespace) -> None:
    from .vision.model_sets import safe_name
    from .vision.pieces import PieceReader

    safe_name(args.set)  # a bad name is said before a long enrollment, not after
    board = None
    if args.graves:
        from .vision.board import Board

        spec = read_json(args.graves)
        if not (isinstance(spec, dict) and set(spec) == {"board", "graves"}):
            raise BadInput(f'{args.graves}: whole-frame enrollment needs a board map ({{"board": ..., "graves": ...}})')
        board = Board.from_json(spec["board"])
    reader = PieceReader.enroll(args.dir, board)
    folder = reader.save(args.set)
    print(f"enrolled {reader.photos} pieces from {args.dir} as set {args.set!r} ({folder})")


def pieces_read(args: argparse.Namespace) -> None:
    from .devices.camera import read_image
    from .vision.pieces import PieceReader, graves_to_read

    reader = PieceReader.load(args.set)
    reading = reader.read(*graves_to_read(read_json(args.graves), read_image(args.image)))  # the board warped flat
    if args.json:
        _print_json(reading)
        return
    for name, counts in reading["graves"].items():
        print(f"{name}: " + (", ".join(f"{n} {t}" for t, n in counts.items() if n) or "empty"))
    if reading["outside"]:
        print("outside the graves: " + ", ".join(f"{n} {t}" for t, n in reading["outside"].items()))
    for piece in reading["unreadable"]:
        print(f"unreadable at {piece['center']}: {piece['why']}")


# -- serve --------------------------------------------------------------------------------


def serve(args: argparse.Namespace) -> None:
    from .app import run

    run(config_file=args.config, demo=args.demo, host=args.host, port=args.port)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="Crypt Companion: the table's referee.")
    parser.add_argument("--config", help="a TOML file overriding the packaged defaults")
    sub = parser.add_subparsers(dest="area", required=True)

    p = sub.add_parser("serve", help="run the table: buttons, camera and the web page")
    p.add_argument("--demo", action="store_true", help="off a Pi: mock pins and demo camera images")
    p.add_argument("--host", help="address to listen on (default from config)")
    p.add_argument("--port", type=int, help="port to listen on (default from config)")
    p.set_defaults(run=serve)

    bones = sub.add_parser("bones", help="Rolling Bones: score layouts, find the best play")
    bsub = bones.add_subparsers(dest="command", required=True)
    p = bsub.add_parser("score", help="score a buried skeleton layout")
    p.add_argument("layout", metavar="LAYOUT.json")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=bones_score)
    p = bsub.add_parser("best", help="the best legal way to lay a roll")
    p.add_argument("roll", metavar="ROLL.json")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=bones_best)
    p = bsub.add_parser("advise", help="bury or roll again: the play with the most expected points")
    p.add_argument("state", metavar="STATE.json")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=bones_advise)

    tomb = sub.add_parser("tomb", help="Dark Tomb: run and check Stage turns")
    tsub = tomb.add_subparsers(dest="command", required=True)
    p = tsub.add_parser("stage-turn", help="run one Stage turn of a scenario")
    p.add_argument("scenario", metavar="SCENARIO.json")
    p.add_argument("--json", action="store_true")
    p.add_argument("--seed", type=int, help="seed the d20 once the scenario's rolls run out")
    p.set_defaults(run=tomb_stage_turn)
    p = tsub.add_parser("check", help="validate a scenario and draw its map")
    p.add_argument("scenario", metavar="SCENARIO.json")
    p.set_defaults(run=tomb_check)
    ghosts = sub.add_parser("ghosts", help="Ghosts in the Graveyard: the deduction helper")
    gsub = ghosts.add_subparsers(dest="command", required=True)
    p = gsub.add_parser("deduce", help="the chance each tombstone is the left opponent's secret and haunt")
    p.add_argument("state", metavar="STATE.json")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=ghosts_deduce)
    mausoleum = sub.add_parser("mausoleum", help="Mausoleum: check a position")
    msub = mausoleum.add_subparsers(dest="command", required=True)
    p = msub.add_parser("check", help="validate a position: every card in one place, piles within their limits")
    p.add_argument("state", metavar="STATE.json")
    p.set_defaults(run=mausoleum_check)
    dice = sub.add_parser("dice", help="Rolling Bones dice: enroll a set, read a photo")
    dsub = dice.add_subparsers(dest="command", required=True)
    p = dsub.add_parser(
        "enroll", help="learn a dice set from DIR/*.jpg, photos of the teaching sheet, or DIR/<face-id>/*.jpg"
    )
    p.add_argument("dir", metavar="DIR")
    p.add_argument("--set", required=True, help="name of the dice set")
    p.set_defaults(run=dice_enroll)
    p = dsub.add_parser("read", help="read every die in a photo")
    p.add_argument("image", metavar="IMAGE")
    p.add_argument("--set", default="demo", help="dice set to read with (default: demo)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--annotate", metavar="OUT.png", help="also write the photo with every die outlined and named")
    p.set_defaults(run=dice_read)
    pieces = sub.add_parser("pieces", help="Sepulchre skeleton pieces: enroll a set, read the graves")
    psub = pieces.add_subparsers(dest="command", required=True)
    p = psub.add_parser(
        "enroll",
        help="learn the pieces from DIR/<type>/*.jpg (skull, ribs, pelvis, arm, leg): photos cut round the piece, or "
        "the table camera's whole frames, one piece on the board each",
    )
    p.add_argument("dir", metavar="DIR")
    p.add_argument("--set", required=True)
    p.add_argument(
        "--graves",
        metavar="GRAVES.json",
        help="a board map: the whole frames are warped flat by its markers (a tilted camera reads as a straight one)",
    )
    p.set_defaults(run=pieces_enroll)
    p = psub.add_parser("read", help="count the pieces in each grave of a photo")
    p.add_argument("image", metavar="IMAGE")
    p.add_argument("--set", default="demo")
    p.add_argument("--graves", required=True, metavar="GRAVES.json", help='grave name -> polygon, or {"aruco": [ids]}')
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=pieces_read)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handler: Callable[[argparse.Namespace], None] = args.run
    try:
        handler(args)
        sys.stdout.flush()  # here, where a closed pipe is caught below, not at exit
    except CompanionError as error:
        print(f"companion: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader of our output stopped early (`| head`): not an error of ours; stay quiet on the way out
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
