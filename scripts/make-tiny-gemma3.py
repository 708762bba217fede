#!/usr/bin/env python3
"""Builds, for the model pipeline's test, a tiny random Gemma 3 and a LoRA adapter for it.

    make-tiny-gemma3.py OUT_DIR

OUT_DIR/base      a Gemma3ForCausalLM checkpoint (a few MB: hidden size 64, 2 layers, tied
                  embeddings as in Gemma) with a SentencePiece tokenizer trained here on a
                  small Toki Pona / English text;
OUT_DIR/adapter   a PEFT LoRA adapter with non-zero weights on every attention and MLP
                  projection and on both ends of the tied matrix (embed_tokens, lm_head);
OUT_DIR/base-multimodal
                  the same language model saved as Gemma3ForConditionalGeneration would save
                  it (weights under model.language_model., a vision tower beside them).

Everything is seeded, so the files are the same on every run.
"""
import json
import pathlib
import shutil
import sys

import sentencepiece
import torch
from peft import LoraConfig, get_peft_model
from safetensors.torch import load_file, save_file
from transformers import Gemma3ForCausalLM, Gemma3TextConfig

CORPUS = """jan li moku e kili. mi olin e sina. sina pona. ona li lukin e ma.
toki pona li toki lili. mi wile moku. telo li pona tawa mi. jan pona mi li kama.
The river runs past the old mill. I love you. The children walk to school in the rain.
A friend brings bread and fruit to the house. We eat together. The sun is warm today.
"""


def train_tokenizer(directory: pathlib.Path) -> int:
    text = directory / "corpus.txt"
    text.write_text("\n".join([CORPUS] * 20))
    sentencepiece.SentencePieceTrainer.train(
        input=str(text), model_prefix=str(directory / "tokenizer"), vocab_size=512, model_type="bpe",
        pad_id=0, eos_id=1, bos_id=2, unk_id=3, byte_fallback=True, add_dummy_prefix=False,
        split_digits=True, character_coverage=1.0, num_threads=1, minloglevel=2)
    text.unlink()
    (directory / "tokenizer.vocab").unlink()
    return sentencepiece.SentencePieceProcessor(model_file=str(directory / "tokenizer.model")).vocab_size()


def main() -> None:
    out = pathlib.Path(sys.argv[1])
    base = out / "base"
    base.mkdir(parents=True, exist_ok=True)
    vocab = train_tokenizer(base)
    torch.manual_seed(7)
    config = Gemma3TextConfig(
        vocab_size=vocab, hidden_size=64, intermediate_size=128, num_hidden_layers=4, num_attention_heads=2,
        num_key_value_heads=1, head_dim=32, query_pre_attn_scalar=32, max_position_embeddings=512,
        sliding_window=128, initializer_range=0.15, rms_norm_eps=1e-6, tie_word_embeddings=True,
        pad_token_id=0, eos_token_id=1, bos_token_id=2)
    config.architectures = ["Gemma3ForCausalLM"]
    model = Gemma3ForCausalLM(config).eval()
    with torch.no_grad():
        # Non-zero norms, so every weight of the layer matters.
        for name, parameter in model.named_parameters():
            if name.endswith("norm.weight"):
                parameter.normal_(0.0, 1.0)
    model.save_pretrained(base, safe_serialization=True)
    (base / "tokenizer_config.json").write_text(json.dumps({
        "tokenizer_class": "GemmaTokenizer", "add_bos_token": True, "add_eos_token": False,
        "bos_token": "<bos>", "eos_token": "<eos>", "pad_token": "<pad>", "unk_token": "<unk>"}))

    # The adapter: LoRA on every projection and on both ends of the tied matrix.
    lora = LoraConfig(
        r=4, lora_alpha=8, lora_dropout=0.0, bias="none",
        target_modules=["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj", "embed_tokens", "lm_head"])
    peft_model = get_peft_model(Gemma3ForCausalLM.from_pretrained(base, torch_dtype=torch.float32), lora)
    generator = torch.Generator().manual_seed(99)
    with torch.no_grad():
        for name, parameter in peft_model.named_parameters():
            if "lora_" in name:
                parameter.copy_(torch.randn(parameter.shape, generator=generator) * 0.1)
    peft_model.save_pretrained(out / "adapter")

    # The same language model as a multimodal checkpoint would hold it.
    multimodal = out / "base-multimodal"
    multimodal.mkdir(exist_ok=True)
    tensors = {("model.language_model." + name[len("model."):] if name.startswith("model.") else name): tensor
               for name, tensor in load_file(base / "model.safetensors").items()}
    tensors["model.vision_tower.vision_model.embeddings.patch_embedding.weight"] = torch.zeros(8, 3, 2, 2)
    tensors["model.multi_modal_projector.mm_input_projection_weight"] = torch.zeros(8, 64)
    save_file(tensors, multimodal / "model.safetensors", metadata={"format": "pt"})
    text_config = json.loads((base / "config.json").read_text())
    text_config.pop("architectures", None)
    (multimodal / "config.json").write_text(json.dumps({
        "architectures": ["Gemma3ForConditionalGeneration"], "model_type": "gemma3",
        "text_config": text_config, "vision_config": {"model_type": "siglip_vision_model", "hidden_size": 8},
        "mm_tokens_per_image": 4}, indent=2))
    for name in ["tokenizer.model", "tokenizer_config.json"]:
        shutil.copy(base / name, multimodal / name)


if __name__ == "__main__":
    main()
