#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""validate.py SCHEMA[#/$defs/NAME] FILE... - each JSON file against one of
ukbench's schemas (docs/schema), with Debian's python3-jsonschema. Prints
one line per file, "ok FILE" or "FAILED FILE: where: why", and exits 1 when
any failed."""
import json
import os
import sys

import jsonschema

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "schema")
store = {}
for name in os.listdir(here):
    if name.endswith(".schema.json"):
        with open(os.path.join(here, name)) as f:
            s = json.load(f)
        jsonschema.Draft202012Validator.check_schema(s)
        store[s["$id"]] = s
        store[name] = s

target, _, pointer = sys.argv[1].partition("#")
root = store[target]
schema = {"$ref": root["$id"] + ("#" + pointer if pointer else "")}
resolver = jsonschema.RefResolver(base_uri=root["$id"], referrer=root, store=store)
validator = jsonschema.Draft202012Validator(schema, resolver=resolver)
failed = 0
for path in sys.argv[2:]:
    with open(path) as f:
        doc = json.load(f)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    if errors:
        failed = 1
        e = errors[0]
        print("FAILED %s: %s: %s" % (path, "/".join(str(p) for p in e.path), e.message[:300]))
    else:
        print("ok %s" % path)
sys.exit(failed)
