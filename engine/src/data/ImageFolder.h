#pragma once
// A folder of images with one subfolder per class, as torchvision's ImageFolder reads it:
//
//   path/cat/1.jpg, path/dog/2.png, …                        (no split from files)
//   path/train/cat/…, path/val/cat/…, path/test/cat/…        (val/ and test/ optional)
//
// Listing (cheap: names and image headers) is separate from decoding (every pixel), so that a
// caller can see how large the decoded cache would be before deciding to build it.

#include <cstdint>
#include <string>
#include <torch/torch.h>
#include <vector>

namespace entrena {

struct ImageFolderOptions {
    /// 1 (grey) or 3 (RGB); 0: 3 when any image's header says colour, else 1.
    int channels = 0;
    /// The size every image is resized to; 0 × 0: the images' own size, which must then be the same
    /// for all of them.
    int height = 0;
    int width = 0;
    /// Threads reading headers and decoding (the output order does not depend on it); ≥ 1.
    int threads = 1;
};

/// A file with an image extension that could not be read, and why.
struct SkippedImage {
    std::string path;
    std::string reason;
};

/// The files of one split, in order: by class, then by path (bytewise).
struct ImageFileList {
    std::vector<std::string> files;
    std::vector<int64_t> labels; ///< index into ImageFolderListing::classes
    size_t size() const { return files.size(); }
};

struct ImageFolderListing {
    std::string root;
    /// true: root holds train/ (and maybe val/, test/); false: root's subfolders are the classes.
    bool splitFolders = false;
    bool hasVal = false;              ///< a val/ folder exists (splitFolders only)
    bool hasTest = false;             ///< a test/ folder exists (splitFolders only)
    std::vector<std::string> classes; ///< the training split's class folders, sorted bytewise
    ImageFileList train, val, test;
    /// What every image decodes to: channels × height × width.
    int channels = 0;
    int height = 0;
    int width = 0;
    /// Files with an image extension whose header could not be read, with the reason.
    std::vector<SkippedImage> skipped;

    int64_t imageCount() const { return int64_t(train.size() + val.size() + test.size()); }
    /// Bytes of the decoded uint8 cache of all splits: N × C × H × W.
    int64_t cacheBytes() const { return imageCount() * int64_t(channels) * height * width; }
};

/// Lists `path` (see the top of this file) and reads every image's header. Files ending in .png,
/// .jpg or .jpeg (any case) are images; other files, and names starting with '.', are ignored.
/// Throws std::runtime_error naming the folder and what to do when: path is not a folder; it has
/// no class folders or only one; a class folder has no readable image; a val/ or test/ class is
/// not a training class; or, without a target size, the images differ in size (the message
/// suggests data.image_size).
ImageFolderListing listImageFolder(const std::string& path, const ImageFolderOptions& options);

struct ImageSplit {
    torch::Tensor images;           ///< uint8 [N, C, H, W], contiguous
    torch::Tensor labels;           ///< int64 [N]
    std::vector<std::string> files; ///< the file each row was decoded from
};

struct ImageFolderData {
    std::vector<std::string> classes;
    ImageSplit train, val, test; ///< val, test: [0, C, H, W] when the folder has none
    /// The listing's skipped files and those whose pixels did not decode.
    std::vector<SkippedImage> skipped;
};

/// Decodes every listed image once, on `threads` threads, into one tensor per split. A file that
/// fails to decode is left out (and listed in `skipped`); a class left without images is an error.
ImageFolderData decodeImageFolder(const ImageFolderListing& listing, int threads);

/// listImageFolder, then decodeImageFolder with options.threads.
ImageFolderData readImageFolder(const std::string& path, const ImageFolderOptions& options);

/// One listed file decoded as the listing decodes them: uint8 [C, H, W]. For decoding on the fly
/// when the whole cache does not fit in memory. Throws ImageDecodeError naming the file.
torch::Tensor decodeListedImage(const ImageFolderListing& listing, const std::string& file);

} // namespace entrena
