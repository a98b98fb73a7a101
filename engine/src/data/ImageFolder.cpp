#include "data/ImageFolder.h"

#include "data/ImageDecode.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstring>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace entrena {
namespace {

namespace fs = std::filesystem;

const char* const kLayoutHint = "one subfolder per class holding its images (or train/, and optionally val/ and test/, "
                                "each holding one subfolder per class)";

/// Runs fn(i) for every i < n on up to `threads` threads. Each i writes only its own slot, so the
/// result does not depend on the thread count. The first exception stops the rest and is rethrown.
template <typename F>
void parallelFor(size_t n, int threads, F fn)
{
    const size_t workers = std::min<size_t>(n, size_t(std::max(1, threads)));
    std::atomic<size_t> next{0};
    std::atomic<bool> stop{false};
    std::exception_ptr error;
    std::mutex errorMutex;
    auto work = [&] {
        for (size_t i = next++; i < n && !stop; i = next++) {
            try {
                fn(i);
            } catch (...) {
                const std::lock_guard<std::mutex> lock(errorMutex);
                if (!error)
                    error = std::current_exception();
                stop = true;
            }
        }
    };
    if (workers <= 1) {
        work();
    } else {
        std::vector<std::thread> pool;
        pool.reserve(workers - 1);
        for (size_t t = 1; t < workers; ++t)
            pool.emplace_back(work);
        work();
        for (auto& t : pool)
            t.join();
    }
    if (error)
        std::rethrow_exception(error);
}

// Names starting with '.' are never classes or images: hidden folders (.ipynb_checkpoints, which
// torchvision famously turns into a class) and macOS's "._photo.jpg" resource forks.
bool hidden(const std::string& name)
{
    return !name.empty() && name[0] == '.';
}

bool hasImageExtension(const fs::path& file)
{
    std::string ext = file.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return ext == ".png" || ext == ".jpg" || ext == ".jpeg";
}

std::runtime_error folderError(const fs::path& folder, const std::string& what)
{
    return std::runtime_error("image folder '" + folder.string() + "': " + what);
}

/// Visible subfolders (symbolic links followed), sorted bytewise: torchvision's class order.
std::vector<std::string> subfolders(const fs::path& dir)
{
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        std::error_code typeError;
        if (!hidden(name) && it->is_directory(typeError))
            names.push_back(name);
    }
    if (ec)
        throw folderError(dir, "cannot be read (" + ec.message() + ")");
    std::sort(names.begin(), names.end());
    return names;
}

/// Image files anywhere below a class folder (as torchvision walks it), sorted bytewise.
std::vector<std::string> imagesUnder(const fs::path& classDir)
{
    std::vector<std::string> files;
    std::error_code ec;
    fs::recursive_directory_iterator it(classDir, fs::directory_options::follow_directory_symlink, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        std::error_code typeError;
        if (hidden(name)) {
            if (it->is_directory(typeError))
                it.disable_recursion_pending();
            continue;
        }
        if (it->is_regular_file(typeError) && hasImageExtension(it->path()))
            files.push_back(it->path().string());
    }
    if (ec)
        throw folderError(classDir, "cannot be read (" + ec.message() + ")");
    std::sort(files.begin(), files.end());
    return files;
}

std::string quotedList(const std::vector<std::string>& names, size_t most = 5)
{
    std::string s;
    for (size_t i = 0; i < names.size() && i < most; ++i)
        s += (i ? ", '" : "'") + names[i] + "'";
    if (names.size() > most)
        s += " and " + std::to_string(names.size() - most) + " more";
    return s;
}

/// One split's class folders and their files, before headers are read.
struct SplitScan {
    std::string name; ///< "train", "val", "test", or "" in the flat layout
    fs::path dir;
    std::vector<int64_t> classesPresent; ///< labels of the class folders this split has
    ImageFileList files;
};

SplitScan scanSplit(const fs::path& dir, const std::string& name, const std::vector<std::string>& classes)
{
    SplitScan s;
    s.name = name;
    s.dir = dir;
    for (const std::string& folder : subfolders(dir)) {
        const auto at = std::lower_bound(classes.begin(), classes.end(), folder);
        if (at == classes.end() || *at != folder)
            throw folderError(dir / folder, "is a class folder of " + name + "/ that train/ does not have (train/ has " +
                                                quotedList(classes, 10) + "); add it to train/ or remove it from " + name + "/");
        const int64_t label = int64_t(at - classes.begin());
        s.classesPresent.push_back(label);
        for (std::string& file : imagesUnder(dir / folder)) {
            s.files.files.push_back(std::move(file));
            s.files.labels.push_back(label);
        }
    }
    return s;
}

std::string sizeText(int height, int width)
{
    return std::to_string(height) + "x" + std::to_string(width);
}

/// Every class folder a split has must keep at least one image.
void requireImagesPerClass(const SplitScan& split, const ImageFileList& kept, const std::vector<std::string>& classes,
                           const std::vector<SkippedImage>& skipped)
{
    std::vector<size_t> count(classes.size(), 0);
    for (const int64_t label : kept.labels)
        ++count[size_t(label)];
    for (const int64_t label : split.classesPresent) {
        if (count[size_t(label)] > 0)
            continue;
        const fs::path folder = split.dir / classes[size_t(label)];
        std::vector<std::string> unreadable;
        const std::string prefix = folder.string() + "/";
        for (const auto& s : skipped)
            if (s.path.compare(0, prefix.size(), prefix) == 0)
                unreadable.push_back(fs::path(s.path).filename().string());
        throw folderError(folder, unreadable.empty()
                                      ? "holds no .png, .jpg or .jpeg image; add images or remove the class folder"
                                      : "holds no image that can be decoded (" + std::to_string(unreadable.size()) +
                                            " unreadable: " + quotedList(unreadable) +
                                            "); replace them, or remove the class folder");
    }
}

} // namespace

/// The error for images of different sizes without data.image_size: the sizes, most common first
/// (among equals the smaller, for a stable text), and the most common one as the size to set.
static std::runtime_error sizesDiffer(const fs::path& root,
                                      const std::map<std::pair<int, int>, std::pair<size_t, std::string>>& sizes)
{
    std::vector<std::pair<std::pair<int, int>, std::pair<size_t, std::string>>> bySize(sizes.begin(), sizes.end());

    std::stable_sort(bySize.begin(), bySize.end(), [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
    std::string list;
    for (size_t i = 0; i < bySize.size() && i < 4; ++i)
        list += (i ? "; " : "") + sizeText(bySize[i].first.first, bySize[i].first.second) + " in " +
                std::to_string(bySize[i].second.first) + " file(s), e.g. '" + bySize[i].second.second + "'";
    if (bySize.size() > 4)
        list += "; and " + std::to_string(bySize.size() - 4) + " other sizes";
    const auto& common = bySize.front().first;
    return folderError(root, "its images have different sizes (height x width: " + list +
                                 "); set data.image_size to resize them all to one size, e.g. data.image_size: [" +
                                 std::to_string(common.first) + ", " + std::to_string(common.second) +
                                 "] (the most common size)");
}

namespace {

/// The class folders (directly under `root`, or under its train/ beside val/ and test/) and the
/// image files of each split, checked for a layout a classifier can learn from.
std::vector<SplitScan> scanLayout(const fs::path& root, ImageFolderListing& listing)
{
    const std::vector<std::string> top = subfolders(root);
    const auto has = [&](const char* name) { return std::binary_search(top.begin(), top.end(), std::string(name)); };
    listing.splitFolders = has("train");
    if (!listing.splitFolders && (has("val") || has("test")))
        throw folderError(root, std::string("has ") + (has("val") ? "val/" : "test/") +
                                    " but no train/ folder; put the training images in train/<class>/, or use a folder "
                                    "whose subfolders are the classes");
    const fs::path trainDir = listing.splitFolders ? root / "train" : root;
    listing.classes = subfolders(trainDir);
    if (listing.classes.empty())
        throw folderError(trainDir, std::string("has no class folders; it needs ") + kLayoutHint);
    if (listing.classes.size() == 1)
        throw folderError(trainDir, "has only one class folder ('" + listing.classes[0] +
                                        "'); a classifier needs at least two: add one subfolder per class");

    std::vector<SplitScan> splits;
    splits.push_back(scanSplit(trainDir, "train", listing.classes));
    listing.hasVal = listing.splitFolders && has("val");
    listing.hasTest = listing.splitFolders && has("test");
    if (listing.hasVal)
        splits.push_back(scanSplit(root / "val", "val", listing.classes));
    if (listing.hasTest)
        splits.push_back(scanSplit(root / "test", "test", listing.classes));

    return splits;
}

/// Reads every file's header in parallel and keeps the readable ones in the listing's splits (the
/// others in `skipped`); returns whether any has colour, and counts the sizes in `sizes`.
bool keepReadable(std::vector<SplitScan>& splits, int threads, ImageFolderListing& listing,
                  std::map<std::pair<int, int>, std::pair<size_t, std::string>>& sizes)
{
    // Headers of all splits, read in parallel; each file's result lands in its own slot.
    std::vector<const std::string*> files;
    for (const auto& s : splits)
        for (const auto& f : s.files.files)
            files.push_back(&f);
    std::vector<ImageHeader> headers(files.size());
    std::vector<std::string> errors(files.size());
    parallelFor(files.size(), threads, [&](size_t i) {
        try {
            headers[i] = probeImage(*files[i]);
        } catch (const ImageDecodeError& e) {
            errors[i] = e.what();
        }
    });

    // Keep what was readable, in order; count sizes and colour over the kept images.
    bool anyColour = false;
    size_t at = 0;
    for (auto& s : splits) {
        ImageFileList kept;
        for (size_t i = 0; i < s.files.size(); ++i, ++at) {
            if (!errors[at].empty()) {
                listing.skipped.push_back({s.files.files[i], errors[at]});
                continue;
            }
            kept.files.push_back(s.files.files[i]);
            kept.labels.push_back(s.files.labels[i]);
            anyColour = anyColour || headers[at].colour;
            auto& entry = sizes[{headers[at].height, headers[at].width}];
            if (entry.first++ == 0)
                entry.second = s.files.files[i];
        }
        requireImagesPerClass(s, kept, listing.classes, listing.skipped);
        (s.name == "val" ? listing.val : s.name == "test" ? listing.test : listing.train) = std::move(kept);
    }

    return anyColour;
}

} // namespace

ImageFolderListing listImageFolder(const std::string& path, const ImageFolderOptions& options)
{
    if (options.channels != 0 && options.channels != 1 && options.channels != 3)
        throw std::invalid_argument("image folder '" + path + "': channels must be 0 (automatic), 1 or 3");
    if (options.height < 0 || options.width < 0 || (options.height == 0) != (options.width == 0))
        throw std::invalid_argument("image folder '" + path + "': give the image size on both axes, or neither");
    const fs::path root(path);
    std::error_code ec;
    if (!fs::is_directory(root, ec))
        throw folderError(root, std::string(fs::exists(root, ec) ? "is not a folder" : "does not exist") +
                                    "; point data.path at a folder with " + kLayoutHint);

    ImageFolderListing listing;
    listing.root = path;
    std::vector<SplitScan> splits = scanLayout(root, listing);
    std::map<std::pair<int, int>, std::pair<size_t, std::string>> sizes; // (h, w) -> (count, an example)
    const bool anyColour = keepReadable(splits, options.threads, listing, sizes);
    listing.channels = options.channels != 0 ? options.channels : (anyColour ? 3 : 1);
    if (options.height > 0) {
        listing.height = options.height;
        listing.width = options.width;
    } else if (sizes.size() == 1) {
        listing.height = sizes.begin()->first.first;
        listing.width = sizes.begin()->first.second;
    } else {
        throw sizesDiffer(root, sizes);
    }
    return listing;
}

ImageFolderData decodeImageFolder(const ImageFolderListing& listing, int threads)
{
    const int64_t c = listing.channels, h = listing.height, w = listing.width;
    if (c <= 0 || h <= 0 || w <= 0)
        throw std::invalid_argument("decodeImageFolder: the listing of '" + listing.root + "' has no image shape");
    const ImageFileList* lists[3] = {&listing.train, &listing.val, &listing.test};
    ImageSplit* outs[3] = {nullptr, nullptr, nullptr};
    ImageFolderData data;
    data.classes = listing.classes;
    data.skipped = listing.skipped;
    outs[0] = &data.train;
    outs[1] = &data.val;
    outs[2] = &data.test;

    // One index space over all splits, so that the threads stay busy across split boundaries.
    const size_t imageBytes = size_t(c * h * w);
    std::vector<std::pair<int, size_t>> work; // (split, row)
    uint8_t* bases[3] = {nullptr, nullptr, nullptr};
    for (int s = 0; s < 3; ++s) {
        outs[s]->images = torch::empty({int64_t(lists[s]->size()), c, h, w}, torch::kUInt8);
        bases[s] = outs[s]->images.data_ptr<uint8_t>();
        for (size_t i = 0; i < lists[s]->size(); ++i)
            work.emplace_back(s, i);
    }
    std::vector<std::string> errors(work.size());
    parallelFor(work.size(), threads, [&](size_t k) {
        const auto [s, i] = work[k];
        try {
            decodeImageInto(lists[s]->files[i], int(c), int(h), int(w), bases[s] + i * imageBytes);
        } catch (const ImageDecodeError& e) {
            errors[k] = e.what();
        }
    });

    // Close the gaps left by files that did not decode, keeping the order.
    size_t k = 0;
    for (int s = 0; s < 3; ++s) {
        const ImageFileList& list = *lists[s];
        ImageFileList kept;
        uint8_t* base = bases[s];
        for (size_t i = 0; i < list.size(); ++i, ++k) {
            if (!errors[k].empty()) {
                data.skipped.push_back({list.files[i], errors[k]});
                continue;
            }
            if (kept.size() != i)
                std::memmove(base + kept.size() * imageBytes, base + i * imageBytes, imageBytes);
            kept.files.push_back(list.files[i]);
            kept.labels.push_back(list.labels[i]);
        }
        if (kept.size() != list.size()) {
            // Each class folder this split listed must still have an image.
            SplitScan split;
            split.dir = listing.splitFolders ? fs::path(listing.root) / (s == 0   ? "train"
                                                                         : s == 1 ? "val"
                                                                                  : "test")
                                             : fs::path(listing.root);
            for (const int64_t label : list.labels)
                if (split.classesPresent.empty() || split.classesPresent.back() != label)
                    split.classesPresent.push_back(label);
            requireImagesPerClass(split, kept, listing.classes, data.skipped);
            outs[s]->images = outs[s]->images.narrow(0, 0, int64_t(kept.size()));
        }
        outs[s]->labels = torch::empty({int64_t(kept.size())}, torch::kInt64);
        std::copy(kept.labels.begin(), kept.labels.end(), outs[s]->labels.data_ptr<int64_t>());
        outs[s]->files = std::move(kept.files);
    }
    return data;
}

ImageFolderData readImageFolder(const std::string& path, const ImageFolderOptions& options)
{
    return decodeImageFolder(listImageFolder(path, options), options.threads);
}

torch::Tensor decodeListedImage(const ImageFolderListing& listing, const std::string& file)
{
    return decodeImage(file, listing.channels, listing.height, listing.width);
}

} // namespace entrena
