# debian.mk -- included by the top Makefile.am: ships debian/ in the
# tarball and builds the Debian packages with `make deb`.
EXTRA_DIST += debian.mk debian/changelog debian/control debian/copyright \
	debian/rules debian/source/format debian/profhub.install \
	debian/libprofhub0.install \
	debian/libprofhub-dev.install debian/libprofhub-dev.docs \
	debian/libprofhub0.symbols

# `make deb` builds from a clean tree: the tarball of `make dist`, unpacked
# in deb/, so nothing of the build in this folder leaks into the packages.
# The .deb files land in deb/.  Packaging tools it needs (not installed by
# setup.sh): apt-get install dpkg-dev debhelper lintian.
# DEB_BUILD_OPTIONS=nocheck skips make check inside the package build.
PH_DEB_TOOLS = dpkg-buildpackage:dpkg-dev dh:debhelper lintian:lintian
deb: dist-gzip
	@for t in $(PH_DEB_TOOLS); do \
	  command -v $${t%%:*} >/dev/null 2>&1 || { \
	    echo "make deb: $${t%%:*} not found: apt-get install $${t##*:}" >&2; \
	    exit 1; }; \
	done
	rm -rf deb && mkdir deb
	tar -C deb -xzf $(distdir).tar.gz
	cd deb/$(distdir) && dpkg-buildpackage -us -uc -b
	lintian --fail-on error,warning deb/*.changes
	@ls deb/*.deb
.PHONY: deb
clean-local: clean-deb
clean-deb:
	rm -rf deb
.PHONY: clean-deb
