#include "profana/base/progress_meter.h"

#include "fmt/format.h"
#include "profana/base/byte_size.h"
#include "profana/base/terminal_text.h"

namespace profana {
namespace {

constexpr double kQuietSeconds = 1.0;   // a load faster than this shows nothing
constexpr double kEverySeconds = 0.25;  // the line is rewritten at most this often

double SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::string ProgressText(const std::string& name, uint64_t done, uint64_t total, double seconds) {
  std::string text =
      "profana: reading " + Printable(name) + ": " + FormatBytes(static_cast<int64_t>(done));
  if (total) text += " of " + FormatBytes(static_cast<int64_t>(total));
  if (seconds > 0) {
    double rate = static_cast<double>(done) / seconds;
    text += ", " + FormatBytes(static_cast<int64_t>(rate)) + "/s";
    if (total > done && rate > 0)
      text += fmt::format(", {:.0f} s left", static_cast<double>(total - done) / rate);
  }
  return text;
}

ProgressMeter::ProgressMeter(OutputSink* terminal, std::string name, Clock clock)
    : terminal_(terminal),
      name_(std::move(name)),
      clock_(clock ? std::move(clock) : Clock(SteadySeconds)),
      start_(clock_()) {}

ProgressMeter::~ProgressMeter() {
  // Back to the start of the line and clear it (ESC [ K), so what is printed next starts clean.
  if (terminal_ && shown_at_ >= 0) (void)terminal_->Write("\r\x1b[K");
}

ProgressFn ProgressMeter::Callback() {
  if (!terminal_) return {};
  return [this](uint64_t done, uint64_t total) { Update(done, total); };
}

void ProgressMeter::Update(uint64_t done, uint64_t total) {
  if (!terminal_) return;
  double now = clock_(), elapsed = now - start_;
  if (elapsed < kQuietSeconds) return;
  if (shown_at_ >= 0 && now - shown_at_ < kEverySeconds) return;
  shown_at_ = now;
  (void)terminal_->Write("\r" + ProgressText(name_, done, total, elapsed) + "\x1b[K");
}

}  // namespace profana
