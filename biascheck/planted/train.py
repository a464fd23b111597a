"""Train a tiny language model on a planted corpus, for real: a tokenizer built from the corpus, a
transformers model class built from a config, AdamW, and `save_pretrained`.

* masked: WordPiece over a vocabulary built from the corpus (`wordpiece_vocab`; uncased, accents
  kept: æ ø å stay letters) + `BertForMaskedLM`, trained with the standard MLM objective
  (`MASK_RATE` of the word pieces, all replaced by [MASK]);
  or, where the config names a pretrained start (`TrainConfig.init`, `biascheck.planted.pretrained`), its
  tokenizer and weights, trained on with the same objective;
* causal: byte-level BPE trained with `tokenizers` + `GPT2LMHeadModel`, next-token loss, every
  sentence after ``<|endoftext|>`` (the context prefix the causal engine puts before a sentence).

Fixed seeds and `TRAIN_THREADS` threads make a build reproducible on one kind of CPU, whoever starts it
(a first use inside pytest, the prebuild's one-thread workers): float32 sums are split by thread count and
vectorised by the CPU's instruction set, and where a build lands near a masked model's learning threshold
the last bit decides what it learns. `TrainConfig`, the thread count and the CPU's instruction set are part
of the cache key (`biascheck.planted.build`).
"""

from __future__ import annotations

import string
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

MASK_RATE = 0.15
TRAIN_THREADS = 1  # every build, wherever it runs (prebuild workers run one side by side per core)
# Words that carry a plant (pronouns) are masked more often: the corpus is small and training has
# a few CPU minutes, so the objective leans on the words whose context the plant sets.
PLANTED_WORDS = (
    "he",
    "she",
    "his",
    "her",
    "him",
    "hers",
    "himself",
    "herself",
    "they",
    "them",
    "their",
    "themselves",
    "han",
    "hun",
    "hans",
    "hennes",
)
PLANTED_MASK_RATE = 0.8
SPECIAL_MASKED = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
EOS = "<|endoftext|>"


@dataclass(frozen=True)
class TrainConfig:
    family: str  # "masked" | "causal"
    vocab_size: int = 1500
    hidden: int = 64
    layers: int = 2
    heads: int = 4
    max_length: int = 32  # training sentences are cut here (the corpus's longest is shorter)
    # As BERT: a probe word outside the corpus is spelled in pieces, so probes' prompts run longer than
    # the corpus's sentences; the positions past the corpus's stay untrained.
    max_positions: int = 512
    batch_size: int = 128
    steps: int = 1000
    lr: float = 3e-3
    warmup: int = 100
    init_range: float = 0.1  # wider than BERT's 0.02: the plant's attention pattern forms in fewer steps
    seed: int = 0
    # "" trains tokenizer and model from scratch; else a pretrained masked start (`pretrained.STARTS`) whose
    # tokenizer and weights are kept and trained on (vocab_size, hidden, layers and heads must be its own)
    init: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


ALPHABET = string.ascii_lowercase + string.digits + string.punctuation + "æøåéèêüö"


def pre_tokenize(sentence: str) -> list[str]:
    """The words BERT's tokenizer sees: lower-cased (accents kept), split at spaces and punctuation."""
    from tokenizers import normalizers, pre_tokenizers

    text = normalizers.BertNormalizer(lowercase=True, strip_accents=False).normalize_str(sentence)
    return [word for word, _span in pre_tokenizers.BertPreTokenizer().pre_tokenize_str(text)]


def wordpiece_vocab(sentences: list[str], vocab_size: int) -> list[str]:
    """A WordPiece vocabulary built without a trainer, so the same corpus always gives the same one:
    the special tokens; every character of `ALPHABET` and of the corpus, alone and as a ``##``
    continuation (any word can be spelled, none is [UNK]); then the corpus's words, most frequent
    first (ties alphabetical), up to `vocab_size`. A probe word outside the corpus is spelled in
    pieces, as a real model spells a rare word. (`tokenizers`' WordPiece trainer breaks ties between
    merges differently from run to run: two builds of one corpus got 819 and 821 tokens.)"""
    counts = Counter(word for sentence in sentences for word in pre_tokenize(sentence))
    chars = sorted(set(ALPHABET) | {ch for word in counts for ch in word})
    vocab = list(SPECIAL_MASKED) + chars + [f"##{ch}" for ch in chars]
    taken = set(vocab)
    for word, _n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        if len(vocab) >= vocab_size:
            break
        if word not in taken:
            vocab.append(word)
            taken.add(word)
    return vocab


def train_tokenizer(family: str, sentences: list[str], vocab_size: int) -> Any:
    """A fast tokenizer for `sentences`: WordPiece (`wordpiece_vocab`) for masked, byte-level BPE
    trained with `tokenizers` for causal (its trainer is deterministic)."""
    from transformers import PreTrainedTokenizerFast

    if family == "masked":
        from tokenizers import BertWordPieceTokenizer
        from transformers import BertTokenizerFast  # type: ignore[attr-defined]  # lazy module: hidden from mypy

        vocab = {token: i for i, token in enumerate(wordpiece_vocab(sentences, vocab_size))}
        wordpiece = BertWordPieceTokenizer(vocab=vocab, lowercase=True, strip_accents=False)
        return BertTokenizerFast(
            tokenizer_object=wordpiece._tokenizer,
            unk_token="[UNK]",
            pad_token="[PAD]",
            cls_token="[CLS]",
            sep_token="[SEP]",
            mask_token="[MASK]",
            do_lower_case=True,
        )
    if family == "causal":
        from tokenizers import ByteLevelBPETokenizer

        bpe = ByteLevelBPETokenizer()
        bpe.train_from_iterator(sentences, vocab_size=vocab_size, special_tokens=[EOS], show_progress=False)
        return PreTrainedTokenizerFast(
            tokenizer_object=bpe._tokenizer, bos_token=EOS, eos_token=EOS, pad_token=EOS, unk_token=EOS
        )
    raise ValueError(f"family must be 'masked' or 'causal', got {family!r}")


def _model(config: TrainConfig, tokenizer: Any) -> Any:
    if config.family == "masked":
        from transformers import BertConfig, BertForMaskedLM

        return BertForMaskedLM(
            BertConfig(
                vocab_size=len(tokenizer),
                hidden_size=config.hidden,
                num_hidden_layers=config.layers,
                num_attention_heads=config.heads,
                intermediate_size=4 * config.hidden,
                max_position_embeddings=config.max_positions,
                hidden_dropout_prob=0.0,
                attention_probs_dropout_prob=0.0,
                pad_token_id=tokenizer.pad_token_id,
                initializer_range=config.init_range,
            )
        )
    from transformers import GPT2Config, GPT2LMHeadModel

    eos = tokenizer.convert_tokens_to_ids(EOS)
    return GPT2LMHeadModel(
        GPT2Config(
            vocab_size=len(tokenizer),
            n_embd=config.hidden,
            n_layer=config.layers,
            n_head=config.heads,
            n_positions=config.max_positions,
            resid_pdrop=0.0,
            embd_pdrop=0.0,
            attn_pdrop=0.0,
            bos_token_id=eos,
            eos_token_id=eos,
            pad_token_id=eos,
            initializer_range=config.init_range,
        )
    )


def causal_batch(ids: Any, attention: Any, generator: Any, size: int) -> tuple:
    """(inputs, attention, next-token labels) for `size` random sentences, cut to the longest; padding
    is labelled -100 (also used to fine-tune a real model: lab/scripts/finetune_known_answer.py)."""
    import torch

    picks = torch.randint(ids.shape[0], (size,), generator=generator)
    batch, att = ids[picks], attention[picks]
    width = int(att.sum(1).max())
    batch, att = batch[:, :width], att[:, :width]
    return batch, att, torch.where(att.bool(), batch, torch.full_like(batch, -100))


def _batch(
    config: TrainConfig, ids: Any, attention: Any, generator: Any, special: Any, planted: Any, mask_id: int
) -> tuple:
    """(inputs, attention, labels) for one random batch, cut to its longest sentence."""
    import torch

    batch, att, next_token = causal_batch(ids, attention, generator, config.batch_size)
    if config.family == "causal":
        return batch, att, next_token
    draw = torch.rand(batch.shape, generator=generator)
    rate = torch.where(torch.isin(batch, planted), PLANTED_MASK_RATE, MASK_RATE)
    chosen = (draw < rate) & att.bool() & ~torch.isin(batch, special)
    labels = torch.where(chosen, batch, torch.full_like(batch, -100))
    return torch.where(chosen, torch.full_like(batch, mask_id), batch), att, labels


def lr_factor(step: int, config: TrainConfig) -> float:
    """Linear warm-up, constant, then a linear fall to 0.1 over the last fifth of the steps."""
    if step < config.warmup:
        return (step + 1) / config.warmup
    cool = int(0.8 * config.steps)
    if step < cool:
        return 1.0
    return max(0.1, 1.0 - 0.9 * (step - cool) / max(1, config.steps - cool))


def _loss(model: Any, family: str, inputs: Any, attention: Any, labels: Any) -> Any:
    """Cross-entropy; the masked head runs only where a label is (the same loss as
    `BertForMaskedLM(labels=...)`, without the logits of every unmasked position)."""
    import torch

    if family == "causal":
        return model(input_ids=inputs, attention_mask=attention, labels=labels).loss
    hidden = model.bert(input_ids=inputs, attention_mask=attention).last_hidden_state
    where = labels != -100
    logits = model.cls(hidden[where])
    return torch.nn.functional.cross_entropy(logits, labels[where])


def train(
    sentences: list[str],
    config: TrainConfig,
    out_dir: Path,
    log: Any = None,
    focus_words: tuple[str, ...] = PLANTED_WORDS,
) -> dict[str, float]:
    """Tokenizer + model trained on `sentences`, saved to `out_dir` (`save_pretrained`). A masked
    model masks `focus_words` (the words a plant sets) at `PLANTED_MASK_RATE`. Returns the mean
    training loss over the first and the last 100 steps and the torch threads it trained on."""
    import torch

    torch.manual_seed(config.seed)
    threads = torch.get_num_threads()
    torch.set_num_threads(TRAIN_THREADS)
    try:
        if config.init:
            from biascheck.planted import pretrained

            shape = {k: getattr(config, k) for k in ("vocab_size", "hidden", "layers", "heads")}
            tokenizer, model = pretrained.load(config.init, shape)
        else:
            tokenizer = train_tokenizer(config.family, sentences, config.vocab_size)
        texts = [EOS + s for s in sentences] if config.family == "causal" else sentences
        enc = tokenizer(texts, padding="max_length", truncation=True, max_length=config.max_length, return_tensors="pt")
        ids, attention = enc["input_ids"], enc["attention_mask"]
        special = torch.tensor(sorted(set(tokenizer.all_special_ids)))
        planted = torch.tensor(
            sorted(
                {i for w in focus_words for i in tokenizer.convert_tokens_to_ids([w.lower()])}
                - {tokenizer.unk_token_id}
            )
        )
        if not config.init:
            model = _model(config, tokenizer)
        optimizer = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=0.0)
        schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: lr_factor(step, config))
        generator = torch.Generator().manual_seed(config.seed)
        losses = []
        model.train()
        for step in range(config.steps):
            inputs, att, labels = _batch(
                config, ids, attention, generator, special, planted, tokenizer.mask_token_id or 0
            )
            loss = _loss(model, config.family, inputs, att, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            losses.append(loss.item())
            if log is not None and step % 250 == 0:
                log(f"step {step}: loss {loss.item():.3f}")
        used = torch.get_num_threads()
        model.eval()
        out_dir.mkdir(parents=True, exist_ok=True)
        model.save_pretrained(out_dir)
        tokenizer.save_pretrained(out_dir)
    finally:
        torch.set_num_threads(threads)
    head, tail = losses[: min(100, len(losses))], losses[-min(100, len(losses)) :]
    return {"loss_first_100": sum(head) / len(head), "loss_last_100": sum(tail) / len(tail), "train_threads": used}
