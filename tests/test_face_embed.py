"""The shipped face embedding (models/networks/face-embed.onnx) runs with OpenCV's DNN module and names faces."""

from pathlib import Path

import numpy as np

from bench.learn.eval_embed import Embedder, name, repo_styles

MODEL = Path(__file__).resolve().parents[1] / "models" / "networks" / "face-embed.onnx"


def test_the_embedding_is_64_numbers_of_unit_length():
    out = Embedder(MODEL)(np.random.default_rng(1).standard_normal((5, 32, 32)).astype(np.float32))
    assert out.shape == (5, 64) and np.allclose(np.linalg.norm(out, axis=1), 1, atol=1e-4)


def test_art_it_never_saw_is_named_from_three_examples_mirror_images_apart():
    """90 drawn views a style, some under a sheen up to white and heavy noise: at most one misread (a view can
    lose its print), mirror images told apart."""
    embed = Embedder(MODEL)
    for style, support, queries in repo_styles(np.random.default_rng(5)):
        result = name(embed, support, queries)
        assert result["top1"] >= 0.9 and result["mirror"] <= 0.03 and result["misread"] <= 1 / 90, (style, result)
