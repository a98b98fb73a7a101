// Image-folder decode speed: lists a folder of class subfolders and decodes every image once into
// the uint8 cache, on --threads threads, as a run will. Prints one JSON object; bench/data_bench.py
// runs it beside torchvision's ImageFolder + DataLoader on the same folder.
//
//   build/test/bench/data_bench --dir /tmp/entrena-imgs [--threads 2] [--channels 3] [--size H W]
#include "data/ImageFolder.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point since)
{
    return std::chrono::duration<double>(Clock::now() - since).count();
}

} // namespace

int main(int argc, char** argv)
{
    std::string dir = "/tmp/entrena-imgs";
    entrena::ImageFolderOptions options;
    options.channels = 3; // as torchvision's loader, which converts every image to RGB
    options.threads = 2;
    for (int i = 1; i < argc; ++i) {
        const auto next = [&] {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "data_bench: %s needs a value\n", argv[i]);
                std::exit(2);
            }
            return std::string(argv[++i]);
        };
        if (!std::strcmp(argv[i], "--dir"))
            dir = next();
        else if (!std::strcmp(argv[i], "--threads"))
            options.threads = std::atoi(next().c_str());
        else if (!std::strcmp(argv[i], "--channels"))
            options.channels = std::atoi(next().c_str());
        else if (!std::strcmp(argv[i], "--size")) {
            options.height = std::atoi(next().c_str());
            options.width = std::atoi(next().c_str());
        } else {
            std::fprintf(stderr, "usage: data_bench --dir DIR [--threads N] [--channels 0|1|3] [--size H W]\n");
            return 2;
        }
    }
    try {
        const auto start = Clock::now();
        const entrena::ImageFolderListing listing = entrena::listImageFolder(dir, options);
        const double listSeconds = seconds(start);
        const auto decodeStart = Clock::now();
        const entrena::ImageFolderData data = entrena::decodeImageFolder(listing, options.threads);
        const double decodeSeconds = seconds(decodeStart);
        const int64_t n = data.train.images.size(0) + data.val.images.size(0) + data.test.images.size(0);
        std::printf("{\"images\": %lld, \"threads\": %d, \"shape\": [%d, %d, %d], \"list_s\": %.4f, \"decode_s\": %.4f, "
                    "\"images_per_s\": %.1f, \"decode_images_per_s\": %.1f, \"skipped\": %zu}\n",
                    (long long)n, options.threads, listing.channels, listing.height, listing.width, listSeconds, decodeSeconds,
                    double(n) / (listSeconds + decodeSeconds), double(n) / decodeSeconds, data.skipped.size());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "data_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
