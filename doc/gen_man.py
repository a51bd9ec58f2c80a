#!/usr/bin/env python3
"""Writes the mlvpipe(1) manual page from the program's own --help texts, which the option
table (tools/mlvpipe/cli_options.c) makes, and a few hand-written sections (doc/mlvpipe.1.md),
so that every option is described once.

The hand-written page is a small subset of Markdown: "### X" is a section (.SH), "#### X" a
subsection (.SS), fenced code blocks are kept verbatim, two-column tables become tagged
paragraphs (.TP; the header row is dropped), "* " lines are bullets, anything else is text.
Inline `code` and **bold** turn bold, [text](link) keeps its text. A line "<!-- synopsis -->"
is replaced by every command's usage line, "<!-- commands -->" by one subsection per command
made from `mlvpipe COMMAND --help`: its usage, its paragraphs, and its lists ("options:",
"engines:" ...) as tagged paragraphs, the --to formats as a list of their own. Characters
outside ASCII become groff's \\[uXXXX] escapes, so groff needs no input encoding.

Usage: gen_man.py MLVPIPE VERSION PAGE.md OUTPUT
"""
import re
import subprocess
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


ENTRY = re.compile(r'^(\s+)((?:-\w, )?--[\w-]*(?: [A-Z][^ ]*)?|\w+)(?: +(\S.*))?$')


def help_of(mlvpipe, *command):
    r = subprocess.run([mlvpipe, *command, '--help'], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit('%s %s --help: exit %d' % (mlvpipe, ' '.join(command), r.returncode))
    return r.stdout


def blocks(text):
    """The --help text's blocks, as lists of lines, apart at empty lines."""
    out = [[]]
    for s in text.rstrip('\n').split('\n'):
        if s.strip():
            out[-1].append(s)
        elif out[-1]:
            out.append([])
    return [b for b in out if b]


def usage(block):
    """The usage lines of a block "usage: mlvpipe ...", as printed ("usage: " cut off)."""
    return [s[7:] if s.startswith('usage: ') else s[7:] if s.startswith(' ' * 7) else s
            for s in block]


def format_row(text):
    """('dng', 'CinemaDNG ...') for a line of the --to formats (name padded to 14), else None."""
    if len(text) > 15 and text[14] == ' ' and text[15] != ' ' and \
            re.fullmatch(r'[a-z0-9]+ *', text[:14]):
        return text[:14].strip(), text[15:]
    return None


def entry_body(lines):
    """An entry's text lines to roff, the formats of --to as a list of their own."""
    out, in_rows = [], False
    for text in lines:
        row = format_row(text)
        if row and not in_rows:
            out += ['.RS', '.PD 0']
        elif not row and in_rows:
            out += ['.PD', '.RE', '.IP']
        in_rows = bool(row)
        if row:
            out += ['.TP 16', '\\fB%s\\fR' % escape(row[0]), line(escape(row[1]))]
        else:
            out.append(line(escape(text)))
    if in_rows:
        out += ['.PD', '.RE']
    return out


def listing(block):
    """A block "options:" (or "engines:" ...) with its entries, to roff."""
    out = ['.PP', '\\fI%s\\fR' % escape(block[0].rstrip(':'))]
    entry = None
    for s in block[1:]:
        m = ENTRY.match(s)
        if not s.startswith(' '):                 # a heading inside the list
            if entry:
                out += entry_body(entry)
                entry = None
            out += ['.PP', '\\fI%s\\fR' % escape(s.rstrip(':'))]
        elif m and len(m.group(1)) < 10:
            if entry:
                out += entry_body(entry)
            out += ['.TP', '\\fB%s\\fR' % escape(m.group(2))]
            entry = [m.group(3)] if m.group(3) else []
        elif entry is not None:
            entry.append(s.strip())
    if entry:
        out += entry_body(entry)
    return out


def command_page(mlvpipe, command):
    """One command's subsection from its --help."""
    parts = blocks(help_of(mlvpipe, command))
    out = ['.SS "mlvpipe %s"' % command, '.nf']
    out += [line(escape(u)) for u in usage(parts[0])]
    out.append('.fi')
    for block in parts[1:]:
        if block[0].endswith(':') and not block[0].startswith(' ') and len(block) > 1:
            out += listing(block)
        else:
            out += ['.PP'] + [line(escape(s.strip())) for s in block]
    return out


def commands_of(mlvpipe):
    top = help_of(mlvpipe)
    listed = top.split('commands:', 1)[1]
    names = re.findall(r'^  ([a-z]+)  ', listed, re.M)
    if not names:
        sys.exit('no commands in %s --help' % mlvpipe)
    return names


def main():
    if len(sys.argv) != 5:
        sys.exit('usage: gen_man.py MLVPIPE VERSION PAGE.md OUTPUT')
    mlvpipe, version, page, output = sys.argv[1:]
    with open(page, encoding='utf-8') as f:
        lines = f.readlines()
    # the page's own comments are not text
    text = re.sub(r'<!--(?! synopsis -->| commands -->).*?-->\n?', '', ''.join(lines), flags=re.S)
    lines = text.splitlines(keepends=True)
    names = commands_of(mlvpipe)
    roff = []
    chunk = []
    for s in lines + ['<!-- end -->\n']:
        marker = s.strip()
        if marker in ('<!-- synopsis -->', '<!-- commands -->', '<!-- end -->'):
            roff += convert(chunk, version).split('\n')[3 if roff else 0:-1]
            chunk = []
            if marker == '<!-- synopsis -->':
                roff.append('.nf')
                for name in names:
                    for u in usage(blocks(help_of(mlvpipe, name))[0]):
                        roff.append(line(escape(u)))
                roff += [escape('mlvpipe [-v|-q] [--cpu-flags c|sse2|avx2|neon] COMMAND ...'),
                         escape('mlvpipe --help | --version'), '.fi']
            elif marker == '<!-- commands -->':
                for name in names:
                    roff += command_page(mlvpipe, name)
        else:
            chunk.append(s)
    with open(output, 'w', encoding='ascii') as f:
        f.write('\n'.join(roff) + '\n')


if __name__ == '__main__':
    main()
