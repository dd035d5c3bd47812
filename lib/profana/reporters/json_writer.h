// A small streaming JSON writer: correct escaping, commas handled, numbers as numbers.
// Reporters build documents with it; it never allocates per value beyond the output string.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace profana::report {

class JsonWriter {
 public:
  explicit JsonWriter(std::string* out, bool pretty = true) : out_(out), pretty_(pretty) {}

  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  JsonWriter& Key(std::string_view key);
  JsonWriter& String(std::string_view value);
  JsonWriter& Int(int64_t value);
  JsonWriter& UInt(uint64_t value);
  JsonWriter& Double(double value);  // shortest round-trip text; non-finite as null
  JsonWriter& Micros(int64_t ns);    // nanoseconds as microseconds, exact to the nanosecond
  JsonWriter& Bool(bool value);
  JsonWriter& Null();

  static void Escape(std::string_view s, std::string* out);

 private:
  void BeforeValue();
  void Newline();

  std::string* out_;
  bool pretty_;
  std::vector<bool> has_items_;  // per open container
  bool after_key_ = false;
};

// Opens the document of a whole-job command (steps, kernels, collectives) and writes its
// header: "schema", "inputs" (as given on the command line), "ranks" (those read), "view" when
// not empty, and "unit" (us). The caller adds its own keys and closes the object.
void WriteJobHeader(JsonWriter& w, std::string_view schema, const std::vector<std::string>& inputs,
                    const std::vector<int64_t>& ranks, std::string_view view = {});

}  // namespace profana::report
