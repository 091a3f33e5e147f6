#pragma once
// Hot loops are compiled for AVX-512 and AVX2 as well as the baseline; the best one is picked
// when the program starts. Off under clang and AddressSanitizer, which do not support it here.

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define CLOTH_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CLOTH_VECTOR_CLONES
#endif
