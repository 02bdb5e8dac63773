#!/usr/bin/env python3
"""Functions analyzed by a scan, counted against Universal Ctags' function definitions.

Usage: functions-analyzed.py REPORT.json [--ccdb compile_commands.json] [--exclude GLOB]...

total: Universal Ctags definitions (kind f; .cu/.cuh/.inl/.inc read as C++) in the C/C++/CUDA files of the scanned
paths, less the excluded globs. Each function is counted once, in the first of:
  not-analyzed-file  every function of a file with a notAnalyzed notice
  neither            named by a parse-error notice that does not say "Clang read it": read by neither front end;
                     split into "not compiled" (a source file with no entry in --ccdb: the build does not compile
                     it in this configuration) and "missed" (the rest, headers included)
  not-compiled       every function of a header with a not-compiled notice (no compiled unit includes it; read
                     alone it stops at its own #error: code for another target or configuration), counted as not
                     compiled
  clang-facts        named by a parse-error notice "...; Clang read it: analyzed from Clang's facts", counted by a
                     clang-only notice or by a clang-error notice that folds the parser's failures in: the hand-written parser could not read it, Clang did, and every check ran on
                     Clang's facts (the Clang-alone path, -Dnumlint.clang.alone=true, for that function)
  over-budget        every function of a file whose over-budget notice says "functions that only Clang read not
                     analyzed" (Clang's facts of the file ran past their per-file CPU budget; an upper bound)
  both               the rest (both front ends; in a clang-not-parsed file the hand-written one only, counted apart)
Only the notices of the counted files count (a build's -I can bring headers outside the scanned paths into the scan).
analyzed = total - not-analyzed-file - neither - over-budget; "of the build" leaves the not-compiled functions out of the total.
full facts = analyzed (both front ends, or the Clang-alone path) less the hand-written-only functions of clang-not-parsed
files, of the build's functions; files where Clang stopped at its error limit are listed apart; "both front ends" is the
share session 18 called "full facts" (clang-facts counted as left out; its total was every function).
"""
import fnmatch, json, os, re, subprocess, sys

args = sys.argv[1:]
js = args.pop(0)
ccdb = None
ex = []
while args:
    a = args.pop(0)
    if a == '--ccdb': ccdb = args.pop(0)
    elif a == '--exclude': ex.append(args.pop(0))
    elif a.startswith('--exclude='): ex.append(a.split('=', 1)[1])
d = json.load(open(js))
root = d['provenance']['root']; paths = d['provenance']['scannedPaths']
EXT = ('.c', '.h', '.cc', '.cpp', '.cxx', '.hpp', '.hh', '.hxx', '.cu', '.cuh', '.inl', '.inc')

def glob2re(g):
    r = ''; i = 0
    while i < len(g):
        if g[i:i+3] == '**/': r += '(?:.*/)?'; i += 3
        elif g[i:i+2] == '**': r += '.*'; i += 2
        elif g[i] == '*': r += '[^/]*'; i += 1
        elif g[i] == '?': r += '[^/]'; i += 1
        else: r += re.escape(g[i]); i += 1
    return re.compile(r + '$')

exs = [glob2re(g) for g in ex]
files = []
for p in paths:
    for dp, dn, fn in os.walk(p):
        # as the scan: CMake's own directory of a configured build (its compiler identification probes) and the
        # files nvcc keeps are no sources of the project
        dn[:] = [x for x in dn if not x.startswith('.') and not (x == 'CMakeFiles' and (
            os.path.isfile(os.path.join(dp, x, 'cmake.check_cache'))
            or os.path.isfile(os.path.join(dp, 'CMakeCache.txt'))))]
        for f in fn:
            full = os.path.join(dp, f); rel = os.path.relpath(full, root)
            if re.search(r'\.(cudafe\d(\.stub)?\.(c|cpp|gpu)|fatbin\.c|cpp\d\.ii?)$', f): continue
            if f.endswith(EXT) and not any(e.match(rel) or e.match(rel + '/') for e in exs): files.append(full)
out = subprocess.run(['ctags', '-x', '--kinds-C=f', '--kinds-C++=f', '--langmap=C++:+.cu.cuh.inl.inc',
                      '--_xformat=%{input}\t%{line}\t%{name}'] + files, capture_output=True, text=True).stdout
funcs = [l.split('\t') for l in out.splitlines() if l.count('\t') == 2]
total = len(funcs)
built = None
if ccdb:
    built = set()
    for e in json.load(open(ccdb)):
        f = e['file'] if os.path.isabs(e['file']) else os.path.join(e['directory'], e['file'])
        built.add(os.path.relpath(os.path.normpath(f), root))
# the notices of the files counted (a build's -I can make the scan analyze headers outside the scanned paths: their
# functions are not in the total, so their notices are not counted either)
scanned = {os.path.relpath(f[0], root) for f in funcs} | {os.path.relpath(f, root) for f in files}
notes = [n for n in d['notifications'] if n.get('file') in scanned]
na_files = {n['file'] for n in notes if n.get('notAnalyzed')}
na = sum(1 for f in funcs if os.path.relpath(f[0], root) in na_files)
parse = [n for n in notes if n['id'] == 'parse-error' and n['file'] not in na_files]
clang_read = [n for n in parse if "Clang read it" in n['message']]
neither = [n for n in parse if "Clang read it" not in n['message']]
SOURCES = ('.c', '.cc', '.cpp', '.cxx', '.cu')
# a header with a not-compiled notice: no compiled unit includes it and, read alone, it stops at its own #error (code
# for another target or configuration); its functions count as not compiled, as those of a source without an entry
nc_files = {n['file'] for n in notes if n['id'] == 'not-compiled'}
nc = sum(1 for f in funcs if os.path.relpath(f[0], root) in nc_files and os.path.relpath(f[0], root) not in na_files)
# a source file without a compile command is not compiled by the build; a header cannot be told so (it is compiled
# through the units that include it)
not_compiled = [n for n in neither if built is not None and n['file'].endswith(SOURCES) and n['file'] not in built]
missed = [n for n in neither if n not in not_compiled]
clang_only = sum(int(re.match(r'(\d+) function', n['message']).group(1)) for n in notes if n['id'] == 'clang-only')
# a file Clang read with errors folds the hand-written parser's failures into its clang-error notice: those functions
# were analyzed from Clang's facts alone, or by neither front end
def folded(pattern):
    return sum(int(m.group(1)) for n in notes if n['id'] == 'clang-error'
               for m in [re.search(pattern, n['message'])] if m)
clang_only += folded(r"; the hand-written parser could not read (\d+) function")
neither_folded = folded(r"; not analyzed \(read by neither front end\): (\d+) function")
# a file whose Clang facts ran past their per-file CPU budget: the functions only Clang read are not analyzed (the
# notice counts them with their macro expansions; here every definition of the file counts, an upper bound)
ob_files = {n['file'] for n in notes if n['id'] == 'over-budget' and "only Clang read not analyzed" in n['message']}
over_budget = sum(1 for f in funcs if os.path.relpath(f[0], root) in ob_files - na_files)
legacy_files = {n['file'] for n in notes if n['id'] == 'clang-not-parsed'}
legacy = sum(1 for f in funcs if os.path.relpath(f[0], root) in legacy_files)
clang_facts = len(clang_read) + clang_only
analyzed = total - na - len(neither) - neither_folded - nc - over_budget
# a clang-not-parsed file's functions were read by the hand-written front end alone (it guesses): analyzed, but no
# full facts (session 73: reviewers found "full facts 99.97%" with three such files)
full = analyzed - legacy
both = full - clang_facts
# files where Clang stopped at its error limit (-ferror-limit=100): what it recovered before the limit is analyzed,
# the rest of the file by the hand-written front end alone; counted apart, not subtracted (a file-level figure)
capped = sorted({n['file'] for n in notes if n['id'] == 'clang-error'
                 and re.search(r"Clang reported (\d+) errors", n['message'])
                 and int(re.search(r"Clang reported (\d+) errors", n['message']).group(1)) > 100})
of_build = total - len(not_compiled) - nc
pct = lambda a, b: f"{100 * a / b:.2f}%" if b else "n/a"
print(f"functions {total}; not-analyzed files {na}; read by neither {len(neither) + neither_folded} (not compiled"
      f" {len(not_compiled)}, missed {len(missed) + neither_folded}); in headers not compiled (not-compiled notices) {nc}; Clang's facts only {clang_facts} (parse-error {len(clang_read)}, clang-only"
      f" {clang_only}); hand-written only (clang-not-parsed files) {legacy}; over the per-file budget {over_budget}")
print(f"analyzed {pct(analyzed, total)}; analyzed of the build {pct(analyzed, of_build)}"
      f"{'' if built is not None else ' (no --ccdb: every file counted as built)'}; full facts, of the build"
      f" {pct(full, of_build)} (both front ends {pct(both, of_build)}, the Clang-alone path"
      f" {pct(clang_facts, of_build)}; the hand-written front end alone {pct(legacy, of_build)});"
      f" clang-not-parsed notices {len(legacy_files)}; files at Clang's error limit {len(capped)}")
for f in capped:
    print("  at Clang's error limit:", f)
for n in neither:
    print(f"  neither{' (not compiled)' if n in not_compiled else ''}", n['file'], n['line'], n['message'][:120])
