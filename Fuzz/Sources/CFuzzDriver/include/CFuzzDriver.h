#ifndef COURTSIDE_FUZZ_DRIVER_H
#define COURTSIDE_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer's driver (flags, corpus, mutations) over `test_one_input`.
///
/// SwiftPM renames the `main` of an executable target to `<Module>_main` and points `main` at it,
/// so libFuzzer's own `main` is never linked in: each fuzz target has a Swift `@main` that calls
/// this instead, which is what `LLVMFuzzerRunDriver` exists for.
int courtside_fuzz_run(int argc, char **argv, int (*test_one_input)(const uint8_t *data, size_t size));

#endif
