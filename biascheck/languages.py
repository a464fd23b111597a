"""Which languages a model covers, so a probe in another language is skipped with a reason, not run
to a red verdict that says nothing about bias.

Sources, first that answers: ``--bias-language`` (for every model of the run), the model's registry
entry, the ``language:`` field of its model card (the README.md front matter a hub repository and
its local snapshot carry; read from the hub only when a hub id is given and the hub is reachable),
else English: most checkpoints are, and assuming so keeps a Norwegian probe off an English model;
the skip reason says how to run it anyway.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

from biascheck.errors import ConfigError
from biascheck.files import offline

# Norwegian: "no" (the macrolanguage), Bokmål "nb", Nynorsk "nn"; a model card may name any of them.
NORWEGIAN = ("no", "nb", "nn")
ASSUMED = ("en",)
_CODE = re.compile(r"[a-z]{2,3}")


def parse_languages(text: str) -> tuple[str, ...]:
    """'en,no' → ('en', 'no'); ConfigError for anything that is not ISO 639 codes."""
    codes = tuple(dict.fromkeys(c.strip().lower() for c in str(text).split(",") if c.strip()))
    bad = [c for c in codes if not _CODE.fullmatch(c)]
    if not codes or bad:
        raise ConfigError(
            f"--bias-language wants ISO 639-1 codes separated by commas (e.g. en or en,no), got {text!r}."
        )
    return codes


def covers(languages: tuple[str, ...], language: str) -> bool:
    """True if a model with `languages` covers a probe in `language` (Norwegian codes stand for each other)."""
    if language in languages:
        return True
    return language in NORWEGIAN and any(code in NORWEGIAN for code in languages)


def card_front_matter_languages(text: str) -> tuple[str, ...]:
    """The ``language:`` of a model card's YAML front matter (one code or a list), lower-cased; () if none."""
    match = re.match(r"\A---\s*\n(.*?)\n---\s*(\n|\Z)", text, flags=re.S)
    if not match:
        return ()
    lines = match.group(1).splitlines()
    for i, line in enumerate(lines):
        key = re.match(r"language\s*:\s*(.*)$", line)
        if not key:
            continue
        inline = key.group(1).strip()
        if inline.startswith("["):
            return tuple(c.strip(" '\"").lower() for c in inline.strip("[]").split(",") if c.strip(" '\""))
        if inline:
            return (inline.strip("'\"").lower(),)
        items = []
        for item in lines[i + 1 :]:
            entry = re.match(r"\s*-\s*(.+)$", item)
            if not entry:
                break
            items.append(entry.group(1).strip(" '\"").lower())
        return tuple(items)
    return ()


@lru_cache(maxsize=64)
def card_languages(name_or_path: str) -> tuple[str, ...]:
    """The model card's languages: a local directory's README.md, else the hub's (when reachable); ()."""
    local = Path(name_or_path).expanduser()
    if local.is_dir():
        readme = local / "README.md"
        if not readme.is_file():
            return ()
        return card_front_matter_languages(readme.read_text(encoding="utf-8", errors="replace"))
    if "/" not in name_or_path:
        return ()
    try:  # a snapshot in the hub cache first, then the hub's card metadata (one request, no retries)
        from huggingface_hub import HfApi, hf_hub_download

        try:
            path = hf_hub_download(name_or_path, "README.md", local_files_only=True)
            return card_front_matter_languages(Path(path).read_text(encoding="utf-8", errors="replace"))
        except Exception:  # noqa: BLE001 - not cached
            if os.environ.get("HF_HUB_OFFLINE", "") not in ("", "0") or offline():
                return ()
            card = HfApi().model_info(name_or_path, timeout=5).card_data
    except Exception:  # noqa: BLE001 - no hub, no card, no package: the card is just not a source
        return ()
    found = getattr(card, "language", None) if card is not None else None
    found = [found] if isinstance(found, str) else list(found or [])
    return tuple(str(code).lower() for code in found)


def model_languages(
    registry: tuple[str, ...], name_or_path: str, override: tuple[str, ...] | None = None
) -> tuple[tuple[str, ...], str]:
    """(languages, where they came from) by the module docstring's order."""
    if override:
        return override, "--bias-language"
    if registry:
        return registry, "its registry entry"
    card = card_languages(name_or_path)
    if card:
        return card, "its model card"
    return ASSUMED, "assumed: no registry entry, model card or --bias-language says"
