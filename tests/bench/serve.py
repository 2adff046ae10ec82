"""Benchmark of `treaty serve`: python tests/bench/serve.py [--requests N] [--workers W] [--endpoint check]

Starts `treaty serve` on a free loopback port in a subprocess (W worker processes), warms it, then for 1, 8
and 32 concurrent clients sends N requests each (POST /check of a one-item scenario by default) and prints
the throughput (requests/s) and the p50 and p99 latency, with the number of errors (an answer that is not
200, or no answer). Loopback only. Figures only: nothing is asserted; the exit status is 1 if any request
failed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "br-pt" / "dividends-individual-beneficial-owner-40-percent.yaml"
LEVELS = (1, 8, 32)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(workers: int) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "pyhelpers.interfaces.cli", "serve", "--host", "127.0.0.1",
                             "--port", str(port), "--workers", str(workers), "--no-access-log"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    ready = 0
    while ready < workers * 4:  # every worker has loaded its rule base: several answers in a row
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            sys.exit(f"treaty serve did not start (exit {proc.returncode})")
        try:
            ready = ready + 1 if httpx.get(f"{url}/health", timeout=5).status_code == 200 else 0
        except httpx.TransportError:
            time.sleep(0.25)
    return proc, url


def _percentile(sorted_values: list[float], p: float) -> float:
    k = max(0, min(len(sorted_values) - 1, round(p / 100 * len(sorted_values) + 0.5) - 1))
    return sorted_values[k]


async def _level(url: str, path: str, body: bytes, clients: int, requests: int) -> tuple[float, list[float], int]:
    """``requests`` requests from ``clients`` concurrent clients: wall time, latencies, errors."""
    latencies: list[float] = []
    errors = 0
    queue = iter(range(requests))

    async def client(http: httpx.AsyncClient) -> None:
        nonlocal errors
        for _ in queue:
            started = time.perf_counter()
            try:
                r = await http.post(path, content=body, headers={"content-type": "application/yaml"})
                ok = r.status_code == 200
            except httpx.HTTPError:
                ok = False
            latencies.append(time.perf_counter() - started)
            errors += 0 if ok else 1

    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=url, timeout=300, limits=limits) as http:
        started = time.perf_counter()
        await asyncio.gather(*(client(http) for _ in range(clients)))
        wall = time.perf_counter() - started
    return wall, sorted(latencies), errors


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=200, help="requests per concurrency level")
    ap.add_argument("--workers", type=int, default=2, help="server worker processes")
    ap.add_argument("--endpoint", default="check", choices=["check", "explain"], help="what to ask")
    args = ap.parse_args()
    body = SCENARIO.read_bytes()
    proc, url = _start(args.workers)
    try:
        asyncio.run(_level(url, f"/{args.endpoint}", body, args.workers, args.workers * 2))  # warm every worker
        print(f"treaty serve on {url}: {args.workers} worker(s), POST /{args.endpoint} of "
              f"{SCENARIO.relative_to(ROOT)} ({len(body):,} bytes), {args.requests} requests per level, "
              f"{os.cpu_count()} CPU(s)")
        print(f"{'clients':>7}  {'req/s':>8}  {'p50 ms':>8}  {'p99 ms':>8}  {'errors':>6}")
        failed = 0
        for clients in LEVELS:
            wall, lat, errors = asyncio.run(_level(url, f"/{args.endpoint}", body, clients, args.requests))
            failed += errors
            print(f"{clients:>7}  {len(lat) / wall:>8.1f}  {_percentile(lat, 50) * 1000:>8.1f}  "
                  f"{_percentile(lat, 99) * 1000:>8.1f}  {errors:>6}")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
