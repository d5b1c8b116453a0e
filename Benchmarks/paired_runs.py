"""Times two commands run in turn, ROUNDS times (A, B, A, B, ...), so that the machine's slow
and fast spells fall on both alike; prints the median wall time of each in ms, the median of
the per-round ratios B / A, and the median user CPU of each in ms.

    python3 Benchmarks/paired_runs.py ROUNDS PREPARE -- A... -- B...

PREPARE is a path removed before each run of B (the cassette B records into), or "-".
"""
import os
import resource
import statistics
import subprocess
import sys
import time


def timed(command):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    return wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before


def main():
    rounds, prepare = int(sys.argv[1]), sys.argv[2]
    rest = sys.argv[3:]
    split = [index for index, word in enumerate(rest) if word == "--"]
    first, second = rest[split[0] + 1:split[1]], rest[split[1] + 1:]
    walls, users = ([], []), ([], [])
    for _ in range(rounds + 1):
        for side, command in enumerate((first, second)):
            if side == 1 and prepare != "-" and os.path.exists(prepare):
                os.remove(prepare)
            wall, user = timed(command)
            walls[side].append(wall)
            users[side].append(user)
    # The first round warms the page cache and the upstream; it is not counted.
    walls = (walls[0][1:], walls[1][1:])
    users = (users[0][1:], users[1][1:])
    ratios = [b / a for a, b in zip(*walls)]
    print("%.0f %.0f %.2f %.0f %.0f" % (statistics.median(walls[0]) * 1e3, statistics.median(walls[1]) * 1e3,
                                        statistics.median(ratios), statistics.median(users[0]) * 1e3,
                                        statistics.median(users[1]) * 1e3))


if __name__ == "__main__":
    main()
