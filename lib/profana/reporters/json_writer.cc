#include "profana/reporters/json_writer.h"

#include <algorithm>
#include <cmath>

#include "fmt/format.h"
#include "profana/base/json_string.h"

namespace profana::report {

void JsonWriter::Escape(std::string_view s, std::string* out) { AppendJsonString(s, out); }

void JsonWriter::Newline() {
  if (!pretty_) return;
  out_->push_back('\n');
  // Indentation stops growing at 64 levels: a tree nested 100,000 deep stays linear in size.
  out_->append(std::min<size_t>(has_items_.size(), 64) * 2, ' ');
}

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!has_items_.empty()) {
    if (has_items_.back()) out_->push_back(',');
    has_items_.back() = true;
    Newline();
  }
}

JsonWriter& JsonWriter::BeginObject() {
  BeforeValue();
  out_->push_back('{');
  has_items_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::EndObject() {
  bool items = has_items_.back();
  has_items_.pop_back();
  if (items) Newline();
  out_->push_back('}');
  if (has_items_.empty() && pretty_) out_->push_back('\n');
  return *this;
}

JsonWriter& JsonWriter::BeginArray() {
  BeforeValue();
  out_->push_back('[');
  has_items_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::EndArray() {
  bool items = has_items_.back();
  has_items_.pop_back();
  if (items) Newline();
  out_->push_back(']');
  if (has_items_.empty() && pretty_) out_->push_back('\n');
  return *this;
}

JsonWriter& JsonWriter::Key(std::string_view key) {
  BeforeValue();
  Escape(key, out_);
  out_->append(pretty_ ? ": " : ":");
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::String(std::string_view value) {
  BeforeValue();
  Escape(value, out_);
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t value) {
  BeforeValue();
  out_->append(fmt::format("{}", value));
  return *this;
}

JsonWriter& JsonWriter::UInt(uint64_t value) {
  BeforeValue();
  out_->append(fmt::format("{}", value));
  return *this;
}

JsonWriter& JsonWriter::Double(double value) {
  BeforeValue();
  if (!std::isfinite(value))
    out_->append("null");
  else
    out_->append(fmt::format("{}", value));
  return *this;
}

JsonWriter& JsonWriter::Micros(int64_t ns) {
  BeforeValue();
  // Integer arithmetic: "245", "245.123", "-0.5". Never through a double.
  int64_t whole = ns / 1000, frac = ns % 1000;
  if (frac < 0) frac = -frac;
  std::string text = fmt::format("{}{}", ns < 0 && whole == 0 ? "-" : "", whole);
  if (frac) {
    std::string digits = fmt::format("{:03d}", frac);
    while (digits.back() == '0') digits.pop_back();
    text += "." + digits;
  }
  out_->append(text);
  return *this;
}

JsonWriter& JsonWriter::Bool(bool value) {
  BeforeValue();
  out_->append(value ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::Null() {
  BeforeValue();
  out_->append("null");
  return *this;
}

void WriteJobHeader(JsonWriter& w, std::string_view schema, const std::vector<std::string>& inputs,
                    const std::vector<int64_t>& ranks, std::string_view view) {
  w.BeginObject();
  w.Key("schema").String(schema);
  w.Key("inputs").BeginArray();
  for (const std::string& in : inputs) w.String(in);
  w.EndArray();
  w.Key("ranks").BeginArray();
  for (int64_t rank : ranks) w.Int(rank);
  w.EndArray();
  if (!view.empty()) w.Key("view").String(view);
  w.Key("unit").String("us");
}

}  // namespace profana::report
