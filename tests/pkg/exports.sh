#!/bin/sh
# exports.sh -- the library's contract (LIBRARY.md): libprofhub.so exports
# ph_* symbols only, its soname is the one LIBRARY.md names, and every
# exported function is declared PH_API in an installed header.
. "$top_srcdir/tests/e2e/lib.sh"

need_program nm readelf

lib=$top_builddir/.libs/libprofhub.so
[ -f "$lib" ] || { echo "ERROR: $lib is not built"; exit 99; }

nm -D --defined-only "$lib" | awk '{ print $NF }' | sort >"$tmp/exported"
checks=4   # the four checks below
# A library that exports next to nothing means the listing went wrong.
[ "$(grep -c '^ph_' "$tmp/exported")" -ge 20 ] ||
    fail "only $(wc -l <"$tmp/exported") dynamic symbols: listing broken?"
grep -qx ph_load "$tmp/exported" || fail "ph_load is not exported"
if grep -v '^ph_' "$tmp/exported" >"$tmp/stray"; then
    fail "exported symbols outside ph_*:"
    sed 's/^/  /' "$tmp/stray"
fi

soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
grep -q "soname is \`$soname\`" "$top_srcdir/LIBRARY.md" ||
    fail "soname $soname is not the one LIBRARY.md names"

# Declared in an installed header (ph_NAME followed by "(" after PH_API).
headers=$(sed -n 's/^pkginclude_HEADERS *+*= *//p' "$top_srcdir"/Makefile.am \
          "$top_srcdir"/*/local.mk | tr ' ' '\n' | grep '\.h$')
[ -n "$headers" ] || { echo "ERROR: no pkginclude_HEADERS found"; exit 99; }
(cd "$top_srcdir" && cat $headers) | tr '\n' ' ' |
    grep -o 'PH_API[^;{(]*(' | grep -o 'ph_[A-Za-z0-9_]*[ ]*($' |
    tr -d ' (' | sort -u >"$tmp/declared"
comm -23 "$tmp/exported" "$tmp/declared" | grep '^ph_' >"$tmp/undeclared" &&
    { fail "exported but not declared in an installed header:";
      sed 's/^/  /' "$tmp/undeclared"; }

finish
