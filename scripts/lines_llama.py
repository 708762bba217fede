"""`ilotoki bench --lines set` as llama.cpp's own llama-server runs it: the same 112 lines, the same
prompts (Core's sourceTarget format), greedy, each with its translation's bound on the answer's
tokens (4 per source token plus 32, at most 512) and ending at its line's end; N clients at once,
each taking the next line when its answer is in, streamed so that the first piece is timed.
Loopback only.

  lines_llama.py --port P --clients N --out FILE [--ours BENCH.json]

Writes {"clients", "lines", "wall_ms", "lines_per_second", "first_piece_ms_median", "tokens":
[[…] per line]}; with --ours (the JSON of `ilotoki bench --lines set --json`), also
"differ": the lines whose tokens are not our one-at-a-time tokens.
"""
import argparse, http.client, json, re, statistics, threading, time, unicodedata
from pathlib import Path

NAMES = {"english": "English", "russian": "Russian", "vietnamese": "Vietnamese", "tokiPona": "Toki Pona"}


def lines():
    """The bench's lines with their directions, in BenchmarkLines.all's order."""
    source = (Path(__file__).resolve().parent.parent / "Sources/IloTokiBench/BenchmarkLines.swift").read_text()
    found = []
    for name in ["english", "russian", "vietnamese", "tokiPona"]:
        block = re.search(rf"static let {name} = \[(.*?)\n    \]", source, re.S).group(1)
        target = "English" if name == "tokiPona" else "Toki Pona"
        for text in re.findall(r'"((?:[^"\\]|\\.)*)"', block):
            # As Core prepares a text: trimmed, NFC (the lists hold no escapes).
            found.append((NAMES[name], target, unicodedata.normalize("NFC", text.strip())))
    return found


def request(port, path, body, stream=False):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json", "Host": f"127.0.0.1:{port}"})
    response = connection.getresponse()
    if response.status != 200:
        raise RuntimeError(f"{path}: {response.status} {response.read()[:200]!r}")
    return connection, response


def complete(port, prompt, limit, cache_prompt=True):
    """Streams one completion; returns (its tokens, ms to the first piece of text, ms in all, the
    server's own timings: prompt tokens evaluated and their ms, tokens predicted and their ms)."""
    start = time.monotonic()
    connection, response = request(port, "/completion", {
        "prompt": prompt, "n_predict": limit, "temperature": 0, "top_k": 1, "samplers": ["top_k"],
        "stop": ["\n"], "cache_prompt": cache_prompt, "stream": True, "return_tokens": True})
    tokens, first, timings = [], None, {}
    try:
        for raw in response:
            line = raw.decode().strip()
            if not line.startswith("data:"):
                continue
            event = json.loads(line[5:])
            tokens += event.get("tokens", [])
            if first is None and event.get("content"):
                first = (time.monotonic() - start) * 1000
            if event.get("stop"):
                timings = event.get("timings", {})
                break
    finally:
        connection.close()
    return tokens, first or 0.0, (time.monotonic() - start) * 1000, timings


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--clients", type=int, default=1)
    parser.add_argument("--out", required=True)
    parser.add_argument("--ours")
    parser.add_argument("--no-prompt-cache", action="store_true", help="every prompt evaluated whole (cache_prompt false)")
    args = parser.parse_args()
    work = lines()
    jobs = []
    for source, target, text in work:
        _, response = request(args.port, "/tokenize", {"content": text, "add_special": True})
        limit = min(512, 4 * len(json.loads(response.read())["tokens"]) + 32)
        jobs.append((f"Translate this from {source} to {target}:\n{source}: {text}\n{target}:", limit))

    results = [None] * len(jobs)
    next_job = iter(range(len(jobs)))
    lock = threading.Lock()

    def client():
        while True:
            with lock:
                index = next(next_job, None)
            if index is None:
                return
            results[index] = complete(args.port, *jobs[index], cache_prompt=not args.no_prompt_cache)

    start = time.monotonic()
    threads = [threading.Thread(target=client) for _ in range(args.clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = (time.monotonic() - start) * 1000
    report = {
        "clients": args.clients, "lines": len(jobs), "wall_ms": wall, "lines_per_second": len(jobs) * 1000 / wall,
        "first_piece_ms_median": statistics.median(first for _, first, _, _ in results),
        "tokens": [tokens for tokens, _, _, _ in results],
        "timings": [timings for _, _, _, timings in results],
    }
    if args.ours:
        ours = [prompt["tokens"] for prompt in json.load(open(args.ours))["runs"][0]["prompts"]]
        # Ours counts the line break that ends a line among its tokens; llama-server stops on it too.
        report["differ"] = [i for i, (a, b) in enumerate(zip(ours, report["tokens"])) if a != b]
    Path(args.out).write_text(json.dumps(report))


if __name__ == "__main__":
    main()
