#!/usr/bin/env python3
"""Adds messages to every locale file of a folder at once, so no language is left behind.

usage: scripts/add-messages.py <locales-dir> <messages.json>
messages.json: {"ns.key": {"th": "...", "en": "...", "ja": "...", "ko": "...", "es": "...", "zh": "...", "hk": "..."}}
"""
import json, sys, collections

LANGS = ['th', 'en', 'ja', 'ko', 'es', 'zh', 'hk']
folder, src = sys.argv[1], sys.argv[2]
msgs = json.load(open(src), object_pairs_hook=collections.OrderedDict)
for lang in LANGS:
    path = f'{folder}/{lang}.json'
    data = json.load(open(path), object_pairs_hook=collections.OrderedDict)
    for key, texts in msgs.items():
        if lang not in texts:
            sys.exit(f'{key}: no {lang} text')
        node = data
        *parents, leaf = key.split('.')
        for p in parents:
            node = node.setdefault(p, collections.OrderedDict())
        node[leaf] = texts[lang]
    with open(path, 'w') as f:
        json.dump(data, f, ensure_ascii=False, indent=2)
        f.write('\n')
print(f'added {len(msgs)} message(s) to {len(LANGS)} locale files in {folder}')
