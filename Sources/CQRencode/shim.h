#ifndef COURTSIDE_CQRENCODE_SHIM_H
#define COURTSIDE_CQRENCODE_SHIM_H
#include <qrencode.h>
#endif
