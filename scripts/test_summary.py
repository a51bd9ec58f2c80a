#!/usr/bin/env python3
"""Prints the slowest tests of the meson test logs given (CI has a 15-minute budget), then one
closing line: 'tests: N passed, N failed, N skipped'.
Exits non-zero when a test failed or when no test ran at all."""
import json
import os
import sys

counts = {"passed": 0, "failed": 0, "skipped": 0}
durations = []
for path in sys.argv[1:]:
    with open(path) as f:
        for line in f:
            test = json.loads(line)
            durations.append((test.get("duration", 0.0), test.get("name", "?"), os.path.basename(os.path.dirname(os.path.dirname(os.path.abspath(path))))))
            result = test.get("result")
            if result in ("OK", "EXPECTEDFAIL"):
                counts["passed"] += 1
            elif result == "SKIP":
                counts["skipped"] += 1
            else:
                counts["failed"] += 1
durations.sort(reverse=True)
print("slowest tests: " + ", ".join(f"{name} ({build}) {secs:.0f} s" for secs, name, build in durations[:8]))
print(f"tests: {counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
sys.exit(1 if counts["failed"] or counts["passed"] == 0 else 0)
