#!/usr/bin/env python3
"""Independent INEX offsets: expat reads the article and its external DTD."""
import sys, os
import xml.parsers.expat as expat

def spans(path):
    data = open(path, 'rb').read()
    p = expat.ParserCreate()
    p.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_ALWAYS)
    base = os.path.dirname(os.path.abspath(path))
    p.SetBase(base + '/')
    def ext(context, b, systemId, publicId):
        q = p.ExternalEntityParserCreate(context)
        f = os.path.join(b or base, systemId) if not os.path.isabs(systemId) else systemId
        q.ParseFile(open(f, 'rb'))
        return 1
    p.ExternalEntityRefHandler = ext
    pos = 0
    stack = []  # (name, counts dict, index)
    out = []
    def start(name, attrs):
        nonlocal pos
        if stack:
            cnt = stack[-1][1]
            cnt[name] = cnt.get(name, 0) + 1
            xp = out[stack[-1][2]][0] + '/%s[%d]' % (name, cnt[name])
        else:
            xp = '/%s[1]' % name
        out.append([xp, pos, None])
        stack.append((name, {}, len(out) - 1))
    def end(name):
        out[stack.pop()[2]][2] = pos
    def chars(s):
        nonlocal pos
        if stack:
            pos += len(s)
    p.StartElementHandler = start
    p.EndElementHandler = end
    p.CharacterDataHandler = chars
    p.Parse(data, True)
    return pos, out

for path in sys.argv[1:]:
    n, out = spans(path)
    print(n)
    for xp, s, e in out:
        print('%s\t%d\t%d' % (xp, s, e))
