/* Messages on stderr, one line each, prefixed "pvomp: ".  A warning is for
 * bad input the program survives (the runtime goes on with a default);
 * pv_fatal only for an impossible internal state. */
#ifndef PV_BASE_MESSAGE_H
#define PV_BASE_MESSAGE_H

__attribute__((noreturn, format(printf, 1, 2))) void pv_fatal(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void pv_warn(const char *fmt, ...);

#endif
