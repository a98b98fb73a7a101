#include "data/Samples.h"

#include <cstring>

namespace entrena {

namespace {

/// dst[k] = src[k] × a + b: compiled for AVX-512 and AVX2 too, picked by the CPU at run time (the
/// engine is built for any x86-64), as LibTorch's own kernels are.
__attribute__((target_clones("avx512f", "avx2", "default"))) void scalePlane(const uint8_t* src, float* dst, int64_t n, float a,
                                                                             float b)
{
    for (int64_t k = 0; k < n; ++k)
        dst[k] = float(src[k]) * a + b;
}

/// (pixel / 255 − mean) / std = pixel × scale + shift, per channel, written straight into `out`: one
/// pass over the bytes, where casting, dividing and subtracting tensor by tensor takes four.
void normaliseRows(const ChannelNorm& norm, const uint8_t* const* rows, int64_t n, int64_t channels, int64_t plane, float* out)
{
    std::vector<float> scale(static_cast<size_t>(channels)), shift(static_cast<size_t>(channels));
    for (int64_t c = 0; c < channels; ++c) {
        scale[size_t(c)] = float(1.0 / (255.0 * norm.std[size_t(c)]));
        shift[size_t(c)] = float(-norm.mean[size_t(c)] / norm.std[size_t(c)]);
    }
    for (int64_t i = 0; i < n; ++i) {
        const uint8_t* in = rows[i];
        for (int64_t c = 0; c < channels; ++c) {
            scalePlane(in + c * plane, out + (i * channels + c) * plane, plane, scale[size_t(c)], shift[size_t(c)]);
        }
    }
}

} // namespace

torch::Tensor ChannelNorm::apply(const torch::Tensor& stored) const
{
    if (stored.scalar_type() != torch::kUInt8)
        return stored;
    const auto in = stored.contiguous();
    const int64_t n = in.size(0), c = in.size(1), plane = in.size(2) * in.size(3);
    auto out = torch::empty(in.sizes(), torch::kFloat32);
    std::vector<const uint8_t*> rows(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
        rows[size_t(i)] = in.data_ptr<uint8_t>() + i * c * plane;
    normaliseRows(*this, rows.data(), n, c, plane, out.data_ptr<float>());
    return out;
}

ChannelNorm ChannelNorm::measure(const torch::Tensor& images)
{
    ChannelNorm n;
    if (images.size(0) == 0)
        return n;
    const int64_t c = images.size(1);
    // Per channel over every pixel, in double: sums of a million images stay exact enough.
    const auto perChannel = images.transpose(0, 1).reshape({c, -1});
    for (int64_t i = 0; i < c; ++i) {
        const auto v = perChannel[i].to(torch::kFloat64).div_(255.0);
        n.mean.push_back(v.mean().item<double>());
        n.std.push_back(std::max(1e-6, v.std().item<double>()));
    }
    return n;
}

Samples::Samples(torch::Tensor x, ChannelNorm norm)
    : x_(x.contiguous())
    , norm_(std::move(norm))
    , rows_(x_.size(0))
{
    for (int i = 0; i < 3; ++i)
        shape_[size_t(i)] = x_.dim() > i + 1 ? x_.size(i + 1) : 1;
}

Samples::Samples(int64_t rows, std::array<int64_t, 3> shape, RowDecoder decode, ChannelNorm norm)
    : norm_(std::move(norm))
    , rows_(rows)
    , shape_(shape)
    , decode_(std::move(decode))
{
}

int64_t Samples::size(int64_t dim) const
{
    return dim == 0 ? rows_ : shape_.at(size_t(dim - 1));
}

torch::Tensor Samples::gather(const int64_t* idx, int64_t n) const
{
    if (decode_) {
        auto out = torch::empty({n, shape_[0], shape_[1], shape_[2]}, torch::kUInt8);
        const int64_t rowBytes = shape_[0] * shape_[1] * shape_[2];
        for (int64_t i = 0; i < n; ++i)
            decode_(rowMap_ ? (*rowMap_)[size_t(idx[i])] : idx[i], out.data_ptr<uint8_t>() + i * rowBytes);
        return out;
    }
    // Rows of a contiguous CPU tensor copied one by one on this thread: index_select would fan out
    // over the OpenMP pool and compete with the training thread's kernels for the same cores.
    auto sizes = x_.sizes().vec();
    sizes[0] = n;
    auto out = torch::empty(sizes, x_.options());
    const size_t rowBytes = size_t(x_.numel() / std::max<int64_t>(1, x_.size(0))) * x_.element_size();
    const auto* from = static_cast<const char*>(x_.data_ptr());
    auto* to = static_cast<char*>(out.data_ptr());
    for (int64_t i = 0; i < n; ++i)
        std::memcpy(to + size_t(i) * rowBytes, from + size_t(idx[i]) * rowBytes, rowBytes);
    return out;
}

torch::Tensor Samples::range(int64_t from, int64_t to) const
{
    if (!decode_)
        return x_.slice(0, from, to);
    std::vector<int64_t> idx;
    for (int64_t i = from; i < to; ++i)
        idx.push_back(i);
    return gather(idx.data(), int64_t(idx.size()));
}

torch::Tensor Samples::gatherInput(const int64_t* idx, int64_t n) const
{
    if (decode_ || x_.scalar_type() != torch::kUInt8)
        return input(gather(idx, n));
    // Straight from the cached rows to the model's floats: no uint8 copy in between.
    const int64_t c = shape_[0], plane = shape_[1] * shape_[2];
    auto out = torch::empty({n, c, shape_[1], shape_[2]}, torch::kFloat32);
    std::vector<const uint8_t*> rows(static_cast<size_t>(n));
    const uint8_t* base = x_.data_ptr<uint8_t>();
    for (int64_t i = 0; i < n; ++i)
        rows[size_t(i)] = base + idx[i] * c * plane;
    normaliseRows(norm_, rows.data(), n, c, plane, out.data_ptr<float>());
    return out;
}

Samples Samples::select(const torch::Tensor& idx) const
{
    if (!decode_)
        return Samples(x_.index_select(0, idx), norm_);
    Samples s = *this;
    auto map = std::make_shared<std::vector<int64_t>>();
    const auto contiguous = idx.contiguous();
    const int64_t* p = contiguous.data_ptr<int64_t>();
    for (int64_t i = 0; i < contiguous.numel(); ++i)
        map->push_back(rowMap_ ? (*rowMap_)[size_t(p[i])] : p[i]);
    s.rowMap_ = std::move(map);
    s.rows_ = contiguous.numel();
    return s;
}

} // namespace entrena
