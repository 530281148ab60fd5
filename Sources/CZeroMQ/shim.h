#ifndef COURTSIDE_CZEROMQ_SHIM_H
#define COURTSIDE_CZEROMQ_SHIM_H
#include <zmq.h>
/* Stable in libzmq since 4.3 but declared only under ZMQ_BUILD_DRAFT_API; Debian's 4.3.4 accepts it. */
#ifndef ZMQ_ZAP_ENFORCE_DOMAIN
#define ZMQ_ZAP_ENFORCE_DOMAIN 93
#endif
#endif
