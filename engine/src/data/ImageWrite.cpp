#include "data/ImageWrite.h"

#include "entrena/store/AtomicFile.h"

#include <png.h>
#include <stdexcept>
#include <vector>

namespace entrena {
namespace {

void appendBytes(png_structp png, png_bytep data, png_size_t size)
{
    auto* out = static_cast<std::vector<unsigned char>*>(png_get_io_ptr(png));
    out->insert(out->end(), data, data + size);
}

void flushNothing(png_structp) {}

} // namespace

void writePng(const std::string& path, const torch::Tensor& image)
{
    const int64_t c = image.size(0), h = image.size(1), w = image.size(2);
    if (c != 1 && c != 3)
        throw std::runtime_error("cannot write '" + path + "': a PNG here has 1 or 3 channels, not " + std::to_string(c));
    const auto hwc = image.to(torch::kUInt8).permute({1, 2, 0}).contiguous(); // PNG rows interleave channels
    std::vector<unsigned char> bytes;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        throw std::runtime_error("cannot write '" + path + "': libpng could not start");
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        throw std::runtime_error("cannot write '" + path + "': libpng failed to encode it");
    }
    png_set_write_fn(png, &bytes, appendBytes, flushNothing);
    png_set_IHDR(png, info, png_uint_32(w), png_uint_32(h), 8, c == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_GRAY,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    const auto* data = hwc.data_ptr<uint8_t>();
    for (int64_t row = 0; row < h; ++row)
        png_write_row(png, const_cast<png_bytep>(data + row * w * c));
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    AtomicFile file(path);
    file.write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    file.commit();
}

} // namespace entrena
