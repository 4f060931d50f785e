"""What the three trainings share: the learning rate's cosine decay over a time budget, and the ONNX export."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np


def cosine_decay(opt, peak: float, started: float, budget: float) -> None:
    """Set ``opt``'s learning rate to ``peak`` decayed along a half cosine over ``budget`` seconds from ``started``."""
    for group in opt.param_groups:
        group["lr"] = peak * 0.5 * (1 + np.cos(np.pi * min(1.0, (time.perf_counter() - started) / budget)))


def descend(opt, loss, peak: float, started: float, budget: float) -> float:
    """One step of ``opt`` down ``loss``, the learning rate then decayed (``cosine_decay``); the loss's value."""
    opt.zero_grad()
    loss.backward()
    opt.step()
    cosine_decay(opt, peak, started, budget)
    return loss.item()


def report(step: int, losses: list[float], started: float, what: str) -> None:
    """Every 200 steps, the mean loss of the last 200, ``what`` (the data so far) and the time taken."""
    if step % 200 == 0:
        print(
            f"step {step}: loss {np.mean(losses[-200:]):.3f}, {what} ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )


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


def arguments(
    doc: str, batch: int, pool: int | None = None, pool_help: str = "", extra: tuple[tuple[str, dict], ...] = ()
):
    """A trainer's command line (out, minutes, batch, threads, seed; ``--pool`` for trainers that draw scenes
    ahead; and ``extra``'s options: each a flag and its ``add_argument`` keywords), parsed; torch set to its
    threads and seed."""
    import argparse

    import torch

    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--batch", type=int, default=batch)
    if pool is not None:
        parser.add_argument("--pool", type=int, default=pool, help=pool_help)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    for flag, keywords in extra:
        parser.add_argument(flag, **keywords)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    return args


def comma_list(kind: type, count: int):
    """An argparse type: ``count`` values of ``kind`` written "a,b,..." (a clear error when the count is wrong)."""
    import argparse

    def parse(text: str) -> tuple:
        try:
            values = tuple(kind(v) for v in text.split(","))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r}: not {count} {kind.__name__} values") from None
        if len(values) != count:
            raise argparse.ArgumentTypeError(f"{text!r}: {count} values wanted, as {','.join('abcdefgh'[:count])}")
        return values

    return parse


def start_options(what: str, lr: float) -> tuple[tuple[str, dict], tuple[str, dict]]:
    """The ``--start-from`` (a trained ``what``, ONNX, to go on from) and ``--lr`` (peak, ``lr`` unless told)
    options, for ``arguments``'s ``extra``."""
    start = ("--start-from", {"type": Path, "help": f"a trained {what} (.onnx) to go on from"})
    peak = ("--lr", {"type": float, "default": lr, "help": "the learning rate's peak"})
    return start, peak


def started_from(net, path: Path | None, what: str) -> None:
    """``net`` ready to train: from ``path``'s weights if given (``trained_on``; kept in eval mode, so its batch
    norms' statistics stay as trained: the export fused them), else from scratch in train mode."""
    if path:
        trained_on(net, path, f"a {what}")
    net.train(not path)


def trained_on(net, path: Path, what: str, may_lack: tuple[str, ...] = ()) -> None:
    """Load into ``net`` the weights of ``path`` (weights_from_onnx) to train on; a file that is not ``what`` (nor
    a file, nor this network's) is a one-line SystemExit. ``may_lack``: prefixes of weights it may lack or hold in
    another shape (a new head; a head over a bigger window)."""
    from google.protobuf.message import DecodeError  # a file that is no ONNX at all

    try:
        lacking = [name for name in weights_from_onnx(net, path) if not name.startswith(may_lack)]
    except DecodeError:
        raise SystemExit(f"{path} is not {what}: not an ONNX file") from None
    except (OSError, ValueError, RuntimeError) as error:  # RuntimeError: a weight of another shape
        raise SystemExit(str(error).splitlines()[0]) from None
    if lacking:
        raise SystemExit(f"{path} is not {what}: it lacks {', '.join(lacking)}")


def weights_from_onnx(net, path: Path) -> list[str]:
    """Load into ``net`` (in eval mode) the weights of its own ONNX export at ``path``, so a shipped network can be
    trained on: named weights by name; a convolution the export fused with its batch norm by the module path in
    its node's name, its bias then carried by the batch norm after it (mean 0, spread 1, scale 1). Returns the
    names of ``net``'s weights the file did not hold (a head it lacks) or held in another shape; ValueError if it is
    another network's."""
    import onnx
    import torch
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    stored = {t.name: torch.from_numpy(numpy_helper.to_array(t).copy()) for t in graph.initializer}
    state, modules = net.state_dict(), dict(net.named_modules())
    loaded = {name: value for name, value in stored.items() if name in state and value.shape == state[name].shape}
    for node in graph.node:
        if node.op_type != "Conv" or node.input[1] in state:
            continue
        conv = node.output[0].split("/")[-2]  # "/trunk/trunk.0/Conv_output_0": the module trunk.0
        prefix, dot, index = conv.rpartition(".")  # (a plain Sequential's modules are "0", "1", ...: no prefix)
        norm = f"{prefix}{dot}{int(index) + 1}" if index.isdigit() else ""
        if conv not in modules or norm not in modules or len(node.input) < 3:
            raise ValueError(f"{path} does not fit this network: no convolution {conv} with a batch norm after it")
        bias = stored[node.input[2]]
        loaded[f"{conv}.weight"] = stored[node.input[1]]
        loaded[f"{norm}.weight"] = torch.ones_like(bias)
        loaded[f"{norm}.bias"] = bias
        loaded[f"{norm}.running_mean"] = torch.zeros_like(bias)
        loaded[f"{norm}.running_var"] = torch.full_like(bias, 1 - modules[norm].eps)
    missing = [name for name in state if name not in loaded and not name.endswith("num_batches_tracked")]
    net.load_state_dict(loaded, strict=False)
    net.eval()
    return missing
