#include "data/IdxReader.h"

#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <sys/stat.h>
#include <vector>
#include <zlib.h>

namespace entrena {
namespace {

constexpr uint32_t kImageMagic = 0x00000803; // unsigned byte, 3 dimensions
constexpr uint32_t kLabelMagic = 0x00000801; // unsigned byte, 1 dimension

struct GzCloser {
    void operator()(gzFile_s* f) const { gzclose(f); }
};

// gzread reads plain files unchanged, so one path serves both .gz and uncompressed files.
class IdxFile {
public:
    explicit IdxFile(const std::string& path)
        : path_(path)
    {
        file_.reset(gzopen(path.c_str(), "rb"));
        if (!file_)
            throw std::runtime_error("cannot open data file '" + path + "': " + std::strerror(errno ? errno : ENOENT) +
                                     "; check data.path (Fashion-MNIST: apt install dataset-fashion-mnist)");
    }

    uint32_t u32(const char* what)
    {
        unsigned char b[4];
        read(b, 4, std::string("its header (") + what + ")");
        return uint32_t(b[0]) << 24 | uint32_t(b[1]) << 16 | uint32_t(b[2]) << 8 | uint32_t(b[3]);
    }

    void read(void* out, size_t bytes, const std::string& what)
    {
        size_t done = 0;
        auto* p = static_cast<unsigned char*>(out);
        while (done < bytes) {
            const unsigned chunk = unsigned(std::min<size_t>(bytes - done, 1u << 30));
            const int n = gzread(file_.get(), p + done, chunk);
            if (n < 0)
                throw std::runtime_error("data file '" + path_ + "' is damaged (" + zerror() + ")");
            if (n == 0)
                throw std::runtime_error("data file '" + path_ + "' is truncated: " + what + " needs " + std::to_string(bytes) +
                                         " bytes, only " + std::to_string(done) +
                                         " are there; download or reinstall the data set");
            done += size_t(n);
        }
    }

    const std::string& path() const { return path_; }

private:
    std::string zerror()
    {
        int code = 0;
        const char* message = gzerror(file_.get(), &code);
        return message ? message : "read error";
    }

    std::string path_;
    std::unique_ptr<gzFile_s, GzCloser> file_;
};

void expectMagic(IdxFile& f, uint32_t expected, const char* kind)
{
    const uint32_t magic = f.u32("magic number");
    if (magic != expected) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "' is not an IDX %s file (magic number 0x%08X, expected 0x%08X)", kind, magic, expected);
        throw std::runtime_error("data file '" + f.path() + buf);
    }
}

/// What a reader read, while the file stays as it was.
struct KeptRead {
    torch::Tensor values;
    int64_t count = 0;
    struct stat file {}; ///< as it was when read
};

struct KeptReads {
    std::mutex mutex;
    bool consult = false, keep = false;
    int64_t used = 0;
    std::map<std::pair<std::string, int64_t>, KeptRead> reads;
};

KeptReads& keptReads()
{
    static KeptReads k;
    return k;
}

/// The same file, unchanged: a rewrite changes its change time (ctime) even when it keeps its size
/// and its modification time (`cp -p`, tar), and a replacement has another inode.
bool sameFile(const struct stat& st, const KeptRead& k)
{
    const auto same = [](const timespec& a, const timespec& b) { return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec; };
    return st.st_dev == k.file.st_dev && st.st_ino == k.file.st_ino && st.st_size == k.file.st_size &&
           same(st.st_mtim, k.file.st_mtim) && same(st.st_ctim, k.file.st_ctim);
}

/// A copy made with memcpy: no LibTorch operator, so no thread pool started (a trial server must
/// not start one before it forks).
torch::Tensor copyOf(const torch::Tensor& t)
{
    auto c = torch::empty(t.sizes(), t.options());
    std::memcpy(c.data_ptr(), t.data_ptr(), t.nbytes());
    return c;
}

/// `read(path, limit, count)`, or what it returned before if reads are kept and the file is unchanged.
template <typename Read>
torch::Tensor keptOrRead(const std::string& path, int64_t limit, int64_t* count, Read read)
{
    KeptReads& k = keptReads();
    std::unique_lock lock(k.mutex);
    struct stat st {};
    if (!k.consult || ::stat(path.c_str(), &st) != 0) {
        lock.unlock();
        return read(path, limit, count);
    }
    const auto key = std::make_pair(path, limit);
    if (const auto it = k.reads.find(key); it != k.reads.end() && sameFile(st, it->second)) {
        ++k.used;
        if (count)
            *count = it->second.count;
        return copyOf(it->second.values); // the caller's own, to change as it likes
    }
    if (!k.keep) {
        lock.unlock();
        return read(path, limit, count);
    }
    KeptRead kept;
    kept.values = read(path, limit, &kept.count);
    kept.file = st;
    if (count)
        *count = kept.count;
    auto values = copyOf(kept.values);
    k.reads[key] = std::move(kept);
    return values;
}

torch::Tensor readImages(const std::string& path, int64_t limit, int64_t* count);
torch::Tensor readLabels(const std::string& path, int64_t limit, int64_t* count);

} // namespace

void keepIdxReads(bool keep)
{
    std::lock_guard lock(keptReads().mutex);
    keptReads().consult = true;
    keptReads().keep = keep;
}

int64_t keptIdxReadsUsed()
{
    std::lock_guard lock(keptReads().mutex);
    return keptReads().used;
}

torch::Tensor readIdxImages(const std::string& path, int64_t limit, int64_t* count)
{
    return keptOrRead(path, limit, count, readImages);
}

torch::Tensor readIdxLabels(const std::string& path, int64_t limit, int64_t* count)
{
    return keptOrRead(path, limit, count, readLabels);
}

namespace {

torch::Tensor readImages(const std::string& path, int64_t limit, int64_t* count)
{
    IdxFile f(path);
    expectMagic(f, kImageMagic, "image");
    const uint32_t total = f.u32("image count");
    const uint32_t rows = f.u32("rows");
    const uint32_t cols = f.u32("columns");
    if (total == 0 || rows == 0 || cols == 0 || rows > 4096 || cols > 4096 || uint64_t(total) * rows * cols > (1ull << 34))
        throw std::runtime_error("data file '" + path + "' has an implausible header: " + std::to_string(total) + " images of " +
                                 std::to_string(rows) + "x" + std::to_string(cols));
    if (count)
        *count = total;
    // Only the first `limit` are decompressed: a sweep's trials on a subset each skip most of the file.
    const int64_t n = limit > 0 ? std::min<int64_t>(limit, total) : int64_t(total);
    auto images = torch::empty({n, 1, int64_t(rows), int64_t(cols)}, torch::kUInt8);
    f.read(images.data_ptr<uint8_t>(), size_t(images.numel()),
           "the payload (" + std::to_string(total) + " images of " + std::to_string(rows) + "x" + std::to_string(cols) + ")");
    return images;
}

torch::Tensor readLabels(const std::string& path, int64_t limit, int64_t* count)
{
    IdxFile f(path);
    expectMagic(f, kLabelMagic, "label");
    const uint32_t total = f.u32("label count");
    if (total == 0 || total > (1u << 30))
        throw std::runtime_error("data file '" + path + "' has an implausible label count " + std::to_string(total));
    if (count)
        *count = total;
    std::vector<uint8_t> raw(size_t(limit > 0 ? std::min<int64_t>(limit, total) : int64_t(total)));
    f.read(raw.data(), raw.size(), "the payload (" + std::to_string(total) + " labels)");
    auto labels = torch::empty({int64_t(raw.size())}, torch::kInt64);
    auto* out = labels.data_ptr<int64_t>();
    for (size_t i = 0; i < raw.size(); ++i)
        out[i] = raw[i];
    return labels;
}

} // namespace

} // namespace entrena
