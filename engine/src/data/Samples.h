#pragma once
// A split's inputs, however they are held: rows of a float tensor (IDX, tables, synthetic data,
// normalised when loaded), uint8 images in memory (image folders and CIFAR-10: a quarter of the
// float's memory, normalised per channel as batches are made), or image files decoded as they are
// taken, when the decoded images would not fit in data.cache_mb. Augmentation works on what is
// stored (pixels, for images); input() makes the model's input from it.

#include <array>
#include <functional>
#include <memory>
#include <torch/torch.h>
#include <vector>

namespace entrena {

/// Per-channel normalisation of uint8 images: (pixel / 255 − mean[c]) / std[c].
struct ChannelNorm {
    std::vector<double> mean, std;
    bool empty() const { return mean.empty(); }
    /// uint8 [N, C, H, W] → float, normalised; float input is returned as it is.
    torch::Tensor apply(const torch::Tensor& stored) const;
    /// The mean and standard deviation of each channel of uint8 images [N, C, H, W].
    static ChannelNorm measure(const torch::Tensor& images);
};

/// Fills one row (uint8, C × H × W bytes) of a split decoded on the fly; throws naming the file.
using RowDecoder = std::function<void(int64_t row, uint8_t* out)>;

class Samples {
public:
    Samples() = default;
    /// Rows in memory: float (ready for the model) or uint8 images (normalised by `norm`).
    Samples(torch::Tensor x, ChannelNorm norm = {}); // NOLINT: a tensor is a split's samples
    /// `rows` images of shape `shape` (C, H, W) decoded by `decode` when taken.
    Samples(int64_t rows, std::array<int64_t, 3> shape, RowDecoder decode, ChannelNorm norm);

    /// As a tensor's sizes: dimension 0 is the number of samples, 1–3 a sample's shape.
    int64_t size(int64_t dim) const;
    bool onDisk() const { return static_cast<bool>(decode_); }
    bool isImages() const { return onDisk() || x_.scalar_type() == torch::kUInt8; }
    const ChannelNorm& norm() const { return norm_; }
    /// In memory only: the tensor (for tests and summaries).
    const torch::Tensor& tensor() const { return x_; }
    /// Bytes held in memory.
    int64_t bytes() const { return x_.defined() ? x_.numel() * x_.element_size() : 0; }

    /// Rows idx[0 … n) as stored (uint8 images before normalisation), contiguous, on this thread.
    torch::Tensor gather(const int64_t* idx, int64_t n) const;
    /// Rows [from, to) as stored.
    torch::Tensor range(int64_t from, int64_t to) const;
    /// The model's input from stored rows: float, normalised.
    torch::Tensor input(const torch::Tensor& stored) const { return norm_.apply(stored); }
    /// input(gather(idx, n)) in one pass where it can be (uint8 images in memory).
    torch::Tensor gatherInput(const int64_t* idx, int64_t n) const;
    /// The same samples, only the rows `idx` (an int64 tensor), in that order.
    Samples select(const torch::Tensor& idx) const;

private:
    torch::Tensor x_;
    ChannelNorm norm_;
    int64_t rows_ = 0;
    std::array<int64_t, 3> shape_{};
    RowDecoder decode_;
    std::shared_ptr<std::vector<int64_t>> rowMap_; ///< on disk: stored row of each sample (after select)
};

} // namespace entrena
