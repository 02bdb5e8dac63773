#!/usr/bin/env python3
"""Runs a command and prints "WALL_S PEAK_RSS_KB CPU_S": its wall time, the peak of the summed resident set of the
command and all its descendants (the scan's JVM and its Clang workers together), sampled every 50 ms from /proc, and
the CPU time (user and system) of the command and of every descendant it waited for (the scan's JVM reaps its Clang
workers, xargs its clang-tidy processes): on a shared machine the CPU time moves less with the load than the wall time.
Output of the command is discarded; its exit status is ignored (a scan with findings exits 1).
Usage: bench/measure.py COMMAND [ARG...]"""
import os
import subprocess
import sys
import time


def tree_rss_kb(root):
    children = {}
    rss = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
            ppid = int(stat[stat.rindex(")") + 2:].split()[1])
            with open(f"/proc/{pid}/statm") as f:
                pages = int(f.read().split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(pid))
        rss[int(pid)] = pages * os.sysconf("SC_PAGE_SIZE") // 1024
    total, todo = 0, [root]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo.extend(children.get(p, []))
    return total


def main():
    start = time.monotonic()
    proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    while True:
        pid, _, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid == proc.pid:
            break
        peak = max(peak, tree_rss_kb(proc.pid))
        time.sleep(0.05)
    wall = time.monotonic() - start
    print(f"{wall:.2f} {peak} {usage.ru_utime + usage.ru_stime:.2f}")


if __name__ == "__main__":
    main()
