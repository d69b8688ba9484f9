#!/usr/bin/env bash
# What the tests use besides Python packages: GNU Go (the oracle for ladders
# and scoring, and the match opponent) and @sabaki/gtp (Sabaki's own GTP
# client, driven by tests/test_gtp.py).  Each step only warns when it cannot
# run; the tests that need the missing piece then skip and say why.
set -u
case "${1:-}" in
    -h|--help)
        echo "usage: tools/setup_test_deps.sh  (make test runs it)"
        echo "Installs what the tests need besides Python packages: GNU Go, Lizzie, Xvfb,"
        echo "xdotool and ImageMagick with apt-get (as root only), and @sabaki/gtp with npm ci"
        echo "in tests/sabaki."
        exit 0;;
esac
cd "$(dirname "$0")/.."

if ! command -v gnugo >/dev/null 2>&1 && [ ! -x /usr/games/gnugo ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        (apt-get update -qq && apt-get install -y -qq gnugo >/dev/null) \
            || echo "warning: could not install gnugo; its tests will be skipped" >&2
    else
        echo "warning: gnugo not found (apt-get install gnugo); its tests will be skipped" >&2
    fi
fi

# Lizzie (Debian's 0.7.4, with Java), Xvfb, xdotool and ImageMagick's import: the GUI tests
# (tests/test_lizzie.py, and tests/test_gogui.py with GoGui from ../shared/tools/gogui) start
# the GUI on a virtual screen, click a move and keep a screenshot.
if [ ! -f /usr/share/java/lizzie.jar ] || ! command -v Xvfb >/dev/null 2>&1 \
        || ! command -v xdotool >/dev/null 2>&1 || ! command -v import >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            lizzie xvfb xdotool imagemagick >/dev/null) \
            || echo "warning: could not install Lizzie/Xvfb; the Lizzie test will be skipped" >&2
    else
        echo "warning: Lizzie, Xvfb, xdotool or ImageMagick missing" \
             "(apt-get install lizzie xvfb xdotool imagemagick); the Lizzie test will be skipped" >&2
    fi
fi

# Pinned by package-lock.json, hence `npm ci`; a tree that already matches
# the lock is left alone (npm ci would delete it first).
dir=tests/sabaki
if ! command -v npm >/dev/null 2>&1; then
    echo "warning: npm not found; the @sabaki/gtp test will be skipped" >&2
elif ! (cd "$dir" && npm ls --silent >/dev/null 2>&1); then
    if ! (cd "$dir" && timeout 300 npm ci --no-audit --no-fund \
            --fetch-retries=1 --fetch-timeout=30000 >/dev/null); then
        echo "warning: npm ci failed in $dir (registry unreachable?);" \
             "the @sabaki/gtp test will be skipped" >&2
    fi
fi
exit 0
