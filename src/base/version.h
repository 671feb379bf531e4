/* pvomp's own identification (version.c): exported, so that tests and
 * tools can prove which runtime a program really loaded; the trace log's
 * header and the OMPT runtime string carry the version too. */
#ifndef PV_BASE_VERSION_H
#define PV_BASE_VERSION_H

const char *pvomp_version(void);
/* Path of the shared object pvomp was loaded from ("?" if unknown). */
const char *pvomp_runtime_path(void);

#endif
