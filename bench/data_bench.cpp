// Entrena's side of bench/data_bench.py: an image folder through the engine's own path, as a run
// reads it. The first epoch lists the folder, decodes every image once into the uint8 cache and
// hands out one epoch of shuffled, normalised float batches; a later epoch hands out batches from
// the cache. Prints one JSON object: images per second for each, and the cache's bytes against
// the images' uint8 pixels (N × C × H × W).
#include "data/BatchLoader.h"
#include "data/Dataset.h"
#include "entrena/config/Config.h"
#include "entrena/system/Runtime.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

using namespace entrena;

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// One shuffled epoch of float batches; returns the images handed out.
int64_t epoch(const DataSplits& d, int64_t batch, int workers, int64_t index)
{
    BatchLoader loader(d.trainX, d.trainY, batch, 1, index, workers, torch::kCPU);
    int64_t n = 0;
    while (auto b = loader.next())
        n += b->x.size(0);
    return n;
}

/// The process's peak resident memory (VmHWM), in bytes.
int64_t peakResidentBytes()
{
    std::ifstream status("/proc/self/status");
    std::string key;
    int64_t kib = 0;
    while (status >> key) {
        if (key == "VmHWM:") {
            status >> kib;
            return kib * 1024;
        }
        status.ignore(256, '\n');
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    tuneProcess(argc, argv); // as entrena and entrena-cli start: BLAS, OpenMP and malloc settings
    std::string dir;
    int workers = 2;
    int64_t batch = 128;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--dir"))
            dir = argv[i + 1];
        else if (!std::strcmp(argv[i], "--workers"))
            workers = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--batch"))
            batch = std::atoll(argv[i + 1]);
    }
    if (dir.empty()) {
        std::fprintf(stderr, "usage: data_bench --dir FOLDER [--workers N] [--batch N]\n");
        return 2;
    }
    try {
        at::set_num_threads(workers);
        DataSpec spec;
        spec.dataset = DatasetKind::ImageFolder;
        spec.path = dir;
        spec.valFraction = 0; // every image in the epoch, as the peer reads them all
        spec.workers = workers;
        const auto t0 = std::chrono::steady_clock::now();
        const DataSplits d = loadData(spec, 1);
        const double loaded = secondsSince(t0);
        const int64_t n1 = epoch(d, batch, workers, 1);
        const double first = secondsSince(t0);
        const auto t1 = std::chrono::steady_clock::now();
        const int64_t n2 = epoch(d, batch, workers, 2);
        const double later = secondsSince(t1);
        const int64_t pixels = d.trainX.size(0) * d.channels() * d.height() * d.width();
        std::printf("{\"side\": \"entrena\", \"images\": %lld, \"workers\": %d, \"decode_s\": %.4f, "
                    "\"first_epoch_images_per_s\": %.1f, \"later_epoch_images_per_s\": %.1f, "
                    "\"cache_bytes\": %lld, \"pixel_bytes\": %lld, \"peak_rss_bytes\": %lld}\n",
                    (long long)n1, workers, loaded, double(n1) / first, double(n2) / later, (long long)d.trainX.bytes(),
                    (long long)pixels, (long long)peakResidentBytes());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "data_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
