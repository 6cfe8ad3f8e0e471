#!/usr/bin/env python3
"""Validates a server.json against the MCP registry's JSON Schema with `jsonschema` (Draft 2020-12).

Usage: python validate_server_json.py SCHEMA SERVER_JSON
Prints `valid` and exits 0, or prints each error (its path and message) and exits 1.
"""

from __future__ import annotations

import json
import sys

from jsonschema import Draft202012Validator


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as file:
        schema = json.load(file)
    with open(sys.argv[2], encoding="utf-8") as file:
        document = json.load(file)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(document), key=lambda error: list(error.absolute_path))
    for error in errors:
        path = "/" + "/".join(str(part) for part in error.absolute_path)
        print(f"{path}: {error.message}")
    if errors:
        return 1
    print("valid")
    return 0


if __name__ == "__main__":
    sys.exit(main())
