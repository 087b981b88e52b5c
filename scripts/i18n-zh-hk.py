#!/usr/bin/env python3
"""Writes the zh-HK catalogue beside an en-US one: the same keys, each converted from Simplified to
Traditional (Hong Kong) by OpenCC's s2hk (Debian: apt-get install opencc). Entries already in the zh-HK
file are kept, so a hand correction survives a rerun.

usage: scripts/i18n-zh-hk.py src/shared/i18n/terms.en-US.json
"""
import json, subprocess, sys

en_path = sys.argv[1]
hk_path = en_path.replace('en-US', 'zh-HK')
keys = list(json.load(open(en_path, encoding='utf-8')).keys())
try:
    kept = json.load(open(hk_path, encoding='utf-8'))
except FileNotFoundError:
    kept = {}
todo = [k for k in keys if k not in kept]
converted = subprocess.run(['opencc', '-c', 's2hk.json'], input='\n'.join(todo), capture_output=True, text=True, check=True).stdout.split('\n')
fresh = dict(zip(todo, converted))
out = {k: kept.get(k, fresh.get(k, k)) for k in keys}
with open(hk_path, 'w', encoding='utf-8') as f:
    json.dump(out, f, ensure_ascii=False, indent=0)
    f.write('\n')
print(f'{hk_path}: {len(out)} entries, {len(todo)} converted')
