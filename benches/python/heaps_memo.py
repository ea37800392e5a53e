"""The KEGE write-up's memoised recursion, timed.

`moves` and `game` are the blog's, with the multiplier and the threshold as parameters:

    def moves(heap):
        a, b = heap
        return (a + 1, b), (a * 4, b), (a, b + 1), (a, b * 4)

    @cache
    def game(heap):
        if sum(heap) >= 61:
            return 0
        steps = [game(x) for x in moves(heap)]
        if any(x % 2 == 0 for x in steps):
            return min(x for x in steps if x % 2 == 0) + 1
        else:
            return max(steps) + 1

`game(heap)` is the number of moves to the end with optimal play; odd is a win for the player to
move (terminal = 0, the winner hurries, the loser delays), the same depth retrogate computes.

Modes:
- `kege`: the blog's loop `for s in range(57, 0, -1)`: game((3, s)) and game of every move of
  (3, s), multiplier 4, threshold 61; then a single start (3, 10); each `--repeat` times (50 by
  default), every run from an empty cache, reporting the median;
- `heaps --end N --mul K --start A,B`: game((A, B)) from an empty cache.

The recursion is as deep as the longest game (about N moves for x+1), so the script raises
`sys.setrecursionlimit` and runs the solve in a thread with a large stack
(`threading.stack_size`); both limits are printed.

Prints the wall time of the timed part and checksums (start depth, and an FNV-1a 64 over the
depths of every (a, b) with a, b >= 1 and a + b < N, a then b ascending, computed after the
timed part) that benches/solve.rs prints too (RETROGATE_BENCH=checksums).

    python3 heaps_memo.py kege
    python3 heaps_memo.py heaps --end 3000 --mul 2 --start 1,1
"""

import argparse
import statistics
import sys
import threading
import time
from functools import cache

from fnv import fnv_joined

RECURSION_LIMIT = 1_000_000
STACK_BYTES = 2 * 1024 * 1024 * 1024 - 4096  # threading.stack_size's practical maximum here


def make_game(mul, end):
    def moves(heap):
        a, b = heap
        return (a + 1, b), (a * mul, b), (a, b + 1), (a, b * mul)

    @cache
    def game(heap):
        if sum(heap) >= end:
            return 0
        steps = [game(x) for x in moves(heap)]
        if any(x % 2 == 0 for x in steps):
            return min(x for x in steps if x % 2 == 0) + 1
        else:
            return max(steps) + 1

    return moves, game


def triangle_checksum(game, end):
    depths = [game((a, b)) for a in range(1, end) for b in range(1, end - a)]
    wins = sum(d % 2 for d in depths)
    return (
        f"positions={len(depths)} wins={wins} depth-sum={sum(depths)} fnv={fnv_joined(depths):016x}"
    )


def run_kege(out, repeat):
    """The blog's loop, `repeat` times from an empty cache; reports the median wall time."""
    times = []
    for _ in range(repeat):
        moves, game = make_game(4, 61)
        t0 = time.perf_counter()
        table = []
        for s in range(57, 0, -1):
            table.append((s, game((3, s)), [game(x) for x in moves((3, s))]))
        times.append(time.perf_counter() - t0)
    out.append(f"python memo kege seed-002 (3,S) S=57..1: median wall {statistics.median(times) * 1e3:.3f} ms "
               f"of {repeat} runs (min {min(times) * 1e3:.3f} ms), cache {game.cache_info().currsize} entries")
    table.sort()
    depths = [d for _, d, _ in table]
    out.append(f"kege seed-002 (3,S) S=1..57 depths: {depths} fnv={fnv_joined(depths):016x}")
    a19 = min(s for s, _, m in table if 1 in m)
    a20 = [s for s, d, _ in table if d == 3]
    a21 = min(s for s, d, _ in table if d == 4)
    out.append(f"kege answers: 19 (min S, Vanya wins after a bad move) = {a19}; 20 = {a20}; 21 (min S) = {a21}")

    times = []
    for _ in range(repeat):
        moves, game = make_game(4, 61)
        t0 = time.perf_counter()
        d = game((3, 10))
        times.append(time.perf_counter() - t0)
    out.append(f"python memo single start (3,10): depth {d}: median wall {statistics.median(times) * 1e3:.3f} ms "
               f"of {repeat} runs (min {min(times) * 1e3:.3f} ms), cache {game.cache_info().currsize} entries")


def run_heaps(out, end, mul, start):
    moves, game = make_game(mul, end)
    t0 = time.perf_counter()
    d = game(start)
    elapsed = time.perf_counter() - t0
    out.append(f"python memo heaps x+1,x*{mul} sum>={end} start={start}: depth {d}: wall {elapsed:.3f} s, "
               f"cache {game.cache_info().currsize} entries "
               f"(recursionlimit {sys.getrecursionlimit()}, thread stack {threading.stack_size()} bytes)")
    out.append(f"heaps ['x+1', 'x*{mul}'] sum>={end} start={list(start)}: start depth={d} "
               + triangle_checksum(game, end))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["kege", "heaps"])
    ap.add_argument("--end", type=int, default=3000)
    ap.add_argument("--mul", type=int, default=2)
    ap.add_argument("--start", default="1,1")
    ap.add_argument("--repeat", type=int, default=50, help="kege: runs, each from an empty cache")
    ap.add_argument("--stack-mib", type=int, default=STACK_BYTES // (1024 * 1024))
    args = ap.parse_args()

    sys.setrecursionlimit(RECURSION_LIMIT)
    threading.stack_size(min(args.stack_mib * 1024 * 1024, STACK_BYTES))
    out, errors = [], []

    def body():
        try:
            if args.mode == "kege":
                run_kege(out, args.repeat)
            else:
                start = tuple(int(x) for x in args.start.split(","))
                run_heaps(out, args.end, args.mul, start)
        except BaseException as e:  # RecursionError, MemoryError: report what happened
            errors.append(f"{type(e).__name__}: {e}")

    t = threading.Thread(target=body)
    t.start()
    t.join()
    print("\n".join(out))
    if errors:
        print("FAILED:", *errors, f"(recursionlimit {sys.getrecursionlimit()}, "
              f"thread stack {threading.stack_size()} bytes)")
        sys.exit(1)


if __name__ == "__main__":
    main()
