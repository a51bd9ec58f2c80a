#!/usr/bin/env python3
"""Test of the generated manual page: groff renders it without a single warning, and every
command and option of `mlvpipe --help` and every option `mlvpipe COMMAND --help` lists appears
in the rendered text (the page is made from those --help texts, doc/gen_man.py: an option
missing means its parse of a --help failed). Exits 77 (skipped) when groff is not installed.

Usage: check_man.py MLVPIPE mlvpipe.1
"""
import os
import re
import shutil
import subprocess
import sys


OPTION = r'(?<![\w-])-{1,2}[A-Za-z][\w-]*'   # -v, --cpu-flags, not a-b or MLVPIPE_X


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def help_text(mlvpipe, *args):
    r = run([mlvpipe, *args, '--help'])
    if r.returncode != 0:
        sys.exit('%s %s --help: exit %d' % (mlvpipe, ' '.join(args), r.returncode))
    return r.stdout


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: check_man.py MLVPIPE mlvpipe.1')
    mlvpipe, page = sys.argv[1], sys.argv[2]
    if not shutil.which('groff'):
        print('groff not installed (Debian: groff-base); skipped')
        sys.exit(77)

    lint = run(['groff', '-man', '-Tutf8', '-ww', '-z', page])
    if lint.returncode != 0 or lint.stderr.strip():
        sys.exit('groff warnings on %s:\n%s' % (page, lint.stderr))
    rendered = run(['groff', '-man', '-Tutf8', '-P-cbu', page], env=dict(os.environ, LC_ALL='C.UTF-8'))
    if rendered.returncode != 0:
        sys.exit('groff failed on %s:\n%s' % (page, rendered.stderr))
    # minus and hyphen glyphs back to ASCII; lines joined so a wrapped option still matches
    text = rendered.stdout.replace('\u2212', '-').replace('\u2010', '-')
    words = set(re.findall(OPTION, text))

    top = help_text(mlvpipe)
    commands = re.findall(r'^  ([a-z]+)  ', top.split('commands:', 1)[1], re.M)
    if not commands:
        sys.exit('no commands found in mlvpipe --help')
    missing = []
    for opt in sorted(set(re.findall(OPTION, top)) | {'--help', '--version'}):
        if opt not in words:
            missing.append('global option %s' % opt)
    for cmd in commands:
        if not re.search(r'\bmlvpipe %s\b' % cmd, text):
            missing.append('command %s' % cmd)
        options = re.findall(r'^\s{2,}(?:(-\w), )?(--[\w-]+)', help_text(mlvpipe, cmd), re.M)
        if not options:
            sys.exit('no options found in mlvpipe %s --help' % cmd)
        for short, long_ in options:
            for opt in (short, long_):
                if opt and opt not in words:
                    missing.append('mlvpipe %s %s' % (cmd, opt))
    if missing:
        sys.exit('%s lacks what --help lists (see doc/gen_man.py):\n  %s'
                 % (page, '\n  '.join(missing)))
    print('%s: no groff warnings; %d commands and their options all present'
          % (page, len(commands)))


if __name__ == '__main__':
    main()
