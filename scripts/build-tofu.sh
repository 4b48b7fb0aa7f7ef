#!/usr/bin/env bash
# Builds OpenTofu's `tofu`, the oracle of test/oracle/tofu-values.test.ts (Terraform's own
# evaluation of the fixtures' locals and variables), from its source on the Go module proxy, into
# a cache folder outside the repository, and prints the binary's path on stdout (everything else
# goes to stderr). Skipped when that binary is already built.
#
#   TOFU=$(scripts/build-tofu.sh)
#
# Pinned: the module version below (the proxy's checksum database checks what it serves).
# Go: the `go` on PATH, 1.21 or later (every machine of this project has one): its go.mod asks for
# 1.24 or later, which such a Go fetches itself as the module golang.org/toolchain (GOTOOLCHAIN).
# Cache folder: $RULESETS_TOOLS_CACHE, else $XDG_CACHE_HOME/rulesets-tools, else ~/.cache/rulesets-tools.
set -euo pipefail

TOFU_MODULE=github.com/opentofu/opentofu
TOFU_VERSION=1.10.6
cache="${RULESETS_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rulesets-tools}"
out="$cache/tofu-$TOFU_VERSION"
binary="$out/tofu"
if [ -x "$binary" ] && "$binary" version >/dev/null 2>&1; then
  echo "$binary"
  exit 0
fi
mkdir -p "$out"

# A Go that knows GOTOOLCHAIN (1.21+).
go_minor() { "$1" env GOVERSION 2>/dev/null | sed -n 's/^go1\.\([0-9]*\).*/\1/p'; }
if ! command -v go >/dev/null 2>&1 || ! [ "$(go_minor go || echo 0)" -ge 21 ] 2>/dev/null; then
  echo "build-tofu: needs Go 1.21 or later on PATH to build OpenTofu $TOFU_VERSION" >&2
  exit 1
fi
go_bin=$(command -v go)

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
