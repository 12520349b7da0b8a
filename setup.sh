#!/bin/sh
# setup.sh -- the README's first command: install what is missing on Debian 12
# (build dependencies and the peer tools the tests compare against), build
# profhub, and run its main job on a bundled sample.
set -eu
cd "$(dirname "$0")"

# Build: compiler, Autotools, libraries.  Tests: CUnit and the peers
# (valgrind, binutils' gprof, Go's pprof), python3 and python3-yaml for
# the e2e parsers (the YAML report is read back),
# hyperfine and GNU time for `make bench`; zsh to test the completion
# script; the third-party callgrind writers that samples/regen.sh runs and
# the tests compare with (PHP with Xdebug, pyprof2calltree,
# kcachegrind-converters with Perl's Devel::DProf and its dprofpp);
# Graphviz for draw callgraph, Chromium and its WebDriver for the browser
# test of the pictures.
PKGS="build-essential autoconf automake libtool pkg-config git
libprotobuf-c-dev protobuf-c-compiler zlib1g-dev libdeflate-dev libyaml-dev
libelf-dev libdwarf-dev libunwind-dev libpapi-dev libcunit1-dev
valgrind binutils golang-go python3 python3-yaml hyperfine time zsh
php8.2-cli php8.2-xdebug pyprof2calltree kcachegrind-converters
libdevel-dprof-perl graphviz chromium chromium-driver"

missing=
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
        missing="$missing $p"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" -eq 0 ]; then
        echo "setup: installing:$missing"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        # shellcheck disable=SC2086
        apt-get install -y -qq --no-install-recommends $missing >/dev/null
    else
        echo "setup: missing packages; run as root:" >&2
        echo "  apt-get install -y$missing" >&2
        exit 1
    fi
fi

[ -x configure ] || autoreconf -fi
[ -f Makefile ] || ./configure
make -j"$(nproc)"

# The main job on a bundled sample: a summary, then a conversion.
sample=samples/callgrind/chain.default.out
./profhub summary --top 10 "$sample"
./profhub convert "$sample" -o chain.pb.gz
./profhub info chain.pb.gz
