#!/usr/bin/env python3
"""The reference engine as a test oracle: Cloudflare's `wirefilter`, through the Python
bindings of the `octorules-wirefilter` package (pinned to 0.7.0 in .ci/run).

A long-lived process, started once per test file (test/oracle/engine.ts). It speaks JSON
lines: one request per line on stdin, one response per line on stdout, in order.

On start it writes one line:
    {"ready": true, "package": "octorules-wirefilter", "version": "0.7.0"}
or, when the engine cannot be imported, {"ready": false, "error": "..."} and exits.

Requests:
    {"id": 1, "exprs": ["ip.src == 1.2.3.4", ...], "scheme": "magic_firewall"}
      -> {"id": 1, "results": [RESULT, ...], "seconds": 0.01}
         one RESULT per expression, in order; `seconds` is the time the engine took
    {"id": 2, "schema": "magic_firewall"}
      -> {"id": 2, "schema": {"fields": [{"name", "type"}], "functions": [...]}}

A scheme is "magic_firewall" or "http". The bindings' HTTP scheme has no name (it is what they
use when no scheme is given), so "http" is this protocol's name for it and is sent as None.

RESULT is {"ok": true} when the engine accepts the expression, or
    {"ok": false, "message": "unknown identifier", "error": "<the engine's whole text>",
     "line": 1, "col": 7, "start": 6, "end": 9}
where `line`/`col` are the engine's `Filter parsing error (LINE:COL)` (1-based; the column
counts UTF-8 bytes of the trimmed expression), and `start`/`end` are the span of the caret
line converted to UTF-16 offsets into the expression as sent (what JavaScript indexes), or
absent when the text could not be read back. An exception of the bindings themselves gives
{"ok": false, "message": "...", "exception": true}.
"""

import json
import re
import sys
import time

SCHEME_DEFAULT = "magic_firewall"


def binding_scheme(name):
    """The bindings' `scheme` argument for a scheme of this protocol."""
    return None if name == "http" else name

# Rust's `str::trim` (char::is_whitespace), which the engine applies before parsing; Python's
# str.strip would also strip \x1c-\x1f.
RUST_WHITESPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680" + "".join(chr(c) for c in range(0x2000, 0x200B)) + "\u2028\u2029\u202f\u205f\u3000"

HEADER = re.compile(r"^Filter parsing error \((\d+):(\d+)\):$")
CARETS = re.compile(r"^( *)(\^*) ?(.*)$")


def utf16_length(text):
    return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)


def locate(expr, error):
    """The fields of a failed RESULT, from the engine's error text."""
    lines = error.split("\n")
    result = {"ok": False, "error": error}
    header = HEADER.match(lines[0]) if lines else None
    if not header or len(lines) < 3:
        result["message"] = error.strip()
        return result
    line, col = int(header.group(1)), int(header.group(2))
    carets = CARETS.match(lines[2])
    # The message: what follows the carets, and any lines after (a regex error has several).
    message = "\n".join([carets.group(3)] + lines[3:]).strip() if carets else "\n".join(lines[2:]).strip()
    result.update(message=message, line=line, col=col)

    leading = len(expr) - len(expr.lstrip(RUST_WHITESPACE))
    trimmed = expr.strip(RUST_WHITESPACE)
    source_lines = trimmed.split("\n")
    if line < 1 or line > len(source_lines) or source_lines[line - 1] != lines[1] or not carets:
        return result  # cannot read the position back: leave the span out
    line_bytes = source_lines[line - 1].encode("utf-8")
    start_in_line = col - 1
    end_in_line = start_in_line + len(carets.group(2))
    if start_in_line > len(line_bytes):
        return result

    def to_chars(byte_offset):
        clipped = min(byte_offset, len(line_bytes))
        return len(line_bytes[:clipped].decode("utf-8", errors="ignore")) + max(0, byte_offset - len(line_bytes))

    before = leading + sum(len(source_lines[i]) + 1 for i in range(line - 1))
    start_chars = before + to_chars(start_in_line)
    end_chars = min(before + to_chars(end_in_line), len(expr))
    result["start"] = utf16_length(expr[:start_chars])
    result["end"] = max(result["start"], utf16_length(expr[:end_chars]))
    return result


def check(wirefilter, expr, scheme):
    try:
        parsed = wirefilter.parse_expression(expr, scheme=scheme)
    except Exception as exc:  # noqa: BLE001 - anything the bindings raise is a verdict to report
        return {"ok": False, "message": f"{type(exc).__name__}: {exc}", "exception": True}
    error = parsed.get("error")
    if error is None:
        return {"ok": True}
    return locate(expr, error)


def main():
    out = sys.stdout
    try:
        import octorules_wirefilter as wirefilter
        from importlib.metadata import version

        ready = {"ready": True, "package": "octorules-wirefilter", "version": version("octorules-wirefilter")}
    except Exception as exc:  # noqa: BLE001
        out.write(json.dumps({"ready": False, "error": f"{type(exc).__name__}: {exc}"}) + "\n")
        out.flush()
        return 0
    out.write(json.dumps(ready) + "\n")
    out.flush()

    for raw in sys.stdin:
        if not raw.strip():
            continue
        request = json.loads(raw)
        response = {"id": request.get("id")}
        try:
            if "schema" in request:
                response["schema"] = wirefilter.get_schema_info(scheme=binding_scheme(request["schema"]))
            else:
                scheme = binding_scheme(request.get("scheme", SCHEME_DEFAULT))
                started = time.perf_counter()
                response["results"] = [check(wirefilter, expr, scheme) for expr in request["exprs"]]
                response["seconds"] = time.perf_counter() - started
        except Exception as exc:  # noqa: BLE001 - the request fails, the process goes on
            response["error"] = f"{type(exc).__name__}: {exc}"
        out.write(json.dumps(response) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
