#include "entrena/AtomicFile.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace entrena {

namespace fs = std::filesystem;

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), tmp_(path_ + ".tmp-entrena") {}

AtomicFile::~AtomicFile()
{
    if (!committed_) {
        std::error_code ec;
        fs::remove(tmp_, ec);
    }
}

void AtomicFile::write(const char* data, std::size_t size)
{
    std::ofstream out(tmp_, std::ios::binary | std::ios::trunc);
    if (!out)
        throw std::runtime_error("cannot write '" + path_ + "': " + std::strerror(errno) +
                                 "; check that its folder exists and is writable");
    out.write(data, std::streamsize(size));
    out.close();
    if (!out)
        throw std::runtime_error("cannot write '" + path_ + "' (is the disk full?)");
}

void AtomicFile::commit()
{
    std::error_code ec;
    fs::rename(tmp_, path_, ec);
    if (ec)
        throw std::runtime_error("cannot write '" + path_ + "': " + ec.message());
    committed_ = true;
}

} // namespace entrena
