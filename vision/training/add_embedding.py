"""Give the exported crop classifier a third output, ``embedding`` (N x 256: the neck's
features that both heads read), so that a taught set (``mjscore teach``, vision/teach.py) can
be learned on them. The graph is otherwise untouched, so ``kind_logits`` and
``orient_logits`` stay bit-identical. Dev-time only (needs the ``onnx`` package); run after
every classifier export:

    python -m mjscore.vision.training.add_embedding models/tile_classifier.onnx
"""

from __future__ import annotations

import argparse
from pathlib import Path

EMBEDDING = "embedding"


def add_embedding_output(path: Path, out: Path | None = None) -> str:
    """Expose the input of the kind head (a Gemm producing ``kind_logits``) as ``embedding``."""
    import onnx
    from onnx import helper

    model = onnx.load(str(path))
    g = model.graph
    if any(o.name == EMBEDDING for o in g.output):
        return "already has an embedding output"
    head = next(n for n in g.node if "kind_logits" in n.output)
    feat = head.input[0]
    width = next(i for i in g.initializer if i.name == head.input[1]).dims[1]
    g.node.append(helper.make_node("Identity", [feat], [EMBEDDING], name="embedding_out"))
    g.output.append(helper.make_tensor_value_info(EMBEDDING, onnx.TensorProto.FLOAT, ["n", width]))
    onnx.checker.check_model(model)
    onnx.save(model, str(out or path))
    return f"embedding = {feat} ({width} wide)"


def main() -> None:
    ap = argparse.ArgumentParser(description="add the embedding output to the crop classifier")
    ap.add_argument("model", type=Path)
    ap.add_argument("--out", type=Path, default=None, help="write here instead of in place")
    args = ap.parse_args()
    print(add_embedding_output(args.model, args.out))


if __name__ == "__main__":
    main()
