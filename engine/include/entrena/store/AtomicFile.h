#pragma once
// Files written whole or not at all: through a temporary file beside the target, flushed to the
// disk (fsync) and renamed into place on commit(), removed if never committed. An existing file is
// replaced only by a complete one, also across a power cut. A full disk is reported as such
// (DiskFullError, with the free space left), never as a crash: see docs/run-store.md#faults.

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>

namespace entrena {

/// A file could not be written because the disk (or the user's quota) holding it is full.
class DiskFullError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// "the disk holding '/some/folder' is full (0.4 MB free)": the folder of `path` and its free space.
std::string diskFullMessage(const std::string& path);

/// The error for a failed write of `path` with `error` (an errno): a DiskFullError for ENOSPC,
/// EDQUOT and EFBIG, else a runtime_error naming the file and the reason.
[[noreturn]] void throwWriteError(const std::string& path, int error);

class AtomicFile {
public:
    explicit AtomicFile(std::string path);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    /// Appends `size` bytes to the temporary file. Throws (see throwWriteError) naming the target.
    void write(const char* data, std::size_t size);
    void write(const std::string& text) { write(text.data(), text.size()); }
    /// A writer for libraries that abort on a short write (LibTorch's archives, whose stream writer
    /// throws from its destructor after a failed write): it always reports `size` bytes written and
    /// keeps the first error, which commit() then throws. Valid while this object lives.
    std::function<std::size_t(const void*, std::size_t)> sink();
    /// Renames the temporary file over the target. Throws (see throwWriteError) naming the target.
    void commit();

private:
    bool append(const char* data, std::size_t size);
    void open();

    std::string path_, tmp_;
    int fd_ = -1;
    int error_ = 0; ///< the first write error (errno), 0 while none
    bool committed_ = false;
};

} // namespace entrena
