#include "dialogs/Thumbnail.h"

#include <algorithm>

namespace entrena::ui {

QImage imageFromBytes(const std::vector<uint8_t>& bytes, int64_t channels, int64_t height, int64_t width)
{
    if ((channels != 1 && channels != 3) || height <= 0 || width <= 0 || bytes.size() != std::size_t(channels * height * width))
        return QImage();
    const int h = int(height), w = int(width);
    const std::size_t plane = std::size_t(h) * std::size_t(w);
    QImage image(w, h, channels == 1 ? QImage::Format_Grayscale8 : QImage::Format_RGB888);
    for (int y = 0; y < h; ++y) {
        uchar* line = image.scanLine(y);
        for (int x = 0; x < w; ++x) {
            const std::size_t at = std::size_t(y) * std::size_t(w) + std::size_t(x);
            if (channels == 1) {
                line[x] = bytes[at];
            } else { // planes (channel first) to interleaved RGB
                for (int c = 0; c < 3; ++c)
                    line[3 * x + c] = bytes[std::size_t(c) * plane + at];
            }
        }
    }
    return image;
}

QPixmap thumbnail(const QImage& image, int side)
{
    if (image.isNull())
        return QPixmap();
    const int longest = std::max(image.width(), image.height());
    if (longest >= side)
        return QPixmap::fromImage(image.scaled(side, side, Qt::KeepAspectRatio, Qt::SmoothTransformation));
    const int factor = std::max(1, side / longest);
    return QPixmap::fromImage(
        image.scaled(image.width() * factor, image.height() * factor, Qt::IgnoreAspectRatio, Qt::FastTransformation));
}

} // namespace entrena::ui
