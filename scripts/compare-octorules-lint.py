#!/usr/bin/env python3
"""Compares octorules' lint catalogue with ours: `npm run compare:octorules-lint`.

It reads the rules octorules registers for its linter (their id, category, default severity and
rule sets) from the wheels of the pinned versions, without installing or importing them: the
Python syntax tree of the two modules that define them, and only literals from it (the wheels as
pip downloads them: pip download --no-deps octorules==0.37.0 octorules-cloudflare==0.18.1 -d DIR;
DIR is $OCTORULES_WHEELS, else /tmp/octo). Their descriptions are not copied: each row's `what`
says what the rule is about in our words.

docs/octorules-lint.json keeps, per rule, that hand-written `what` and our answer, decided by
reading the rule's implementation and running both linters on a sample: `ours` (the codes of ours
that report the same mistake) or `decided` (why we do not report it). This script rewrites the extracted part of every row, keeps the
hand-written part, writes docs/octorules-lint.md from it, and fails (exit 1) when a rule of the
wheel has no answer or a row names a rule the wheel does not have.

  --check   write nothing; exit 1 when either file differs from what would be written
  --table   only (re)write docs/octorules-lint.md from docs/octorules-lint.json (no wheels needed)

Exit status 2 and one line on stderr when a wheel is missing.
"""

import ast
import hashlib
import json
import os
import sys
import zipfile

VERSIONS = {"octorules": "0.37.0", "octorules-cloudflare": "0.18.1"}
# The modules whose RuleMeta(...) calls make the catalogue: octorules' core rules (registered in a
# function of its engine) and the Cloudflare provider's (module-level constants).
MODULES = {"octorules": "octorules/linter/engine.py", "octorules-cloudflare": "octorules_cloudflare/linter/_rules.py"}
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DATA = "docs/octorules-lint.json"
TABLE = "docs/octorules-lint.md"
ANSWERS = ("ours", "decided")
HAND_KEYS = ("what", "ours", "note", "decided")


def wheel_path(directory, package):
    return os.path.join(directory, f"{package.replace('-', '_')}-{VERSIONS[package]}-py3-none-any.whl")


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def extract(directory):
    """Every rule the two modules define, in the order they define them."""
    rules = []
    for package, module in MODULES.items():
        with zipfile.ZipFile(wheel_path(directory, package)) as wheel:
            tree = ast.parse(wheel.read(module).decode("utf-8"))
        found = 0
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleMeta"):
                continue
            rule_id, category = (ast.literal_eval(a) for a in node.args[:2])
            severity = node.args[3]
            if not (isinstance(severity, ast.Attribute) and getattr(severity.value, "id", None) == "Severity"):
                raise SystemExit(f"compare-octorules-lint: {rule_id}'s severity is not Severity.NAME; has octorules changed?")
            keywords = {k.arg: k.value for k in node.keywords}
            sets = sorted(ast.literal_eval(keywords["sets"].args[0])) if "sets" in keywords else ["default"]
            row = {"id": rule_id, "package": package, "category": category, "severity": severity.attr.lower(), "sets": sets}
            if "suppressible" in keywords:
                row["suppressible"] = ast.literal_eval(keywords["suppressible"])
            rules.append((node.lineno, row))
            found += 1
        if found == 0:
            raise SystemExit(f"compare-octorules-lint: no RuleMeta(...) in {package}'s {module}; has octorules changed?")
    return [row for _, row in sorted(rules, key=lambda r: (r[1]["package"] != "octorules-cloudflare", r[1]["id"]))]


def answer_of(row):
    given = [k for k in ANSWERS if k in row]
    return given[0] if len(given) == 1 else None


def merge(extracted, committed):
    """The extracted rows with the hand-written part of the committed ones; the list of problems."""
    hand = {row["id"]: row for row in committed.get("rules", [])}
    problems = []
    rows = []
    for row in extracted:
        old = hand.pop(row["id"], {})
        merged = dict(row)
        for key in HAND_KEYS:
            if key in old:
                merged[key] = old[key]
        if "what" not in merged or answer_of(merged) is None:
            problems.append(f"{row['id']}: needs `what` and exactly one of ours / decided in {DATA}")
        rows.append(merged)
    for rule_id in hand:
        problems.append(f"{rule_id}: in {DATA} but not a rule of the wheels; remove its row")
    return rows, problems


def data_text(directory, rows):
    source = {
        "packages": VERSIONS,
        "modules": MODULES,
        "wheels": {os.path.basename(wheel_path(directory, p)): sha256(wheel_path(directory, p)) for p in VERSIONS},
        "generated": "scripts/compare-octorules-lint.py: `what`, `ours`, `note` and `decided` are written by hand, the rest is read from the wheels",
    }
    return json.dumps({"source": source, "rules": rows}, indent=2, ensure_ascii=False) + "\n"


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def table_text(data):
    rows = data["rules"]
    counts = {k: sum(1 for r in rows if answer_of(r) == k) for k in ANSWERS}
    source = data["source"]
    lines = [
        "# octorules' lint rules beside ours",
        "",
        "<!-- Generated by scripts/compare-octorules-lint.py from docs/octorules-lint.json: do not edit. -->",
        "",
        f"Every rule of the linter of octorules {source['packages']['octorules']} and octorules-cloudflare "
        f"{source['packages']['octorules-cloudflare']} (read from their wheels: "
        + ", ".join(f"`{name}` sha256 `{digest}`" for name, digest in source["wheels"].items())
        + "), with what we do about it: **ours** names the codes of `rulesets check` that report the same mistake; "
        "**decided** says why we do not report it (a limit no source states, a preference of style we do not share, "
        "a file octorules has and we do not read).",
        "",
        f"{len(rows)} rules: {counts['ours']} ours, {counts['decided']} decided. "
        "The severity is octorules' default. `npm run compare:octorules-lint` regenerates this page; "
        "test/oracle/octorules-lint.test.ts holds it to the wheels and to our codes.",
        "",
        "| rule | category | severity | what it is about | ours |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        kind = answer_of(r)
        if kind == "ours":
            answer = ", ".join(f"`{c}`" for c in r["ours"]) + (f" — {r['note']}" if "note" in r else "")
        elif kind:
            answer = f"{kind}: {r[kind]}"
        else:
            answer = "(no answer yet)"
        lines.append(f"| {r['id']} | {r['category']} | {r['severity']} | {cell(r.get('what', ''))} | {cell(answer)} |")
    return "\n".join(lines) + "\n"


def read(path):
    try:
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return None


def main():
    check = "--check" in sys.argv
    if "--table" in sys.argv:
        data = json.loads(read(DATA))
        outputs = {TABLE: table_text(data)}
    else:
        directory = os.environ.get("OCTORULES_WHEELS", "/tmp/octo")
        missing = [p for p in VERSIONS if not os.path.exists(wheel_path(directory, p))]
        if missing:
            wanted = " ".join(f"{p}=={VERSIONS[p]}" for p in VERSIONS)
            print(f"compare-octorules-lint: no wheel of {', '.join(missing)} in {directory}: pip download --no-deps {wanted} -d {directory} (or set OCTORULES_WHEELS)", file=sys.stderr)
            sys.exit(2)
        committed = json.loads(read(DATA) or "{}")
        rows, problems = merge(extract(directory), committed)
        text = data_text(directory, rows)
        outputs = {DATA: text, TABLE: table_text(json.loads(text))}
        if problems:
            # The data file is still written (without --check), so the missing rows can be filled in.
            if not check:
                with open(os.path.join(ROOT, DATA), "w", encoding="utf-8") as f:
                    f.write(text)
            for p in problems:
                print(f"compare-octorules-lint: {p}", file=sys.stderr)
            sys.exit(1)
    stale = [path for path, text in outputs.items() if read(path) != text]
    if check:
        for path in stale:
            print(f"compare-octorules-lint: {path} differs from what the script writes: run `npm run compare:octorules-lint` and review the diff", file=sys.stderr)
        sys.exit(1 if stale else 0)
    for path in stale:
        with open(os.path.join(ROOT, path), "w", encoding="utf-8") as f:
            f.write(outputs[path])
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
