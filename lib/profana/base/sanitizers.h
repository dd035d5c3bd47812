// Whether AddressSanitizer is built in (clang spells it __has_feature, gcc __SANITIZE_ADDRESS__).
// It replaces malloc, so glibc's heap tuning does not apply, and it reserves shadow memory far
// past any cap on the process's memory.
#pragma once

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PROFANA_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(PROFANA_ASAN)
#define PROFANA_ASAN 1
#endif

namespace profana {
#if defined(PROFANA_ASAN)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
}  // namespace profana
