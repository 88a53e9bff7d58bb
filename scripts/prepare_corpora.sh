#!/usr/bin/env bash
# Prepare the real-world benchmark corpora under corpora/ (never committed).
# Sources: npm tarballs (npm registry) and Debian binary packages that ship source
# (apt-get download + dpkg-deb -x). Idempotent: a corpus already present is kept.
#
#   bash scripts/prepare_corpora.sh [name ...]     # default: all
#
# Corpora: express, typescript, gin, gostd, django
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD/corpora"
mkdir -p "$root/.dl"

npm_corpus() { # name package@version
  local name=$1 spec=$2
  [ -d "$root/$name" ] && return 0
  echo "corpora: $name <- npm $spec" >&2
  local tgz
  tgz=$(cd "$root/.dl" && npm pack --silent "$spec" | tail -n 1)
  mkdir -p "$root/$name.tmp"
  tar -xzf "$root/.dl/$tgz" -C "$root/$name.tmp" --strip-components=1
  mv "$root/$name.tmp" "$root/$name"
}

deb_corpus() { # name debian-package subdir-inside-package
  local name=$1 pkg=$2 sub=$3
  [ -d "$root/$name" ] && return 0
  echo "corpora: $name <- debian $pkg" >&2
  (cd "$root/.dl" && apt-get download "$pkg" >/dev/null)
  local deb
  deb=$(ls "$root/.dl/${pkg}"_*.deb | head -n 1)
  rm -rf "$root/$name.x"
  dpkg-deb -x "$deb" "$root/$name.x"
  mv "$root/$name.x/$sub" "$root/$name"
  rm -rf "$root/$name.x"
}

names=("$@")
[ ${#names[@]} -eq 0 ] && names=(express typescript gin gostd django)
for n in "${names[@]}"; do
  case "$n" in
    express) npm_corpus express express@5.1.0 ;;
    typescript) npm_corpus typescript typescript@5.9.3 ;;
    gin) deb_corpus gin golang-github-gin-gonic-gin-dev usr/share/gocode/src/github.com/gin-gonic/gin ;;
    gostd) deb_corpus gostd golang-1.19-src usr/share/go-1.19/src ;;
    django) deb_corpus django python3-django usr/lib/python3/dist-packages/django ;;
    *) echo "corpora: unknown corpus: \"$n\"" >&2; exit 2 ;;
  esac
done
for n in "${names[@]}"; do
  printf '%-12s %8s files %8s\n' "$n" "$(find "$root/$n" -type f | wc -l)" "$(du -sh "$root/$n" | cut -f1)"
done
