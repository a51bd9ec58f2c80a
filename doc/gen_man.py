#!/usr/bin/env python3
"""Writes the mlvpipe(1) manual page from README.md, so the reference exists once.

The part of the README between the "man:begin" and "man:end" comments is read as a small
subset of Markdown: "### X" is a section (.SH), "#### X" a subsection (.SS), fenced code
blocks are kept verbatim, two-column tables become tagged paragraphs (.TP; the header row is
dropped), "* " lines are bullets, anything else is text. Inline `code` and **bold** turn
bold, [text](link) keeps its text. Characters outside ASCII become groff's \\[uXXXX] escapes,
so groff needs no input encoding.

Usage: gen_man.py README.md VERSION OUTPUT
"""
import re
import sys


def escape(text):
    """Plain text to roff: backslashes, hyphens (so options stay ASCII minus signs when
    copied from the page), non-ASCII characters."""
    out = []
    for ch in text:
        if ch == '\\':
            out.append('\\e')
        elif ch == '-':
            out.append('\\-')
        elif ord(ch) > 127:
            out.append('\\[u%04X]' % ord(ch))
        else:
            out.append(ch)
    return ''.join(out)


def inline(text):
    """Markdown inline markup to roff fonts."""
    text = re.sub(r'\[([^\]]+)\]\([^)]+\)', r'\1', text)
    parts = re.split(r'(`[^`]*`|\*\*[^*]+\*\*)', text)
    out = []
    for p in parts:
        if p.startswith('`') and p.endswith('`') and len(p) >= 2:
            # a long path may break after a slash (\: is an invisible break point)
            out.append('\\fB' + escape(p[1:-1]).replace('/', '/\\:') + '\\fR')
        elif p.startswith('**') and p.endswith('**') and len(p) >= 4:
            out.append('\\fB' + escape(p[2:-2]) + '\\fR')
        else:
            out.append(escape(p))
    return ''.join(out)


def line(text):
    """A text line that roff must not take for a request."""
    return '\\&' + text if text[:1] in ('.', "'") else text


def cells(row):
    return [c.strip() for c in row.strip().strip('|').split('|')]


def convert(md_lines, version):
    out = ['.TH MLVPIPE 1 "" "mlvpipe %s" "User Commands"' % escape(version),
           '.nh', '.ad l']  # no hyphenation (options stay whole), ragged right
    i = 0
    n = len(md_lines)
    while i < n:
        s = md_lines[i].rstrip('\n')
        if not s.strip() or s.startswith('## '):
            i += 1
        elif s.startswith('#### '):
            out.append('.SS "%s"' % inline(s[5:]).replace('"', '\\(dq'))
            i += 1
        elif s.startswith('### '):
            out.append('.SH "%s"' % inline(s[4:]).upper().replace('"', '\\(dq'))
            i += 1
        elif s.startswith('```'):
            out += ['.PP', '.RS 4', '.nf']
            i += 1
            while i < n and not md_lines[i].startswith('```'):
                out.append(line(escape(md_lines[i].rstrip('\n'))))
                i += 1
            out += ['.fi', '.RE']
            i += 1
        elif s.startswith('|'):
            rows = []
            while i < n and md_lines[i].startswith('|'):
                rows.append(cells(md_lines[i]))
                i += 1
            for r in rows[2:]:    # header and separator rows dropped
                out += ['.TP', line(inline(r[0])), line(inline(' | '.join(r[1:])))]
        elif s.startswith('* '):
            out += ['.IP \\(bu 2', line(inline(s[2:]))]
            i += 1
            while i < n and md_lines[i].startswith('  ') and md_lines[i].strip():
                out.append(line(inline(md_lines[i].strip())))
                i += 1
        else:
            out.append('.PP')
            while i < n and md_lines[i].strip() and not re.match(r'(#|```|\||\* )',
                                                                  md_lines[i]):
                out.append(line(inline(md_lines[i].strip())))
                i += 1
    return '\n'.join(out) + '\n'


def main():
    if len(sys.argv) != 4:
        sys.exit('usage: gen_man.py README.md VERSION OUTPUT')
    with open(sys.argv[1], encoding='utf-8') as f:
        lines = f.readlines()
    begin = [k for k, s in enumerate(lines) if s.startswith('<!-- man:begin')]
    end = [k for k, s in enumerate(lines) if s.startswith('<!-- man:end')]
    if len(begin) != 1 or len(end) != 1 or end[0] < begin[0]:
        sys.exit('%s: expected one man:begin and one man:end comment, in that order'
                 % sys.argv[1])
    page = convert(lines[begin[0] + 1:end[0]], sys.argv[2])
    with open(sys.argv[3], 'w', encoding='ascii') as f:
        f.write(page)


if __name__ == '__main__':
    main()
