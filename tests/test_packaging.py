"""The package installs under one import name and its runtime stays lean (issue 13).

pyproject maps ``mjscore`` to the repository root and lists the runtime packages; the
development tools (``mjscore.datasets``, ``mjscore.vision.training``), the tests and the
benchmarks are importable from a checkout but never shipped. These tests read the real
pyproject and the real sources, and run a real scan in a fresh interpreter."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUP = PYPROJECT["tool"]["setuptools"]
RUNTIME = SETUP["packages"]
DEV_ONLY = ("mjscore.datasets", "mjscore.vision.training", "mjscore.tests", "mjscore.benchmarks")
FORBIDDEN = ("torch", "onnx", "cairosvg", "pytest", "hypothesis") + DEV_ONLY


def _folder(package: str) -> Path:
    return ROOT.joinpath(*package.split(".")[1:])


def _imports(path: Path) -> set[str]:
    """Absolute names a module imports (relative imports resolved against its package)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ["mjscore", *path.relative_to(ROOT).with_suffix("").parts[:-1]]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            names.add(module)
            names |= {f"{module}.{a.name}" for a in node.names}
    return names


def test_one_import_name_and_the_command_points_into_it():
    assert SETUP["package-dir"] == {"mjscore": "."}
    assert all(p == "mjscore" or p.startswith("mjscore.") for p in RUNTIME)
    assert PYPROJECT["project"]["scripts"] == {"mjscore": "mjscore.cli:app"}
    assert "py-modules" not in SETUP, "a top-level module would land beside mjscore in site-packages"


def test_every_runtime_subpackage_is_shipped_and_no_dev_package_is():
    """A new folder with an __init__.py under a runtime package must be listed (or it would be
    missing from the wheel), and no development package may be listed."""
    for package in RUNTIME:
        assert not package.startswith(DEV_ONLY), f"{package} is development-only"
        for init in _folder(package).glob("*/__init__.py"):
            sub = f"{package}.{init.parent.name}"
            assert sub in RUNTIME or sub.startswith(DEV_ONLY), f"{sub} exists but is not in pyproject packages"


def test_runtime_modules_import_no_training_generator_or_test_code():
    offenders = []
    for package in RUNTIME:
        for path in _folder(package).glob("*.py"):
            for name in _imports(path):
                if any(name == f or name.startswith(f + ".") for f in FORBIDDEN):
                    offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not offenders, "\n".join(offenders)


def test_a_scan_loads_no_torch_and_no_generator(tmp_path):
    """Run ``mjscore scan --json`` on a bundled photo in a fresh interpreter and list what it
    imported: onnxruntime yes, torch and the dev packages no."""
    photo = ROOT / "samples" / "chinese-v4" / "images" / "photo_3.jpg"
    probe = (
        "import sys, json\n"
        "from typer.testing import CliRunner\n"
        "from mjscore.cli import app\n"
        f"r = CliRunner().invoke(app, ['scan', {str(photo)!r}, '--json'])\n"
        "assert r.exit_code == 0, r.output\n"
        "assert json.loads(r.stdout.splitlines()[0])['tiles']\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    loaded = set(out.stdout.split())
    assert "onnxruntime" in loaded and "mjscore.vision.recognizer" in loaded
    assert not [m for m in loaded if any(m == f or m.startswith(f + ".") for f in FORBIDDEN)]
