// Run store throughput: metric points ingested per second through RunStore::addMetric (buffered,
// one transaction a second, as a training run writes them), and how fast a 1,000,000-point series
// reads back raw and decimated. Medians of --repeats; prints one JSON object.
//
//   build/test/bench/store_bench [--points 1000000] [--runs 4] [--repeats 3] [--db FILE]
#include "entrena/store/RunStore.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point since)
{
    return std::chrono::duration<double>(Clock::now() - since).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    int64_t points = 1000000;
    int runs = 4, repeats = 3;
    std::string db = (std::filesystem::temp_directory_path() / "entrena-store-bench.sqlite").string();
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--points"))
            points = std::atoll(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--runs"))
            runs = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--repeats"))
            repeats = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--db"))
            db = argv[i + 1];
    }
    for (const char* suffix : {"", "-wal", "-shm"})
        std::filesystem::remove(db + suffix);

    std::vector<double> ingest, readRaw, readDecimated;
    entrena::RunStore store(db);
    for (int r = 0; r < runs; ++r) {
        const int64_t id = store.createRun("bench-" + std::to_string(r), R"({"data": {"batch_size": 128}})", "{}");
        const auto t0 = Clock::now();
        for (int64_t step = 1; step <= points; ++step)
            store.addMetric(id, "train_loss", step, int(step / 10000) + 1, 2.0 / double(step) + 0.001 * double(step % 97));
        store.flush();
        ingest.push_back(double(points) / seconds(t0));
        entrena::EndEvent end;
        end.seconds = 1;
        store.finishRun(id, entrena::RunStatus::Finished, end, 0.1);
    }
    for (int k = 0; k < repeats; ++k) {
        auto t0 = Clock::now();
        const auto raw = store.metrics(1, "train_loss");
        readRaw.push_back(seconds(t0));
        if (int64_t(raw.size()) != points)
            return std::fprintf(stderr, "read %zu points, wrote %lld\n", raw.size(), static_cast<long long>(points)), 1;
        t0 = Clock::now();
        const auto decimated = store.decimatedMetrics(1, "train_loss", 1000);
        readDecimated.push_back(seconds(t0));
    }
    std::printf("{\"points_per_run\": %lld, \"runs\": %d, \"ingest_points_per_s\": %.0f, "
                "\"read_raw_s\": %.3f, \"read_decimated_1000_s\": %.3f, \"db_bytes\": %lld}\n",
                static_cast<long long>(points), runs, median(ingest), median(readRaw), median(readDecimated),
                static_cast<long long>(std::filesystem::file_size(db)));
    return 0;
}
