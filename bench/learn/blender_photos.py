"""Training photos for the refiner, rendered by Blender: real cubes, leaning on each other, under a real camera.

The procedural scenes (scenes.py) draw a die as a cube's three faces in 2D; a refiner trained on them
learns "a big side is a lean", and calls level dice far out under a wide lens cocked. These photos are
the Blender renderer's (bench/render/blender_dice.py: rigid-body dice, Cycles, a 66 degree camera 55-75
cm up, tilted up to 15 degrees), with two changes: the dice wear a procedural art family
(bench/learn/art.py, in random body and ink colours; never a bench set's art), and a third of the dice
are set down leaning on another (the bench sets: about one in eight). Only the box round the dice is
rendered and kept (about 600x600 of a 2304x1296 frame: 10-15 s a photo on 2 cores), at the bench
photos' scale (a die ~40 px across: the refiner's window is cut from a photo as sharp as a table
camera's). Each photo's truth is what train_refiner.py learns from: per die its top face's centre,
side and turn, level or not, and where its body (the cube's centre) shows, in sides from the top
face's centre.

bpy is not a project dependency (see blender_dice.py):

    /tmp/bpy/bin/python -m bench.learn.blender_photos OUT --photos 300 --seed 700000 [--width 2304] [--lean-deg 50,75]
"""

from __future__ import annotations

import argparse
import json
import math
import random
from pathlib import Path

import bpy
import cv2
import numpy as np

import bench.render.blender_dice as blender
from bench.learn.art import family
from bench.learn.training import comma_list

LEAN_SHARE = 0.3  # of the dice: set leaning on another (the renderer's own: 0.12)
SAMPLES = 8  # Cycles samples a pixel: the camera's noise is added after (blender_dice._finish)
MARGIN = 120  # px round the dice rendered (at 2304 px across a die is ~40): the rest of the frame is mat


def _art(seed: int):
    """A face_art for the renderer: one art family in random colours (dark dice with light ink, or light on dark)."""
    rng = np.random.default_rng(seed)
    masks = family(seed)
    dark = rng.random() < 0.6
    body = rng.uniform(10, 70, 3) if dark else rng.uniform(150, 245, 3)
    ink = rng.uniform(190, 250, 3) if dark else rng.uniform(10, 70, 3)

    def face_art(face: str, style: int, colouring: str, px: int) -> np.ndarray:
        alpha = cv2.resize(masks[face], (px, px), interpolation=cv2.INTER_AREA).astype(np.float32)[..., None] / 255
        return (body * (1 - alpha) + ink * alpha).astype(np.uint8)

    return face_art


def _paper(nrng: np.random.Generator, markers: bool) -> np.ndarray:
    """The printed paper mat, a little tinted (the felt mats' lightest is a light grey; our own mat is paper)."""
    from bench.render.dice_scene import paper_mat

    return paper_mat(tuple(nrng.uniform(0.88, 1.0, 3)))


def _dice_box(scene) -> tuple[int, int, int, int]:
    """The photo's px round every die in view, MARGIN more each way: (x0, y0, x1, y1)."""
    xs, ys = [], []
    depsgraph = bpy.context.evaluated_depsgraph_get()
    for obj in bpy.data.objects:
        if obj.name.startswith("die-"):
            x, y, z = blender._pixel(scene, scene.camera, obj.evaluated_get(depsgraph).matrix_world.translation)
            if z > 0:
                xs.append(x)
                ys.append(y)
    w, h = blender.IMAGE_W, blender.IMAGE_H
    if not xs:
        return 0, 0, w, h
    return (
        int(np.clip(min(xs) - MARGIN, 0, w - 1)),
        int(np.clip(min(ys) - MARGIN, 0, h - 1)),
        int(np.clip(max(xs) + MARGIN, 1, w)),
        int(np.clip(max(ys) + MARGIN, 1, h)),
    )


BOX: list[tuple[int, int, int, int]] = []  # the last photo's box, as _round_the_dice rendered it


def _round_the_dice(render):
    """The renderer's _render, rendering only round the dice (a full frame costs 4-8 times as much, and the
    refiner learns from windows round dice); the rest is filled with the box's own median, so the camera's
    exposure (on the frame's middle) is still on the mat's level."""

    def render_dice_only(scene, folder):
        x0, y0, x1, y1 = _dice_box(scene)
        w, h = blender.IMAGE_W, blender.IMAGE_H
        scene.render.use_border, scene.render.use_crop_to_border = True, False
        scene.render.border_min_x, scene.render.border_max_x = x0 / w, x1 / w
        scene.render.border_min_y, scene.render.border_max_y = 1 - y1 / h, 1 - y0 / h
        linear = render(scene, folder)
        box = linear[y0:y1, x0:x1]
        frame = np.empty_like(linear)
        frame[:] = np.median(box.reshape(-1, 3), axis=0)
        frame[y0:y1, x0:x1] = box
        BOX[:] = [(x0, y0, x1, y1)]
        return frame

    return render_dice_only


def _dice_truth(scene, x0: int, y0: int) -> list[dict]:
    """Per die in view: its top face (centre, side, turn) in px less ``x0, y0``, level or not, and its body's
    place in sides."""
    cam = scene.camera
    depsgraph = bpy.context.evaluated_depsgraph_get()
    out = []
    for obj in bpy.data.objects:
        if not obj.name.startswith("die-"):
            continue
        _, tilt, centre, u, v = blender._top(obj)
        top, z = blender._top_truth(scene, cam, centre, u, v, x0, y0)
        x, y = top["center"]
        if z <= 0 or not (0 <= x + x0 < blender.IMAGE_W and 0 <= y + y0 < blender.IMAGE_H):
            continue
        corners = np.array(top["corners"])
        side = float(np.mean([np.linalg.norm(corners[k] - corners[(k + 1) % 4]) for k in range(4)]))
        dx, dy = corners[1] - corners[0]
        world = obj.evaluated_get(depsgraph).matrix_world.translation
        bx, by, _ = blender._pixel(scene, cam, world)
        bx, by = bx - x0, by - y0
        hidden = blender.hidden_from(scene, depsgraph, obj, centre)
        out.append(
            {
                "centre": [x, y],
                "side": side,
                "turn": math.degrees(math.atan2(dy, dx)) % 90,
                "level": tilt <= blender.COCKED_DEG and not hidden,
                "tilt_deg": round(tilt, 1),
                "body": [(bx - x) / side, (by - y) / side],
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--photos", type=int, default=200)
    parser.add_argument("--seed", type=int, default=500000)
    parser.add_argument("--width", type=int, default=2304, help="px (16:9): the bench's Blender photos' width")
    parser.add_argument(
        "--paper", type=float, default=0.0, help="share of photos on the printed paper mat (hardware/make_mat.py)"
    )
    parser.add_argument(
        "--lean-deg",
        type=comma_list(float, 2),
        default=blender.LEAN_DEG,
        help="LOW,HIGH: degrees from level the dice set leaning stand at (their top tilted 90 less that)",
    )
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    blender.LEAN_DEG = args.lean_deg
    felt = blender.mat_canvas
    blender.IMAGE_W, blender.IMAGE_H = args.width, args.width * 9 // 16
    blender.LEANING = LEAN_SHARE
    blender._render = _round_the_dice(blender._render)
    for seed in range(args.seed, args.seed + args.photos):
        path = args.out / f"photo-{seed}.jpg"
        if path.exists():
            continue
        blender.face_art = _art(seed)
        blender.mat_canvas = _paper if random.Random(seed * 7 + 1).random() < args.paper else felt
        photo, meta = blender.render_scene(seed, 0, "black", SAMPLES)
        x0, y0, x1, y1 = BOX[0]
        dice = _dice_truth(bpy.context.scene, x0, y0)
        cv2.imwrite(str(path), photo[y0:y1, x0:x1], [cv2.IMWRITE_JPEG_QUALITY, random.Random(seed).randint(70, 95)])
        path.with_suffix(".json").write_text(json.dumps({"dice": dice, "scene": meta["scene"]}))
        print(f"{path.name}: {len(dice)} dice, {sum(not d['level'] for d in dice)} not level", flush=True)


if __name__ == "__main__":
    main()
