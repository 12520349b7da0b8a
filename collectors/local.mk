# collectors/local.mk -- included by the top Makefile.am
# Each collector is a libtool module in pkglibdir exporting only
# ph_collector_entry; the same sources also build profhub's static table
# (libphcoll.la, with the loader), so listings and unit tests work without
# dlopen.  The table keeps descriptors only: profhub loads libunwind and
# PAPI (whose start-up alone costs ~15 ms) only through a plugin.  Plugins are built without sanitizers: they run inside targets.
PH_PLUGIN_CFLAGS = $(WARN_CFLAGS) -fvisibility=hidden
PH_PLUGIN_LDFLAGS = -module -avoid-version -shared -no-undefined \
	-export-symbols-regex '^ph_collector_entry$$'
pkglib_LTLIBRARIES += collectors/pcsamp.la collectors/usertime.la \
	collectors/hwc.la
collectors_pcsamp_la_SOURCES = collectors/pcsamp.c collectors/collector.h \
	collectors/coll_priv.h
collectors_pcsamp_la_CFLAGS = $(PH_PLUGIN_CFLAGS)
collectors_pcsamp_la_LDFLAGS = $(PH_PLUGIN_LDFLAGS)
collectors_usertime_la_SOURCES = collectors/usertime.c collectors/collector.h \
	collectors/coll_priv.h
collectors_usertime_la_CFLAGS = $(PH_PLUGIN_CFLAGS) $(LIBUNWIND_CFLAGS)
collectors_usertime_la_LDFLAGS = $(PH_PLUGIN_LDFLAGS)
collectors_usertime_la_LIBADD = $(LIBUNWIND_LIBS)
collectors_hwc_la_SOURCES = collectors/hwc.c collectors/collector.h \
	collectors/coll_priv.h
collectors_hwc_la_CFLAGS = $(PH_PLUGIN_CFLAGS) $(PAPI_CFLAGS)
collectors_hwc_la_LDFLAGS = $(PH_PLUGIN_LDFLAGS)
collectors_hwc_la_LIBADD = $(PAPI_LIBS) -lpthread

noinst_LTLIBRARIES += libphcoll.la
libphcoll_la_SOURCES = collectors/loader.c collectors/loader.h \
	collectors/plugin_file.c collectors/validate.c collectors/validate.h \
	collectors/builtin.c collectors/pcsamp.c collectors/usertime.c \
	collectors/hwc.c
libphcoll_la_CPPFLAGS = $(AM_CPPFLAGS) -DPH_COLLECTOR_BUILTIN
libphcoll_la_CFLAGS = $(AM_CFLAGS)
libphcoll_la_LIBADD = $(DL_LIBS) $(LIBELF_LIBS)
profhub_LDADD += libphcoll.la
