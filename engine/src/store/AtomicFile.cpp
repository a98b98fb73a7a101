#include "entrena/store/AtomicFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
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

/// The folder that holds `path` (itself when it is one), absolute.
fs::path holdingFolder(const std::string& path)
{
    std::error_code ec;
    const fs::path p = fs::absolute(fs::path(path), ec);
    if (fs::is_directory(p, ec))
        return p;
    return p.has_parent_path() ? p.parent_path() : fs::path(".");
}

bool isDiskFull(int error)
{
    return error == ENOSPC || error == EDQUOT || error == EFBIG;
}

} // namespace

std::string diskFullMessage(const std::string& path)
{
    const fs::path folder = holdingFolder(path);
    std::error_code ec;
    const fs::space_info space = fs::space(folder, ec);
    std::string free;
    if (!ec) {
        char text[32];
        std::snprintf(text, sizeof text, "%.1f", double(space.available) / 1e6);
        free = std::string(" (") + text + " MB free)";
    }
    return "the disk holding '" + folder.string() + "' is full" + free;
}

void throwWriteError(const std::string& path, int error)
{
    if (isDiskFull(error))
        throw DiskFullError(diskFullMessage(path) + ": '" + path +
                            "' was not written; free space on that disk or choose another location");
    throw std::runtime_error("cannot write '" + path + "': " + std::strerror(error) +
                             "; check that its folder exists and is writable");
}

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path))
    , tmp_(path_ + ".tmp-entrena")
{
}

AtomicFile::~AtomicFile()
{
    if (fd_ >= 0)
        ::close(fd_);
    if (!committed_) {
        std::error_code ec;
        fs::remove(tmp_, ec);
    }
}

void AtomicFile::open()
{
    if (fd_ >= 0 || error_)
        return;
    fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0)
        error_ = errno;
}

bool AtomicFile::append(const char* data, std::size_t size)
{
    open();
    while (size > 0 && !error_) {
        const ssize_t n = ::write(fd_, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            error_ = n < 0 ? errno : ENOSPC; // a write of 0 bytes to a regular file: no room left
            break;
        }
        data += n;
        size -= std::size_t(n);
    }
    return !error_;
}

void AtomicFile::write(const char* data, std::size_t size)
{
    if (!append(data, size))
        throwWriteError(path_, error_);
}

std::function<std::size_t(const void*, std::size_t)> AtomicFile::sink()
{
    return [this](const void* data, std::size_t size) {
        append(static_cast<const char*>(data), size);
        return size;
    };
}

void AtomicFile::commit()
{
    open(); // an empty file is still a file
    if (error_)
        throwWriteError(path_, error_);
    // The data reaches the disk before the name does: after a power cut the target is the old
    // file or the whole new one, never a new name over an empty or partial file (ext4 and XFS
    // can commit a rename before the data it points at).
    int error = ::fsync(fd_) == 0 ? 0 : errno;
    if (::close(fd_) != 0 && !error)
        error = errno;
    fd_ = -1;
    if (error)
        throwWriteError(path_, error);
    std::error_code ec;
    fs::rename(tmp_, path_, ec);
    if (ec)
        throwWriteError(path_, ec.value());
    committed_ = true;
    // The rename itself is durable once the folder is; a folder that cannot be synced (some
    // network file systems) still holds the complete file.
    const fs::path folder = fs::path(path_).parent_path();
    syncPath(folder.empty() ? std::string(".") : folder.string(), O_DIRECTORY);
}

} // namespace entrena
