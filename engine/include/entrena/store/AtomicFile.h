#pragma once
// Files written whole or not at all: through a temporary file beside the target, flushed to the
// disk (fsync) and renamed into place on commit(), removed if never committed. An existing file is
// replaced only by a complete one, also across a power cut.

#include <cstddef>
#include <string>

namespace entrena {

class AtomicFile {
public:
    explicit AtomicFile(std::string path);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    /// The temporary path, for writers that insist on a file name of their own.
    const std::string& tmp() const { return tmp_; }
    /// Writes `size` bytes to the temporary file. Throws std::runtime_error naming the target.
    void write(const char* data, std::size_t size);
    void write(const std::string& text) { write(text.data(), text.size()); }
    /// Renames the temporary file over the target. Throws std::runtime_error naming the target.
    void commit();

private:
    std::string path_, tmp_;
    bool committed_ = false;
};

} // namespace entrena
