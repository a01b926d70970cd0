# Shared by scripts/run and scripts/test: install what a fresh Debian machine lacks.
# shellcheck shell=bash

say() { printf '\033[1;36m==>\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31merror:\033[0m %s\n' "$*" >&2; exit 1; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else die "need root to run: $* (install sudo or run as root)"
  fi
}

APT_UPDATED=""
apt_install() {
  command -v apt-get >/dev/null 2>&1 || die "missing $*: install it with your package manager (this script knows apt-get only)"
  if [ -z "$APT_UPDATED" ]; then
    say "apt-get update"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    APT_UPDATED=1
  fi
  say "installing $*"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# PostgreSQL server binaries (initdb, pg_ctl, postgres) for the private cluster.
have_pg_server() {
  command -v initdb >/dev/null 2>&1 && return 0
  compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null
}
ensure_postgres() {
  have_pg_server || apt_install postgresql
  have_pg_server || die "PostgreSQL server binaries still missing after installing 'postgresql'"
}

# The bot sandbox (bubblewrap), compilers for C/C++ bots and their JSON headers, Python 3.
ensure_bot_runtime() {
  local missing=()
  command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
  command -v gcc >/dev/null 2>&1 || missing+=(gcc)
  command -v g++ >/dev/null 2>&1 || missing+=(g++)
  [ -x /usr/bin/python3 ] || missing+=(python3)
  [ -d /usr/include/nlohmann ] || missing+=(nlohmann-json3-dev)
  [ -d /usr/include/jsoncpp ] || missing+=(libjsoncpp-dev)
  # Python libraries real bots import: websocket clients (Guandan ws4py samples, Hanabi
  # clients) and numpy (Hanabi class-based bots).
  local mod pkg
  for mod in ws4py:python3-ws4py websocket:python3-websocket websockets:python3-websockets numpy:python3-numpy; do
    pkg=${mod#*:}; mod=${mod%%:*}
    /usr/bin/python3 -c "import $mod" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
}

# Headless Chromium and its WebDriver (Debian's `chromium` and `chromium-driver`, one source
# package, so their versions always match) for the real-browser tests in tests/e2e/browser.
# Never fatal: without them those tests fail with the reason in CI and are skipped elsewhere.
ensure_browser() {
  local missing=()
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  [ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
  # A font with Chinese characters, so the pages in 简体中文 are drawn (and measured at
  # 390 px) as a visitor sees them rather than as empty boxes.
  [ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || missing+=(fonts-wqy-microhei)
  if [ ${#missing[@]} -gt 0 ]; then
    ( apt_install "${missing[@]}" ) \
      || say "could not install ${missing[*]}: the browser tests will fail in CI and be skipped elsewhere"
  fi
  ensure_axe
}

# axe-core, the accessibility checker the browser tests inject into every page, from the npm
# registry into a per-version cache directory (once); the tests read its `axe.min.js` from
# there (or from $CROUPIER_AXE_JS). Keep AXE_VERSION equal to AXE_VERSION in
# tests/e2e/browser/axe.rs (a test checks). Never fatal, as for Chromium.
AXE_VERSION=4.10.3
axe_dir() { printf '%s/croupier/axe-core-%s' "${XDG_CACHE_HOME:-$HOME/.cache}" "$AXE_VERSION"; }
ensure_axe() {
  local dir
  dir=$(axe_dir)
  [ -f "$dir/node_modules/axe-core/axe.min.js" ] && return 0
  if ! command -v npm >/dev/null 2>&1; then
    ( apt_install npm ) || { say "could not install npm: the accessibility checks will fail in CI and be skipped elsewhere"; return 0; }
  fi
  say "installing axe-core@$AXE_VERSION into $dir"
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-audit --no-fund --silent "axe-core@$AXE_VERSION" >/dev/null \
    || say "could not install axe-core: the accessibility checks will fail in CI and be skipped elsewhere"
}

# A Python tool from PyPI in its own per-version virtualenv under the cache directory, made
# once: ensure_pip_venv NAME REQUIREMENT PROGRAM. Prints the virtualenv's directory.
ensure_pip_venv() {
  local name=$1 requirement=$2 program=$3
  local dir="${XDG_CACHE_HOME:-$HOME/.cache}/croupier/$name"
  if [ ! -x "$dir/bin/$program" ]; then
    /usr/bin/python3 -m venv --help >/dev/null 2>&1 && /usr/bin/python3 -c 'import ensurepip' 2>/dev/null \
      || apt_install python3-venv
    say "installing $requirement into $dir"
    rm -rf "$dir"
    /usr/bin/python3 -m venv "$dir" >&2 \
      && "$dir/bin/pip" install --quiet --disable-pip-version-check "$requirement" >&2 \
      || die "could not install $requirement into $dir"
  fi
  printf '%s\n' "$dir"
}

# kubernetes-validate (PyPI), which checks manifests against the Kubernetes API's schemas that
# it ships (no cluster, no network at check time). Prints the path of its program.
KUBERNETES_VALIDATE_VERSION=1.37.0
ensure_kubernetes_validate() {
  local dir
  dir=$(ensure_pip_venv "kubernetes-validate-$KUBERNETES_VALIDATE_VERSION" \
    "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION" kubernetes-validate) || exit 1
  printf '%s/bin/kubernetes-validate\n' "$dir"
}

# moto's server (PyPI): an S3-compatible endpoint on a local port, which the blob-store test
# starts to run `croupier blobs` and the platform against a real S3 API (no cloud account).
# Prints the virtualenv's directory (the test reads it from CROUPIER_MOTO_VENV and skips,
# saying so, when it is missing).
MOTO_VERSION=5.2.5
ensure_moto() {
  ensure_pip_venv "moto-$MOTO_VERSION" "moto[server]==$MOTO_VERSION" moto_server
}

ensure_rust() {
  command -v cargo >/dev/null 2>&1 || die "cargo not found: install the Rust toolchain (https://rustup.rs) first"
}

# rustfmt and clippy, for scripts/test's format and lint checks (rustup installs them).
ensure_rust_lints() {
  local c
  for c in rustfmt clippy; do
    if ! cargo "${c/rustfmt/fmt}" --version >/dev/null 2>&1; then
      command -v rustup >/dev/null 2>&1 || die "cargo $c is missing and rustup is not there to add it"
      say "installing the $c component"
      rustup component add "$c" || die "could not install the $c component"
    fi
  done
}

# Unless DATABASE_URL is set: starts a private PostgreSQL in a temporary directory with the
# built `croupier db` (stopped and removed when the calling script exits) and exports its
# DATABASE_URL.
use_private_database_unless_set() {
  [ -z "${DATABASE_URL:-}" ] || return 0
  db_pid=""
  db_dir=$(mktemp -d /tmp/croupier-test-db.XXXXXX)
  chmod 0755 "$db_dir"
  trap 'if [ -n "$db_pid" ]; then kill -TERM "$db_pid" 2>/dev/null || true; wait "$db_pid" 2>/dev/null || true; fi; rm -rf "$db_dir"' EXIT
  local target_dir
  target_dir=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
  "${target_dir:-target}/debug/croupier" db --data-dir "$db_dir/data" --url-file "$db_dir/url" >/dev/null &
  db_pid=$!
  for _ in $(seq 1 120); do [ -s "$db_dir/url" ] && break; kill -0 "$db_pid" 2>/dev/null || die "the test PostgreSQL did not start"; sleep 0.5; done
  [ -s "$db_dir/url" ] || die "the test PostgreSQL did not start within 60 s"
  DATABASE_URL=$(cat "$db_dir/url")
  export DATABASE_URL
  say "private test PostgreSQL: $DATABASE_URL"
}
