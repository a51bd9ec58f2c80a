#!/usr/bin/env python3
"""Prints one closing line for the meson test logs given: 'tests: N passed, N failed, N skipped'.
Exits non-zero when a test failed or when no test ran at all."""
import json
import sys

counts = {"passed": 0, "failed": 0, "skipped": 0}
for path in sys.argv[1:]:
    with open(path) as f:
        for line in f:
            result = json.loads(line).get("result")
            if result in ("OK", "EXPECTEDFAIL"):
                counts["passed"] += 1
            elif result == "SKIP":
                counts["skipped"] += 1
            else:
                counts["failed"] += 1
print(f"tests: {counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
sys.exit(1 if counts["failed"] or counts["passed"] == 0 else 0)
