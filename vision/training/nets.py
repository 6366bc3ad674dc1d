"""The two small CNNs: a crop classifier (kind + orientation) and a CenterNet tile detector."""

from __future__ import annotations

import torch
from torch import nn
import torch.nn.functional as F

from ..kinds import KINDS


def cbr(cin: int, cout: int, stride: int = 1, folded: bool = False) -> nn.Sequential:
    """3x3 conv, batch norm, ReLU; ``folded``: the norm already folded into the conv's bias
    (what an exported ONNX graph holds; see :func:`load_onnx_detector`)."""
    norm = nn.Identity() if folded else nn.BatchNorm2d(cout)
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=folded), norm, nn.ReLU(inplace=True))


class Res(nn.Module):
    """Basic residual block (two 3x3 convs)."""

    def __init__(self, c: int, folded: bool = False):
        super().__init__()
        self.a = cbr(c, c, folded=folded)
        self.b = nn.Sequential(nn.Conv2d(c, c, 3, 1, 1, bias=folded), nn.Identity() if folded else nn.BatchNorm2d(c))

    def forward(self, x):
        return F.relu(x + self.b(self.a(x)))


class TileClassifier(nn.Module):
    """48x48 crop -> (kind logits [43], orientation logits [4]: 0/90/180/270 deg CCW)."""

    def __init__(self, width: int = 32):
        super().__init__()
        w = width
        self.body = nn.Sequential(
            cbr(3, w), cbr(w, w, 2), Res(w),              # 24
            cbr(w, 2 * w, 2), Res(2 * w),                 # 12
            cbr(2 * w, 4 * w, 2), Res(4 * w),             # 6
            cbr(4 * w, 8 * w, 2),                         # 3
        )
        self.drop = nn.Dropout(0.2)
        self.kind = nn.Linear(8 * w, len(KINDS))
        self.orient = nn.Linear(8 * w, 4)

    def forward(self, x):
        f = self.drop(torch.flatten(F.adaptive_avg_pool2d(self.body(x), 1), 1))
        return self.kind(f), self.orient(f)


class CenterNet(nn.Module):
    """Class-agnostic tile detector: image -> (centre heatmap logit, log box size, offset) at
    stride 4. Fully convolutional: any input size that is a multiple of 32.

    Box size is predicted as log(size / 4 px) so tiny and huge tiles are equally easy."""

    def __init__(self, folded: bool = False):
        super().__init__()
        f = folded
        self.s1 = cbr(3, 16, 2, f)                                     # /2
        self.s2 = cbr(16, 32, 2, f)                                    # /4
        self.s3 = nn.Sequential(cbr(32, 48, 2, f), Res(48, f))         # /8
        self.s4 = nn.Sequential(cbr(48, 96, 2, f), Res(96, f))         # /16
        self.s5 = nn.Sequential(cbr(96, 160, 2, f), Res(160, f))       # /32
        self.l5 = nn.Conv2d(160, 96, 1)
        self.l4 = nn.Conv2d(96, 48, 1)
        self.l3 = nn.Conv2d(48, 32, 1)
        self.m3 = cbr(48, 48, folded=f)
        self.m2 = cbr(32, 32, folded=f)
        self.hm = nn.Conv2d(32, 1, 1)
        self.wh = nn.Conv2d(32, 2, 1)
        self.off = nn.Conv2d(32, 2, 1)
        nn.init.constant_(self.hm.bias, -2.19)

    def forward(self, x):
        x2 = self.s2(self.s1(x))
        x3 = self.s3(x2)
        x4 = self.s4(x3)
        x5 = self.s5(x4)
        up = lambda t: F.interpolate(t, scale_factor=2.0, mode="nearest")
        p4 = x4 + up(self.l5(x5))
        p3 = self.m3(x3 + up(self.l4(p4)))
        p2 = self.m2(x2 + up(self.l3(p3)))
        return self.hm(p2), self.wh(p2), self.off(p2)


class LiteCenterNet(nn.Module):
    """CenterNet on an ImageNet-pretrained EfficientNet-Lite0 with a small FPN down to stride 4.

    Same outputs as :class:`CenterNet` (heatmap logit, log size, offset at stride 4), so the
    runtime decodes both alike. The pretrained features are what lets it find tiles of sets
    and scenes that neither the real nor the synthetic training photos show."""

    def __init__(self, width: int = 64, pretrained: bool = True):
        super().__init__()
        from .effnet import LiteBackbone

        self.backbone = LiteBackbone.build(pretrained=pretrained)
        self.lat = nn.ModuleList(nn.Conv2d(c, width, 1) for c in LiteBackbone.CHANNELS)
        self.smooth = nn.ModuleList(cbr(width, width) for _ in range(3))
        self.head = cbr(width, width)
        self.hm = nn.Conv2d(width, 1, 1)
        self.wh = nn.Conv2d(width, 2, 1)
        self.off = nn.Conv2d(width, 2, 1)
        nn.init.constant_(self.hm.bias, -2.19)

    def forward(self, x):
        feats = self.backbone(x)
        p = self.lat[3](feats[3])
        for i in (2, 1, 0):   # top-down: stride 16, 8, 4
            p = self.smooth[i](self.lat[i](feats[i]) + F.interpolate(p, scale_factor=2.0, mode="nearest"))
        h = self.head(p)
        return self.hm(h), self.wh(h), self.off(h)


def build_detector(arch: str = "centernet", pretrained: bool = True) -> nn.Module:
    """The detector network a checkpoint's ``arch`` names (``centernet-folded``: CenterNet with
    its batch norms folded into the convs, as fine-tuned from an exported ONNX file)."""
    if arch == "lite":
        return LiteCenterNet(pretrained=pretrained)
    return CenterNet(folded=arch == "centernet-folded")


# CenterNet's convolutions in the order the exported graph runs them (forward())
_CENTERNET_CONVS = ["s1.0", "s2.0", "s3.0.0", "s3.1.a.0", "s3.1.b.0", "s4.0.0", "s4.1.a.0", "s4.1.b.0",
                    "s5.0.0", "s5.1.a.0", "s5.1.b.0", "l5", "l4", "m3.0", "l3", "m2.0", "hm", "wh", "off"]


def load_onnx_detector(path) -> nn.Module:
    """A trainable ``centernet-folded`` network with the weights of an exported detector ONNX
    file. Why: the shipped detector's checkpoint need not be at hand (a fresh machine has only
    ``models/``), and its graph holds every weight, batch norms folded into conv biases; so
    fine-tuning can start from exactly the shipped model. Shapes are checked conv by conv."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    model = CenterNet(folded=True)
    modules = dict(model.named_modules())
    if len(convs) != len(_CENTERNET_CONVS):
        raise ValueError(f"{path}: {len(convs)} convolutions, a CenterNet has {len(_CENTERNET_CONVS)}")
    with torch.no_grad():
        for node, name in zip(convs, _CENTERNET_CONVS):
            conv = modules[name]
            w, b = weights[node.input[1]], weights[node.input[2]]
            if tuple(w.shape) != tuple(conv.weight.shape):
                raise ValueError(f"{path}: conv {name} is {w.shape}, expected {tuple(conv.weight.shape)}")
            conv.weight.copy_(torch.from_numpy(w.copy()))
            conv.bias.copy_(torch.from_numpy(b.copy()))
    return model


class LiteClassifier(nn.Module):
    """48 px crop -> (kind logits [43], orientation logits [4]) on the ImageNet-pretrained
    EfficientNet-Lite0 cut at stride 16 (3 x 3 features of a 48 px crop; the stride-32 stages
    would triple the weights for a 2 x 2 map)."""

    def __init__(self, pretrained: bool = True):
        super().__init__()
        from .effnet import LiteBackbone

        self.backbone = LiteBackbone.build(stages=5, pretrained=pretrained)
        self.neck = nn.Sequential(nn.Conv2d(112 + 40, 256, 1, bias=False), nn.BatchNorm2d(256),
                                  nn.ReLU(inplace=True))
        self.drop = nn.Dropout(0.2)
        self.kind = nn.Linear(256, len(KINDS))
        self.orient = nn.Linear(256, 4)

    def forward(self, x):
        feats = self.backbone(x)
        # stride 8 (6 x 6) and stride 16 (3 x 3) features, pooled: fine strokes and whole face
        f = torch.cat([F.adaptive_avg_pool2d(feats[1], 1), F.adaptive_avg_pool2d(feats[2], 1)], 1)
        f = self.drop(torch.flatten(self.neck(f), 1))
        return self.kind(f), self.orient(f)


def load_onnx_classifier(path) -> "LiteClassifier":
    """A trainable :class:`LiteClassifier` with the weights of an exported classifier ONNX file.
    Why: like :func:`load_onnx_detector`, fine-tuning must be able to start from exactly the
    shipped model when its checkpoint is gone. The export folds every batch norm into the conv
    before it; each norm is set back to an identity plus that bias (mean 0, variance 1 - eps,
    scale 1), so the network computes the same function in eval mode. Keep the norms in eval
    mode while fine-tuning (:func:`freeze_norms`): batch statistics would undo the folding.
    Convolutions are matched by the module path the exporter writes into each node's name."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    model = LiteClassifier(pretrained=False)
    modules = dict(model.named_modules())
    # the norm that follows each conv in forward() (stem, MBConv blocks, neck)
    norm_of = {"backbone._conv_stem": "backbone._bn0", "neck.0": "neck.1"}
    for name in modules:
        for conv, norm in (("_expand_conv", "_bn0"), ("_depthwise_conv", "_bn1"), ("_project_conv", "_bn2")):
            if name.endswith("." + conv):
                norm_of[name] = name[: -len(conv)] + norm
    seen = set()
    with torch.no_grad():
        for node in graph.node:
            if node.op_type == "Gemm":
                head = modules[node.input[1].split(".")[0]]
                head.weight.copy_(torch.from_numpy(weights[node.input[1]].copy()))
                head.bias.copy_(torch.from_numpy(weights[node.input[2]].copy()))
                seen.add(node.input[1].split(".")[0])
                continue
            if node.op_type != "Conv":
                continue
            # '/backbone/_blocks.3/_expand_conv/Conv' -> 'backbone._blocks.3._expand_conv'
            parts = [p for p in node.name.split("/") if p][:-1]
            name = ".".join(parts).replace("neck.neck.", "neck.")
            if name not in norm_of:
                raise ValueError(f"{path}: conv node {node.name!r} matches no LiteClassifier conv")
            conv, norm = modules[name], modules[norm_of[name]]
            w, b = weights[node.input[1]], weights[node.input[2]]
            if tuple(w.shape) != tuple(conv.weight.shape):
                raise ValueError(f"{path}: conv {name} is {w.shape}, expected {tuple(conv.weight.shape)}")
            conv.weight.copy_(torch.from_numpy(w.copy()))
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(b.copy()))
            seen.add(name)
    expected = set(norm_of) | {"kind", "orient"}
    if seen != expected:
        raise ValueError(f"{path}: weights missing for {sorted(expected - seen)[:4]}")
    _check_same_function(model, path)
    return model


def _check_same_function(model: nn.Module, path, side: int = 64) -> None:
    """Raise unless the loaded network gives the ONNX file's logits on a random batch."""
    import numpy as np
    import onnxruntime as ort

    x = np.random.default_rng(0).uniform(-1, 1, (4, 3, side, side)).astype(np.float32)
    want = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(["kind_logits"], {"crops": x})[0]
    model.eval()
    with torch.no_grad():
        got = model(torch.from_numpy(x))[0].numpy()
    if not np.allclose(got, want, atol=1e-3):
        raise ValueError(f"{path}: loaded network differs from the file (max {np.abs(got - want).max():.4f})")


def freeze_norms(model: nn.Module) -> None:
    """Put every batch norm in eval mode (running statistics used, not updated); call after
    each ``model.train()`` when fine-tuning a network loaded from ONNX."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def build_classifier(arch: str = "small", width: int = 32, pretrained: bool = True) -> nn.Module:
    """The classifier network a checkpoint's ``arch`` names."""
    if arch == "lite":
        return LiteClassifier(pretrained=pretrained)
    return TileClassifier(width)
