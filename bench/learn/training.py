"""What the three trainings share: the learning rate's cosine decay over a time budget, and the ONNX export."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np


def cosine_decay(opt, peak: float, started: float, budget: float) -> None:
    """Set ``opt``'s learning rate to ``peak`` decayed along a half cosine over ``budget`` seconds from ``started``."""
    for group in opt.param_groups:
        group["lr"] = peak * 0.5 * (1 + np.cos(np.pi * min(1.0, (time.perf_counter() - started) / budget)))


def export(net, out: Path, size: int, names: tuple[str, str], dynamic: dict | None = None) -> None:
    """``net`` as ONNX (opset 13, for OpenCV's DNN module) at ``out``: a (n, 1, size, size) input named ``names[0]``,
    the output ``names[1]``; ``dynamic`` the axes that vary (the batch's alone unless told)."""
    import torch

    net.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        net,
        torch.zeros(1, 1, size, size),
        str(out),
        input_names=[names[0]],
        output_names=[names[1]],
        dynamic_axes=dynamic or {names[0]: {0: "n"}, names[1]: {0: "n"}},
        opset_version=13,
        dynamo=False,
    )


def arguments(doc: str, batch: int, pool: int, pool_help: str):
    """The finder's and the refiner's command line (out, minutes, batch, pool, threads, seed), parsed; torch set
    to its threads and seed."""
    import argparse

    import torch

    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--batch", type=int, default=batch)
    parser.add_argument("--pool", type=int, default=pool, help=pool_help)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    return args
