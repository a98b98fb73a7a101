#include "entrena/data/DataPreview.h"

#include "data/Cifar10Reader.h"
#include "data/DataShapes.h"
#include "data/Dataset.h"
#include "data/ImageDecode.h"
#include "entrena/config/Registry.h"

#include <algorithm>
#include <cstdio>
#include <thread>

namespace entrena {
namespace {

std::string thousands(int64_t n)
{
    std::string s = std::to_string(n);
    for (int i = int(s.size()) - 3; i > 0; i -= 3)
        s.insert(size_t(i), ",");
    return s;
}

void describeImbalance(DataPreview& p)
{
    const auto [small, large] = std::minmax_element(
        p.classes.begin(), p.classes.end(), [](const ClassPreview& a, const ClassPreview& b) { return a.count < b.count; });
    if (small == p.classes.end() || small->count * 3 >= large->count)
        return;
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.1f", double(large->count) / double(std::max<int64_t>(1, small->count)));
    p.imbalance = "the classes are unbalanced: '" + large->name + "' has " + thousands(large->count) + " samples, '" +
                  small->name + "' " + thousands(small->count) + " (" + ratio +
                  "x fewer); a model can score well by favouring the large classes, so compare per-class recall "
                  "(run details → Evaluation), balance them (data.balance: weights or sampler) or gather more of the small ones";
}

std::vector<uint8_t> bytesOf(const torch::Tensor& image)
{
    const auto c = image.contiguous();
    return std::vector<uint8_t>(c.data_ptr<uint8_t>(), c.data_ptr<uint8_t>() + c.numel());
}

} // namespace

DataPreview previewImageFolder(const DataSpec& spec, int perClass, uint64_t seed)
{
    const ImageFolderListing listing = listImageFolder(spec.path, imageFolderOptions(spec));
    DataPreview p;
    p.channels = listing.channels;
    p.height = listing.height;
    p.width = listing.width;
    std::vector<std::vector<size_t>> rows(listing.classes.size());
    for (size_t i = 0; i < listing.train.size(); ++i)
        rows[size_t(listing.train.labels[i])].push_back(i);
    auto gen = at::detail::createCPUGenerator(seed);
    for (size_t k = 0; k < listing.classes.size(); ++k) {
        ClassPreview c;
        c.name = listing.classes[k];
        c.count = int64_t(rows[k].size());
        const auto order = torch::randperm(int64_t(rows[k].size()), gen, torch::kInt64);
        for (int64_t j = 0; j < std::min<int64_t>(perClass, order.numel()); ++j) {
            const std::string& file = listing.train.files[rows[k][size_t(order[j].item<int64_t>())]];
            try {
                c.images.push_back(bytesOf(decodeListedImage(listing, file)));
            } catch (const std::exception&) {
                // A file whose pixels do not decode is named by the run's data_warning; not shown here.
            }
        }
        p.total += c.count;
        p.classes.push_back(std::move(c));
    }
    if (!listing.skipped.empty())
        p.skipped = std::to_string(listing.skipped.size()) + " file(s) could not be read, e.g. " + listing.skipped[0].path;
    return p;
}

DataPreview previewData(const DataSpec& spec, int perClass, uint64_t seed)
{
    if (const auto preview = registryEntry(spec.dataset).preview) {
        DataPreview p = preview(spec, perClass, seed);
        describeImbalance(p);
        return p;
    }
    DataSpec whole = spec;
    whole.valFraction = 0; // the counts of the whole training file
    const DataSplits d = loadData(whole, seed);
    DataPreview p;
    const bool images = registryEntry(spec.dataset).images;
    if (images) {
        p.channels = d.channels();
        p.height = d.height();
        p.width = d.width();
    }
    auto gen = at::detail::createCPUGenerator(seed);
    const auto y = d.trainY.contiguous();
    for (int64_t k = 0; k < d.classes; ++k) {
        ClassPreview c;
        c.name = size_t(k) < d.classNames.size() ? d.classNames[size_t(k)] : std::to_string(k);
        const auto rows = (y == k).nonzero().flatten();
        c.count = rows.numel();
        if (images) {
            const auto order = torch::randperm(rows.numel(), gen, torch::kInt64);
            for (int64_t j = 0; j < std::min<int64_t>(perClass, rows.numel()); ++j) {
                const int64_t row = rows[order[j].item<int64_t>()].item<int64_t>();
                torch::Tensor pixels = d.trainX.range(row, row + 1)[0];
                if (pixels.scalar_type() != torch::kUInt8) // IDX and synthetic: normalised over all pixels
                    pixels = pixels.mul(d.std).add(d.mean).mul(255.0).round().clamp(0, 255).to(torch::kUInt8);
                c.images.push_back(bytesOf(pixels));
            }
        }
        p.total += c.count;
        p.classes.push_back(std::move(c));
    }
    describeImbalance(p);
    return p;
}

} // namespace entrena
