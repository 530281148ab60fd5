#ifndef COURTSIDE_CZEROMQ_SHIM_H
#define COURTSIDE_CZEROMQ_SHIM_H
#include <zmq.h>
#endif
