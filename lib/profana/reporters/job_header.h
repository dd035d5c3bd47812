// The header every whole-job JSON report (steps, kernels, collectives) opens with.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "profana/base/json_writer.h"

namespace profana::report {

// Opens the document and writes its header: "schema", "inputs" (as given on the command line),
// "ranks" (those read), "view" when not empty, and "unit" (us). The caller adds its own keys and
// closes the object.
void WriteJobHeader(JsonWriter& w, std::string_view schema, const std::vector<std::string>& inputs,
                    const std::vector<int64_t>& ranks, std::string_view view = {});

}  // namespace profana::report
