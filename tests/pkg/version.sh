#!/bin/sh
# version.sh -- profhub --version names the release of configure.ac and
# the versions of the formats it writes, and they agree with the files:
# the callgrind "version:" line of a converted file, the protobuf packages
# of importers/*.proto; NEWS and debian/changelog name the same release.
. "$top_srcdir/tests/e2e/lib.sh"

release=$(sed -n 's/^AC_INIT(\[profhub\], \[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")
[ -n "$release" ] || { echo "ERROR: no version in configure.ac"; exit 99; }

expect_status 0 "$PROFHUB" --version
cp "$tmp/out" "$tmp/version"
[ "$(head -1 "$tmp/version")" = "profhub $release" ] ||
    fail "first line is \"$(head -1 "$tmp/version")\", want \"profhub $release\""
[ ! -s "$tmp/err" ] || fail "--version wrote on stderr"

# callgrind: the version --version names is the one the writer writes.
said=$(sed -n 's/^ *callgrind *format version \([0-9]*\)$/\1/p' "$tmp/version")
expect_status 0 "$PROFHUB" convert "$SAMPLES/pprof/gowork.cpu.pb.gz" \
    -o "$tmp/out.callgrind"
written=$(sed -n 's/^version: *//p' "$tmp/out.callgrind")
[ -n "$said" ] && [ "$said" = "$written" ] ||
    fail "--version says callgrind version '$said', the writer writes '$written'"

# pprof and drcctprof: the schema's protobuf package, as compiled in.
for f in pprof drcctprof; do
    pkg=$(sed -n 's/^package \(.*\);$/\1/p' "$top_srcdir/importers/$f.proto")
    grep -q "^  $f .*$pkg" "$tmp/version" ||
        fail "--version has no $f line naming $pkg"
done

# NEWS: the top section is this release; the Debian package has its version.
news=$(sed -n 's/^\([0-9][0-9.]*\) .*/\1/p' "$top_srcdir/NEWS" | head -1)
[ "$news" = "$release" ] || fail "NEWS's top section is '$news', not $release"
deb=$(sed -n '1s/^profhub (\([^)-]*\)\(-[^)]*\)\{0,1\}).*/\1/p' \
      "$top_srcdir/debian/changelog")
[ "$deb" = "$release" ] || fail "debian/changelog is at '$deb', not $release"

finish
