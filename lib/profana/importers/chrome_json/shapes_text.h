// Input shapes are shown and grouped by PyTorch as Python's str() of a list of lists
// ("[[4, 3, 16, 16], [8], []]"). Kineto writes them as JSON ("Input Dims"); this renders the raw
// JSON text the way Python would print the parsed value, with one change PyTorch 2.x makes: an
// argument that is a TensorList has an empty shape in the profiler's events (KinetoEvent.shapes(),
// hence FunctionEvent.input_shapes), even where the file records the shape of each tensor in it
// (record_concrete_inputs writes "[[[128, 128], [128]], ...]"). Its entry renders as "[]", so the
// Input Shapes column and grouping by input shape agree with PyTorch's key_averages().
#pragma once

#include <string>
#include <string_view>

namespace profana::json {

// Appends Python's str() of the JSON value in `raw` to *out. False for text that is not a
// well-formed JSON array of numbers, strings, booleans, nulls and arrays.
bool RenderPythonShapes(std::string_view raw, std::string* out);

}  // namespace profana::json
