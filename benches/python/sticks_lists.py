"""The Fort Boyard notebook's list-based induction, timed.

The notebook keeps two Python lists, `losing` and `winning`, and decides each stick count in
increasing order with membership tests `candidate in losing` / `candidate in winning` over those
lists. Two variants:

- `--notebook` (take 1, 2, 3 only): the notebook's cells verbatim: `possible_outcomes(n)` returns
  n-1, n-2, n-3, the lists start as losing = [1], winning = [2, 3, 4], and the loop runs from 5;
- otherwise the same loop generalised to a take set: `possible_outcomes(n)` returns n-k for every
  k in the take set with k <= n, the induction starts from winning = [0] (whoever faces 0 sticks
  has won: the other player took the last one) and runs from 1. A count that no take fits has no
  candidates, so `all_winning` holds and it is losing (the player to move is stuck).

Prints the wall time of the induction and a checksum of the losing positions in 1..N.

    python3 sticks_lists.py --count 10000 --notebook
    python3 sticks_lists.py --count 10000 --take 1,3,4
"""

import argparse
import time

from fnv import fnv_joined


def notebook(max_sticks):
    def possible_outcomes(number_of_sticks):
        return number_of_sticks - 1, number_of_sticks - 2, number_of_sticks - 3

    losing = [1]
    winning = [2, 3, 4]
    all_winning = lambda candidates: all(candidate in winning for candidate in candidates)

    for sticks in range(5, max_sticks + 1):
        candidates = possible_outcomes(sticks)
        # configuration gagnante car elle permet d'accéder
        # à une config qui fait perdre l'autre joueur
        for candidate in candidates:
            if candidate in losing:
                winning.append(sticks)
                break
        # configuration perdante car l'autre joueur gagne
        # à tous les coups
        if all_winning(candidates):
            losing.append(sticks)
    return losing, winning


def generalised(max_sticks, take):
    def possible_outcomes(number_of_sticks):
        return tuple(number_of_sticks - k for k in take if k <= number_of_sticks)

    losing = []
    winning = [0]
    all_winning = lambda candidates: all(candidate in winning for candidate in candidates)

    for sticks in range(1, max_sticks + 1):
        candidates = possible_outcomes(sticks)
        for candidate in candidates:
            if candidate in losing:
                winning.append(sticks)
                break
        if all_winning(candidates):
            losing.append(sticks)
    return losing, winning


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--take", default="1,2,3")
    ap.add_argument("--notebook", action="store_true", help="the notebook's cells verbatim (take 1,2,3)")
    args = ap.parse_args()
    take = sorted(set(int(t) for t in args.take.split(",")))
    if args.notebook and take != [1, 2, 3]:
        ap.error("--notebook is the take 1,2,3 game")

    t0 = time.perf_counter()
    if args.notebook:
        losing, winning = notebook(args.count)
    else:
        losing, winning = generalised(args.count, take)
    elapsed = time.perf_counter() - t0

    losing = [n for n in losing if 1 <= n <= args.count]
    variant = "notebook" if args.notebook else "generalised"
    print(f"python list induction ({variant}) count={args.count} take={take}: wall {elapsed:.3f} s")
    print(
        f"sticks count={args.count} take={take}: losing={len(losing)} sum={sum(losing)} "
        f"fnv={fnv_joined(losing):016x}"
    )


if __name__ == "__main__":
    main()
