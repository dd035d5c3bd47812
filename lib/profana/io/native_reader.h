// Reads profana's native binary file (docs/native-format.md) into a Trace. No per-event parsing:
// the reader checks the header, the section table (bounds, overlaps, checksums), hands each
// column to the model, then checks every id against its table. A damaged file is never trusted:
// every failure is a Status naming the file, the byte or section, and what.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "profana/base/status.h"
#include "profana/model/function_event_index.h"
#include "profana/model/trace.h"

namespace profana::native {

bool SniffNative(std::string_view first_bytes);

// The trace, and the function event index when the file has one of this index version. `name` is
// what messages call the input. With `backing` (what keeps `bytes` alive and unchanged: the file's
// mapping), the columns view `bytes` in place and the trace and the index hold on to `backing`;
// without it each column is copied.
Result<LoadedTrace> ReadNative(std::string_view bytes, const std::string& name,
                               std::shared_ptr<const void> backing = nullptr);

// The invariants a Trace from any native source must satisfy before a pass may read it: ids in
// range, stack trie well formed (parents before children), events in (start, -end) order.
// Errors say "section <table>.<column> row N: ...".
Status ValidateTables(const Trace& trace);
// The function event index's invariants (with the trace's tables already valid): column sizes, ids
// in range, parents before children, child and kernel lists well formed. Errors say
// "section function_index.<column> row N: ...".
Status ValidateFunctionIndex(const Trace& trace, const FunctionEventIndex& index);

}  // namespace profana::native
