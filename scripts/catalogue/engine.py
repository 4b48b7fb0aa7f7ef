#!/usr/bin/env python3
"""The reference engine for the catalogue generator (scripts/catalogue/engine.ts).

A long-lived process speaking JSON lines. On start it writes
    {"ready": true, "package": "octorules-wirefilter", "version": "0.7.0"}
or {"ready": false, "error": "..."} when the engine cannot be imported.

Requests, one a line, answered in order:
    {"scheme": "magic_firewall" | null, "exprs": ["...", ...]}
      -> {"results": [null | {"message": "...", "start": 6, "length": 3}, ...]}
         null when the engine accepts the expression; else the message after the caret line
         and the caret span as offsets into the expression (the probes are ASCII, so the
         engine's byte columns are character offsets)
    {"schema": "magic_firewall" | null}
      -> {"schema": {"fields": [{"name", "type"}], "functions": [...]}}
"""

import json
import re
import sys

HEADER = re.compile(r"^Filter parsing error \((\d+):(\d+)\):$")
CARETS = re.compile(r"^ *(\^*) ?(.*)$")


def verdict(engine, expr, scheme):
    error = engine.parse_expression(expr, scheme=scheme).get("error")
    if error is None:
        return None
    lines = error.split("\n")
    header = HEADER.match(lines[0]) if lines else None
    carets = CARETS.match(lines[2]) if len(lines) > 2 else None
    if not header or not carets or header.group(1) != "1":
        return {"message": error.strip(), "start": -1, "length": 0}
    # The engine trims the expression first; the probes never start with whitespace.
    return {"message": carets.group(2).strip(), "start": int(header.group(2)) - 1, "length": len(carets.group(1))}


def main():
    out = sys.stdout
    try:
        import octorules_wirefilter as engine
        from importlib.metadata import version

        hello = {"ready": True, "package": "octorules-wirefilter", "version": version("octorules-wirefilter")}
    except Exception as exc:  # noqa: BLE001 - whatever stops the import is the reason to report
        out.write(json.dumps({"ready": False, "error": f"{type(exc).__name__}: {exc}"}) + "\n")
        out.flush()
        return 0
    out.write(json.dumps(hello) + "\n")
    out.flush()
    for raw in sys.stdin:
        if not raw.strip():
            continue
        request = json.loads(raw)
        try:
            if "schema" in request:
                response = {"schema": engine.get_schema_info(request["schema"])}
            else:
                response = {"results": [verdict(engine, expr, request.get("scheme")) for expr in request["exprs"]]}
        except Exception as exc:  # noqa: BLE001 - the request fails, the process goes on
            response = {"error": f"{type(exc).__name__}: {exc}"}
        out.write(json.dumps(response) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
