#!/usr/bin/env python3
"""Writes a tiny random-weight GGUF model for fast plumbing tests.

The model has the llama architecture, two small layers and the real 32k SentencePiece
vocabulary borrowed from llama.cpp's vocab-only test file, so it tokenizes like a real model
but produces random text. It is a few MB and loads in milliseconds.

With --unknown-architecture it writes instead a well-formed GGUF whose architecture no
llama.cpp knows, for testing that error.

Usage: make-tiny-model.py LLAMA_CPP_SOURCE_DIR OUTPUT.gguf [--seed N] [--unknown-architecture]
"""
import argparse
import sys
from pathlib import Path

import numpy as np

EMBEDDING = 32
LAYERS = 2
HEADS = 2
KV_HEADS = 2
FEED_FORWARD = 64
CONTEXT = 2048


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("llama_cpp_dir", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--unknown-architecture", action="store_true")
    args = parser.parse_args()

    sys.path.insert(0, str(args.llama_cpp_dir / "gguf-py"))
    import gguf  # the gguf-py that ships with the pinned llama.cpp

    if args.unknown_architecture:
        writer = gguf.GGUFWriter(str(args.output), "ilotoki-unknown-architecture")
        writer.add_name("a model no llama.cpp can run")
        writer.add_tensor("token_embd.weight", np.zeros((4, 4), dtype=np.float32))
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_tensors_to_file()
        writer.close()
        print(args.output)
        return 0

    vocab_file = args.llama_cpp_dir / "models" / "ggml-vocab-llama-spm.gguf"
    vocab = gguf.GGUFReader(str(vocab_file))

    def field(name):
        return vocab.fields[name]

    def scalar(name):
        f = field(name)
        return f.parts[f.data[0]][0]

    tokens = [bytes(field("tokenizer.ggml.tokens").parts[i]) for i in field("tokenizer.ggml.tokens").data]
    scores = [float(field("tokenizer.ggml.scores").parts[i][0]) for i in field("tokenizer.ggml.scores").data]
    types = [int(field("tokenizer.ggml.token_type").parts[i][0]) for i in field("tokenizer.ggml.token_type").data]
    vocab_size = len(tokens)

    rng = np.random.default_rng(args.seed)

    def weights(*shape, scale=0.5):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    args.output.parent.mkdir(parents=True, exist_ok=True)
    temporary = args.output.with_suffix(".tmp")
    writer = gguf.GGUFWriter(str(temporary), "llama")
    writer.add_name("ilo toki tiny test model")
    writer.add_context_length(CONTEXT)
    writer.add_embedding_length(EMBEDDING)
    writer.add_block_count(LAYERS)
    writer.add_feed_forward_length(FEED_FORWARD)
    writer.add_head_count(HEADS)
    writer.add_head_count_kv(KV_HEADS)
    writer.add_rope_dimension_count(EMBEDDING // HEADS)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_vocab_size(vocab_size)
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)

    writer.add_tokenizer_model("llama")
    writer.add_tokenizer_pre("default")
    writer.add_token_list(tokens)
    writer.add_token_scores(scores)
    writer.add_token_types(types)
    writer.add_bos_token_id(int(scalar("tokenizer.ggml.bos_token_id")))
    writer.add_eos_token_id(int(scalar("tokenizer.ggml.eos_token_id")))
    writer.add_unk_token_id(int(scalar("tokenizer.ggml.unknown_token_id")))
    writer.add_add_bos_token(True)
    writer.add_add_eos_token(False)

    # The embedding doubles as the output projection (no output.weight), keeping the file small.
    writer.add_tensor("token_embd.weight", weights(vocab_size, EMBEDDING).astype(np.float16))
    writer.add_tensor("output_norm.weight", np.ones(EMBEDDING, dtype=np.float32))
    for layer in range(LAYERS):
        prefix = f"blk.{layer}."
        writer.add_tensor(prefix + "attn_norm.weight", np.ones(EMBEDDING, dtype=np.float32))
        writer.add_tensor(prefix + "attn_q.weight", weights(EMBEDDING, EMBEDDING))
        writer.add_tensor(prefix + "attn_k.weight", weights(EMBEDDING * KV_HEADS // HEADS, EMBEDDING))
        writer.add_tensor(prefix + "attn_v.weight", weights(EMBEDDING * KV_HEADS // HEADS, EMBEDDING))
        writer.add_tensor(prefix + "attn_output.weight", weights(EMBEDDING, EMBEDDING))
        writer.add_tensor(prefix + "ffn_norm.weight", np.ones(EMBEDDING, dtype=np.float32))
        writer.add_tensor(prefix + "ffn_gate.weight", weights(FEED_FORWARD, EMBEDDING))
        writer.add_tensor(prefix + "ffn_up.weight", weights(FEED_FORWARD, EMBEDDING))
        writer.add_tensor(prefix + "ffn_down.weight", weights(EMBEDDING, FEED_FORWARD))

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    temporary.replace(args.output)
    print(args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
