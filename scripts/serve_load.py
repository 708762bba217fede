"""A load on a translation server: N clients at once, each sending one sentence at a time and
waiting for its answer, until M requests are answered or S seconds pass; loopback only.

  serve_load.py --kind ilotoki|llama --port P --clients N --requests M --seconds S --out FILE

ilotoki: POST /translate {"q", "source": "en", "target": "tok"} (`ilotoki serve`).
llama:   POST /completion with the same prompt ilo toki builds (Core's sourceTarget format), greedy,
         the same bound on the answer's tokens (4 per source token plus 32, at most 512) and its
         end at the line's end (llama.cpp's own `llama-server`).
The sentences are `ilotoki bench`'s English lines (Sources/IloTokiBench/BenchmarkLines.swift).
Writes {"clients", "requests", "seconds", "throughput", "p50", "p95", "answers": {sentence: text}}.
"""
import argparse, http.client, json, re, statistics, sys, threading, time
from pathlib import Path


def sentences():
    source = (Path(__file__).resolve().parent.parent / "Sources/IloTokiBench/BenchmarkLines.swift").read_text()
    block = re.search(r"static let english = \[(.*?)\n    \]", source, re.S).group(1)
    return re.findall(r'"((?:[^"\\]|\\.)*)"', block)


def post(port, path, body):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    try:
        connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json", "Host": f"127.0.0.1:{port}"})
        response = connection.getresponse()
        data = response.read()
        if response.status != 200:
            raise RuntimeError(f"{path}: {response.status} {data[:200]!r}")
        return json.loads(data)
    finally:
        connection.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kind", choices=["ilotoki", "llama"], required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--clients", type=int, default=1)
    parser.add_argument("--requests", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    lines = sentences()

    limits = {}
    if args.kind == "llama":
        for line in lines:
            tokens = post(args.port, "/tokenize", {"content": line, "add_special": True})["tokens"]
            limits[line] = min(512, 4 * len(tokens) + 32)

    def translate(line):
        if args.kind == "ilotoki":
            return post(args.port, "/translate", {"q": line, "source": "en", "target": "tok"})["translatedText"]
        prompt = f"Translate this from English to Toki Pona:\nEnglish: {line}\nToki Pona:"
        answer = post(args.port, "/completion", {
            "prompt": prompt, "n_predict": limits[line], "temperature": 0, "top_k": 1, "samplers": ["top_k"],
            "stop": ["\n", "\nEnglish:", "\nToki Pona:"], "cache_prompt": True})
        return answer["content"].strip()

    lock = threading.Lock()
    taken = [0]
    latencies, answers, failures = [], {}, []
    unsteady = set()  # lines answered differently within this run
    deadline = time.monotonic() + args.seconds

    def client():
        while time.monotonic() < deadline:
            with lock:
                if taken[0] >= args.requests:
                    return
                index = taken[0]
                taken[0] += 1
            line = lines[index % len(lines)]
            started = time.monotonic()
            try:
                text = translate(line)
            except Exception as error:  # counted, and the run goes on
                with lock:
                    failures.append(str(error))
                continue
            with lock:
                latencies.append(time.monotonic() - started)
                answers.setdefault(line, text)
                if answers[line] != text:
                    unsteady.add(line)

    started = time.monotonic()
    threads = [threading.Thread(target=client) for _ in range(args.clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.monotonic() - started
    latencies.sort()
    result = {
        "kind": args.kind, "clients": args.clients, "requests": len(latencies), "failures": len(failures),
        "firstFailure": failures[0] if failures else None, "seconds": wall,
        "throughput": len(latencies) / wall if wall > 0 else 0,
        "p50": statistics.median(latencies) if latencies else None,
        "p95": latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))] if latencies else None,
        "answers": answers, "unsteady": sorted(unsteady),
    }
    Path(args.out).write_text(json.dumps(result, ensure_ascii=False, indent=1))
    print(f"{args.kind:8} {args.clients:3} clients: {len(latencies)} answers in {wall:.1f} s, "
          f"{result['throughput']:.2f}/s, p50 {result['p50'] or 0:.2f} s, p95 {result['p95'] or 0:.2f} s, {len(failures)} failed"
          + (f", {len(unsteady)} lines answered two ways" if unsteady else ""), file=sys.stderr)


if __name__ == "__main__":
    main()
