"""Prints the median (with its 95% confidence interval) of every criterion benchmark under
target/criterion, from each benchmark's new/estimates.json.

    python3 benches/python/criterion_medians.py [target/criterion]
"""

import json
import pathlib
import sys


def fmt(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.4g} {unit}"
    return f"{ns:.4g} ns"


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")
    for est in sorted(root.glob("**/new/estimates.json")):
        bench = json.loads((est.parent / "benchmark.json").read_text())["full_id"]
        m = json.loads(est.read_text())["median"]
        ci = m["confidence_interval"]
        print(f"{bench:45} median {fmt(m['point_estimate']):>10}   "
              f"[{fmt(ci['lower_bound'])} .. {fmt(ci['upper_bound'])}]")


if __name__ == "__main__":
    main()
