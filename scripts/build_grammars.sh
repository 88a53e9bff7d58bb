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
#   [grammar directory in the package, default "."]  [C symbol, default tree_sitter_<lang>]
#   [optimisation of parser.c, default Os]
# A parser.c of 20 MB or more (D, COBOL) takes clang over 30 minutes and 6 GB at -Os, and about
# 20 s of CPU at -O0 (measured with emcc 3.1.6): those are built at O0 (the parse tables are data;
# the scanner, which is code, is still built at -Os).
GRAMMARS=(
  "sql @derekstride/tree-sitter-sql@0.3.11 sha512-YRtTXVWK4n7/3BUGchhGcW/IF1u2ldR2fd0t3Uw7ymbGXcRfiG3v1T6N43jQKXz2LwN+Nx+Ab96T0HtusBVH9g=="
  "perl tree-sitter-perl@2.0.0 sha512-sKZfFIvw5S18UHHAMe7rRpuZzzkLxaeslmZeflPlFKLfKAWCT8XAIqu/IBWzWR5phkMTZM3DxqOxX2IXC51SdA=="
  "scss tree-sitter-scss@1.0.0 sha512-CYHEkSG4RTGHfwwQSXwsnagRUNr2Gh2jzrvNUXz95OfSzOdUAtPx4aM1zOGSprAzOPnwlBQfbYs0vVsklf3WWA=="
  "apex tree-sitter-sfapex@3.0.0 sha512-AGwAjSr9WDM+1IgqpQfYEsi+FN4zjGaagPEU9RGrO7abNVc51X6gaAnBEdl7FMVAxEH1qWgHO8nO2Nbb8jOgAA== apex"
  "blade tree-sitter-blade@0.11.0 sha512-NY7K2Yk0zOJFNiqGhV2gyLE6qXjSHYZu04vOK/zaiOitvTegSrJ2iLSTDuKBQ6PByGlg4IqH9WUHdk4qJuT8ww=="
  "cobol tree-sitter-cobol@0.0.1 sha512-E6QMKKipzKw9v3IVFF4t03txk21Oq+shNbkNpv+3MdDudu2qsO91vhAcgLq3N0B9J2BS5OXRZU9HqmcBRKO6mg== . tree_sitter_COBOL O0"
  "commonlisp tree-sitter-commonlisp@0.4.1 sha512-owvpVac4HiCt0vAAndrDRGL9YgIFjNVvrEIf1/9x15TZwjKTsTGuldD7C2myV/pOU3zeaHEoSNUvY+DftpLRLQ=="
  "d tree-sitter-d@0.8.2 sha512-DR4W4BR+KCp777s2TNooMSRZ4ZUq/tJSacp0ew7eIuvghtSdbKVHzJcktA6/MTsgptak5R1vT9ebN0PPwy3SXw== . tree_sitter_d O0"
  "pascal tree-sitter-pascal@0.0.1 sha512-GV2xnNuwAyM9wSJpsBekqFGKpBO90WnbO/tvwzJYX6SwKoTLdQ0Mg9HeoAiUUtLi3VNjUmtsAAfj2YN3KlH0gA=="
)

# Prebuilt grammars copied out of a bundle whose package is too heavy to depend on (native addons,
# another web-tree-sitter): lang  npm-package@version  integrity  path-in-package  upstream (licence)
PREBUILT=(
  "erlang @optave/codegraph@3.11.2 sha512-Ji3VSy8r2yTqUCy23SFRyuqG4/R4Paj1RK0SHPwlX4cCo6XfqGlTR0FgPKZzWWFAuUchJqYFomjLAScAtJFKYA== grammars/tree-sitter-erlang.wasm WhatsApp/tree-sitter-erlang (Apache-2.0)"
  "verilog @optave/codegraph@3.11.2 sha512-Ji3VSy8r2yTqUCy23SFRyuqG4/R4Paj1RK0SHPwlX4cCo6XfqGlTR0FgPKZzWWFAuUchJqYFomjLAScAtJFKYA== grammars/tree-sitter-verilog.wasm tree-sitter/tree-sitter-verilog 1.0.0 (MIT)"
)

fetch() { # package@version integrity -> unpacked directory
  local spec=$1 integrity=$2 tgz actual dir
  tgz=$(cd "$work" && npm pack --silent "$spec" | tail -n 1)
  actual="sha512-$(openssl dgst -sha512 -binary "$work/$tgz" | base64 -w 0)"
  if [ "$actual" != "$integrity" ]; then
    echo "grammars: $spec: integrity $actual, expected $integrity" >&2
    exit 1
  fi
  dir="$work/${tgz%.tgz}"
  mkdir -p "$dir"
  tar -xzf "$work/$tgz" -C "$dir" --strip-components=1
  echo "$dir"
}

copy() { # lang package@version integrity path upstream...
  local lang=$1 spec=$2 integrity=$3 path=$4 dir
  shift 4
  echo "grammars: $lang <- npm $spec ($path)" >&2
  dir=$(fetch "$spec" "$integrity")
  cp "$dir/$path" "$out/tree-sitter-$lang.wasm"
  node -e 'const p = require(process.argv[1]);
    console.log(`tree-sitter-${process.argv[2]}.wasm: copied from ${p.name} ${p.version} (npm, ${p.license}), ${process.argv[3]}`);
    console.log(`Built from the upstream grammar ${process.argv[4]} by that package; no LICENSE file of the grammar ships in it.`);' \
    "$dir/package.json" "$lang" "$path" "$*" >"$out/LICENSE-$lang"
}

build() { # lang package@version integrity [directory] [symbol] [parser optimisation]
  local lang=$1 spec=$2 integrity=$3 dir=${4:-.} symbol=${5:-tree_sitter_$1} opt=${6:-Os} tgz actual
  echo "grammars: $lang <- npm $spec" >&2
  tgz=$(cd "$work" && npm pack --silent "$spec" | tail -n 1)
  actual="sha512-$(openssl dgst -sha512 -binary "$work/$tgz" | base64 -w 0)"
  if [ "$actual" != "$integrity" ]; then
    echo "grammars: $spec: integrity $actual, expected $integrity" >&2
    exit 1
  fi
  mkdir -p "$work/$lang"
  tar -xzf "$work/$tgz" -C "$work/$lang" --strip-components=1
  local root="$work/$lang/$dir"
  local sources=("$root/src/parser.c")
  [ -f "$root/src/scanner.c" ] && sources+=("$root/src/scanner.c")
  # As tree-sitter's CLI builds a grammar (`tree-sitter build --wasm`): a side module exporting
  # only the language function, its libc calls resolved against web-tree-sitter's runtime.
  # NDEBUG: web-tree-sitter's runtime has no `__assert_fail` for a scanner's assert().
  local link=(-s WASM=1 -s SIDE_MODULE=2 -s NODEJS_CATCH_EXIT=0 -s "EXPORTED_FUNCTIONS=[\"_$symbol\"]")
  if [ "$opt" = Os ]; then
    (cd "$root" && emcc -o "$out/tree-sitter-$lang.wasm" -Os -DNDEBUG -fno-exceptions \
      -fvisibility=hidden "${link[@]}" -I src "${sources[@]}")
  else # parser.c at $opt, the scanner at -Os (at -O0 it would import isdigit, which the runtime lacks)
    local flags=(-DNDEBUG -fno-exceptions -fvisibility=hidden -fPIC -I src) objects=()
    (cd "$root" && emcc -c "-$opt" "${flags[@]}" src/parser.c -o "$work/$lang-parser.o")
    objects+=("$work/$lang-parser.o")
    if [ -f "$root/src/scanner.c" ]; then
      (cd "$root" && emcc -c -Os "${flags[@]}" src/scanner.c -o "$work/$lang-scanner.o")
      objects+=("$work/$lang-scanner.o")
    fi
    emcc -o "$out/tree-sitter-$lang.wasm" -Os "${link[@]}" "${objects[@]}"
  fi
  local license
  license=$(ls "$work/$lang"/LICENSE* 2>/dev/null | head -n 1 || true)
  if [ -n "$license" ]; then
    cp "$license" "$out/LICENSE-$lang"
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
  read -r lang spec integrity dir symbol opt <<<"$entry"
  if [ ${#wanted[@]} -eq 0 ] || [[ " ${wanted[*]} " == *" $lang "* ]]; then
    build "$lang" "$spec" "$integrity" "${dir:-.}" "${symbol:-}" "${opt:-Os}"
  fi
done
for entry in "${PREBUILT[@]}"; do
  read -r lang spec integrity path upstream <<<"$entry"
  if [ ${#wanted[@]} -eq 0 ] || [[ " ${wanted[*]} " == *" $lang "* ]]; then
    copy "$lang" "$spec" "$integrity" "$path" "$upstream"
  fi
done
(cd "$out" && sha256sum tree-sitter-*.wasm >SHA256SUMS)
emcc --version | sed -n 1p >&2
cat "$out/SHA256SUMS"
