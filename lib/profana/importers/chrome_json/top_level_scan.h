// Scalar scanning of the few bytes of a Chrome trace outside its events array: the opening of the
// object (or bare array) up to the '[' of "traceEvents", and what follows the array's ']'. The
// object's other members are collected as text ("key":value,...) to be parsed as one small
// document; the streaming importer only needs to know where things are, and leaves every doubt
// (escaped keys, a second "traceEvents", odd tokens) to the whole-file importer.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace profana::json {

enum class TopScan { kOk, kNeedMore, kUnsupported };

struct EventsStart {
  bool is_object = false;   // {"traceEvents": [...]} rather than a bare array
  size_t events_begin = 0;  // just after the '[' that opens the events
  std::string members;      // the object's members before "traceEvents", comma-separated
};

// text: the input from its first byte (after a byte order mark) as far as it has been read.
TopScan FindEventsStart(std::string_view text, EventsStart* out);

// text: everything after the events array's ']' to the end of the input.
TopScan ReadAfterEvents(std::string_view text, bool is_object, std::string* members);

bool IsJsonSpace(char c);

}  // namespace profana::json
