#!/usr/bin/env python3
"""No circles between source files, and no module using a symbol of a module it does not
declare.

Reads `nm` of the objects of each link unit (a static library, or a folder of .o files: a
program's objects): file A uses file B when A leaves undefined a global symbol that B
defines. Fails on every group of files that use each other in a circle (strongly connected
components of that graph), naming the files and one symbol of each use; and, when the module
graph is given, on a file of src/MOD using a symbol of a module MOD does not reach
(module_graph in the top-level meson.build: an #include can be bypassed by an extern
declaration, a symbol cannot). Refuses to pass on too little: no unit, or a unit without
objects or uses.

usage: file_cycles.py NM SRC_ROOT [--graph MOD:DEP,DEP ...] --unit ARCHIVE|DIR=FOLDER ...
       [--unit ...]
"""
import os
import subprocess
import sys


def fail(msg):
    print(msg, file=sys.stderr)
    sys.exit(1)


def object_names(src_root):
    """meson names an object after its source path with '/' as '_': map back to the path."""
    names = {}
    for top in ('src', 'tools', 'tests'):
        for folder, _, files in os.walk(os.path.join(src_root, top)):
            for f in files:
                if f.endswith('.c'):
                    rel = os.path.relpath(os.path.join(folder, f), src_root)
                    names.setdefault(rel.replace('/', '_') + '.o', rel)
    return names


def read_unit(nm, part, names):
    """{file: (defined symbols, undefined symbols)} of one link unit. part is an archive
    (objects named after their source path) or DIR=FOLDER: the objects of DIR, each named
    after its source file in FOLDER (a program's objects keep the file's plain name)."""
    path, _, folder = part.partition('=')
    objs = {}
    if os.path.isdir(path):
        members = sorted(os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs
                         if f.endswith('.o'))
        if not members:
            fail(f'{path}: no object files')
        out = subprocess.run([nm, '-A', '-g'] + members, capture_output=True, text=True,
                             check=True).stdout
    else:
        out = subprocess.run([nm, '-A', '-g', path], capture_output=True, text=True,
                             check=True).stdout
    for line in out.splitlines():
        # "archive.a:member.o:ADDR T name", "file.o:ADDR T name" or "...:         U name"
        where, _, rest = line.rpartition(':')
        fields = rest.split()
        if len(fields) < 2:
            continue
        kind, sym = fields[-2], fields[-1]
        member = os.path.basename(where.split(':')[-1])
        name = os.path.join(folder, member[:-2]) if folder else names.get(member, member[:-2])
        d, u = objs.setdefault(name, (set(), set()))
        if kind == 'U':
            u.add(sym)
        elif kind not in ('w', 'v'):    # a weak undefined reference defines nothing
            d.add(sym)
    return objs


def uses_of(objs):
    """{file: {used file: one symbol}}"""
    definer = {}
    for f, (d, _) in objs.items():
        for s in d:
            definer.setdefault(s, f)
    uses = {f: {} for f in objs}
    for f, (_, u) in objs.items():
        for s in sorted(u):
            g = definer.get(s)
            if g and g != f:
                uses[f].setdefault(g, s)
    return uses


def circles(uses):
    """Strongly connected components of more than one file (Tarjan, iterative)."""
    index, low, on, stack, found, n = {}, {}, set(), [], [], [0]
    for root in sorted(uses):
        if root in index:
            continue
        work = [(root, iter(sorted(uses[root])))]
        index[root] = low[root] = n[0]
        n[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = n[0]
                    n[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(uses[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def module_of(path):
    parts = path.split('/')
    return parts[1] if parts[0] == 'src' and len(parts) > 2 else None


def closure(graph, mod):
    seen, todo = set(), [mod]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo += graph.get(m, [])
    return seen


def main(argv):
    nm, src_root = argv[0], argv[1]
    graph, units, mode = {}, [], None
    for a in argv[2:]:
        if a in ('--graph', '--unit'):
            mode = a
            if a == '--unit':
                units.append([])
        elif mode == '--graph':
            mod, _, deps = a.partition(':')
            graph[mod] = [d for d in deps.split(',') if d]
        elif mode == '--unit':
            units[-1].append(a)
        else:
            fail(f'unexpected argument {a}')
    if not units:
        fail('no link unit given')
    names = object_names(src_root)
    problems, files, edges = [], 0, 0
    for unit in units:
        objs = {}
        for part in unit:
            for f, (d, u) in read_unit(nm, part, names).items():
                od, ou = objs.setdefault(f, (set(), set()))
                od |= d
                ou |= u
        uses = uses_of(objs)
        count = sum(len(v) for v in uses.values())
        if len(objs) < 2 or count == 0:
            fail(f'{" ".join(unit)}: {len(objs)} files and {count} uses between them: '
                 'nothing to check')
        files += len(objs)
        edges += count
        for comp in circles(uses):
            links = [f'{a} -> {b} ({uses[a][b]})' for a in comp for b in comp if b in uses[a]]
            problems.append('file circle: ' + ', '.join(comp) + '\n    ' + '\n    '.join(links))
        for a in sorted(uses):
            ma = module_of(a)
            if not graph or ma not in graph:
                continue
            reach = closure(graph, ma)
            for b, sym in sorted(uses[a].items()):
                mb = module_of(b)
                if mb in graph and mb not in reach:
                    problems.append(f'{a} (module {ma}) uses {sym} of {b}, but {ma} does not '
                                    f'declare {mb} in module_graph')
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f'{files} files, {edges} uses between them over {len(units)} link units: no circle'
          + (f', every use within the module graph ({len(graph)} modules)' if graph else ''))


if __name__ == '__main__':
    main(sys.argv[1:])
