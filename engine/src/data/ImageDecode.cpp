#include "data/ImageDecode.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <png.h>
#include <turbojpeg.h>
#include <vector>

namespace entrena {
namespace {

// A decoded image beyond this many pixels is refused before allocating: a damaged header can
// claim a size of gigabytes, and no image in a training set needs more (16k × 16k).
constexpr uint64_t kMaxPixels = uint64_t(1) << 28;

[[noreturn]] void fail(const std::string& path, const std::string& what)
{
    throw ImageDecodeError("image file '" + path + "': " + what);
}

std::vector<uint8_t> readWholeFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        fail(path, std::string("cannot open it (") + std::strerror(errno ? errno : ENOENT) + ")");
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size < 0)
        fail(path, "cannot read it");
    in.seekg(0);
    std::vector<uint8_t> bytes(size_t(size), 0);
    if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), size))
        fail(path, "cannot read it");
    return bytes;
}

const uint8_t kPngSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

bool isPng(const uint8_t* b, size_t n)
{
    return n >= 8 && std::memcmp(b, kPngSignature, 8) == 0;
}
bool isJpeg(const uint8_t* b, size_t n)
{
    return n >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF;
}

ImageFormat formatOf(const std::string& path, const uint8_t* b, size_t n)
{
    if (isPng(b, n))
        return ImageFormat::Png;
    if (isJpeg(b, n))
        return ImageFormat::Jpeg;
    fail(path, n == 0 ? std::string("the file is empty") : std::string("not a PNG or JPEG image (judged by its first bytes)"));
}

uint32_t be32(const uint8_t* b)
{
    return uint32_t(b[0]) << 24 | uint32_t(b[1]) << 16 | uint32_t(b[2]) << 8 | b[3];
}
uint16_t be16(const uint8_t* b)
{
    return uint16_t(b[0] << 8 | b[1]);
}

void checkSize(const std::string& path, uint64_t width, uint64_t height)
{
    if (width == 0 || height == 0)
        fail(path, "its header gives a size of " + std::to_string(width) + "x" + std::to_string(height));
    if (width * height > kMaxPixels)
        fail(path, "its header gives a size of " + std::to_string(width) + "x" + std::to_string(height) +
                       ", larger than any image this reader accepts");
}

// ---- header probes ----------------------------------------------------------------------------

ImageHeader probePng(const std::string& path, std::ifstream& in)
{
    // Signature (8), IHDR length and type (8), width, height, bit depth, colour type (10).
    uint8_t head[26];
    if (!in.read(reinterpret_cast<char*>(head), sizeof head))
        fail(path, "the PNG header is truncated");
    if (std::memcmp(head + 12, "IHDR", 4) != 0)
        fail(path, "the PNG header is damaged (no IHDR chunk first)");
    ImageHeader h;
    h.format = ImageFormat::Png;
    h.width = int(std::min<uint32_t>(be32(head + 16), 1u << 30));
    h.height = int(std::min<uint32_t>(be32(head + 20), 1u << 30));
    checkSize(path, uint64_t(h.width), uint64_t(h.height));
    const uint8_t colourType = head[25];
    h.colour = (colourType & 2) != 0; // PNG's colour bit: RGB, RGBA and palette
    if (colourType != 3)
        return h;
    // A palette can hold only greys (scanned documents, some converted MNIST sets): then the image
    // is grey. The palette comes before the image data; walk the chunks to it. Skip IHDR's rest.
    in.seekg(8 + 8 + 13 + 4);
    for (int chunk = 0; chunk < 64; ++chunk) {
        uint8_t c[8];
        if (!in.read(reinterpret_cast<char*>(c), 8))
            fail(path, "the PNG file ends before its palette");
        const uint32_t length = be32(c);
        if (std::memcmp(c + 4, "IDAT", 4) == 0 || std::memcmp(c + 4, "IEND", 4) == 0)
            fail(path, "the PNG file has a palette colour type but no palette");
        if (std::memcmp(c + 4, "PLTE", 4) == 0) {
            if (length == 0 || length % 3 != 0 || length > 768)
                fail(path, "the PNG palette is damaged");
            uint8_t palette[768];
            if (!in.read(reinterpret_cast<char*>(palette), length))
                fail(path, "the PNG palette is truncated");
            h.colour = false;
            for (uint32_t i = 0; i < length; i += 3)
                h.colour = h.colour || palette[i] != palette[i + 1] || palette[i] != palette[i + 2];
            return h;
        }
        in.seekg(std::streamoff(length) + 4, std::ios::cur); // data and CRC
    }
    return h; // a palette behind 64 other chunks: assume colour rather than read further
}

bool isStartOfFrame(uint8_t marker)
{
    // SOF0 … SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
}

ImageHeader probeJpeg(const std::string& path, std::ifstream& in)
{
    // Walk the marker segments (APPn with EXIF thumbnails can be 64 KiB each) to the frame header.
    in.seekg(2);
    for (int segment = 0; segment < 1000; ++segment) {
        int byte = in.get();
        if (byte == EOF)
            break;
        if (byte != 0xFF)
            fail(path, "the JPEG header is damaged (a marker was expected)");
        while (byte == 0xFF) // fill bytes
            byte = in.get();
        if (byte == EOF)
            break;
        const uint8_t marker = uint8_t(byte);
        if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7))
            continue; // markers without a length
        if (marker == 0xD9 || marker == 0xDA)
            fail(path, "the JPEG file has no frame header before its image data");
        uint8_t len[2];
        if (!in.read(reinterpret_cast<char*>(len), 2))
            break;
        const uint16_t length = be16(len);
        if (length < 2)
            fail(path, "the JPEG header is damaged (a segment of length " + std::to_string(length) + ")");
        if (isStartOfFrame(marker)) {
            uint8_t sof[6]; // precision, height, width, components
            if (length < 8 || !in.read(reinterpret_cast<char*>(sof), 6))
                break;
            ImageHeader h;
            h.format = ImageFormat::Jpeg;
            h.height = be16(sof + 1);
            h.width = be16(sof + 3);
            if (h.height == 0)
                fail(path, "the JPEG file gives its height after the image data (DNL), which is not supported");
            checkSize(path, uint64_t(h.width), uint64_t(h.height));
            h.colour = sof[5] != 1;
            return h;
        }
        in.seekg(length - 2, std::ios::cur);
    }
    fail(path, "the JPEG header is truncated");
}

// ---- PNG --------------------------------------------------------------------------------------

struct PngInput {
    const uint8_t* data;
    size_t size;
    size_t at;
};

struct PngErrorText {
    char text[200];
};

void pngReadBytes(png_structp png, png_bytep out, png_size_t count)
{
    auto* in = static_cast<PngInput*>(png_get_io_ptr(png));
    if (count > in->size - in->at)
        png_error(png, "the file ends before the image does (truncated)");
    std::memcpy(out, in->data + in->at, count);
    in->at += count;
}

void pngOnError(png_structp png, png_const_charp message)
{
    auto* error = static_cast<PngErrorText*>(png_get_error_ptr(png));
    std::snprintf(error->text, sizeof error->text, "%s", message);
    png_longjmp(png, 1);
}

// Warnings (an incorrect sRGB profile, an unknown chunk) do not make an image unusable; PIL
// ignores them too.
void pngOnWarning(png_structp, png_const_charp) {}

// libpng reports errors by longjmp. These two functions hold the setjmp points and nothing with a
// destructor, because longjmp would skip it; the buffers are owned by the caller.
bool pngReadLayout(png_structp png, png_infop info, png_uint_32* width, png_uint_32* height, int* channels, size_t* rowBytes)
{
    if (setjmp(png_jmpbuf(png)))
        return false;
    png_read_info(png, info);
    const int depth = png_get_bit_depth(png, info);
    const int type = png_get_color_type(png, info);
    if (depth == 16)
        png_set_strip_16(png); // the high byte, as PIL reads 16-bit colour
    if (type == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(png); // with a tRNS chunk this also yields alpha, dropped later
    if (type == PNG_COLOR_TYPE_GRAY && depth < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    *width = png_get_image_width(png, info);
    *height = png_get_image_height(png, info);
    *channels = png_get_channels(png, info);
    *rowBytes = png_get_rowbytes(png, info);
    return true;
}

bool pngReadRows(png_structp png, png_bytepp rows)
{
    if (setjmp(png_jmpbuf(png)))
        return false;
    png_read_image(png, rows);
    return true;
}

/// Pixels interleaved (height × width × channels), channels 1 or 3.
struct Pixels {
    int width = 0, height = 0, channels = 0;
    std::vector<uint8_t> data;
};

Pixels decodePng(const std::string& path, const std::vector<uint8_t>& bytes)
{
    PngErrorText error{};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &error, pngOnError, pngOnWarning);
    if (!png)
        throw std::bad_alloc();
    png_infop info = png_create_info_struct(png);
    struct Destroy {
        png_structp& png;
        png_infop& info;
        ~Destroy() { png_destroy_read_struct(&png, info ? &info : nullptr, nullptr); }
    } destroy{png, info};
    if (!info)
        throw std::bad_alloc();
    PngInput input{bytes.data(), bytes.size(), 0};
    png_set_read_fn(png, &input, pngReadBytes);

    png_uint_32 width = 0, height = 0;
    int stored = 0;
    size_t rowBytes = 0;
    if (!pngReadLayout(png, info, &width, &height, &stored, &rowBytes))
        fail(path, std::string("damaged PNG (") + error.text + ")");
    checkSize(path, width, height);
    if (rowBytes != size_t(width) * size_t(stored))
        fail(path, "unexpected PNG row layout");
    std::vector<uint8_t> buffer(size_t(height) * rowBytes);
    std::vector<png_bytep> rows(height);
    for (png_uint_32 y = 0; y < height; ++y)
        rows[y] = buffer.data() + size_t(y) * rowBytes;
    if (!pngReadRows(png, rows.data()))
        fail(path, std::string("damaged PNG (") + error.text + ")");

    Pixels p;
    p.width = int(width);
    p.height = int(height);
    p.channels = stored >= 3 ? 3 : 1;
    if (stored == p.channels) {
        p.data = std::move(buffer);
        return p;
    }
    // Grey + alpha or RGBA: drop the alpha channel.
    const size_t count = size_t(width) * height;
    p.data.resize(count * size_t(p.channels));
    for (size_t i = 0; i < count; ++i)
        for (int c = 0; c < p.channels; ++c)
            p.data[i * size_t(p.channels) + size_t(c)] = buffer[i * size_t(stored) + size_t(c)];
    return p;
}

// ---- JPEG -------------------------------------------------------------------------------------

// One decompressor per thread, kept: creating one allocates libjpeg's whole state. After any
// failure it is replaced: a handle that met a damaged file can refuse the next, valid one
// ("Unsupported marker type"), which the fuzzing test saw.
class ThreadDecompressor {
public:
    ThreadDecompressor() { reset(); }
    ~ThreadDecompressor() { tjDestroy(handle_); }
    ThreadDecompressor(const ThreadDecompressor&) = delete;
    ThreadDecompressor& operator=(const ThreadDecompressor&) = delete;
    tjhandle get()
    {
        if (!handle_)
            reset();
        if (!handle_)
            throw std::bad_alloc();
        return handle_;
    }
    void reset()
    {
        if (handle_)
            tjDestroy(handle_);
        handle_ = tjInitDecompress();
    }

private:
    tjhandle handle_ = nullptr;
};

ThreadDecompressor& threadDecompressor()
{
    thread_local ThreadDecompressor decompressor;
    return decompressor;
}

// Adobe's CMYK JPEGs (the common ones) store inverted ink values: white is 255 in all four.
void cmykToRgb(Pixels& p, const std::vector<uint8_t>& cmyk)
{
    const size_t count = size_t(p.width) * size_t(p.height);
    p.data.resize(count * 3);
    for (size_t i = 0; i < count; ++i) {
        const unsigned k = cmyk[i * 4 + 3];
        for (int c = 0; c < 3; ++c)
            p.data[i * 3 + size_t(c)] = uint8_t((cmyk[i * 4 + size_t(c)] * k + 127) / 255);
    }
}

void rgbToGrey(Pixels& p);

/// Decodes at the smallest of TurboJPEG's 1/8, 1/4 and 1/2 scales that is still at least the
/// target size on both axes (DCT scaling averages the dropped detail, so nothing aliases), or whole.
Pixels decodeJpeg(const std::string& path, const std::vector<uint8_t>& bytes, int channels, int targetHeight, int targetWidth)
{
    ThreadDecompressor& decompressor = threadDecompressor();
    tjhandle tj = decompressor.get();
    const auto failAndReset = [&](const std::string& message) {
        decompressor.reset();
        fail(path, "damaged JPEG (" + message + ")");
    };
    int width = 0, height = 0, subsampling = 0, colourspace = 0;
    if (tjDecompressHeader3(tj, bytes.data(), (unsigned long)bytes.size(), &width, &height, &subsampling, &colourspace) != 0)
        failAndReset(tjGetErrorStr2(tj));
    checkSize(path, uint64_t(width), uint64_t(height));
    tjscalingfactor scale{1, 1};
    if (targetHeight > 0 && targetWidth > 0) {
        for (const int denominator : {8, 4, 2}) {
            const tjscalingfactor f{1, denominator};
            if (TJSCALED(width, f) >= targetWidth && TJSCALED(height, f) >= targetHeight) {
                scale = f;
                break;
            }
        }
    }
    Pixels p;
    p.width = TJSCALED(width, scale);
    p.height = TJSCALED(height, scale);
    // libjpeg converts neither CMYK nor YCCK to RGB or grey: take the inks and convert here.
    const bool cmyk = colourspace == TJCS_CMYK || colourspace == TJCS_YCCK;
    const int stored = colourspace == TJCS_GRAY ? 1 : 3;
    p.channels = cmyk ? 3 : (channels == 0 ? stored : channels);
    const int format = cmyk ? TJPF_CMYK : (p.channels == 1 ? TJPF_GRAY : TJPF_RGB);
    std::vector<uint8_t> out(size_t(p.width) * size_t(p.height) * size_t(tjPixelSize[format]));
    if (tjDecompress2(tj, bytes.data(), (unsigned long)bytes.size(), out.data(), p.width, 0, p.height, format,
                      TJFLAG_ACCURATEDCT) != 0) {
        const std::string message = tjGetErrorStr2(tj);
        // Warnings (extraneous bytes, an odd marker) leave a usable image, as PIL accepts it; a
        // file that ends early leaves grey where the image was, which is no training sample.
        if (tjGetErrorCode(tj) != TJERR_WARNING || message.find("Premature end") != std::string::npos)
            failAndReset(message);
    }
    if (cmyk) {
        cmykToRgb(p, out);
        if (channels == 1)
            rgbToGrey(p);
    } else {
        p.data = std::move(out);
    }
    return p;
}

// ---- channels and size ------------------------------------------------------------------------

void rgbToGrey(Pixels& p)
{
    // ITU-R 601 luma in 16-bit fixed point, rounded: the weights PIL's convert("L") uses.
    const size_t count = size_t(p.width) * size_t(p.height);
    for (size_t i = 0; i < count; ++i) {
        const uint8_t* rgb = &p.data[i * 3];
        p.data[i] = uint8_t((rgb[0] * 19595u + rgb[1] * 38470u + rgb[2] * 7471u + 0x8000u) >> 16);
    }
    p.data.resize(count);
    p.channels = 1;
}

/// How output coordinates of one axis draw on the source: output i is the sum over k < count[i]
/// of weight[i * span + k] × source[first[i] + k].
struct AxisTaps {
    int span = 1;
    std::vector<int> first, count;
    std::vector<float> weight;
};

AxisTaps axisTaps(int in, int out)
{
    AxisTaps t;
    t.first.resize(size_t(out));
    t.count.resize(size_t(out));
    const double scale = double(in) / double(out);
    if (out < in) {
        // Area: output i covers source interval [i·scale, (i+1)·scale); each source pixel weighs by
        // the length it shares with that interval.
        t.span = int(std::ceil(scale)) + 1;
        t.weight.assign(size_t(out) * size_t(t.span), 0.0f);
        for (int i = 0; i < out; ++i) {
            const double a = i * scale, b = (i + 1) * scale;
            const int j0 = int(std::floor(a));
            const int j1 = std::min(in, int(std::ceil(b)));
            t.first[size_t(i)] = j0;
            t.count[size_t(i)] = j1 - j0;
            for (int j = j0; j < j1; ++j)
                t.weight[size_t(i) * size_t(t.span) + size_t(j - j0)] =
                    float((std::min(b, double(j + 1)) - std::max(a, double(j))) / scale);
        }
    } else {
        // Bilinear with pixel centres aligned (align_corners=False), clamped at the borders.
        t.span = 2;
        t.weight.assign(size_t(out) * 2, 0.0f);
        for (int i = 0; i < out; ++i) {
            const double x = std::clamp((i + 0.5) * scale - 0.5, 0.0, double(in - 1));
            const int j0 = int(std::floor(x));
            const double f = x - j0;
            t.first[size_t(i)] = j0;
            t.count[size_t(i)] = j0 + 1 < in ? 2 : 1;
            t.weight[size_t(i) * 2] = float(1.0 - f);
            t.weight[size_t(i) * 2 + 1] = float(f);
        }
    }
    return t;
}

/// Writes p (interleaved) into `out` as channel-first planes of height × width, resizing when
/// the size differs.
void toPlanes(const Pixels& p, int height, int width, uint8_t* out)
{
    const int c = p.channels;
    const size_t plane = size_t(height) * size_t(width);
    if (p.height == height && p.width == width) {
        for (size_t i = 0; i < plane; ++i)
            for (int ch = 0; ch < c; ++ch)
                out[size_t(ch) * plane + i] = p.data[i * size_t(c) + size_t(ch)];
        return;
    }
    // Separable: rows first into floats (source height × target width), then columns.
    const AxisTaps tx = axisTaps(p.width, width), ty = axisTaps(p.height, height);
    std::vector<float> rows(size_t(p.height) * size_t(width) * size_t(c), 0.0f);
    for (int y = 0; y < p.height; ++y) {
        const uint8_t* src = &p.data[size_t(y) * size_t(p.width) * size_t(c)];
        float* dst = &rows[size_t(y) * size_t(width) * size_t(c)];
        for (int x = 0; x < width; ++x) {
            const float* w = &tx.weight[size_t(x) * size_t(tx.span)];
            const uint8_t* s = src + size_t(tx.first[size_t(x)]) * size_t(c);
            for (int ch = 0; ch < c; ++ch) {
                float sum = 0;
                for (int k = 0; k < tx.count[size_t(x)]; ++k)
                    sum += w[k] * float(s[size_t(k) * size_t(c) + size_t(ch)]);
                dst[size_t(x) * size_t(c) + size_t(ch)] = sum;
            }
        }
    }
    for (int y = 0; y < height; ++y) {
        const float* w = &ty.weight[size_t(y) * size_t(ty.span)];
        const int first = ty.first[size_t(y)], count = ty.count[size_t(y)];
        for (int x = 0; x < width; ++x) {
            for (int ch = 0; ch < c; ++ch) {
                float sum = 0;
                for (int k = 0; k < count; ++k)
                    sum += w[k] * rows[(size_t(first + k) * size_t(width) + size_t(x)) * size_t(c) + size_t(ch)];
                out[size_t(ch) * plane + size_t(y) * size_t(width) + size_t(x)] = uint8_t(std::clamp(int(sum + 0.5f), 0, 255));
            }
        }
    }
}

/// Decoded, with the channels asked for when that is cheaper before resizing (to grey), at the
/// stored size or a JPEG's reduced scale.
Pixels decodePixels(const std::string& path, int channels, int height, int width)
{
    const std::vector<uint8_t> bytes = readWholeFile(path);
    Pixels p = formatOf(path, bytes.data(), bytes.size()) == ImageFormat::Png ? decodePng(path, bytes)
                                                                              : decodeJpeg(path, bytes, channels, height, width);
    if (channels == 1 && p.channels == 3)
        rgbToGrey(p);
    return p;
}

void checkRequest(const std::string& path, int channels, int height, int width)
{
    if (channels != 0 && channels != 1 && channels != 3)
        throw std::invalid_argument("decoding '" + path + "': channels must be 1 or 3, not " + std::to_string(channels));
    if (height < 0 || width < 0 || (height == 0) != (width == 0))
        throw std::invalid_argument("decoding '" + path + "': the size must be given on both axes, or neither");
}

} // namespace

ImageHeader probeImage(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        fail(path, std::string("cannot open it (") + std::strerror(errno ? errno : ENOENT) + ")");
    uint8_t magic[8] = {};
    in.read(reinterpret_cast<char*>(magic), 8);
    const size_t got = size_t(in.gcount());
    in.clear();
    in.seekg(0);
    return formatOf(path, magic, got) == ImageFormat::Png ? probePng(path, in) : probeJpeg(path, in);
}

void decodeImageInto(const std::string& path, int channels, int height, int width, uint8_t* out)
{
    checkRequest(path, channels, height, width);
    if (channels == 0 || height == 0)
        throw std::invalid_argument("decoding '" + path + "' into a buffer needs its channels and size");
    const Pixels p = decodePixels(path, channels, height, width);
    const size_t plane = size_t(height) * size_t(width);
    toPlanes(p, height, width, out);
    if (channels == 3 && p.channels == 1) { // grey to RGB: the one plane three times
        std::memcpy(out + plane, out, plane);
        std::memcpy(out + 2 * plane, out, plane);
    }
}

torch::Tensor decodeImage(const std::string& path, int channels, int height, int width)
{
    checkRequest(path, channels, height, width);
    const Pixels p = decodePixels(path, channels, height, width);
    if (height == 0) {
        // A JPEG is decoded whole without a target, so this is the stored size.
        height = p.height;
        width = p.width;
    }
    const int c = channels == 0 ? p.channels : channels;
    auto image = torch::empty({c, height, width}, torch::kUInt8);
    uint8_t* out = image.data_ptr<uint8_t>();
    toPlanes(p, height, width, out);
    if (c == 3 && p.channels == 1) {
        const size_t plane = size_t(height) * size_t(width);
        std::memcpy(out + plane, out, plane);
        std::memcpy(out + 2 * plane, out, plane);
    }
    return image;
}

} // namespace entrena
