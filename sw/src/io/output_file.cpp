// SPDX-License-Identifier: Apache-2.0
#include "totex/io/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <streambuf>

#include "totex/error.hpp"

#include <zlib.h>

namespace totex {
namespace {

// zlib level 1: on step-schedule text (gzip -1 / -6, 50 MB of torus:32x32 nic) 0.66 / 3.2 s CPU for
// 2.2x / 3.5x smaller; writing stays within a few times the generation.
constexpr int kGzipLevel = 1;

/// An output buffer over a file descriptor that keeps the errno of the first failed write.
class FdBuf : public std::streambuf {
 public:
  explicit FdBuf(int fd) : fd_(fd) { setp(buf_.data(), buf_.data() + buf_.size()); }
  [[nodiscard]] int error() const { return error_; }

 protected:
  int_type overflow(int_type ch) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const char* p = pbase();
    auto n = static_cast<std::size_t>(pptr() - pbase());
    while (n > 0 && error_ == 0) {
      const ssize_t w = ::write(fd_, p, n);
      if (w < 0) {
        if (errno != EINTR) error_ = errno;
        continue;
      }
      p += w;
      n -= static_cast<std::size_t>(w);
    }
    setp(buf_.data(), buf_.data() + buf_.size());
    return error_ == 0;
  }
  int fd_;
  int error_ = 0;
  std::array<char, 1 << 16> buf_{};
};

/// Gzip-compresses what is written into another streambuf (the file's FdBuf). sync() compresses
/// what is buffered without a zlib flush (a flush per std::endl would cost ratio); finish() ends
/// the gzip stream (trailer with CRC-32 and length) and is called once, by commit().
class GzBuf : public std::streambuf {
 public:
  GzBuf(std::streambuf& sink, int level) : sink_(sink) {
    if (deflateInit2(&z_, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) throw std::bad_alloc();
    setp(in_.data(), in_.data() + in_.size());
  }
  ~GzBuf() override { deflateEnd(&z_); }
  GzBuf(const GzBuf&) = delete;
  GzBuf& operator=(const GzBuf&) = delete;
  bool finish() { return compress(Z_FINISH); }

 protected:
  int_type overflow(int_type ch) override {
    if (!compress(Z_NO_FLUSH)) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override { return compress(Z_NO_FLUSH) ? 0 : -1; }

 private:
  bool compress(int flush) {
    z_.next_in = reinterpret_cast<Bytef*>(pbase());
    z_.avail_in = static_cast<uInt>(pptr() - pbase());
    int rc = Z_OK;
    do {
      z_.next_out = reinterpret_cast<Bytef*>(out_.data());
      z_.avail_out = static_cast<uInt>(out_.size());
      rc = deflate(&z_, flush);
      if (rc == Z_STREAM_ERROR) return false;
      const auto have = static_cast<std::streamsize>(out_.size() - z_.avail_out);
      if (have > 0 && sink_.sputn(out_.data(), have) != have) return false;  // the sink keeps errno
    } while (z_.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
    setp(in_.data(), in_.data() + in_.size());
    return true;
  }
  std::streambuf& sink_;
  z_stream z_{};
  std::array<char, 1 << 16> in_{};
  std::array<char, 1 << 16> out_{};
};

bool ends_with_gz(const std::string& path) { return path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0; }

[[noreturn]] void fail(const std::string& path, int err) {
  throw OutputError(path + ": " + std::strerror(err != 0 ? err : EIO));
}

}  // namespace

struct OutputFile::Impl {
  std::string path;    // as the user named it (for messages)
  std::string target;  // where the data ends up (a symbolic link resolved)
  std::string temp;    // the temporary file renamed over target; empty when writing in place
  int fd = -1;
  std::unique_ptr<FdBuf> buf;
  std::unique_ptr<GzBuf> gz;  // between out and buf when the name ends in .gz
  std::unique_ptr<std::ostream> out;
  bool committed = false;
};

OutputFile::OutputFile(std::string path) : impl_(std::make_unique<Impl>()) {
  Impl& f = *impl_;
  f.path = std::move(path);
  f.target = f.path;
  if (f.path.empty()) fail("''", ENOENT);
  struct stat st {};
  const bool exists = ::stat(f.path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) fail(f.path, EISDIR);
  if (exists && !S_ISREG(st.st_mode)) {  // a device or FIFO: no rename over it, write in place
    f.fd = ::open(f.path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (f.fd < 0) fail(f.path, errno);
  } else {
    std::error_code ec;
    if (struct stat lst {}; ::lstat(f.path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
      const auto resolved = std::filesystem::canonical(f.path, ec);  // keep the link, replace what it names
      if (!ec) f.target = resolved.string();
    }
    const std::filesystem::path t(f.target);
    const std::string dir = t.has_parent_path() ? t.parent_path().string() : ".";
    std::string tmpl = dir + "/." + t.filename().string() + ".XXXXXX";
    f.fd = ::mkostemp(tmpl.data(), O_CLOEXEC);
    if (f.fd < 0) fail(f.path, errno);
    f.temp = tmpl;
    mode_t mode = 0;
    if (exists) {
      mode = st.st_mode & 07777;
    } else {
      const mode_t mask = ::umask(0);
      ::umask(mask);
      mode = 0666 & ~mask;
    }
    (void)::fchmod(f.fd, mode);
  }
  f.buf = std::make_unique<FdBuf>(f.fd);
  if (ends_with_gz(f.path)) {
    f.gz = std::make_unique<GzBuf>(*f.buf, kGzipLevel);
    f.out = std::make_unique<std::ostream>(f.gz.get());
  } else {
    f.out = std::make_unique<std::ostream>(f.buf.get());
  }
}

OutputFile::~OutputFile() {
  Impl& f = *impl_;
  if (f.fd >= 0) ::close(f.fd);
  if (!f.committed && !f.temp.empty()) ::unlink(f.temp.c_str());
}

std::ostream& OutputFile::stream() { return *impl_->out; }

void OutputFile::commit() {
  Impl& f = *impl_;
  f.out->flush();
  bool ok = static_cast<bool>(*f.out);
  if (f.gz && ok) ok = f.gz->finish();
  if (ok) ok = f.buf->pubsync() == 0;
  int err = f.buf->error();
  if (err == 0 && !ok) err = EIO;
  const int fd = f.fd;
  f.fd = -1;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err == 0 && !f.temp.empty() && ::rename(f.temp.c_str(), f.target.c_str()) != 0) err = errno;
  if (err != 0) fail(f.path, err);  // the destructor removes the temporary file
  f.committed = true;
}

void write_output_file(const std::string& path, const std::function<void(std::ostream&)>& writer) {
  OutputFile file(path);
  writer(file.stream());
  file.commit();
}

void append_output_file(const std::string& path, const std::string& text) {
  std::ostringstream old;
  if (std::ifstream in(path, std::ios::binary); in) old << in.rdbuf();
  write_output_file(path, [&](std::ostream& out) { out << old.str() << text; });
}

}  // namespace totex
