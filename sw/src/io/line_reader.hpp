// SPDX-License-Identifier: Apache-2.0
/// The byte and line readers every totex file reader shares (schedules, exchange tables, .shd):
/// files stream in chunks, gzip is inflated whatever the file is called, and no line is held
/// whole past its reader's limit, so a small file cannot drive memory up before it is refused.
#pragma once
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include <zlib.h>

#include "totex/error.hpp"
#include "totex/io/exchange_table.hpp"

namespace totex::io_detail {

/// The bytes of a schedule file, read in chunks so a file of any length streams; inflated when
/// they start with the gzip magic (1f 8b), whatever the file is called. Concatenated gzip members
/// are read as one stream, as gzip -d does.
class ByteSource {
 public:
  ByteSource(std::istream& in, std::string name) : in_(in), name_(std::move(name)), raw_(kChunk) {
    refill(0);
    gz_ = raw_len_ >= 2 && static_cast<unsigned char>(raw_[0]) == 0x1f && static_cast<unsigned char>(raw_[1]) == 0x8b;
    if (gz_ && inflateInit2(&z_, 15 + 16) != Z_OK) throw std::bad_alloc();  // 16: gzip wrapper only
  }
  ~ByteSource() {
    if (gz_) inflateEnd(&z_);
  }
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;

  /// Up to `cap` bytes into `buf`, 0 at the end. `line` (the line being read) locates errors.
  std::size_t read(char* buf, std::size_t cap, int line) {
    if (!gz_) {
      if (raw_pos_ == raw_len_) {  // straight into the caller's buffer, no second copy
        in_.read(buf, static_cast<std::streamsize>(cap));
        check_stream(line);
        return static_cast<std::size_t>(in_.gcount());
      }
      const std::size_t n = std::min(cap, raw_len_ - raw_pos_);
      std::memcpy(buf, raw_.data() + raw_pos_, n);
      raw_pos_ += n;
      return n;
    }
    z_.next_out = reinterpret_cast<Bytef*>(buf);
    z_.avail_out = static_cast<uInt>(std::min<std::size_t>(cap, 1u << 30));
    const uInt want = z_.avail_out;
    while (z_.avail_out == want) {
      if (raw_pos_ == raw_len_) {
        refill(line);
        if (raw_len_ == 0) {
          if (!member_done_)
            throw FileError(name_, line, "gzip data ends early (truncated after " + std::to_string(consumed_) +
                                             " compressed bytes)");
          return 0;
        }
      }
      if (member_done_) {  // another gzip member follows
        if (inflateReset(&z_) != Z_OK) throw std::bad_alloc();
        member_done_ = false;
      }
      z_.next_in = reinterpret_cast<Bytef*>(raw_.data() + raw_pos_);
      z_.avail_in = static_cast<uInt>(raw_len_ - raw_pos_);
      const int rc = inflate(&z_, Z_NO_FLUSH);
      const std::size_t used = (raw_len_ - raw_pos_) - z_.avail_in;
      raw_pos_ += used;
      consumed_ += used;
      if (rc == Z_STREAM_END) {
        member_done_ = true;
      } else if (rc == Z_MEM_ERROR) {
        throw std::bad_alloc();
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {  // Z_DATA_ERROR, Z_NEED_DICT: not gzip data totex wrote
        throw FileError(name_, line, std::string("corrupt gzip data (zlib: ") + (z_.msg ? z_.msg : "error " + std::to_string(rc)) +
                                         ") near compressed byte " + std::to_string(consumed_));
      }
    }
    return want - z_.avail_out;
  }

 private:
  static constexpr std::size_t kChunk = std::size_t{1} << 20;
  void refill(int line) {
    in_.read(raw_.data(), static_cast<std::streamsize>(raw_.size()));
    raw_len_ = static_cast<std::size_t>(in_.gcount());
    raw_pos_ = 0;
    check_stream(line);
  }
  void check_stream(int line) const {
    if (in_.bad()) throw FileError(name_, line, std::string("read error: ") + std::strerror(errno != 0 ? errno : EIO));
  }
  std::istream& in_;
  std::string name_;
  std::vector<char> raw_;
  std::size_t raw_pos_ = 0, raw_len_ = 0;
  bool gz_ = false;
  bool member_done_ = false;
  std::uint64_t consumed_ = 0;
  z_stream z_{};
};

/// What a format's lines may hold. A line past `max_line` bytes (without its newline) is refused as
/// soon as that many bytes are buffered, not after it is read whole; past `max_bytes` (0: no limit)
/// of the file, as soon as they are read. `resource_limits`: those two are ResourceErrors (exit 3),
/// not FileErrors (exit 2).
struct LineLimits {
  std::size_t max_line = std::size_t{64} << 20;  // a configuration line of min:65536:2 is 0.5 MB
  const char* what = "schedule";                 // "no <what> line is that long"
  bool commas_separate = false;                  // CSV: ',' splits fields as white space does
  std::uint64_t max_bytes = 0;
  bool resource_limits = false;
};

/// Line-oriented reader over a ByteSource: skips blank lines and '#' comments, splits on
/// whitespace. Fields point into its buffer and stay valid until the next call to next().
class LineReader {
 public:
  LineReader(ByteSource& src, std::string name, LineLimits limits = {})
      : src_(src), name_(std::move(name)), buf_(kBuffer), limits_(limits) {}
  /// The next line as it is (no comment or field handling; a trailing CR kept), false at the end.
  bool next_raw(std::string_view& line) {
    if (!next_line(line)) return false;
    ++line_no_;
    return true;
  }
  bool next() {
    std::string_view line;
    while (next_line(line)) {
      ++line_no_;
      if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
      fields_.clear();
      std::size_t i = 0;
      while (true) {
        while (i < line.size() && is_space(line[i])) ++i;
        if (i == line.size()) break;
        const std::size_t start = i;
        while (i < line.size() && !is_space(line[i])) ++i;
        fields_.push_back(line.substr(start, i - start));
      }
      if (!fields_.empty()) return true;
    }
    fields_.clear();
    return false;
  }
  /// Whether the unread bytes start with `prefix` (reads ahead as far as it needs).
  bool upcoming_starts_with(std::string_view prefix) {
    while (len_ - pos_ < prefix.size() && !eof_) fill();
    return std::string_view(buf_.data() + pos_, len_ - pos_).substr(0, prefix.size()) == prefix;
  }
  [[nodiscard]] const std::vector<std::string_view>& fields() const { return fields_; }
  [[noreturn]] void fail(const std::string& what) const { throw FileError(name_, line_no_, what); }
  [[noreturn]] void fail_at(int line, const std::string& what) const { throw FileError(name_, line, what); }
  [[nodiscard]] int line() const { return line_no_; }
  [[nodiscard]] const std::string& name() const { return name_; }
  /// The next raw byte after the last line read (a binary body); false at the end of the file.
  bool byte(unsigned char& b) {
    if (pos_ == len_) {
      if (eof_) return false;
      fill();
      if (pos_ == len_) return false;
    }
    b = static_cast<unsigned char>(buf_[pos_++]);
    return true;
  }
  std::int64_t integer(std::size_t i, std::int64_t lo, std::int64_t hi, const char* what) const {
    if (i >= fields_.size()) fail(std::string("missing ") + what);
    const std::string_view s = fields_[i];
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) {
      const bool digits_only = !s.empty() && s.find_first_not_of("0123456789", s[0] == '-' ? 1 : 0) == std::string::npos;
      if (ec == std::errc::result_out_of_range && digits_only) v = s[0] == '-' ? lo - 1 : hi + 1;  // reported below
      else fail(std::string(what) + " '" + printable(s) + "' is not an integer");
    }
    if (v < lo || v > hi)
      fail(std::string(what) + " " + printable(s) + " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
    return v;
  }
  void expect_fields(std::size_t n, const char* form) const {
    if (fields_.size() != n) fail(std::string("expected '") + form + "'");
  }
  /// Reads "key value" header lines in the given order.
  std::string header(const char* key) {
    if (!next()) fail(std::string("missing header line '") + key + " ...'");
    if (fields_.size() != 2 || fields_[0] != key) fail(std::string("expected header line '") + key + " <value>'");
    return std::string(fields_[1]);
  }
  std::int64_t header_int(const char* key, std::int64_t lo, std::int64_t hi) {
    header(key);
    return integer(1, lo, hi, key);
  }

 private:
  static constexpr std::size_t kBuffer = std::size_t{1} << 20;
  bool is_space(char c) const {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || (c == ',' && limits_.commas_separate);
  }
  [[noreturn]] void refuse(int line, const std::string& what) const {
    if (limits_.resource_limits) throw ResourceError("resources: " + name_ + ":" + std::to_string(line) + ": " + what);
    throw FileError(name_, line, what);
  }
  /// Moves the unread bytes to the front and reads more behind them (sets eof_ at the end).
  void fill() {
    if (pos_ > 0) {
      std::memmove(buf_.data(), buf_.data() + pos_, len_ - pos_);
      len_ -= pos_;
      pos_ = 0;
    }
    if (len_ == buf_.size()) buf_.resize(std::max(buf_.size(), std::min(buf_.size() * 2, limits_.max_line + 1)));
    const std::size_t n = src_.read(buf_.data() + len_, buf_.size() - len_, line_no_ + 1);
    if (n == 0) eof_ = true;
    len_ += n;
    total_ += n;
    if (limits_.max_bytes > 0 && total_ > limits_.max_bytes)
      refuse(line_no_ + 1, "file longer than " + std::to_string(limits_.max_bytes >> 20) + " MiB");
  }
  bool next_line(std::string_view& line) {
    while (true) {
      const char* begin = buf_.data() + pos_;
      if (const void* nl = std::memchr(begin, '\n', len_ - pos_); nl != nullptr) {
        const auto size = static_cast<std::size_t>(static_cast<const char*>(nl) - begin);
        line = std::string_view(begin, size);
        pos_ += size + 1;
        return true;
      }
      if (const std::size_t most = limits_.max_line; len_ - pos_ > most)
        refuse(line_no_ + 1, "line longer than " + (most % (std::size_t{1} << 20) == 0 ? std::to_string(most >> 20) + " MiB"
                                                                                          : std::to_string(most) + " characters") +
                                 "; no " + limits_.what + " line is that long");
      if (eof_) {
        if (pos_ == len_) return false;
        line = std::string_view(begin, len_ - pos_);  // a last line without its newline
        pos_ = len_;
        return true;
      }
      fill();
    }
  }
  ByteSource& src_;
  std::string name_;
  std::vector<char> buf_;
  LineLimits limits_;
  std::size_t pos_ = 0, len_ = 0;
  std::uint64_t total_ = 0;  // bytes read (inflated)
  bool eof_ = false;
  int line_no_ = 0;
  std::vector<std::string_view> fields_;
};

/// An exchange table read from `reader` (io/exchange_table.cpp): the schedule reader hands over
/// its own reader when a file starts "totex-exchange-table", so the table is read in one pass.
ExchangeTable read_exchange_table(LineReader& reader);

}  // namespace totex::io_detail
