/* Talking to pvomp-phantomd over its unix socket (protocol in
 * include/pvomp/phantom.h).  Used by the runtime's client (phantom.c), by
 * `pvomp-phantomd status` and by the tests, which compile this file in. */
#ifndef PV_PHANTOM_CONNECT_H
#define PV_PHANTOM_CONNECT_H

#include <stddef.h>
#include <stdint.h>

/* The daemon's socket: $PVOMP_PHANTOMD_SOCKET, else the default path. */
const char *pv_phantomd_socket_path(void);

/* Ask the daemon for the phantom map (op = PVOMP_PHANTOMD_OP_MAP), or to
 * probe `library` and then give the map (PVOMP_PHANTOMD_OP_REGISTER).
 * On success returns the map descriptor and sets *nr_pages; on failure
 * returns -1 with a reason in why[]. */
int pv_phantomd_request(const char *socket_path, uint32_t op, const char *library,
                        uint32_t *nr_pages, char *why, size_t why_len);

/* Map the whole array read-only; NULL (errno set) on failure. */
void *pv_phantom_map_pages(int map_fd, uint32_t nr_pages);

#endif
