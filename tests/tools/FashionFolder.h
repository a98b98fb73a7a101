#pragma once
// Real images for tests that need an image folder a user would have: the first N Fashion-MNIST
// images of a split, written as grey PNGs into one folder per class (named without '/', one with a
// space). Read with gzip, written with QImage.

#include <QDir>
#include <QImage>
#include <QProcess>
#include <QString>

namespace fixtures {

inline const char* const kClothes[] = {"T-shirt", "Trouser", "Pullover", "Dress", "Coat",
                                       "Sandal",  "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};

inline QByteArray gunzip(const QString& file)
{
    QProcess p;
    p.start(QStringLiteral("gzip"), {QStringLiteral("-dc"), file});
    p.waitForFinished(60000);
    return p.readAllStandardOutput();
}

/// The first `n` images of Fashion-MNIST's `stem` split ("train" or "t10k") as root/<class>/<i>.png.
/// False when the data set cannot be read or a file cannot be written.
inline bool writeClothes(const QString& root, const QString& stem, int n)
{
    const QByteArray images = gunzip(QStringLiteral(ENTRENA_FMNIST_DIR "/%1-images-idx3-ubyte.gz").arg(stem));
    const QByteArray labels = gunzip(QStringLiteral(ENTRENA_FMNIST_DIR "/%1-labels-idx1-ubyte.gz").arg(stem));
    if (images.size() < 16 + n * 784 || labels.size() < 8 + n)
        return false;
    for (int i = 0; i < n; ++i) {
        const QImage picture(reinterpret_cast<const uchar*>(images.constData() + 16 + i * 784), 28, 28, 28,
                             QImage::Format_Grayscale8);
        const QString folder = root + QLatin1Char('/') + QString::fromLatin1(kClothes[int(labels[8 + i])]);
        if (!QDir().mkpath(folder) || !picture.save(folder + QStringLiteral("/%1.png").arg(i)))
            return false;
    }
    return true;
}

} // namespace fixtures
