// Floor 2: streaming On-Demand parse with bounded memory. Reads the file in 4 MiB chunks into one
// reused buffer, finds where whole event objects end with a string/escape-aware brace-depth
// scanner, and parses each run of whole events as its own document "[ev,ev,...]" with one reused
// parser. Prints the same line as floor_whole. Usage: floor_stream TRACE.json (plain JSON only)
#include <simdjson.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

using namespace simdjson;

static constexpr size_t kChunk = 4 << 20;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: floor_stream TRACE.json\n");
    return 2;
  }
  FILE* f = std::fopen(argv[1], "rb");
  if (!f) {
    std::perror(argv[1]);
    return 1;
  }
  // Data lives in buf[1, len): buf[0] is kept for the '[' that opens a batch, and one byte past
  // the data for its ']', followed by simdjson's padding.
  std::vector<char> buf(1 + kChunk + 1 + SIMDJSON_PADDING);
  auto room = [&] { return buf.size() - SIMDJSON_PADDING - 1; };
  size_t len = 1;          // one past the last byte held
  size_t scan = 1;         // next byte for the scanner
  size_t batch_begin = 0;  // '{' of the oldest event not yet parsed (0: none)
  size_t open_begin = 0;   // '{' of the event being scanned
  size_t batch_end = 0;    // one past the '}' of the last whole event
  int depth = 0;           // nesting depth, counted from the top-level object
  bool in_str = false, in_events = false, done = false;
  std::string last_key;  // last depth-1 string, to recognise "traceEvents": [
  size_t key_begin = 0;

  ondemand::parser parser;
  std::unordered_map<std::string, double> dur_by_name;
  size_t events = 0;
  double dur_sum = 0;

  while (!done) {
    if (room() - len < kChunk / 2) buf.resize(buf.size() + kChunk);  // a huge event: grow
    size_t got = std::fread(buf.data() + len, 1, room() - len, f);
    if (got == 0) break;
    len += got;
    while (scan < len && !done) {
      if (in_str) {
        // Jump to the next quote; it closes the string unless an odd run of backslashes precedes
        // it. The run never reaches past the opening quote, which is still in the buffer.
        const char* q = static_cast<const char*>(std::memchr(&buf[scan], '"', len - scan));
        if (!q) {
          scan = len;
          break;
        }
        scan = q - buf.data();
        size_t run = 0;
        while (buf[scan - 1 - run] == '\\') ++run;
        if (run % 2 == 0) {
          in_str = false;
          if (!in_events && depth == 1) last_key.assign(&buf[key_begin], scan - key_begin);
        }
        ++scan;
        continue;
      }
      switch (buf[scan]) {
        case '"':
          in_str = true;
          key_begin = scan + 1;
          break;
        case '{':
          if (in_events && depth == 2) {
            open_begin = scan;
            if (!batch_begin) batch_begin = scan;
          }
          ++depth;
          break;
        case '}':
          if (--depth == 2 && in_events) batch_end = scan + 1;
          break;
        case '[':
          if (depth == 1 && last_key == "traceEvents") in_events = true;
          ++depth;
          break;
        case ']':
          if (--depth == 1 && in_events) done = true;
          break;
      }
      ++scan;
    }
    if (!batch_begin || batch_end <= batch_begin) continue;
    // Parse [batch_begin, batch_end) as "[...]": borrow the byte before and the byte after.
    char before = buf[batch_begin - 1], after = buf[batch_end];
    buf[batch_begin - 1] = '[';
    buf[batch_end] = ']';
    try {
      ondemand::document doc = parser.iterate(
          buf.data() + batch_begin - 1, batch_end - batch_begin + 2, buf.size() - batch_begin + 1);
      for (ondemand::object ev : doc.get_array()) {
        std::string name(std::string_view(ev["name"].get_string()));
        double dur;
        if (ev["dur"].get_double().get(dur)) dur = 0;  // absent on instants, flows, metadata
        dur_by_name[name] += dur;
        dur_sum += dur;
        ++events;
      }
    } catch (const simdjson_error& e) {
      std::fprintf(stderr, "floor_stream: %s\n", e.what());
      return 1;
    }
    buf[batch_begin - 1] = before;
    buf[batch_end] = after;
    // Keep only the unparsed tail (separators and maybe a partial event), moved to buf[1].
    size_t shift = batch_end - 1;
    std::memmove(buf.data() + 1, buf.data() + batch_end, len - batch_end);
    len -= shift;
    scan -= shift;
    batch_begin = depth > 2 ? open_begin - shift : 0;
    batch_end = 0;
  }
  std::fclose(f);
  if (!done) {
    std::fprintf(stderr, "floor_stream: no complete traceEvents array\n");
    return 1;
  }
  std::printf("events=%zu names=%zu dur_sum=%.3f\n", events, dur_by_name.size(), dur_sum);
  return 0;
}
