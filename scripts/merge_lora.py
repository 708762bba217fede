#!/usr/bin/env python3
"""Merges a PEFT LoRA adapter into its Gemma base, tensor by tensor, for llama.cpp's converter.

    merge_lora.py BASE_DIR ADAPTER_DIR OUT_DIR

Why a plain merge_and_unload() of a Gemma adapter repeats one token: Gemma ties its output
head to its input embeddings, so `lm_head.weight` and `embed_tokens.weight` are one tensor.
While training, PEFT keeps the two roles apart: the embedding reads E + dE (its own LoRA, or
its saved copy), the head reads E + dH. merge_and_unload() adds both deltas into the one
shared tensor, so the merged model reads E + dE + dH at both ends, and save_pretrained()
writes that single tensor (the config still says "tied"). The head delta, learnt to raise
the logits of the tokens the translator writes, now also moves those tokens' input
embeddings, which Gemma multiplies by sqrt(hidden size) (about 34 for the 1B model). Each
token it emits then pushes the next step towards itself: the model repeats one token.
Here the two roles are written as two tensors, embed_tokens = E + dE and lm_head = E + dH,
and the config says `tie_word_embeddings: false`; the converter then writes `output.weight`
beside `token_embd.weight`, and llama.cpp uses it. A model whose adapter touches neither end
stays tied. scripts/test-model-pipeline.sh shows both paths on a model it builds.

A second trap on the same tensor: Gemma 3 multiplies the embedding by sqrt(hidden size)
inside its embedding module, and PEFT before 0.18 added the LoRA embedding delta after that
module, unscaled. Merged into the weight, dE would be multiplied by sqrt(hidden size) too, so
for an adapter from an older PEFT (adapter_config.json without `peft_version`) dE is divided
by that scale first. PEFT 0.18 and later scale the delta like the base, and it is merged as is.

Everything else: W' = W + (alpha / r) * B @ A per target module (alpha / sqrt(r) with
use_rslora; rank_pattern and alpha_pattern respected; fan_in_fan_out transposed), embeddings
E' = E + scale * (B @ A).T, and modules_to_save replace their module. Tensors are read one at
a time from the base's safetensors and written in shards of at most 2 GB, so a 1B model merges
in a few GB of memory. A multimodal Gemma 3 base (Gemma3ForConditionalGeneration, tensors
under `model.language_model.` or `language_model.model.`) is reduced to its language model,
which is all a translator uses: its vision tower and projector are left out.
"""
import argparse
import json
import math
import pathlib
import re
import shutil
import sys

import torch
from safetensors import safe_open
from safetensors.torch import save_file

SHARD_BYTES = 2 << 30
TOKENIZER_FILES = ["tokenizer.model", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json",
                   "added_tokens.json", "generation_config.json"]


def fail(message: str) -> None:
    print(f"merge_lora.py: {message}", file=sys.stderr)
    sys.exit(1)


def text_name(name: str) -> str | None:
    """The tensor's name in a text-only Gemma3ForCausalLM, or None for what a translator does
    not use (the vision tower and projector of a multimodal checkpoint)."""
    for prefix, replacement in [("model.language_model.", "model."), ("language_model.model.", "model."),
                                ("language_model.lm_head.", "lm_head.")]:
        if name.startswith(prefix):
            return replacement + name[len(prefix):]
    if name.startswith(("model.vision_tower.", "vision_tower.", "model.multi_modal_projector.", "multi_modal_projector.")):
        return None
    return name


def base_tensors(base: pathlib.Path) -> dict[str, pathlib.Path]:
    """Tensor name → the safetensors file that holds it."""
    index = base / "model.safetensors.index.json"
    if index.is_file():
        return {name: base / file for name, file in json.loads(index.read_text())["weight_map"].items()}
    single = base / "model.safetensors"
    if not single.is_file():
        fail(f"{base} has no model.safetensors (or index): only safetensors checkpoints can be merged")
    with safe_open(single, "pt") as handle:
        return {name: single for name in handle.keys()}


def text_config(base: pathlib.Path) -> dict:
    config = json.loads((base / "config.json").read_text())
    architecture = (config.get("architectures") or ["?"])[0]
    if architecture == "Gemma3ForConditionalGeneration":
        text = dict(config.get("text_config") or {})
        if not text:
            fail(f"{base}/config.json is a multimodal Gemma 3 without a text_config")
        text["architectures"] = ["Gemma3ForCausalLM"]
        text["model_type"] = "gemma3_text"
        text.setdefault("tie_word_embeddings", config.get("tie_word_embeddings", True))
        for key in ["bos_token_id", "eos_token_id", "pad_token_id", "torch_dtype"]:
            if key in config and key not in text:
                text[key] = config[key]
        return text
    if architecture not in ["Gemma3ForCausalLM", "Gemma2ForCausalLM", "GemmaForCausalLM"]:
        fail(f"{base} is a {architecture}; this merges adapters of Gemma models (the translators' base)")
    return config


def scaled_embedding(config: dict) -> bool:
    """Whether the embedding module itself multiplies by sqrt(hidden size) (Gemma 3)."""
    return config.get("model_type") in ["gemma3", "gemma3_text"] or (config.get("architectures") or [""])[0] == "Gemma3ForCausalLM"


class Adapter:
    def __init__(self, directory: pathlib.Path):
        config_file = directory / "adapter_config.json"
        weights = directory / "adapter_model.safetensors"
        if not config_file.is_file() or not weights.is_file():
            fail(f"{directory} is not a PEFT adapter (adapter_config.json and adapter_model.safetensors)")
        config = json.loads(config_file.read_text())
        if config.get("peft_type", "LORA") != "LORA":
            fail(f"{directory} is a {config.get('peft_type')} adapter; only LoRA is merged")
        if config.get("use_dora"):
            fail(f"{directory} uses DoRA, which this does not merge")
        self.r = int(config["r"])
        self.alpha = float(config.get("lora_alpha", self.r))
        self.rslora = bool(config.get("use_rslora", False))
        self.rank_pattern = config.get("rank_pattern") or {}
        self.alpha_pattern = config.get("alpha_pattern") or {}
        self.fan_in_fan_out = bool(config.get("fan_in_fan_out", False))
        version = str(config.get("peft_version") or "0")
        self.peft_version = tuple(int(part) for part in re.findall(r"\d+", version)[:2]) or (0,)
        # Read when needed: an adapter that saved its embedding layers carries the whole
        # vocabulary matrix, twice.
        self.file = safe_open(weights, "pt")
        self.keys: dict[str, str] = {}
        for key in self.file.keys():
            module = text_name(re.sub(r"^base_model\.model\.", "", key))
            if module is not None:
                self.keys[module] = key
        self.used: set[str] = set()

    def scale(self, module: str) -> float:
        def pattern(table: dict, default: float) -> float:
            for key, value in table.items():
                if re.search(rf"(^|\.){re.escape(key)}$", module) or module.endswith(key):
                    return float(value)
            return default
        rank = pattern(self.rank_pattern, self.r)
        alpha = pattern(self.alpha_pattern, self.alpha)
        return alpha / math.sqrt(rank) if self.rslora else alpha / rank

    def take(self, key: str) -> torch.Tensor | None:
        if key not in self.keys:
            return None
        self.used.add(key)
        return self.file.get_tensor(self.keys[key]).float()

    def delta(self, module: str) -> torch.Tensor | None:
        """What the adapter adds to `module`'s weight, or None."""
        a, b = self.take(f"{module}.lora_A.weight"), self.take(f"{module}.lora_B.weight")
        if a is not None and b is not None:
            delta = (b @ a) * self.scale(module)
            return delta.T if self.fan_in_fan_out else delta
        a, b = self.take(f"{module}.lora_embedding_A"), self.take(f"{module}.lora_embedding_B")
        if a is not None and b is not None:
            return (b @ a).T * self.scale(module)
        return None

    def replacement(self, module: str) -> torch.Tensor | None:
        """A modules_to_save copy of `module`'s weight, or None."""
        for key in [f"{module}.modules_to_save.default.weight", f"{module}.modules_to_save.weight"]:
            if (tensor := self.take(key)) is not None:
                return tensor
        return None

    def base_layer(self, module: str) -> torch.Tensor | None:
        """The base weight the adapter was trained on, when it saved one (embeddings)."""
        return self.take(f"{module}.base_layer.weight")

    def check_all_used(self) -> None:
        unused = sorted(key for key in self.keys if key not in self.used and not key.endswith(".base_layer.weight"))
        if unused:
            fail(f"the adapter has tensors that match nothing in the base: {', '.join(unused[:5])}")


class ShardWriter:
    def __init__(self, out: pathlib.Path):
        self.out = out
        self.pending: dict[str, torch.Tensor] = {}
        self.pending_bytes = 0
        self.shards: list[list[str]] = []
        self.total = 0

    def add(self, name: str, tensor: torch.Tensor) -> None:
        size = tensor.numel() * tensor.element_size()
        if self.pending and self.pending_bytes + size > SHARD_BYTES:
            self.flush()
        self.pending[name] = tensor.contiguous()
        self.pending_bytes += size
        self.total += size

    def flush(self) -> None:
        if not self.pending:
            return
        self.shards.append(list(self.pending))
        save_file(self.pending, self.out / f"part-{len(self.shards):05d}.safetensors", metadata={"format": "pt"})
        self.pending, self.pending_bytes = {}, 0

    def finish(self) -> None:
        self.flush()
        count = len(self.shards)
        weight_map = {}
        for number, names in enumerate(self.shards, start=1):
            final = f"model-{number:05d}-of-{count:05d}.safetensors"
            (self.out / f"part-{number:05d}.safetensors").rename(self.out / final)
            weight_map.update({name: final for name in names})
        (self.out / "model.safetensors.index.json").write_text(
            json.dumps({"metadata": {"total_size": self.total}, "weight_map": weight_map}, indent=2))


def merge(base: pathlib.Path, adapter_dir: pathlib.Path, out: pathlib.Path) -> None:
    config = text_config(base)
    adapter = Adapter(adapter_dir)
    locations = base_tensors(base)
    out.mkdir(parents=True, exist_ok=True)
    writer = ShardWriter(out)
    names = {name: text_name(name) for name in locations}
    tied = "lm_head.weight" not in names.values() and config.get("tie_word_embeddings", True)
    embedding_name = "model.embed_tokens.weight"
    handles: dict[pathlib.Path, object] = {}

    def read(name: str) -> torch.Tensor:
        file = locations[name]
        if file not in handles:
            handles[file] = safe_open(file, "pt")
        return handles[file].get_tensor(name)

    head_written = False
    for stored_name, name in names.items():
        if name is None:
            continue
        weight = read(stored_name)
        dtype = weight.dtype
        module = name.removesuffix(".weight")
        if name == embedding_name:
            # The tied matrix: one tensor in the base, two roles (see the opening comment).
            # Built one role at a time, so a 1B model's 262k x 1152 matrix is held in fp32 at
            # most three times over.
            trained = adapter.base_layer(module)
            original = (trained if trained is not None else weight).float()
            del weight
            new_embedding = adapter.replacement(module)
            if new_embedding is None:
                new_embedding = original.clone()
                delta = adapter.delta(module)
                if delta is not None:
                    if scaled_embedding(config) and adapter.peft_version < (0, 18):
                        # Trained as E * scale + dE: merged, (E + dE / scale) * scale gives the same.
                        delta /= torch.tensor(config["hidden_size"] ** 0.5, dtype=dtype).float()
                    new_embedding += delta
                    del delta
            if not tied:
                writer.add(name, new_embedding.to(dtype))
                continue
            new_head = adapter.replacement("lm_head")
            if new_head is None:
                head_base = adapter.base_layer("lm_head")
                new_head = original if head_base is None else head_base.float()
                delta = adapter.delta("lm_head")
                if delta is not None:
                    new_head = new_head + delta
                    del delta
            del original
            writer.add(name, new_embedding.to(dtype))
            if not torch.equal(new_head, new_embedding):
                writer.add("lm_head.weight", new_head.to(dtype))
                config["tie_word_embeddings"] = False
                head_written = True
            del new_head, new_embedding
            continue
        replacement = adapter.replacement(module)
        if replacement is not None:
            writer.add(name, replacement.to(dtype))
            continue
        delta = adapter.delta(module)
        if delta is not None:
            if delta.shape != weight.shape:
                fail(f"the adapter's {module} is {tuple(delta.shape)}, the base's {tuple(weight.shape)}")
            weight = (weight.float() + delta).to(dtype)
        writer.add(name, weight)
    adapter.check_all_used()
    writer.finish()
    if head_written:
        print("merge_lora.py: the adapter changes the tied embeddings/head: wrote them apart (tie_word_embeddings false)")
    (out / "config.json").write_text(json.dumps(config, indent=2))
    for file in TOKENIZER_FILES:
        if (adapter_dir / file).is_file():
            shutil.copy(adapter_dir / file, out / file)
        elif (base / file).is_file():
            shutil.copy(base / file, out / file)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base", type=pathlib.Path)
    parser.add_argument("adapter", type=pathlib.Path)
    parser.add_argument("out", type=pathlib.Path)
    arguments = parser.parse_args()
    with torch.no_grad():
        merge(arguments.base, arguments.adapter, arguments.out)


if __name__ == "__main__":
    main()
