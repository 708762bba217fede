#!/usr/bin/env python3
"""The model pipeline's test (scripts/test-model-pipeline.sh runs it): a tiny random Gemma 3
and a LoRA adapter built here go through scripts/merge-and-quantize.sh, and

1. the F16 GGUF, run by our inference library (build/llm/bin/greedy_tokens), chooses the same
   greedy tokens as the adapter-applied model in transformers + PEFT (fp32);
2. PEFT's plain merge_and_unload(), converted and run the same way, does not;
3. every ladder file loads and generates in our core, and NAME.catalog.json matches the files
   byte for byte (sizes, sha256) and is a catalog the app accepts;
4. the same language model saved as a multimodal Gemma 3 merges to the same tokens;
5. BASE and ADAPTER given as repo ids are fetched through HF_ENDPOINT with HF_TOKEN (from a
   server on 127.0.0.1 that answers like Hugging Face), and merge the same;
6. what is not a Gemma base or not an adapter is refused with a message.

    test_model_pipeline.py WORK_DIR
"""
import hashlib
import http.server
import json
import os
import pathlib
import resource
import shutil
import subprocess
import sys
import threading
import time
import warnings

import sentencepiece
import torch
from peft import PeftModel
from transformers import Gemma3ForCausalLM
from transformers.utils import logging as transformers_logging

# PEFT warns, rightly, that an adapter on tied embeddings complicates merging: that is the
# point of this test, and the warning's advice (untie, then merge) is what merge_lora.py does.
warnings.filterwarnings("ignore")
transformers_logging.set_verbosity_error()
ROOT = pathlib.Path(__file__).resolve().parent.parent
PROMPTS = ["jan li moku e kili.", "I love you.", "The river runs past the old mill.", "mi olin e sina",
           "A friend brings bread", "toki pona li toki lili."]
TOKENS = 16
failures: list[str] = []


def check(ok: bool, what: str) -> None:
    print(("ok      " if ok else "FAILED  ") + what, flush=True)
    if not ok:
        failures.append(what)


def run(*command, **options) -> subprocess.CompletedProcess:
    return subprocess.run([str(part) for part in command], capture_output=True, text=True, **options)


# The trimmed head's rows for these runs: Latin, Cyrillic, Vietnamese's letters and marks, the
# shared punctuation. Test data, near the app's four languages together (IloTokiCore's table).
WIDE_CHARACTERS = "9-A,D,20-7E,A0-24F,300-36F,400-4FF,1EA0-1EF9,2010-205E,2116"


def greedy(model: pathlib.Path, prompts=PROMPTS, tokens=TOKENS) -> list[list[int]]:
    result = run(ROOT / "build/llm/bin/greedy_tokens", "--characters", WIDE_CHARACTERS, model, tokens, *prompts)
    if result.returncode != 0:
        raise RuntimeError(f"greedy_tokens {model.name}: {result.stderr.strip()}")
    return [[int(t) for t in line.split()] for line in result.stdout.splitlines()]


def reference(base: pathlib.Path, adapter: pathlib.Path) -> tuple[list[list[int]], float]:
    """Greedy tokens of the adapter-applied model (not merged) in fp32, and the smallest gap
    between the best and the second-best logit on the way (how far from a tie it ran)."""
    sp = sentencepiece.SentencePieceProcessor(model_file=str(base / "tokenizer.model"))
    model = PeftModel.from_pretrained(Gemma3ForCausalLM.from_pretrained(base, dtype=torch.float32), adapter).eval()
    sequences, smallest_gap = [], float("inf")
    for prompt in PROMPTS:
        ids = torch.tensor([[sp.bos_id()] + sp.encode(prompt)])
        with torch.no_grad():
            out = model.generate(ids, max_new_tokens=TOKENS, do_sample=False, eos_token_id=sp.eos_id(),
                                 pad_token_id=sp.pad_id(), output_scores=True, return_dict_in_generate=True)
        sequence = out.sequences[0, ids.shape[1]:].tolist()
        if sp.eos_id() in sequence:
            sequence = sequence[:sequence.index(sp.eos_id())]
        sequences.append(sequence)
        for scores in out.scores:
            top = scores[0].topk(2).values
            smallest_gap = min(smallest_gap, float(top[0] - top[1]))
    return sequences, smallest_gap


def longest_run(sequence: list[int]) -> int:
    best = current = 0
    for i, token in enumerate(sequence):
        current = current + 1 if i and token == sequence[i - 1] else 1
        best = max(best, current)
    return best


def convert(directory: pathlib.Path, out: pathlib.Path) -> None:
    """The conversion merge-and-quantize.sh does."""
    result = run(ROOT / "scripts/convert-to-gguf.sh", directory, out)
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-2000:])


def sha256(path: pathlib.Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 22), b""):
            digest.update(block)
    return digest.hexdigest()


class HubHandler(http.server.BaseHTTPRequestHandler):
    """Answers huggingface_hub like Hugging Face does, for the repos in `repos`, and only
    with the token in `token`: the repo's info, then each file under resolve/."""
    repos: dict[str, pathlib.Path] = {}
    token = ""
    commit = "0123456789abcdef0123456789abcdef01234567"
    requests: list[str] = []

    def log_message(self, *arguments) -> None:
        pass

    def reply(self, status: int, body: bytes = b"", headers: dict | None = None, head: bool = False) -> None:
        self.send_response(status)
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def serve(self, head: bool) -> None:
        self.requests.append(f"{self.command} {self.path}")
        if self.headers.get("authorization") != f"Bearer {self.token}":
            return self.reply(401, b'{"error": "Invalid credentials"}', {"X-Error-Code": "RepoNotFound"}, head)
        path = self.path.split("?")[0]
        for repo, directory in self.repos.items():
            if path.startswith(f"/api/models/{repo}/revision/"):
                files = [{"rfilename": p.name} for p in sorted(directory.iterdir()) if p.is_file()]
                body = json.dumps({"id": repo, "sha": self.commit, "siblings": files, "private": True}).encode()
                return self.reply(200, body, {"Content-Type": "application/json"}, head)
            prefix = f"/{repo}/resolve/"
            if path.startswith(prefix):
                file = directory / path[len(prefix):].split("/", 1)[1]
                if not file.is_file():
                    return self.reply(404, b"", {"X-Error-Code": "EntryNotFound"}, head)
                body = file.read_bytes()
                return self.reply(200, body, {"ETag": f'"{hashlib.sha256(body).hexdigest()}"', "X-Repo-Commit": self.commit}, head)
        self.reply(404, b"", {"X-Error-Code": "RepoNotFound"}, head)

    def do_GET(self) -> None:
        self.serve(head=False)

    def do_HEAD(self) -> None:
        self.serve(head=True)


def main() -> None:
    work = pathlib.Path(sys.argv[1])
    started = time.monotonic()
    fixture = run(sys.executable, ROOT / "scripts/make-tiny-gemma3.py", work)
    if fixture.returncode != 0:
        raise RuntimeError(fixture.stderr)
    base, adapter, models = work / "base", work / "adapter", work / "models"

    expected, gap = reference(base, adapter)
    print(f"        reference (transformers + PEFT, fp32): smallest top-1/top-2 logit gap {gap:.3f}")

    # 1. The pipeline, as a person runs it.
    pipeline_started = time.monotonic()
    result = run(ROOT / "scripts/merge-and-quantize.sh", base, adapter, "pipeline-test", "--out", models,
                 "--format", "queryAnswer", "--url-base", "https://huggingface.co/example/pipeline-test/resolve/main")
    pipeline_seconds = time.monotonic() - pipeline_started
    check(result.returncode == 0, "merge-and-quantize.sh succeeds" + ("" if result.returncode == 0 else ": " + result.stderr[-1500:]))
    ours = greedy(models / "pipeline-test-F16.gguf")
    for prompt, got, want in zip(PROMPTS, ours, expected):
        check(got == want, f"F16 in our core = transformers + PEFT for {prompt!r}: {got}" + ("" if got == want else f" (expected {want})"))

    # 2. PEFT's own merge_and_unload(), converted and run the same way.
    plain_dir = work / "plain"
    merged = PeftModel.from_pretrained(Gemma3ForCausalLM.from_pretrained(base, dtype=torch.float32), adapter).merge_and_unload()
    merged.save_pretrained(plain_dir)
    shutil.copy(base / "tokenizer.model", plain_dir)
    convert(plain_dir, work / "plain-F16.gguf")
    plain = greedy(work / "plain-F16.gguf")
    differing = sum(got != want for got, want in zip(plain, expected))
    for prompt, got in zip(PROMPTS, plain):
        print(f"        plain merge_and_unload() for {prompt!r}: {got} (longest run of one token {longest_run(got)})")
    check(differing == len(PROMPTS), f"the plain merge diverges from the adapter on {differing} of {len(PROMPTS)} prompts")

    # 3. The ladder and the catalog.
    catalog = json.loads((models / "pipeline-test.catalog.json").read_text())
    entries = {entry["quantization"]: entry for entry in catalog["entries"]}
    check(sorted(entries) == sorted(["F16", "Q8_0", "Q6_K", "Q5_K_M", "Q4_K_M"]), f"the catalog lists F16 and the ladder: {sorted(entries)}")
    for quantization, entry in entries.items():
        file = models / f"pipeline-test-{quantization}.gguf"
        check(entry["bytes"] == file.stat().st_size and entry["sha256"] == sha256(file),
              f"{file.name}: {entry['bytes']} bytes and its sha256 as the catalog says")
        check(entry["url"].endswith("/" + file.name) and entry["format"] == "queryAnswer", f"{file.name}: URL and prompt format")
        tokens = greedy(file, PROMPTS[:1], 4)
        check(len(tokens) == 1, f"{file.name} loads and generates in our core: {tokens[0]}")
    home = work / "home"
    listing = run(ROOT / "scripts/ilotoki.sh", "models", env=dict(os.environ, ILOTOKI_HOME=str(home), ILOTOKI_CATALOG=str(models / "pipeline-test.catalog.json")))
    check(listing.returncode == 0 and "pipeline-test-q8-0" in listing.stdout, "the app takes NAME.catalog.json as its catalog (ILOTOKI_CATALOG)")

    # 4. A multimodal checkpoint of the same language model.
    result = run(ROOT / "scripts/merge-and-quantize.sh", work / "base-multimodal", adapter, "pipeline-multimodal", "--out", models, "--ladder", "")
    check(result.returncode == 0, "a multimodal Gemma 3 base (Gemma3ForConditionalGeneration) merges" + ("" if result.returncode == 0 else ": " + result.stderr[-800:]))
    if result.returncode == 0:
        check(greedy(models / "pipeline-multimodal-F16.gguf") == expected, "and gives the same tokens: its language model, without the vision tower")

    # 5. Repo ids, through a mirror, with a token.
    HubHandler.repos = {"example/tiny-gemma3": base, "example/tiny-gemma3-lora": adapter}
    HubHandler.token = "hf_test_token"
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), HubHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    hub = dict(os.environ, HF_ENDPOINT=f"http://127.0.0.1:{server.server_port}", HF_TOKEN="hf_test_token",
               HF_HUB_CACHE=str(work / "hub-cache"), HF_HUB_DISABLE_TELEMETRY="1")
    result = run(ROOT / "scripts/merge-and-quantize.sh", "example/tiny-gemma3", "example/tiny-gemma3-lora", "pipeline-hub",
                 "--out", models, "--ladder", "", env=hub)
    check(result.returncode == 0, "BASE and ADAPTER as repo ids, fetched through HF_ENDPOINT with HF_TOKEN"
          + ("" if result.returncode == 0 else ": " + result.stderr[-1500:]))
    if result.returncode == 0:
        check(greedy(models / "pipeline-hub-F16.gguf") == expected, "and the same tokens")
    check(any(r.startswith("GET /api/models/example/tiny-gemma3/") for r in HubHandler.requests), "huggingface_hub asked the mirror")
    result = run(ROOT / "scripts/merge-and-quantize.sh", "example/tiny-gemma3", "example/tiny-gemma3-lora", "pipeline-hub",
                 "--out", models, "--ladder", "", env=dict(hub, HF_TOKEN="wrong", HF_HUB_CACHE=str(work / "hub-cache-2")))
    check(result.returncode != 0 and "could not fetch example/tiny-gemma3" in result.stderr,
          f"a wrong token is refused with a message: {result.stderr.strip().splitlines()[-1] if result.stderr.strip() else ''}")
    server.shutdown()

    # 6. Refusals.
    result = run(sys.executable, ROOT / "scripts/merge_lora.py", base, base, work / "refused")
    check(result.returncode != 0 and "is not a PEFT adapter" in result.stderr, f"a directory that is not an adapter is refused: {result.stderr.strip()}")
    other = work / "not-gemma"
    other.mkdir()
    (other / "config.json").write_text(json.dumps({"architectures": ["LlamaForCausalLM"]}))
    result = run(sys.executable, ROOT / "scripts/merge_lora.py", other, adapter, work / "refused")
    check(result.returncode != 0 and "LlamaForCausalLM" in result.stderr, f"a base that is not Gemma is refused: {result.stderr.strip()}")

    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"        merge-and-quantize.sh took {pipeline_seconds:.1f} s; the whole test {time.monotonic() - started:.1f} s; "
          f"peak memory {children:.0f} MiB in a child process, {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB in the test")
    if failures:
        print(f"model pipeline: {len(failures)} checks failed", file=sys.stderr)
        sys.exit(1)
    print("model pipeline: every check passed")


if __name__ == "__main__":
    main()
