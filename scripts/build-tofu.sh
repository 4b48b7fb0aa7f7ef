#!/usr/bin/env bash
# Builds OpenTofu's `tofu`, the oracle of test/oracle/tofu-values.test.ts (Terraform's own
# evaluation of the fixtures' locals and variables), from its source on the Go module proxy, into
# a cache folder outside the repository, and prints the binary's path on stdout (everything else
# goes to stderr). Skipped when that binary is already built.
#
#   TOFU=$(scripts/build-tofu.sh)
#
# Pinned: the module version below (the proxy's checksum database checks what it serves).
# Go: the `go` on PATH when it can build the module (its go.mod asks for 1.24 or later, which a Go
# of 1.21 or later fetches itself through the proxy as the module golang.org/toolchain); else that
# toolchain module is downloaded from the proxy (checked against its pinned hash) into the cache
# folder, with curl and python3 (which .ci/run installs first).
# Cache folder: $RULESETS_TOOLS_CACHE, else $XDG_CACHE_HOME/rulesets-tools, else ~/.cache/rulesets-tools.
set -euo pipefail

TOFU_MODULE=github.com/opentofu/opentofu
TOFU_VERSION=1.10.6
# The toolchain to fetch when the Go on PATH is too old for GOTOOLCHAIN (before 1.21) or absent,
# and the hash the checksum database gives its module (golang.org/toolchain@v0.0.1-go1.24.6.linux-amd64).
GO_VERSION=1.24.6
GO_TOOLCHAIN_H1='h1:ddMwad9gwMnW/sEogIxiiTOS/KOJdVWoJQMCga/Sc3Q='

cache="${RULESETS_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rulesets-tools}"
out="$cache/tofu-$TOFU_VERSION"
binary="$out/tofu"
if [ -x "$binary" ] && "$binary" version >/dev/null 2>&1; then
  echo "$binary"
  exit 0
fi
mkdir -p "$out"

# A Go that knows GOTOOLCHAIN (1.21+), or the pinned release.
go_minor() { "$1" env GOVERSION 2>/dev/null | sed -n 's/^go1\.\([0-9]*\).*/\1/p'; }
go_bin=""
if command -v go >/dev/null 2>&1 && [ "$(go_minor go || echo 0)" -ge 21 ] 2>/dev/null; then
  go_bin=$(command -v go)
else
  go_root="$cache/go-$GO_VERSION"
  if [ ! -x "$go_root/bin/go" ]; then
    if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
      echo "build-tofu: install Go 1.21 or later (no pinned toolchain for $(uname -s) $(uname -m))" >&2
      exit 1
    fi
    # The toolchain as GOTOOLCHAIN fetches it: the module golang.org/toolchain on the proxy, checked
    # against its hash in the checksum database (the dirhash of go.sum, read on 2026-12-06).
    version="v0.0.1-go$GO_VERSION.linux-amd64"
    echo "build-tofu: downloading Go $GO_VERSION (golang.org/toolchain@$version) from the Go module proxy" >&2
    rm -rf "$go_root.tmp" && mkdir -p "$go_root.tmp"
    curl -fsSL -o "$go_root.tmp/toolchain.zip" "https://proxy.golang.org/golang.org/toolchain/@v/$version.zip"
    python3 - "$go_root.tmp/toolchain.zip" "$go_root.tmp/go" "$GO_TOOLCHAIN_H1" <<'PYTHON'
import base64, hashlib, os, sys, zipfile
path, into, expected = sys.argv[1:]
archive = zipfile.ZipFile(path)
names = sorted(name for name in archive.namelist() if not name.endswith('/'))
summary = ''.join('%s  %s\n' % (hashlib.sha256(archive.read(name)).hexdigest(), name) for name in names)
got = 'h1:' + base64.b64encode(hashlib.sha256(summary.encode()).digest()).decode()
if got != expected:
    sys.exit('build-tofu: the toolchain hashes to %s, not %s' % (got, expected))
for name in names:
    # Below `golang.org/toolchain@VERSION/`; a module zip keeps no file modes, so the programs
    # (bin/, pkg/tool/) are made executable as the go command does with a toolchain it fetches.
    inside = name[name.index('@'):].split('/', 1)[1]
    target = os.path.join(into, inside)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, 'wb') as out:
        out.write(archive.read(name))
    if inside.startswith(('bin/', 'pkg/tool/')):
        os.chmod(target, 0o755)
PYTHON
    mv "$go_root.tmp/go" "$go_root"
    rm -rf "$go_root.tmp"
  fi
  go_bin="$go_root/bin/go"
fi

# `auto`: when the module wants a newer Go than $go_bin, Go fetches that toolchain through the proxy.
export GOTOOLCHAIN="${GOTOOLCHAIN_FOR_TOFU:-auto}"

started=$(date +%s)
echo "build-tofu: go mod download $TOFU_MODULE@v$TOFU_VERSION" >&2
module_dir=$(cd "$out" && "$go_bin" mod download -json "$TOFU_MODULE@v$TOFU_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')
if [ -z "$module_dir" ] || [ ! -d "$module_dir" ]; then
  echo "build-tofu: go mod download gave no folder for $TOFU_MODULE@v$TOFU_VERSION" >&2
  exit 1
fi
echo "build-tofu: go build ./cmd/tofu in $module_dir" >&2
# The module cache is read-only and no repository: the build writes only its output, and reads no VCS stamp.
# version.dev=no: a release build, whose `tofu version` says 1.10.6 and not 1.10.6-dev.
(cd "$module_dir" && "$go_bin" build -buildvcs=false -ldflags "-X github.com/opentofu/opentofu/version.dev=no" -o "$binary.tmp" ./cmd/tofu)
mv "$binary.tmp" "$binary"
echo "build-tofu: built $("$binary" version 2>/dev/null | head -1) in $(($(date +%s) - started)) s" >&2
echo "$binary"
