#include "profana/base/json_writer.h"

#include <algorithm>
#include <cmath>

#include "fmt/format.h"
#include "profana/base/json_string.h"

namespace profana {

void JsonWriter::Newline(size_t indent) {
  out_->push_back('\n');
  out_->append(indent, ' ');
}

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  bool first = true;
  if (!has_items_.empty()) {
    first = !has_items_.back();
    if (!first) out_->push_back(',');
    has_items_.back() = true;
    // Indentation stops growing at 64 levels: a tree nested 100,000 deep stays linear in size.
    if (layout_ == JsonLayout::kIndented) Newline(std::min<size_t>(has_items_.size(), 64) * 2);
  }
  if (break_ >= 0) {
    Newline(static_cast<size_t>(break_));
    break_ = -1;
  } else if (layout_ == JsonLayout::kSpaced && !first) {
    out_->push_back(' ');
  }
}

void JsonWriter::EndContainer(char close) {
  bool items = has_items_.back();
  has_items_.pop_back();
  if (items && layout_ == JsonLayout::kIndented)
    Newline(std::min<size_t>(has_items_.size(), 64) * 2);
  out_->push_back(close);
  if (has_items_.empty() && layout_ != JsonLayout::kCompact) out_->push_back('\n');
}

JsonWriter& JsonWriter::BeginObject() {
  BeforeValue();
  out_->push_back('{');
  has_items_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::EndObject() {
  EndContainer('}');
  return *this;
}

JsonWriter& JsonWriter::BeginArray() {
  BeforeValue();
  out_->push_back('[');
  has_items_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::EndArray() {
  EndContainer(']');
  return *this;
}

JsonWriter& JsonWriter::Break(int indent) {
  break_ = indent;
  return *this;
}

JsonWriter& JsonWriter::Key(std::string_view key) {
  BeforeValue();
  AppendJsonString(key, out_);
  out_->append(layout_ == JsonLayout::kCompact ? ":" : ": ");
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::String(std::string_view value) {
  BeforeValue();
  AppendJsonString(value, out_);
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t value) {
  BeforeValue();
  fmt::format_int text(value);
  out_->append(text.data(), text.size());
  return *this;
}

JsonWriter& JsonWriter::UInt(uint64_t value) {
  BeforeValue();
  fmt::format_int text(value);
  out_->append(text.data(), text.size());
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

}  // namespace profana
