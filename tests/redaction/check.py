#!/usr/bin/env python3
"""The redaction probes' judge, independent of decorum's own scan.

    check.py --gone TEXT ... --kept TEXT ... FILE-OR-DIR ...

Every file is read in every way a reader or a mail program could read it:
the raw bytes; each message of an mbox or .eml with its headers decoded
(RFC 2047, RFC 2231 parameters), its parts decoded (base64,
quoted-printable), in their charset (UTF-16 too), gunzipped, HTML as text;
JSON with its escapes undone; and each of these again with HTML entities
and percent-escapes decoded, zero-width characters dropped, NFKC and case
folded.  A "gone" text found in any of them is a leak; a "kept" text
missing from all of them is over-redaction.  Exit 1 on either.
"""
import email
import email.policy
import gzip
import html
import json
import os
import re
import sys
import unicodedata
import urllib.parse

IGNORABLE = re.compile('[\u00ad\u034f\u180b-\u180f\u200b-\u200f\u2060-\u2064'
                       '\ufe00-\ufe0f\ufeff\U000e0000-\U000e0fff]')


def norm(s):
    s = IGNORABLE.sub('', s)
    return unicodedata.normalize('NFKC', s).casefold()


def texts_of_bytes(b):
    out = []
    if b[:2] == b'\x1f\x8b':
        try:
            b = gzip.decompress(b)
        except Exception:
            pass
    if b[:2] in (b'\xff\xfe', b'\xfe\xff'):
        out.append(b.decode('utf-16', 'replace'))
    out.append(b.decode('utf-8', 'replace'))
    out.append(b.decode('latin-1'))
    # UTF-16 without a BOM: every other byte NUL.
    if len(b) > 3 and b.count(0) > len(b) // 3:
        for enc in ('utf-16-le', 'utf-16-be'):
            out.append(b.decode(enc, 'replace'))
    return out


def views(s):
    """s, and s with entities and escapes decoded, tags dropped."""
    v = [s]
    u = html.unescape(s)
    v.append(u)
    v.append(re.sub(r'<[^>]*>', '', u))
    for x in (s, u):
        try:
            v.append(urllib.parse.unquote(x, errors='replace'))
        except Exception:
            pass
    v.append(html.unescape(urllib.parse.unquote(u)))
    # Whitespace folded: a name broken over two lines.
    v.append(re.sub(r'\s+', ' ', v[2]))
    return v


def message_texts(raw):
    out = []
    try:
        m = email.message_from_bytes(raw, policy=email.policy.default)
    except Exception:
        return out
    for part in m.walk():
        for k, val in part.raw_items():
            out.append('%s: %s' % (k, val))
            try:
                out.append(str(email.header.make_header(
                    email.header.decode_header(str(val)))))
            except Exception:
                pass
            try:
                out.append(str(part[k]))
            except Exception:
                pass
        for key in ('filename', 'name'):
            for getter in (part.get_param,):
                try:
                    p = part.get_param(key, header='content-disposition') \
                        or part.get_param(key)
                    if p:
                        out.append(email.utils.collapse_rfc2231_value(p))
                except Exception:
                    pass
        try:
            fn = part.get_filename()
            if fn:
                out.append(fn)
        except Exception:
            pass
        if part.is_multipart():
            continue
        try:
            b = part.get_payload(decode=True) or b''
        except Exception:
            b = b''
        cs = part.get_content_charset()
        if cs:
            try:
                out.append(b.decode(cs, 'replace'))
            except LookupError:
                pass
        out.extend(texts_of_bytes(b))
        if part.get_content_type() in ('message/rfc822',):
            out.extend(message_texts(b))
    return out


def split_mbox(raw):
    msgs = re.split(rb'(?m)^From [^\n]*\n', raw)
    return [x for x in msgs if x.strip()]


def file_texts(path):
    with open(path, 'rb') as f:
        raw = f.read()
    out = texts_of_bytes(raw)
    name = os.path.basename(path)
    if name.endswith('.mbox'):
        for msg in split_mbox(raw):
            # mboxrd: ">From " lines are the mail's own.
            msg = re.sub(rb'(?m)^>(>*From )', rb'\1', msg)
            out.extend(message_texts(msg))
    elif name.endswith('.eml'):
        out.extend(message_texts(raw))
    if name.endswith('.json'):
        try:
            out.append(json.dumps(json.loads(raw), ensure_ascii=False))
        except Exception:
            pass
    return out


def main(argv):
    gone, kept, paths = [], [], []
    i = 0
    while i < len(argv):
        if argv[i] in ('--gone', '--kept') and i + 1 < len(argv):
            (gone if argv[i] == '--gone' else kept).append(argv[i + 1])
            i += 2
            continue
        paths.append(argv[i])
        i += 1
    files = []
    for p in paths:
        if os.path.isdir(p):
            for d, _, fs in os.walk(p):
                files.extend(os.path.join(d, f) for f in sorted(fs))
        elif os.path.exists(p):
            files.append(p)
    bad = 0
    seen_kept = set()
    for f in files:
        hay = []
        for t in file_texts(f):
            hay.extend(norm(v) for v in views(t))
        for g in gone:
            n = norm(g)
            for h in hay:
                k = h.find(n)
                if k >= 0:
                    ctx = h[max(0, k - 30):k + len(n) + 30]
                    print('leak: %r in %s: ...%s...' %
                          (g, os.path.basename(f), ctx.replace('\n', ' ')))
                    bad = 1
                    break
        for kt in kept:
            if any(norm(kt) in h for h in hay):
                seen_kept.add(kt)
    for kt in kept:
        if kt not in seen_kept:
            print('over-redacted: %r is gone' % kt)
            bad = 1
    return bad


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
