#pragma once
// Image fixtures the tests write themselves: PNG and JPEG files (with libpng and TurboJPEG), image
// folders with their traps (a corrupt JPEG, a truncated PNG, a text file, an upper-case extension),
// and CIFAR-10 binary records. Shared by tst_image_data and tst_own_data.

#include <QDir>
#include <QFile>
#include <QString>
#include <QtTest>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <png.h>
#include <random>
#include <string>
#include <turbojpeg.h>
#include <vector>

namespace fixtures {

/// Pixels interleaved, height × width × channels.
struct Raw {
    int width = 0, height = 0, channels = 3;
    std::vector<uint8_t> data;
    uint8_t& at(int y, int x, int c) { return data[(size_t(y) * size_t(width) + size_t(x)) * size_t(channels) + size_t(c)]; }
};

inline Raw uniform(int width, int height, std::vector<uint8_t> colour)
{
    Raw r;
    r.width = width;
    r.height = height;
    r.channels = int(colour.size());
    for (int i = 0; i < width * height; ++i)
        r.data.insert(r.data.end(), colour.begin(), colour.end());
    return r;
}

/// A class's colour with ±`spread` noise per sample: different classes stay apart.
inline Raw noisy(int width, int height, std::vector<uint8_t> colour, std::mt19937& rng, int spread = 20)
{
    Raw r = uniform(width, height, colour);
    std::uniform_int_distribution<int> noise(-spread, spread);
    for (auto& v : r.data)
        v = uint8_t(std::clamp(int(v) + noise(rng), 0, 255));
    return r;
}

inline void writeBytes(const std::string& path, const std::vector<uint8_t>& bytes)
{
    FILE* f = std::fopen(path.c_str(), "wb");
    QVERIFY(f);
    QCOMPARE(std::fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
    std::fclose(f);
}

inline std::vector<uint8_t> readBytes(const std::string& path)
{
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray b = f.readAll();
    return std::vector<uint8_t>(b.begin(), b.end());
}

inline void writePng(const std::string& path, const Raw& r)
{
    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    image.width = png_uint_32(r.width);
    image.height = png_uint_32(r.height);
    image.format = r.channels == 1   ? PNG_FORMAT_GRAY
                   : r.channels == 2 ? PNG_FORMAT_GA
                   : r.channels == 3 ? PNG_FORMAT_RGB
                                     : PNG_FORMAT_RGBA;
    QVERIFY2(png_image_write_to_file(&image, path.c_str(), 0, r.data.data(), 0, nullptr), image.message);
}

/// A palette PNG: `indices` into `palette` (RGB, or RGBA with `alpha`: written with a tRNS chunk).
inline void writePalettePng(const std::string& path, int width, int height, const std::vector<uint8_t>& indices,
                            const std::vector<uint8_t>& palette, bool alpha)
{
    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    image.width = png_uint_32(width);
    image.height = png_uint_32(height);
    image.format = alpha ? PNG_FORMAT_RGBA_COLORMAP : PNG_FORMAT_RGB_COLORMAP;
    image.colormap_entries = png_uint_32(palette.size() / (alpha ? 4 : 3));
    QVERIFY2(png_image_write_to_file(&image, path.c_str(), 0, indices.data(), 0, palette.data()), image.message);
}

inline std::vector<uint8_t> jpegBytes(const Raw& r, int quality = 95)
{
    tjhandle tj = tjInitCompress();
    unsigned char* out = nullptr;
    unsigned long size = 0;
    const int format = r.channels == 1 ? TJPF_GRAY : TJPF_RGB;
    const int sampling = r.channels == 1 ? TJSAMP_GRAY : TJSAMP_444;
    const int rc = tjCompress2(tj, r.data.data(), r.width, 0, r.height, format, &out, &size, sampling, quality, 0);
    std::vector<uint8_t> bytes;
    if (rc == 0)
        bytes.assign(out, out + size);
    tjFree(out);
    tjDestroy(tj);
    return bytes;
}

inline void writeJpeg(const std::string& path, const Raw& r, int quality = 95)
{
    const auto bytes = jpegBytes(r, quality);
    QVERIFY(!bytes.empty());
    writeBytes(path, bytes);
}

inline std::vector<uint8_t> randomBytes(size_t n, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::vector<uint8_t> b(n);
    for (auto& v : b)
        v = uint8_t(rng());
    return b;
}

/// The message of the exception fn throws; empty when it throws none.
inline QString errorOf(const std::function<void()>& fn)
{
    try {
        fn();
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

inline std::string mkdirs(const QString& base, const QString& sub)
{
    QDir().mkpath(base + "/" + sub);
    return (base + "/" + sub).toStdString();
}

inline const std::vector<uint8_t> kRed = {200, 30, 30}, kGreen = {30, 200, 30}, kBlue = {30, 30, 200};

/// A flat folder: classes "Zebra" (red), "cat" (green), "dog" (blue) — bytewise, "Zebra" comes
/// first. Each has `perClass` images of 16x16 (PNG and JPEG alternating), plus the traps: an
/// upper-case .JPG, a README.txt, a corrupt .jpg (random bytes), a truncated .png, a hidden folder.
inline void writeFlatFolder(const QString& root, int perClass)
{
    std::mt19937 rng(42);
    const std::pair<QString, std::vector<uint8_t>> classes[] = {{"cat", kGreen}, {"dog", kBlue}, {"Zebra", kRed}};
    for (const auto& [name, colour] : classes) {
        const std::string dir = mkdirs(root, name);
        for (int i = 0; i < perClass; ++i) {
            const Raw r = noisy(16, 16, colour, rng);
            if (i % 2)
                writeJpeg(dir + "/img" + std::to_string(i) + ".jpg", r);
            else
                writePng(dir + "/img" + std::to_string(i) + ".png", r);
        }
    }
    writeJpeg(mkdirs(root, "cat") + "/UPPER.JPG", noisy(16, 16, kGreen, rng));
    writeBytes(mkdirs(root, "cat") + "/README.txt", {'h', 'i', '\n'});
    writeBytes(mkdirs(root, "dog") + "/corrupt.jpg", randomBytes(700, 7));
    // A PNG cut after its header: the header probe reads it, decoding fails.
    const std::string whole = mkdirs(root, "Zebra") + "/truncated.png";
    writePng(whole, noisy(16, 16, kRed, rng));
    auto bytes = readBytes(whole);
    bytes.resize(bytes.size() / 2);
    writeBytes(whole, bytes);
    writePng(mkdirs(root, "cat/.ipynb_checkpoints") + "/x.png", noisy(16, 16, kGreen, rng));
    writePng(mkdirs(root, ".hidden") + "/x.png", noisy(16, 16, kGreen, rng));
}

/// train/{a,b,c}, val/{a,b}, test/{a,b,c}: `n` images per class and split, 12x12, grey.
inline void writeSplitFolder(const QString& root, int n)
{
    std::mt19937 rng(3);
    const std::pair<QString, uint8_t> classes[] = {{"a", 40}, {"b", 128}, {"c", 220}};
    for (const QString split : {"train", "val", "test"})
        for (const auto& [name, grey] : classes) {
            if (split == "val" && name == "c")
                continue;
            const std::string dir = mkdirs(root, split + "/" + name);
            for (int i = 0; i < n; ++i)
                writePng(dir + "/" + std::to_string(i) + ".png", noisy(12, 12, {grey}, rng, 10));
        }
}

inline std::vector<uint8_t> cifarRecord(uint8_t label, uint8_t r, uint8_t g, uint8_t b)
{
    std::vector<uint8_t> rec(3073);
    rec[0] = label;
    std::fill(rec.begin() + 1, rec.begin() + 1 + 1024, r);
    std::fill(rec.begin() + 1 + 1024, rec.begin() + 1 + 2048, g);
    std::fill(rec.begin() + 1 + 2048, rec.end(), b);
    rec[1 + 5] = uint8_t(label * 10 + 1); // one marked red pixel: row 0, column 5
    return rec;
}

/// Batches 1…5 with 3 records each (labels b-1, b, b+1), test_batch with 2.
inline void writeCifar(const std::string& dir, bool meta)
{
    for (int b = 1; b <= 5; ++b) {
        std::vector<uint8_t> bytes;
        for (int i = 0; i < 3; ++i) {
            const auto rec = cifarRecord(uint8_t(b - 1 + i), uint8_t(b), uint8_t(100 + i), 250);
            bytes.insert(bytes.end(), rec.begin(), rec.end());
        }
        writeBytes(dir + "/data_batch_" + std::to_string(b) + ".bin", bytes);
    }
    std::vector<uint8_t> test = cifarRecord(9, 1, 2, 3);
    const auto second = cifarRecord(0, 4, 5, 6);
    test.insert(test.end(), second.begin(), second.end());
    writeBytes(dir + "/test_batch.bin", test);
    if (meta) {
        const std::string names = "plane\ncar\nbird\ncat\ndeer\ndog\nfrog\nhorse\nship\ntruck\n\n";
        writeBytes(dir + "/batches.meta.txt", std::vector<uint8_t>(names.begin(), names.end()));
    }
}

} // namespace fixtures
