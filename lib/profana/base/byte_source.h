// ByteSource hands out the content of a file a piece at a time, gunzipping as it goes when the
// file starts with the gzip magic: ISA-L's streaming inflate, on a thread of its own that keeps a
// few 4 MiB blocks ahead of the reader, so inflating overlaps parsing. Memory stays bounded by a
// few blocks, whatever the file's size. Any damage (a read
// error, corrupt or cut-short gzip) is reported as failed(): the streaming importer then falls
// back to the whole-file path, whose messages say exactly what is wrong.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "profana/base/input_file.h"

namespace profana {

class ByteSource {
 public:
  // Opens a regular file; null when it cannot be opened or is not a regular file.
  static std::unique_ptr<ByteSource> Open(const std::string& path);
  // The same from an input already open (base/input_file.h), without opening it again.
  static std::unique_ptr<ByteSource> Open(const InputFile& file);
  // The first n bytes of a regular file's content (gunzipped), fewer when it is shorter; empty
  // when it cannot be read. For telling kinds of input apart by content.
  static std::string Head(const std::string& path, size_t n);
  ~ByteSource();

  // Fills up to n bytes of dst; 0 at the end (or on failure: see failed()).
  size_t Read(char* dst, size_t n);
  // A plain file only (gzipped content cannot be sought): the next Read starts at `offset`.
  void Seek(uint64_t offset) { read_at_ = offset; }
  // A plain file only: fills dst with the n bytes at `offset`; false when fewer are there (the
  // file was cut short) or the read fails. Any thread may call it, beside Read: the kernel copies
  // from its page cache, where a map of the file would cost a fault per page touched.
  bool ReadAt(char* dst, size_t n, uint64_t offset) const;
  bool failed() const { return failed_; }
  bool gzipped() const { return gzipped_; }
  uint64_t file_bytes() const { return file_bytes_; }   // size on disk
  uint64_t content_bytes() const { return produced_; }  // bytes handed out so far
  // The content's size: a plain file's size; gzipped content's estimated from the compression
  // ratio of what is inflated so far (its trailer's ISIZE is the size mod 4 GiB of one member
  // only), 0 before anything is. Read's thread only.
  uint64_t content_estimate() const;
  // Gzipped content only: the compressed bytes behind the content handed out so far (block by
  // block), which reach file_bytes() at the end. Read's thread only.
  uint64_t compressed_bytes_used() const;

 private:
  ByteSource() = default;
  static std::unique_ptr<ByteSource> FromDescriptor(int fd);  // takes fd; null when not regular
  size_t ReadRaw(char* dst, size_t n);
  size_t Inflate(char* dst, size_t n);
  bool RefillCompressed();  // reads more compressed bytes once the last are used; false on error
  void InflateAhead();      // the inflater thread
  size_t ReadInflated(char* dst, size_t n);

  int fd_ = -1;
  std::atomic<bool> failed_{false};  // set by the inflater thread too
  bool gzipped_ = false;
  bool finished_ = false;
  uint64_t file_bytes_ = 0;
  uint64_t read_at_ = 0;  // the file offset of the next raw read
  uint64_t produced_ = 0;
  struct Gzip;
  std::unique_ptr<Gzip> gz_;
};

}  // namespace profana
