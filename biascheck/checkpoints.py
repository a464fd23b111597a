"""Model lists for sweeps: which checkpoints (with training step and seed) one run probes.

`--model-list FILE` reads a CSV or a TOML file:

    # checkpoints.csv: header row, columns model (required), step, seed (optional)
    model,step,seed
    ./ckpt/seed0-step100,100,0
    ./ckpt/seed0-step200,200,0

    # checkpoints.toml
    [[checkpoint]]
    model = "./ckpt/seed0-step100"
    step = 100
    seed = 0

Relative model paths are taken relative to the list file when such a directory exists there.
"""

from __future__ import annotations

import csv
import tomllib
from dataclasses import dataclass
from pathlib import Path

from biascheck.errors import ConfigError


@dataclass(frozen=True)
class Checkpoint:
    """One model of a sweep: its name (alias, hub id or directory), training step and seed."""

    model: str
    step: int | None = None
    seed: str | None = None

    def to_json(self) -> dict[str, object]:
        return {"model": self.model, "step": self.step, "seed": self.seed}


def _model(value: str, base: Path) -> str:
    value = value.strip()
    candidate = base / value
    if not Path(value).is_absolute() and not Path(value).exists() and candidate.exists():
        return str(candidate)
    return value


def _step(value: object, where: str) -> int | None:
    if value is None or value == "":
        return None
    try:
        return int(str(value).strip())
    except ValueError:
        raise ConfigError(f"{where}: step {value!r} is not an integer.") from None


def read_model_list(path: str | Path) -> list[Checkpoint]:
    """Parse a CSV or TOML model list (see the module docstring); errors name the file and row."""
    path = Path(path).expanduser()
    if not path.is_file():
        raise ConfigError(f"--model-list {str(path)!r}: no such file.")
    base = path.parent
    rows: list[dict[str, object]]
    if path.suffix == ".toml":
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: {exc}") from None
        rows = data.get("checkpoint", [])
        if not isinstance(rows, list):
            raise ConfigError(f"{path}: use [[checkpoint]] tables, each with model, step and seed.")
    else:
        lines = [
            line
            for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.lstrip().startswith("#")
        ]
        rows = list(csv.DictReader(lines))
        if lines and "model" not in (csv.DictReader(lines).fieldnames or []):
            raise ConfigError(
                f"{path}: the first row must be a header with a 'model' column (and optionally step, seed)."
            )
    out = []
    for i, row in enumerate(rows, start=1):
        where = f"{path} entry {i}"
        unknown = set(row) - {"model", "step", "seed"}
        if unknown:
            raise ConfigError(f"{where}: unknown field(s) {sorted(unknown)}; use model, step, seed.")
        if not row.get("model"):
            raise ConfigError(f"{where}: no model.")
        seed = row.get("seed")
        out.append(
            Checkpoint(
                _model(str(row["model"]), base),
                _step(row.get("step"), where),
                None if seed is None or str(seed).strip() == "" else str(seed).strip(),
            )
        )
    if not out:
        raise ConfigError(f"{path}: lists no model.")
    names = [c.model for c in out]
    if len(set(names)) != len(names):
        raise ConfigError(f"{path}: a model is listed twice: {sorted({n for n in names if names.count(n) > 1})}.")
    return out
