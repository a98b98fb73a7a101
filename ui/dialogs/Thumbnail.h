#pragma once
// Samples' pictures as the GUI shows them: the engine's channel-first bytes as an image, and
// small images enlarged without blurring them.

#include <QImage>
#include <QPixmap>
#include <cstdint>
#include <vector>

namespace entrena::ui {

/// A C × H × W image of bytes (C 1: grey, 3: RGB) as a QImage; null when the sizes do not match.
QImage imageFromBytes(const std::vector<uint8_t>& bytes, int64_t channels, int64_t height, int64_t width);

/// `image` at about `side` pixels: small images scaled up by a whole factor with nearest neighbour
/// (a 28×28 digit stays sharp squares), large ones scaled down smoothly.
QPixmap thumbnail(const QImage& image, int side);

} // namespace entrena::ui
