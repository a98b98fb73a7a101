#pragma once
// Decoding of PNG (libpng) and JPEG (TurboJPEG) image files into uint8 pixels, channel-first, at a
// requested size and number of channels. The format is told by the file's first bytes, never by
// its name: data sets from the web hold PNGs named .jpg and the reverse.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <torch/torch.h>

namespace entrena {

/// Why a file could not be read as an image: its message names the file. Image folders skip such
/// files (and list them); other errors (out of memory, …) are not of this type.
class ImageDecodeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

enum class ImageFormat { Png, Jpeg };

/// What the file's header says, read without decoding any pixel.
struct ImageHeader {
    ImageFormat format = ImageFormat::Png;
    int width = 0;
    int height = 0;
    /// The stored image has colour (RGB, a colour palette, CMYK); false for grey (with or without alpha).
    bool colour = false;
};

/// Reads only the header (PNG: up to the palette; JPEG: up to the frame header). Throws
/// ImageDecodeError naming the file when it is neither PNG nor JPEG or its header is damaged.
ImageHeader probeImage(const std::string& path);

/// Decodes `path` into `out`, which holds channels × height × width bytes, channel-first (planes
/// R, G, B; or one grey plane). channels: 1 or 3, converting as needed (grey = 0.299 R + 0.587 G +
/// 0.114 B, as PIL's convert("L"); grey to RGB repeats the plane); alpha is dropped, as PIL's
/// convert("RGB") does; 16-bit samples keep their high byte. The image is resized to height ×
/// width unless it has that size already: area averaging when shrinking (every source pixel counts,
/// so no aliasing however large the reduction), bilinear when enlarging; each axis on its own.
/// JPEGs much larger than the target are decoded by TurboJPEG at 1/2, 1/4 or 1/8 scale first
/// (never below the target size), which is several times faster than a full decode.
/// Throws ImageDecodeError naming the file on anything that is not a whole, valid image.
void decodeImageInto(const std::string& path, int channels, int height, int width, uint8_t* out);

/// As decodeImageInto, returning uint8 [channels, height, width]. channels 0: as stored (1 for
/// grey, 3 for colour); height or width 0: the stored size (no resize).
torch::Tensor decodeImage(const std::string& path, int channels = 0, int height = 0, int width = 0);

} // namespace entrena
