#!/usr/bin/env python3
"""Counts the fixture expectations that differ when every function's facts come from Clang alone.

Run the fixtures with the developer switch first, then this script on the surefire report:

    mvn -B -q -o -pl analyzer -am test -Dtest=FixtureTest -Dnumlint.clang.alone=true \
        -Dsurefire.failIfNoSpecifiedTests=false
    python3 bench/clang-alone-count.py [analyzer/target/surefire-reports] [--list]

Prints one row per rule: differences, false positives (a line marked ok), missed expectations, other level and
unexpected findings (no expectation on the line), and the number of CUDA/C/C++ expectations the fixtures hold.
--list also prints every difference (fixture, kind, file:line rule).
"""
import collections
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "analyzer/src/test/resources/fixtures")
SOURCE = (".cu", ".cuh", ".c", ".cc", ".cpp", ".cxx", ".h", ".hpp", ".hh", ".hxx", ".inl")
MARK = re.compile(r"^\s*(?://|#|/\*)\s*(ruleid|ok)\s*:\s*(NL\d{3}(?:\s*,\s*NL\d{3})*)")
LINE = re.compile(r"^\s*(missed|false pos\.|unexpected|level):\s+(\S+):(\d+) (NL\d+)")
FIXTURE = re.compile(r"fixture (\S+) differs from its expectations")
KINDS = {"false pos.": "false positive", "missed": "missed", "level": "other level", "unexpected": "unexpected"}


def expectations():
    n = 0
    for dirpath, _, files in os.walk(FIXTURES):
        if os.path.relpath(dirpath, FIXTURES).split(os.sep)[0] == "core":
            continue  # the engine's own fixture (a test-only analyzer), not the CUDA/C/C++ front end
        for f in files:
            if not f.endswith(SOURCE):
                continue
            with open(os.path.join(dirpath, f), encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    m = MARK.match(line)
                    if m:
                        n += len([i for i in m.group(2).split(",") if i.strip()])
    return n


def differences(reports):
    seen = set()
    for path in glob.glob(os.path.join(reports, "TEST-*FixtureTest.xml")):
        for case in ET.parse(path).getroot().iter("testcase"):
            for fail in list(case.iter("failure")) + list(case.iter("error")):
                text = (fail.get("message") or "") + "\n" + (fail.text or "")
                m = FIXTURE.search(text)
                fixture = m.group(1) if m else case.get("name")
                for line in text.splitlines():
                    d = LINE.match(line)
                    if d:
                        seen.add((fixture, KINDS[d.group(1)], d.group(2), int(d.group(3)), d.group(4)))
    return sorted(seen)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    reports = args[0] if args else os.path.join(ROOT, "analyzer/target/surefire-reports")
    diffs = differences(reports)
    rows = collections.defaultdict(collections.Counter)
    for fixture, kind, _, _, rule in diffs:
        rows[rule][kind] += 1
    cols = ["false positive", "missed", "other level", "unexpected"]
    print(f"{len(diffs)} of {expectations()} expectations differ with Clang's facts alone\n")
    print("| rule | differences | " + " | ".join(cols) + " |")
    print("|---|---:|" + "---:|" * len(cols))
    for rule in sorted(rows):
        c = rows[rule]
        print(f"| {rule} | {sum(c.values())} | " + " | ".join(str(c[k]) for k in cols) + " |")
    if "--list" in sys.argv:
        print()
        for fixture, kind, f, line, rule in diffs:
            print(f"{fixture}\t{kind}\t{f}:{line} {rule}")


if __name__ == "__main__":
    main()
