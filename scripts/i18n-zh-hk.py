#!/usr/bin/env python3
"""Writes the zh-HK catalogue beside the en-US one: the same keys (terms and messages), each converted
from Simplified to Traditional (Hong Kong) by OpenCC's s2hk (Debian: apt-get install opencc). Entries
already in the zh-HK file are kept, so a hand correction survives a rerun.

usage: scripts/i18n-zh-hk.py src/shared/i18n/en-US.json
"""
import json, subprocess, sys

en_path = sys.argv[1]
hk_path = en_path.replace('en-US', 'zh-HK')
en = json.load(open(en_path, encoding='utf-8'))
try:
    kept = json.load(open(hk_path, encoding='utf-8'))
except FileNotFoundError:
    kept = {}
out = {}
for section in ('terms', 'messages'):
    keys = list(en.get(section, {}).keys())
    have = kept.get(section, {})
    todo = [k for k in keys if k not in have]
    converted = subprocess.run(['opencc', '-c', 's2hk.json'], input='\n'.join(todo), capture_output=True, text=True, check=True).stdout.split('\n') if todo else []
    fresh = dict(zip(todo, converted))
    out[section] = {k: have.get(k, fresh.get(k, k)) for k in keys}
    print(f'{hk_path} {section}: {len(keys)} entries, {len(todo)} converted')
with open(hk_path, 'w', encoding='utf-8') as f:
    f.write('{\n' + ',\n'.join(f'  {json.dumps(s)}: {{\n' + ',\n'.join(f'    {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}' for k, v in out[s].items()) + '\n  }' for s in out) + '\n}\n')
