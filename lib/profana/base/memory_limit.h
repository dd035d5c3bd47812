// The memory budget for one input (--max-memory): the most bytes of content profana holds for a
// trace, counted after gunzip. A file bigger than the budget, or a gzip stream that inflates past
// it (a "gzip bomb"), is refused with kTooLarge before the memory is spent. The imported model
// and the analysis need memory of the same order again, so the command line also caps the whole
// process at the same figure (apps/profana/process_io.h, CapProcessMemory).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "profana/base/status.h"

namespace profana {

// The default budget: half of physical memory (so the model built from the content fits beside
// it), never less than 1 GiB. 0 anywhere means no limit.
uint64_t DefaultMaxMemory();

// "0", "512M", "16G", "1.5G", "4096" (bytes); K/M/G/T are powers of 1024, an optional
// trailing "B" or "iB" is accepted. Anything else is kInvalidArgument: "TEXT: expected a size".
Result<uint64_t> ParseByteSize(std::string_view text);

// Four times `limit`, spelled as --max-memory accepts it ("800M", "2G"): what error messages
// suggest to a user whose genuine input passes the limit.
std::string SuggestedMemoryLimit(uint64_t limit);

// The error for content that passes the budget. `where` is the position text ("byte 0",
// "compressed byte 120") and `what` what crossed it ("inflates past", "is 20.0 GiB, more than").
Status TooLargeError(const std::string& name, const std::string& where, const std::string& what,
                     uint64_t limit);

}  // namespace profana
