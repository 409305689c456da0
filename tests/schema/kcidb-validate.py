#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""kcidb-validate.py FILE... - each file against KCIDB's own I/O schema
(tests/schema/kcidb, v5.3), JSON Schema draft 7 with formats checked, as
kcidb-io validates. Prints "ok FILE" or "FAILED FILE: where: why" a file,
and exits 1 when any failed."""
import datetime
import json
import os
import re
import sys

import jsonschema

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kcidb")
with open(os.path.join(here, "kcidb-io.schema.v5.3.json")) as f:
    schema = json.load(f)
jsonschema.Draft7Validator.check_schema(schema)
checker = jsonschema.FormatChecker()


# RFC 3339's date-time, which this jsonschema checks only with a package
# Debian does not have
@checker.checks("date-time", raises=ValueError)
def date_time(s):
    if not isinstance(s, str):
        return True
    if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)", s):
        raise ValueError("not an RFC 3339 date-time")
    datetime.datetime.fromisoformat(s.replace("Z", "+00:00"))
    return True


validator = jsonschema.Draft7Validator(schema, format_checker=checker)
failed = 0
for path in sys.argv[1:]:
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
