#include "entrena/store/AtomicFile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

namespace entrena {

namespace fs = std::filesystem;

namespace {

/// Flushes `path` (a file, or with O_DIRECTORY a folder) to the disk. Returns errno, 0 on success.
int syncPath(const std::string& path, int flags)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | flags);
    if (fd < 0)
        return errno;
    const int result = ::fsync(fd) == 0 ? 0 : errno;
    ::close(fd);
    return result;
}

} // namespace

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path))
    , tmp_(path_ + ".tmp-entrena")
{
}

AtomicFile::~AtomicFile()
{
    if (!committed_) {
        std::error_code ec;
        fs::remove(tmp_, ec);
    }
}

void AtomicFile::write(const char* data, std::size_t size)
{
    const int fd = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        throw std::runtime_error("cannot write '" + path_ + "': " + std::strerror(errno) +
                                 "; check that its folder exists and is writable");
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const int error = errno;
            ::close(fd);
            throw std::runtime_error("cannot write '" + path_ + "': " + std::strerror(error) + " (is the disk full?)");
        }
        data += n;
        size -= size_t(n);
    }
    if (::close(fd) != 0)
        throw std::runtime_error("cannot write '" + path_ + "': " + std::strerror(errno) + " (is the disk full?)");
}

void AtomicFile::commit()
{
    // The data reaches the disk before the name does: after a power cut the target is the old
    // file or the whole new one, never a new name over an empty or partial file (ext4 and XFS
    // can commit a rename before the data it points at).
    if (const int error = syncPath(tmp_, 0))
        throw std::runtime_error("cannot write '" + path_ + "': " + std::strerror(error) + " (is the disk full?)");
    std::error_code ec;
    fs::rename(tmp_, path_, ec);
    if (ec)
        throw std::runtime_error("cannot write '" + path_ + "': " + ec.message());
    committed_ = true;
    // The rename itself is durable once the folder is; a folder that cannot be synced (some
    // network file systems) still holds the complete file.
    const fs::path folder = fs::path(path_).parent_path();
    syncPath(folder.empty() ? std::string(".") : folder.string(), O_DIRECTORY);
}

} // namespace entrena
