/* Messages on stderr, one line each, prefixed "pvomp: ".  A warning is for
 * bad input or a failure the program survives (it goes on with a default,
 * or without the part that failed); a note says what the runtime did when
 * asked (a trace snapshot written, a verbose report); pv_fatal only for an
 * impossible internal state. */
#ifndef PV_BASE_MESSAGE_H
#define PV_BASE_MESSAGE_H

__attribute__((noreturn, format(printf, 1, 2))) void pv_fatal(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void pv_warn(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void pv_note(const char *fmt, ...);

#endif
