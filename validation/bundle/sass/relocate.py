# Rewrites a PTX file so that every instruction carries `.loc 1 <its own line in the original PTX> 0`:
# ptxas -lineinfo then maps each SASS instruction back to the PTX instruction it came from.
import re, sys
src, dst, name = sys.argv[1], sys.argv[2], sys.argv[3]
out = []
depth = 0
open_stmt = False
for no, line in enumerate(open(src, encoding='utf-8', errors='replace').read().split('\n'), 1):
    s = line.strip()
    if re.match(r'\.(loc|file)\b', s):
        out.append('')
        continue
    if s.startswith('.address_size'):
        out.append(line); out.append('.file 1 "%s"' % name); continue
    if depth > 0 and s and not open_stmt and not s.startswith('.') and not s.startswith('//') \
            and not s.startswith('{') and not s.startswith('}') and not re.match(r'^[$\w]+:', s):
        out.append('\t.loc 1 %d 0' % no)
    out.append(line)
    code = s.split('//')[0].strip()
    if depth > 0 and code and not code.startswith('.') and code not in ('{', '}') and not re.match(r'^[$\w]+:$', code):
        open_stmt = not code.endswith(';')
    depth += code.count('{') - code.count('}')
open(dst, 'w').write('\n'.join(out))
