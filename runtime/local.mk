# runtime/local.mk -- included by the top Makefile.am
# The runtime preloaded into recorded programs (profhub record).  No
# sanitizers: it runs inside targets that were not built with them.
pkglib_LTLIBRARIES += runtime/libprofhub-rt.la
runtime_libprofhub_rt_la_SOURCES = runtime/rt_priv.h runtime/expfmt.h \
	runtime/rt_init.c runtime/rt_thread.c runtime/rt_blob.c \
	runtime/rt_maps.c runtime/rt_interpose.c runtime/rt_signal.c \
	collectors/validate.c
runtime_libprofhub_rt_la_CFLAGS = $(WARN_CFLAGS) -fvisibility=hidden \
	$(ZLIB_CFLAGS) -pthread
runtime_libprofhub_rt_la_LDFLAGS = -module -avoid-version -shared \
	-no-undefined
runtime_libprofhub_rt_la_LIBADD = $(ZLIB_LIBS) $(DL_LIBS) -lpthread
EXTRA_DIST += runtime/FORMAT.md
