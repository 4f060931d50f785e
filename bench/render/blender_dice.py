"""Physically based table photos of the bone dice, rendered by Blender (Cycles, CPU): a development tool.

What it models beyond the OpenCV renderer (dice_scene.py): real 3D dice
(16 mm cubes with rounded edges, the pictogram printed on all six faces)
thrown onto the mat by Blender's rigid-body physics, so they come to rest
naturally: touching, some cocked on each other, a few off the mat; real
light and shadow (a warm room, a hard overhead lamp, a dim room with sensor
noise, a side window), glossy print, a 66 degree 2304x1296 camera 55-75 cm
up with up to 15 degrees of tilt (each photo its own camera; --table-camera:
one camera for the whole set, enrollment photos too, as at a real table where
the enrollment photos are "taken by the table camera"), some blur. Ground truth per photo: each
die's face id, kind, the pixel centre and corners of its top face, "cocked"
when the top face is more than 12 degrees from level, and "hidden" when the
camera cannot see the top face's centre (under another die); per enrollment
photo (enroll/<face>/NN.json) its face and the top face's centre and corners.

bpy is not a project dependency (the package, tests and CI never need it):

    python3.11 -m venv /tmp/bpy && /tmp/bpy/bin/pip install bpy==4.5.4 "opencv-python-headless>=4.8,<4.11"
    /tmp/bpy/bin/python -m bench.render.blender_dice OUT --photos 10 --seed 1 --enroll 4 [--style 0 --colouring black]

About 1.5 minutes per photo on 2 cores (--samples trades noise for time).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import tempfile
from pathlib import Path

import bpy
import cv2
import numpy as np
from bpy_extras.object_utils import world_to_camera_view
from mathutils import Matrix, Vector

from companion.games.rolling_bones.dice import FACE_IDS, FACES, KINDS

from .dice_scene import COLOURINGS, LIGHTS, MAT_MM, face_art, mat_canvas

IMAGE_W, IMAGE_H = 2304, 1296
DIE = 0.016  # m
COCKED_DEG = 12.0
THROWN, LEANING, TOUCHING = 0.3, 0.12, 0.33  # of the dice: thrown onto a heap, set leaning on one, set against one
# degrees from level a die set leaning on another's side stands at (past 45, else it would fall back flat): the face
# that shows most is tilted 90 less that, 15-40 degrees (blender_photos.py --lean-deg: other leans to learn from)
LEAN_DEG = (50.0, 75.0)
CELL = 256  # px per face in a die's texture atlas
# the six outward normals of a cube, and for each a (u, v) pair with u x v = normal, so no face is mirrored
SIDES = [
    ((0, 0, 1), (1, 0, 0), (0, 1, 0)),
    ((0, 0, -1), (1, 0, 0), (0, -1, 0)),
    ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    ((-1, 0, 0), (0, -1, 0), (0, 0, 1)),
    ((0, 1, 0), (0, 0, 1), (1, 0, 0)),
    ((0, -1, 0), (0, 0, -1), (1, 0, 0)),
]


def _faces_of(kind: str) -> list[str]:
    return [f for f in FACE_IDS if FACES[f][0] == kind]


def _reset() -> None:
    bpy.ops.wm.read_factory_settings(use_empty=True)


def _image_texture(path: Path, name: str):
    image = bpy.data.images.load(str(path))
    image.name = name
    return image


def _material(name: str, image, roughness: float):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    nodes = mat.node_tree.nodes
    bsdf = nodes["Principled BSDF"]
    tex = nodes.new("ShaderNodeTexImage")
    tex.image = image
    tex.interpolation = "Cubic"
    mat.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    bsdf.inputs["Roughness"].default_value = roughness
    bsdf.inputs["Specular IOR Level"].default_value = 0.35  # satin plastic, not a mirror
    return mat


def _atlas(kind: str, style: int, colouring: str, folder: Path) -> Path:
    """The six faces of a die of ``kind`` side by side (3 x 2 cells), in SIDES order."""
    atlas = np.zeros((2 * CELL, 3 * CELL, 3), np.uint8)
    for i, face in enumerate(_faces_of(kind)):
        row, col = divmod(i, 3)
        atlas[row * CELL : (row + 1) * CELL, col * CELL : (col + 1) * CELL] = face_art(face, style, colouring, CELL)
    path = folder / f"atlas-{kind}-{style}-{colouring}.png"
    cv2.imwrite(str(path), atlas)
    return path


def _die_mesh(name: str):
    """A 16 mm cube with rounded edges, UV-mapped onto its kind's atlas."""
    bpy.ops.mesh.primitive_cube_add(size=DIE)
    obj = bpy.context.active_object
    obj.name = name
    mesh = obj.data
    while mesh.uv_layers:  # the primitive's own unwrap would win as the active map
        mesh.uv_layers.remove(mesh.uv_layers[0])
    uv = mesh.uv_layers.new(name="faces")
    for poly in mesh.polygons:
        n = poly.normal
        side = max(range(6), key=lambda k: Vector(SIDES[k][0]).dot(n))
        _, u_axis, v_axis = SIDES[side]
        row, col = divmod(side, 3)
        for loop in poly.loop_indices:
            p = mesh.vertices[mesh.loops[loop].vertex_index].co / (DIE / 2)
            u = (p.dot(Vector(u_axis)) + 1) / 2
            v = (p.dot(Vector(v_axis)) + 1) / 2
            uv.data[loop].uv = ((col + u) / 3, (1 - row + v) / 2)
    bevel = obj.modifiers.new("round", "BEVEL")
    bevel.width = DIE * 0.12
    bevel.segments = 4
    bevel.harden_normals = False
    bpy.ops.object.shade_smooth()
    return obj


def _top(obj) -> tuple[int, float, Vector, Vector, Vector]:
    """Which atlas side faces up, its tilt from level (degrees), and the top face's centre and (u, v) half-axes in the world."""
    world = obj.evaluated_get(bpy.context.evaluated_depsgraph_get()).matrix_world  # where the physics left it
    rot = world.to_3x3().normalized()
    best = max(range(6), key=lambda k: (rot @ Vector(SIDES[k][0])).z)
    normal, u_axis, v_axis = (rot @ Vector(a) for a in SIDES[best])
    tilt = math.degrees(math.acos(max(-1.0, min(1.0, normal.z))))
    centre = world.translation + normal * (DIE / 2)
    return best, tilt, centre, u_axis * (DIE / 2), v_axis * (DIE / 2)


def _pixel(scene, cam, point: Vector) -> tuple[float, float, float]:
    x, y, z = world_to_camera_view(scene, cam, point)
    return x * IMAGE_W, (1 - y) * IMAGE_H, z


def _draw_rig(rng: random.Random) -> tuple[float, float, float, float, float, float]:
    """A camera: height (m), tilt and its direction (radians), the point it looks at (m), roll (degrees)."""
    return (
        rng.uniform(0.55, 0.75),
        math.radians(rng.uniform(0, 15)),
        rng.uniform(0, 2 * math.pi),
        rng.uniform(-0.03, 0.03),
        rng.uniform(-0.02, 0.02),
        rng.uniform(-6, 6),
    )


def _scene(rng: random.Random, nrng: np.random.Generator, folder: Path, markers: bool, light: str, samples: int):
    """An empty table: the mat, the lights and a camera. Returns (scene, camera, mat object)."""
    scene = bpy.context.scene
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = samples
    scene.cycles.use_denoising = False  # a camera's photo is noisy too; the denoiser costs as much as the render
    scene.cycles.max_bounces, scene.cycles.diffuse_bounces, scene.cycles.glossy_bounces = 4, 2, 2
    scene.cycles.transmission_bounces = scene.cycles.transparent_max_bounces = 0
    scene.cycles.caustics_reflective = scene.cycles.caustics_refractive = False
    scene.render.resolution_x, scene.render.resolution_y = IMAGE_W, IMAGE_H
    scene.render.resolution_percentage = 100
    scene.render.threads_mode = "AUTO"
    scene.view_settings.view_transform = "Standard"
    scene.unit_settings.scale_length = 1.0

    mat_path = folder / "mat.png"
    cv2.imwrite(str(mat_path), mat_canvas(nrng, markers))
    w, h = MAT_MM[0] / 1000, MAT_MM[1] / 1000
    bpy.ops.mesh.primitive_plane_add(size=1)
    mat_obj = bpy.context.active_object
    mat_obj.scale = (w, h, 1)
    mat_obj.data.materials.append(_material("felt", _image_texture(mat_path, "mat"), 0.95))
    bpy.ops.mesh.primitive_plane_add(size=3, location=(0, 0, -0.002))
    table = bpy.context.active_object
    wood = bpy.data.materials.new("table")
    wood.use_nodes = True
    tone = rng.choice([(0.25, 0.13, 0.06), (0.12, 0.1, 0.09), (0.45, 0.38, 0.3)])
    wood.node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value = (*tone, 1)
    wood.node_tree.nodes["Principled BSDF"].inputs["Roughness"].default_value = 0.5
    table.data.materials.append(wood)

    world = bpy.data.worlds.new("room")
    world.use_nodes = True
    background = world.node_tree.nodes["Background"]
    scene.world = world
    if light == "warm room":
        background.inputs["Color"].default_value = (0.9, 0.7, 0.5, 1)
        background.inputs["Strength"].default_value = 0.4
        _lamp("AREA", (rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), 1.6), 400, (1.0, 0.78, 0.55), size=1.2)
    elif light == "overhead lamp":
        background.inputs["Strength"].default_value = 0.05
        _lamp(
            "POINT",
            (rng.uniform(-0.2, 0.2), rng.uniform(-0.15, 0.15), rng.uniform(0.5, 0.8)),
            40,
            (1, 0.97, 0.9),
            size=0.01,
        )
    elif light == "dim noisy":
        background.inputs["Color"].default_value = (0.6, 0.6, 0.7, 1)
        background.inputs["Strength"].default_value = 0.15
        _lamp("AREA", (rng.uniform(-1, 1), rng.uniform(-1, 1), 1.8), 60, (1, 0.85, 0.7), size=0.8)
    else:  # side window: low sun through a window, a cool sky
        background.inputs["Color"].default_value = (0.55, 0.65, 0.9, 1)
        background.inputs["Strength"].default_value = 0.5
        sun = _lamp("SUN", (0, 0, 1), 4.0, (1, 0.95, 0.85), size=0)
        sun.data.angle = math.radians(3)
        elevation, azimuth = math.radians(rng.uniform(25, 50)), rng.uniform(0, 2 * math.pi)
        sun.rotation_euler = (
            Vector(
                (math.cos(azimuth) * math.cos(elevation), math.sin(azimuth) * math.cos(elevation), math.sin(elevation))
            )
            .to_track_quat("Z", "Y")
            .to_euler()
        )

    cam_data = bpy.data.cameras.new("picam3")
    cam_data.sensor_fit = "HORIZONTAL"
    cam_data.angle = math.radians(66)
    cam = bpy.data.objects.new("camera", cam_data)
    scene.collection.objects.link(cam)
    scene.camera = cam
    # drawn for every photo (the random stream stays the same), then the set's one rig if it has one
    rig = _draw_rig(rng)
    height, tilt, direction, tx, ty, roll_deg = TABLE_RIG or rig
    target = Vector((tx, ty, 0))
    cam.location = target + height * Vector(
        (math.sin(tilt) * math.cos(direction), math.sin(tilt) * math.sin(direction), math.cos(tilt))
    )
    # straight down, the camera's up is the mat's far edge; then a small roll, then the tilt towards the target
    roll = Matrix.Rotation(math.radians(roll_deg), 3, "Z")
    lean = Vector((0, 0, -1)).rotation_difference((target - cam.location).normalized()).to_matrix()
    cam.rotation_euler = (lean @ roll).to_euler()
    return scene, cam, mat_obj


def _lamp(kind: str, location, watts: float, colour, size: float):
    data = bpy.data.lights.new(kind.lower(), kind)
    data.energy = watts
    data.color = colour
    if kind == "AREA":
        data.size = size
    elif kind == "POINT":
        data.shadow_soft_size = size
    obj = bpy.data.objects.new(kind.lower(), data)
    obj.location = location
    bpy.context.scene.collection.objects.link(obj)
    return obj


def _dice(rng: random.Random, kinds: list[str], materials: dict[str, object], mat_obj, settle_frames: int = 120):
    """Throw the dice onto the mat (a few heaps, dropped from different heights) and let them come to rest."""
    bpy.ops.rigidbody.world_add()
    scene = bpy.context.scene
    scene.rigidbody_world.point_cache.frame_end = settle_frames
    scene.rigidbody_world.substeps_per_frame = 20
    scene.rigidbody_world.solver_iterations = 20
    bpy.context.view_layer.objects.active = mat_obj
    bpy.ops.rigidbody.object_add(type="PASSIVE")
    mat_obj.rigid_body.friction = 0.8
    mat_obj.rigid_body.collision_shape = "BOX"
    heaps = [Vector((rng.uniform(-0.2, 0.2), rng.uniform(-0.1, 0.1), 0)) for _ in range(rng.randint(2, 5))]
    flat: list[tuple[Vector, float]] = []  # dice set down level: (centre, yaw)
    dice = []
    for i, kind in enumerate(kinds):
        obj = _die_mesh(f"die-{i}")
        obj.data.materials.append(materials[kind])
        up = Vector(SIDES[rng.randrange(6)][0]).rotation_difference(Vector((0, 0, 1))).to_matrix()
        pose = _set_down(rng, flat, heaps)
        if pose is None:
            # thrown from above a heap, tumbling: it may land on other dice
            obj.location = rng.choice(heaps) + Vector((rng.gauss(0, 0.03), rng.gauss(0, 0.025), rng.uniform(0.04, 0.1)))
            obj.rotation_euler = (rng.uniform(0, 6.3), rng.uniform(0, 6.3), rng.uniform(0, 6.3))
        else:
            (centre, yaw, lean, lean_axis) = pose
            tilt = Matrix.Rotation(lean, 3, lean_axis) if lean else Matrix.Identity(3)
            obj.location = centre
            obj.rotation_euler = (tilt @ Matrix.Rotation(yaw, 3, "Z") @ up).to_euler()
        bpy.context.view_layer.objects.active = obj
        # dice set down stay put (a thrown die bounces off them); Bullet cannot hold a 16 mm die leaning
        bpy.ops.rigidbody.object_add(type="ACTIVE" if pose is None else "PASSIVE")
        obj.rigid_body.mass = 0.006
        obj.rigid_body.collision_shape = "BOX"
        obj.rigid_body.friction = 0.7
        obj.rigid_body.restitution = 0.2
        obj.rigid_body.collision_margin = 0.0005
        dice.append((obj, kind))
    for frame in range(1, settle_frames + 1):
        scene.frame_set(frame)
    return dice


def _set_down(rng: random.Random, flat: list[tuple[Vector, float]], heaps: list[Vector]):
    """Where to set a die down level (touching one already down, or alone in a heap), or leaning on one;
    None to throw it instead. Returns (centre, yaw, lean angle, lean axis)."""
    roll = rng.random()
    if roll < THROWN:
        return None
    for _ in range(50):
        if flat and roll < THROWN + LEANING:
            base, yaw = rng.choice(flat)
            out = yaw + rng.randrange(4) * math.pi / 2
            direction = Vector((math.cos(out), math.sin(out), 0))
            lean = math.radians(rng.uniform(*LEAN_DEG))  # on its edge against the base die's side: a cocked die
            half = DIE / 2
            centre = base + direction * (half * (1 + math.sin(lean) + math.cos(lean)) + 0.0003)
            centre.z = half * (math.sin(lean) + math.cos(lean)) + 0.0003
            axis = Vector((-direction.y, direction.x, 0))
            return centre, yaw, -lean, axis.normalized()  # top edge falls towards the base die
        if flat and roll < THROWN + LEANING + TOUCHING:
            base, yaw = rng.choice(flat)
            out = yaw + rng.randrange(4) * math.pi / 2
            gap = DIE * rng.uniform(1.01, 1.12)
            centre = base + Vector((math.cos(out) * gap, math.sin(out) * gap, 0))
            yaw = yaw + math.radians(rng.uniform(-10, 10))
        else:
            centre = rng.choice(heaps) + Vector((rng.gauss(0, 0.04), rng.gauss(0, 0.03), 0))
            yaw = rng.uniform(0, 2 * math.pi)
        centre.z = DIE / 2 + 0.0003
        if all(not _squares_overlap(centre, yaw, other, other_yaw) for other, other_yaw in flat):
            flat.append((centre, yaw))
            return centre, yaw, 0.0, "Z"
    return None


def _squares_overlap(a: Vector, yaw_a: float, b: Vector, yaw_b: float) -> bool:
    """Do two dice's footprints (squares of side DIE, a hair larger) overlap? Separating axis test."""

    def corners(c, yaw):
        h = DIE * 0.51
        ca, sa = math.cos(yaw), math.sin(yaw)
        return [(c.x + dx * ca - dy * sa, c.y + dx * sa + dy * ca) for dx, dy in ((-h, -h), (h, -h), (h, h), (-h, h))]

    pa, pb = corners(a, yaw_a), corners(b, yaw_b)
    for yaw in (yaw_a, yaw_a + math.pi / 2, yaw_b, yaw_b + math.pi / 2):
        ax, ay = math.cos(yaw), math.sin(yaw)
        da = [x * ax + y * ay for x, y in pa]
        db = [x * ax + y * ay for x, y in pb]
        if max(da) < min(db) or max(db) < min(da):
            return False
    return True


def _finish(
    path: Path, linear: np.ndarray, rng: random.Random, nrng: np.random.Generator, light: str, blur: float
) -> np.ndarray:
    """Camera processing: exposure on the mat's grey level, sRGB, blur, sensor noise, JPEG."""
    target = {"warm room": 0.42, "overhead lamp": 0.45, "dim noisy": 0.2, "side window": 0.4}[light]
    centre = linear[IMAGE_H // 4 : 3 * IMAGE_H // 4, IMAGE_W // 4 : 3 * IMAGE_W // 4]
    level = float(np.median(centre.mean(axis=2)))
    exposed = linear * ((target**2.2) / max(level, 1e-6))
    srgb = np.where(exposed <= 0.0031308, exposed * 12.92, 1.055 * np.power(np.maximum(exposed, 0), 1 / 2.4) - 0.055)
    img = np.clip(srgb * 255, 0, 255).astype(np.float32)
    if blur:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    sigma = 6.0 if light == "dim noisy" else 2.0
    img += nrng.normal(0, sigma, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def _render(scene, folder: Path) -> np.ndarray:
    """Render to linear floats (BGR, H x W x 3)."""
    out = folder / "render.exr"
    scene.render.image_settings.file_format = "OPEN_EXR"
    scene.render.image_settings.color_depth = "32"
    scene.render.filepath = str(out)
    bpy.ops.render.render(write_still=True)
    image = bpy.data.images.load(str(out))
    pixels = np.array(image.pixels[:], np.float32).reshape(image.size[1], image.size[0], 4)[::-1, :, :3]
    bpy.data.images.remove(image)
    return np.ascontiguousarray(pixels[:, :, ::-1])


def render_scene(seed: int, style: int, colouring: str, samples: int, n_dice: int = 18):
    rng, nrng = random.Random(seed), np.random.default_rng(seed)
    light = rng.choice(LIGHTS)
    markers = rng.random() < 0.7
    blur = rng.choice([0, 0, 0, 0.7, 1.2])
    _reset()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        scene, cam, mat_obj = _scene(rng, nrng, folder, markers, light, samples)
        materials = {
            kind: _material(
                f"die-{kind}", _image_texture(_atlas(kind, style, colouring, folder), kind), rng.uniform(0.35, 0.6)
            )
            for kind in KINDS
        }
        kinds = [KINDS[i % 3] for i in range(n_dice)]
        dice = _dice(rng, kinds, materials, mat_obj)
        depsgraph = bpy.context.evaluated_depsgraph_get()
        truth = []
        for obj, kind in dice:
            side, tilt, centre, u, v = _top(obj)
            top, z = _top_truth(scene, cam, centre, u, v)
            x, y = top["center"]
            if z <= 0 or not (0 <= x < IMAGE_W and 0 <= y < IMAGE_H):
                continue
            hidden = hidden_from(scene, depsgraph, obj, centre)
            truth.append(
                {
                    "face": _faces_of(kind)[side],
                    "kind": kind,
                    **top,
                    "cocked": tilt > COCKED_DEG or hidden,
                    "tilt_deg": round(tilt, 1),
                    "hidden": hidden,
                }
            )
        photo = _finish(folder, _render(scene, folder), rng, nrng, light, blur)
    meta = {
        "seed": seed,
        "renderer": "blender-cycles",
        "style": style,
        "colouring": colouring,
        "light": light,
        "markers": markers,
        "blur": blur,
        "samples": samples,
        "table_camera": TABLE_RIG is not None,
    }
    return photo, {"dice": truth, "scene": meta}


def hidden_from(scene, depsgraph, obj, centre: Vector) -> bool:
    """Whether something else lies between the camera and ``obj``'s top face's centre (a die leaning over it)."""
    cam = scene.camera.location
    hit, _, _, _, hit_obj, _ = scene.ray_cast(
        depsgraph, cam, (centre - cam).normalized(), distance=(centre - cam).length - 0.001
    )
    return bool(hit and hit_obj.name != obj.name)


def _top_truth(scene, cam, centre: Vector, u: Vector, v: Vector, x0: int = 0, y0: int = 0) -> tuple[dict, float]:
    """A top face (its centre and half-axes in the world, as `_top` gives them) in the photo, px less the
    crop's corner ``x0, y0``: centre and corners, as each scene's ground truth; and its depth (behind the
    camera when not above 0)."""
    x, y, z = _pixel(scene, cam, centre)
    corners = [_pixel(scene, cam, centre + su * u + sv * v)[:2] for su, sv in ((-1, 1), (1, 1), (1, -1), (-1, -1))]
    return (
        {
            "center": [round(x - x0, 1), round(y - y0, 1)],
            "corners": [[round(cx - x0, 1), round(cy - y0, 1)] for cx, cy in corners],
        },
        z,
    )


def render_single(
    seed: int, face: str, style: int, colouring: str, samples: int, render: bool = True
) -> tuple[np.ndarray | None, dict]:
    """An enrollment photo: one die lying flat with ``face`` up, a 320x320 crop at the table camera's scale,
    and its ground truth (the top face's centre and corners in the crop). ``render=False``: the truth only
    (the scene is set up the same way, a few seconds instead of minutes)."""
    rng, nrng = random.Random(seed), np.random.default_rng(seed)
    light = rng.choice(["warm room", "overhead lamp", "side window"])
    _reset()
    kind = FACES[face][0]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        scene, cam, _ = _scene(rng, nrng, folder, False, light, samples)
        material = _material(
            "die", _image_texture(_atlas(kind, style, colouring, folder), kind), rng.uniform(0.35, 0.6)
        )
        obj = _die_mesh("die")
        obj.data.materials.append(material)
        side = _faces_of(kind).index(face)
        up = Vector(SIDES[side][0])
        obj.rotation_euler = (
            Matrix.Rotation(rng.uniform(0, 2 * math.pi), 3, "Z") @ up.rotation_difference(Vector((0, 0, 1))).to_matrix()
        ).to_euler()
        obj.location = (rng.uniform(-0.12, 0.12), rng.uniform(-0.07, 0.07), DIE / 2)
        bpy.context.view_layer.update()
        x, y, _ = _pixel(scene, cam, obj.location + Vector((0, 0, DIE / 2)))
        x0, y0 = int(np.clip(x - 160, 0, IMAGE_W - 320)), int(np.clip(y - 160, 0, IMAGE_H - 320))
        top, _ = _top_truth(scene, cam, *_top(obj)[2:], x0, y0)
        truth = {"face": face, "kind": kind, **top, "light": light}
        if not render:
            return None, truth
        # render only the crop: the camera, and so the die's look, is the table's
        scene.render.use_border, scene.render.use_crop_to_border = True, False
        scene.render.border_min_x, scene.render.border_max_x = x0 / IMAGE_W, (x0 + 320) / IMAGE_W
        scene.render.border_min_y, scene.render.border_max_y = 1 - (y0 + 320) / IMAGE_H, 1 - y0 / IMAGE_H
        linear = _render(scene, folder)
        # expose on a full frame's mat: pad the unrendered part with the crop's own mat level
        crop = linear[y0 : y0 + 320, x0 : x0 + 320]
        frame = np.empty_like(linear)
        frame[:] = np.median(crop.reshape(-1, 3), axis=0)
        frame[y0 : y0 + 320, x0 : x0 + 320] = crop
        photo = _finish(folder, frame, rng, nrng, light, 0)
    return photo[y0 : y0 + 320, x0 : x0 + 320], truth


TABLE_RIG: tuple[float, float, float, float, float, float] | None = None  # --table-camera: one rig for the set


def write_set(out: Path, photos: int, first_seed: int, style: int, colouring: str, enroll: int, samples: int) -> None:
    """Enrollment photos first (a reader can be tried as soon as a scene is out), each with its truth (.json);
    files already there are kept (a photo without its truth gets it, without rendering again)."""
    for face in FACE_IDS if enroll else ():
        folder = out / "enroll" / face
        folder.mkdir(parents=True, exist_ok=True)
        for k in range(enroll):
            path = folder / f"{k:02d}.jpg"
            if not (path.exists() and path.with_suffix(".json").exists()):
                seed = first_seed * 7 + 1000 + FACE_IDS.index(face) * 50 + k
                photo, truth = render_single(seed, face, style, colouring, samples, render=not path.exists())
                if photo is not None:
                    cv2.imwrite(str(path), photo, [cv2.IMWRITE_JPEG_QUALITY, 90])
                path.with_suffix(".json").write_text(json.dumps(truth, indent=1))
        print(f"enroll/{face}: {enroll} photos", flush=True)
    out.mkdir(parents=True, exist_ok=True)
    for seed in range(first_seed, first_seed + photos):
        path = out / f"scene-{seed:05d}.jpg"
        if path.exists():
            continue
        photo, truth = render_scene(seed, style, colouring, samples)
        cv2.imwrite(str(path), photo, [cv2.IMWRITE_JPEG_QUALITY, 88])
        path.with_suffix(".json").write_text(json.dumps(truth, indent=1))
        print(f"scene-{seed:05d}: {len(truth['dice'])} dice, {truth['scene']['light']}", flush=True)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out", type=Path)
    p.add_argument("--photos", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--style",
        type=int,
        default=0,
        help="art style of the pictograms (0, 1, 2; 3: in a ring, the number at the bottom right; 4: thin, turned 45 degrees)",
    )
    p.add_argument("--colouring", choices=sorted(COLOURINGS), default="black")
    p.add_argument("--enroll", type=int, default=0, help="enrollment photos per face")
    p.add_argument("--samples", type=int, default=48, help="Cycles samples per pixel (denoised)")
    p.add_argument(
        "--table-camera",
        action="store_true",
        help="one camera (height, tilt) for every photo of the set, enrollment too, as at a real table; "
        "without it each photo has its own",
    )
    a = p.parse_args()
    if a.table_camera:
        TABLE_RIG = _draw_rig(random.Random(a.seed * 13 + 7))
        print(
            f"table camera: {TABLE_RIG[0] * 100:.0f} cm up, tilted {math.degrees(TABLE_RIG[1]):.1f} degrees", flush=True
        )
    write_set(a.out, a.photos, a.seed, a.style, a.colouring, a.enroll, a.samples)
