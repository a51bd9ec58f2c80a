#!/usr/bin/env python3
"""Runs a command and prints its exit status and peak resident memory in KiB (getrusage
ru_maxrss of the child, as /usr/bin/time reports it), for the memory-bound tests (issue 29).

usage: peak_rss.py OUT ERR CMD ARGS...   (the command's stdout and stderr go to OUT and ERR)
"""
import resource
import subprocess
import sys

with open(sys.argv[1], "wb") as out, open(sys.argv[2], "wb") as err:
    rc = subprocess.run(sys.argv[3:], stdout=out, stderr=err, timeout=120).returncode
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
