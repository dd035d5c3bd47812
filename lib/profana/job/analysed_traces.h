// Every trace of the inputs loaded, its function events built and analysed (AnalyseTrace), and
// handed to a sink a trace at a time (each dropped before the next loads): how `profana sql` and
// `convert -o FILE.sqlite` fill one database from one trace or a whole job.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profana/base/status.h"
#include "profana/job/job_inputs.h"
#include "profana/job/load_input.h"
#include "profana/job/trace_analyses.h"
#include "profana/model/trace.h"
#include "profana/passes/function_events.h"

namespace profana::job {

// Where the analysed traces go (the SQLite writer, reporters/sql/sql_writer.h), each in two calls.
class AnalysedTraceSink {
 public:
  virtual ~AnalysedTraceSink() = default;
  // The trace's events: of the analyses, only the launches, steps and owners are ready (the
  // others are being worked out on another thread meanwhile, and must not be read). `file` as
  // given on the command line (or as the inputs expanded).
  virtual Status AddTraceEvents(const Trace& trace, const passes::FunctionEventList& events,
                                const TraceAnalyses& analyses, int64_t rank,
                                const std::string& file) = 0;
  // Then the rest, with every analysis ready.
  virtual Status AddTraceAnalyses(const Trace& trace, const passes::FunctionEventList& events,
                                  const TraceAnalyses& analyses, int64_t rank,
                                  const std::string& file) = 0;
};

// One trace gets its header's rank (0 when it records none); a job's traces get theirs as the
// whole-job commands number them (job_inputs.h). A summary file is refused: a database holds
// traces. Returns the files read. The notes are appended to *notes, those before a failure too.
Result<std::vector<std::string>> AnalyseInputs(const std::vector<std::string>& inputs,
                                               const LoadRequest& load, passes::LinkRule link,
                                               AnalysedTraceSink* sink,
                                               std::vector<LoadNote>* notes);
// The same from the inputs' sniff (SniffInputs(inputs)): the file it opened is the one read.
Result<std::vector<std::string>> AnalyseInputs(const std::vector<std::string>& inputs,
                                               SniffedInputs sniffed, const LoadRequest& load,
                                               passes::LinkRule link, AnalysedTraceSink* sink,
                                               std::vector<LoadNote>* notes);

}  // namespace profana::job
