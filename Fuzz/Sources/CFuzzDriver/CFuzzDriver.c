#include "CFuzzDriver.h"

// Provided by libFuzzer (clang_rt.fuzzer), which -sanitize=fuzzer links in.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int courtside_fuzz_run(int argc, char **argv, int (*test_one_input)(const uint8_t *data, size_t size)) {
    return LLVMFuzzerRunDriver(&argc, &argv, test_one_input);
}
