// The Rolling Bones faces as pictograms (inline SVG), as players know them from the dice: a right face is its
// left face mirrored. Drawn in currentColor on a 40x40 box. Uses svg() from app.js.
"use strict";

const INK = { fill: "currentColor", stroke: "currentColor", "stroke-linecap": "round", "stroke-linejoin": "round" };

function bone(x1, y1, x2, y2, w) {
  // a shaft with two knobs at each end
  const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy), nx = -dy / len * w * 0.6, ny = dx / len * w * 0.6;
  const knob = (x, y) => [svg("circle", { cx: x + nx, cy: y + ny, r: w * 0.75 }), svg("circle", { cx: x - nx, cy: y - ny, r: w * 0.75 })];
  return [svg("line", { x1, y1, x2, y2, "stroke-width": w }), ...knob(x1, y1), ...knob(x2, y2)];
}

const DRAW = {
  "upper-arm": () => bone(11, 11, 29, 29, 4),
  forearm: () => [...bone(9, 15, 25, 31, 2.5), ...bone(15, 9, 31, 25, 2.5)],
  hand: () => [svg("rect", { x: 13, y: 20, width: 13, height: 12, rx: 3 }),
    ...[14, 18, 22, 26].map((x) => svg("line", { x1: x, y1: 20, x2: x, y2: 7, "stroke-width": 3 })),
    svg("line", { x1: 13, y1: 25, x2: 6, y2: 18, "stroke-width": 3 })],
  thigh: () => bone(20, 6, 20, 34, 5),
  "lower-leg": () => [...bone(16, 6, 16, 34, 3), ...bone(24, 8, 24, 34, 2)],
  foot: () => [svg("path", { d: "M14 6 h8 v20 q8 0 12 4 v4 h-20 q-4 0 -4 -4 z" })],
  skull: () => [svg("circle", { cx: 20, cy: 17, r: 11 }), svg("rect", { x: 14, y: 24, width: 12, height: 9, rx: 2 }),
    svg("circle", { cx: 16, cy: 17, r: 3, fill: "#000", stroke: "none" }), svg("circle", { cx: 24, cy: 17, r: 3, fill: "#000", stroke: "none" })],
  ribcage: () => [svg("line", { x1: 20, y1: 5, x2: 20, y2: 35, "stroke-width": 3 }),
    ...[11, 19, 27].flatMap((y) => [svg("path", { d: `M20 ${y} q-12 0 -12 8`, fill: "none", "stroke-width": 2.5 }),
      svg("path", { d: `M20 ${y} q12 0 12 8`, fill: "none", "stroke-width": 2.5 })])],
  spine: () => [5, 11, 17, 23, 29].map((y) => svg("rect", { x: 15, y, width: 10, height: 4.5, rx: 1.5 })),
  pelvis: () => [svg("ellipse", { cx: 12, cy: 18, rx: 8, ry: 10 }), svg("ellipse", { cx: 28, cy: 18, rx: 8, ry: 10 }),
    svg("rect", { x: 17, y: 22, width: 6, height: 12, rx: 2 }), svg("circle", { cx: 20, cy: 17, r: 3.5, fill: "#000", stroke: "none" })],
  hat: () => [svg("rect", { x: 12, y: 7, width: 16, height: 20, rx: 1 }), svg("rect", { x: 5, y: 27, width: 30, height: 5, rx: 2 })],
  gravestone: () => [svg("path", { d: "M9 36 v-20 a11 11 0 0 1 22 0 v20 z" }),
    svg("path", { d: "M20 12 v14 M15 17 h10", stroke: "#000", "stroke-width": 3 })],
};

function facePicture(face, size = 40) {
  // face: "left-hand", "skull" ...; a right face is its left face mirrored (a die's button says its side by colour)
  const side = face.startsWith("left-") ? "L" : face.startsWith("right-") ? "R" : "";
  const name = face.replace(/^(left|right)-/, "");
  const drawing = svg("g", { ...INK, ...(side === "R" ? { transform: "translate(40 0) scale(-1 1)" } : {}) }, ...(DRAW[name] || (() => [])) ());
  const picture = svg("svg", { viewBox: "0 0 40 40", width: size, height: size, class: "face", role: "img", "aria-label": face }, drawing);
  return picture;
}
