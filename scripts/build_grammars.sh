#!/usr/bin/env bash
# Build the tree-sitter grammars no npm package publishes as WebAssembly, from the C source their
# npm package does publish (src/parser.c, src/scanner.c), into grammars/*.wasm (committed).
#
# Run by a developer when a grammar's version changes, never at install or build time: the
# committed .wasm files are what codemunch loads and embeds, and tests/parser/grammars_test.ts
# checks them against grammars/SHA256SUMS. The build is reproducible: the same source package and
# the same emcc give the same bytes.
#
#   bash scripts/build_grammars.sh [lang ...]      # default: all
#
# Needs: npm, node, emcc (Debian bookworm: `apt-get install -y emscripten`, 3.1.6), openssl,
# sha256sum.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$PWD/grammars"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# lang  npm-package@version  sha512 integrity (from `npm view <pkg>@<version> dist.integrity`)
GRAMMARS=(
  "sql @derekstride/tree-sitter-sql@0.3.11 sha512-YRtTXVWK4n7/3BUGchhGcW/IF1u2ldR2fd0t3Uw7ymbGXcRfiG3v1T6N43jQKXz2LwN+Nx+Ab96T0HtusBVH9g=="
  "perl tree-sitter-perl@2.0.0 sha512-sKZfFIvw5S18UHHAMe7rRpuZzzkLxaeslmZeflPlFKLfKAWCT8XAIqu/IBWzWR5phkMTZM3DxqOxX2IXC51SdA=="
  "scss tree-sitter-scss@1.0.0 sha512-CYHEkSG4RTGHfwwQSXwsnagRUNr2Gh2jzrvNUXz95OfSzOdUAtPx4aM1zOGSprAzOPnwlBQfbYs0vVsklf3WWA=="
)

build() { # lang package@version integrity
  local lang=$1 spec=$2 integrity=$3 tgz actual
  echo "grammars: $lang <- npm $spec" >&2
  tgz=$(cd "$work" && npm pack --silent "$spec" | tail -n 1)
  actual="sha512-$(openssl dgst -sha512 -binary "$work/$tgz" | base64 -w 0)"
  if [ "$actual" != "$integrity" ]; then
    echo "grammars: $spec: integrity $actual, expected $integrity" >&2
    exit 1
  fi
  mkdir -p "$work/$lang"
  tar -xzf "$work/$tgz" -C "$work/$lang" --strip-components=1
  local sources=("$work/$lang/src/parser.c")
  [ -f "$work/$lang/src/scanner.c" ] && sources+=("$work/$lang/src/scanner.c")
  # As tree-sitter's CLI builds a grammar (`tree-sitter build --wasm`): a side module exporting
  # only the language function, its libc calls resolved against web-tree-sitter's runtime.
  # NDEBUG: web-tree-sitter's runtime has no `__assert_fail` for a scanner's assert().
  (cd "$work/$lang" && emcc -o "$out/tree-sitter-$lang.wasm" -Os -DNDEBUG -fno-exceptions \
    -fvisibility=hidden -s WASM=1 -s SIDE_MODULE=2 -s NODEJS_CATCH_EXIT=0 \
    -s "EXPORTED_FUNCTIONS=[\"_tree_sitter_$lang\"]" -I src "${sources[@]}")
  if [ -f "$work/$lang/LICENSE" ]; then
    cp "$work/$lang/LICENSE" "$out/LICENSE-$lang"
  else # The package has no LICENSE file: record what its package.json declares.
    node -e 'const p = require(process.argv[1]);
      console.log(`${p.name} ${p.version} (npm), ${p.repository?.url ?? p.repository}`);
      console.log(`License: ${p.license} (declared in its package.json; the package has no LICENSE file)`);
      console.log(`Author: ${typeof p.author === "string" ? p.author : p.author?.name}`);' \
      "$work/$lang/package.json" >"$out/LICENSE-$lang"
  fi
}

mkdir -p "$out"
wanted=("$@")
for entry in "${GRAMMARS[@]}"; do
  read -r lang spec integrity <<<"$entry"
  if [ ${#wanted[@]} -eq 0 ] || [[ " ${wanted[*]} " == *" $lang "* ]]; then
    build "$lang" "$spec" "$integrity"
  fi
done
(cd "$out" && sha256sum tree-sitter-*.wasm >SHA256SUMS)
emcc --version | head -n 1 >&2
cat "$out/SHA256SUMS"
