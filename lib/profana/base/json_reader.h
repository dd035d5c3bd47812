// JsonReader: reads back the JSON files profana takes as input besides traces (summary files,
// budgets), parsed by simdjson, and keeps the first fault met, named by where it is: a path in the
// document ("steps[2].devices[0].idle_ns: expected an integer") or a place in the text ("byte 57
// (line 3, column 12): ..."). Later reads after a fault return empty values and add nothing, so a
// reader checks ok() where it would otherwise look into what it read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "simdjson.h"

namespace profana {

class JsonReader {
 public:
  using element = simdjson::dom::element;
  using object = simdjson::dom::object;
  using array = simdjson::dom::array;

  // `text` is the document as parsed (for places; empty when faults are named by path only);
  // `skipped` bytes came before it in the file (a byte order mark) and count in places.
  explicit JsonReader(std::string_view text = {}, size_t skipped = 0)
      : text_(text), skipped_(skipped) {}

  bool ok() const { return fault_.empty(); }
  const std::string& fault() const { return fault_; }
  // Keeps the first fault: "where: what".
  void Fail(std::string_view where, std::string_view what);
  // Keeps the first fault, at a place in the text: "byte N (line L, column C): what" (columns
  // count characters, not the continuation bytes of UTF-8), or `what` alone when `at` is null or
  // outside the text.
  void FailAt(const char* at, std::string_view what);

  // Where an On-Demand value starts, and where a document's reading stopped (at a syntax error);
  // null when simdjson cannot say.
  static const char* Where(simdjson::ondemand::value& v);
  static const char* Where(simdjson::ondemand::document& doc);

  // The fields of a DOM object, named where.key in faults. A missing field fails ("where: no
  // \"key\""), as does a value of another type.
  element Field(object o, std::string_view key, const std::string& where);
  int64_t Int(object o, std::string_view key, const std::string& where);
  double Double(object o, std::string_view key, const std::string& where);
  bool Bool(object o, std::string_view key, const std::string& where);
  std::string_view String(object o, std::string_view key, const std::string& where);
  array Array(object o, std::string_view key, const std::string& where);
  object Object(element e, const std::string& where);
  // A boolean that may be left out (false then).
  bool OptionalBool(object o, std::string_view key, const std::string& where);
  // A count that may be left out (0 then).
  uint64_t OptionalUInt(object o, std::string_view key, const std::string& where);
  // An integer >= 0, or null (-1).
  int64_t OptionalCount(object o, std::string_view key, const std::string& where);
  // [a, b] of integers.
  std::pair<int64_t, int64_t> Pair(element e, const std::string& where);

 private:
  std::string_view text_;
  size_t skipped_ = 0;
  std::string fault_;
};

}  // namespace profana
