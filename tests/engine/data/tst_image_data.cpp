// Readers for "your own data": PNG/JPEG decoding (pixels, channels, resizing, damaged files), image
// folders in both layouts (classes, splits, skipped files, sizes, threads, every error), CIFAR-10's
// binary batches and CSV label columns holding class names. Every fixture is written here, with
// libpng and TurboJPEG, into a temporary folder.
#include "data/Cifar10Reader.h"
#include "data/CsvReader.h"
#include "data/ImageDecode.h"
#include "data/ImageFolder.h"
#include "../../tools/ImageFixtures.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cstdio>
#include <functional>
#include <png.h>
#include <random>
#include <turbojpeg.h>

using namespace entrena;

namespace {

using namespace fixtures;

/// A decoded [C, H, W] tensor's value at (c, y, x).
inline int px(const torch::Tensor& t, int c, int y, int x)
{
    return t[c][y][x].item<int>();
}

void writeText(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

} // namespace

class TestImageData : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) const { return dir_.filePath(QString::fromUtf8(name)).toStdString(); }

private Q_SLOTS:
    // ---- decoding ------------------------------------------------------------------------------

    void pngPixelsAreExact()
    {
        Raw r;
        r.width = 5;
        r.height = 4;
        for (int i = 0; i < 5 * 4 * 3; ++i)
            r.data.push_back(uint8_t(i * 7 + 3));
        writePng(path("rgb.png"), r);
        const auto t = decodeImage(path("rgb.png"));
        QCOMPARE(t.sizes().vec(), (std::vector<int64_t>{3, 4, 5}));
        QCOMPARE(t.scalar_type(), torch::kUInt8);
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 5; ++x)
                for (int c = 0; c < 3; ++c)
                    QCOMPARE(px(t, c, y, x), int(r.at(y, x, c)));

        // Grey stays one plane; 16-bit keeps its high byte.
        Raw g = uniform(3, 2, {0});
        for (size_t i = 0; i < g.data.size(); ++i)
            g.data[i] = uint8_t(i * 40);
        writePng(path("grey.png"), g);
        const auto tg = decodeImage(path("grey.png"));
        QCOMPARE(tg.size(0), 1);
        QCOMPARE(px(tg, 0, 1, 2), 200);

        png_image image{};
        image.version = PNG_IMAGE_VERSION;
        image.width = 2;
        image.height = 1;
        image.format = PNG_FORMAT_LINEAR_Y; // 16-bit samples
        const uint16_t wide[2] = {0x1234, 0xABCD};
        QVERIFY(png_image_write_to_file(&image, path("grey16.png").c_str(), 0, wide, 0, nullptr));
        const auto t16 = decodeImage(path("grey16.png"));
        QCOMPARE(px(t16, 0, 0, 0), 0x12);
        QCOMPARE(px(t16, 0, 0, 1), 0xAB);
    }

    void pngPaletteAndAlpha()
    {
        // Alpha is dropped, not composited (as PIL's convert("RGB")): a half-transparent pixel keeps its colour.
        Raw rgba = uniform(2, 2, {10, 20, 30, 128});
        rgba.at(1, 1, 3) = 0;
        writePng(path("rgba.png"), rgba);
        const auto t = decodeImage(path("rgba.png"));
        QCOMPARE(t.size(0), 3);
        QCOMPARE(px(t, 0, 1, 1), 10);
        QCOMPARE(px(t, 2, 0, 0), 30);
        QVERIFY(probeImage(path("rgba.png")).colour);

        Raw ga = uniform(2, 1, {77, 9});
        writePng(path("ga.png"), ga);
        QCOMPARE(decodeImage(path("ga.png")).size(0), 1);
        QCOMPARE(px(decodeImage(path("ga.png")), 0, 0, 1), 77);

        const std::vector<uint8_t> palette = {255, 0, 0, 0, 0, 255, 9, 9, 9};
        writePalettePng(path("palette.png"), 3, 1, {0, 1, 2}, palette, false);
        const auto tp = decodeImage(path("palette.png"));
        QCOMPARE(tp.sizes().vec(), (std::vector<int64_t>{3, 1, 3}));
        QCOMPARE(px(tp, 0, 0, 0), 255);
        QCOMPARE(px(tp, 2, 0, 1), 255);
        QCOMPARE(px(tp, 1, 0, 2), 9);
        QVERIFY(probeImage(path("palette.png")).colour);

        const std::vector<uint8_t> translucent = {255, 0, 0, 255, 0, 200, 0, 0};
        writePalettePng(path("palette-alpha.png"), 2, 1, {0, 1}, translucent, true);
        const auto ta = decodeImage(path("palette-alpha.png"), 3);
        QCOMPARE(px(ta, 0, 0, 0), 255);
        QCOMPARE(px(ta, 1, 0, 1), 200);

        // A palette of greys only is a grey image.
        writePalettePng(path("palette-grey.png"), 2, 1, {0, 1}, {0, 0, 0, 90, 90, 90}, false);
        QVERIFY(!probeImage(path("palette-grey.png")).colour);
    }

    void jpegPixelsWithinTolerance()
    {
        Raw r;
        r.width = 32;
        r.height = 24;
        for (int y = 0; y < 24; ++y)
            for (int x = 0; x < 32; ++x)
                r.data.insert(r.data.end(), {uint8_t(x * 8), uint8_t(y * 10), uint8_t(255 - x * 4)});
        writeJpeg(path("gradient.jpg"), r);
        const auto t = decodeImage(path("gradient.jpg"));
        QCOMPARE(t.sizes().vec(), (std::vector<int64_t>{3, 24, 32}));
        int worst = 0;
        for (int y = 0; y < 24; ++y)
            for (int x = 0; x < 32; ++x)
                for (int c = 0; c < 3; ++c)
                    worst = std::max(worst, std::abs(px(t, c, y, x) - int(r.at(y, x, c))));
        QVERIFY2(worst <= 6, qPrintable(QString::number(worst)));

        // CMYK (written as YCCK) with Adobe's inverted inks: 255 is no ink. Cyan ink only: (0, 255, 255).
        Raw cmyk = uniform(16, 8, {255, 255, 255, 255});
        for (int y = 0; y < 8; ++y)
            for (int x = 8; x < 16; ++x)
                cmyk.at(y, x, 0) = 0;
        cmyk.channels = 4;
        tjhandle tj = tjInitCompress();
        unsigned char* out = nullptr;
        unsigned long size = 0;
        QCOMPARE(tjCompress2(tj, cmyk.data.data(), 16, 0, 8, TJPF_CMYK, &out, &size, TJSAMP_444, 95, 0), 0);
        writeBytes(path("cmyk.jpg"), std::vector<uint8_t>(out, out + size));
        tjFree(out);
        tjDestroy(tj);
        QVERIFY(probeImage(path("cmyk.jpg")).colour);
        const auto tc = decodeImage(path("cmyk.jpg"));
        QCOMPARE(tc.sizes().vec(), (std::vector<int64_t>{3, 8, 16}));
        QVERIFY(px(tc, 0, 4, 2) >= 250 && px(tc, 1, 4, 2) >= 250 && px(tc, 2, 4, 2) >= 250);
        QVERIFY(px(tc, 0, 4, 12) <= 5 && px(tc, 1, 4, 12) >= 250 && px(tc, 2, 4, 12) >= 250);
        QCOMPARE(decodeImage(path("cmyk.jpg"), 1).size(0), 1);

        writeJpeg(path("grey.jpg"), uniform(8, 8, {123}));
        const auto tg = decodeImage(path("grey.jpg"));
        QCOMPARE(tg.size(0), 1);
        QVERIFY(std::abs(px(tg, 0, 4, 4) - 123) <= 1);
    }

    void formatIsJudgedByContent()
    {
        writePng(path("really-a-png.jpg"), uniform(4, 3, {1, 2, 3}));
        writeJpeg(path("really-a-jpeg.png"), uniform(6, 5, {90}));
        const ImageHeader a = probeImage(path("really-a-png.jpg"));
        QCOMPARE(int(a.format), int(ImageFormat::Png));
        QCOMPARE(a.width, 4);
        QCOMPARE(a.height, 3);
        QVERIFY(a.colour);
        const ImageHeader b = probeImage(path("really-a-jpeg.png"));
        QCOMPARE(int(b.format), int(ImageFormat::Jpeg));
        QCOMPARE(b.width, 6);
        QCOMPARE(b.height, 5);
        QVERIFY(!b.colour);
        QCOMPARE(px(decodeImage(path("really-a-png.jpg")), 2, 0, 0), 3);
        QVERIFY(std::abs(px(decodeImage(path("really-a-jpeg.png")), 0, 2, 2) - 90) <= 1);
        QVERIFY(probeImage(path("gradient.jpg")).colour);
    }

    void channelsConvert()
    {
        // RGB to grey with ITU-R 601 weights: pure red 76, green 150, blue 29.
        Raw r;
        r.width = 3;
        r.height = 1;
        r.data = {255, 0, 0, 0, 255, 0, 0, 0, 255};
        writePng(path("primaries.png"), r);
        const auto g = decodeImage(path("primaries.png"), 1);
        QCOMPARE(g.sizes().vec(), (std::vector<int64_t>{1, 1, 3}));
        QCOMPARE(px(g, 0, 0, 0), 76);
        QCOMPARE(px(g, 0, 0, 1), 150);
        QCOMPARE(px(g, 0, 0, 2), 29);
        // Grey to RGB repeats the plane; a grey JPEG too.
        const auto c = decodeImage(path("grey.png"), 3);
        QCOMPARE(c.size(0), 3);
        QVERIFY(torch::equal(c[0], c[1]) && torch::equal(c[0], c[2]));
        QCOMPARE(px(c, 1, 1, 2), 200);
        const auto cj = decodeImage(path("grey.jpg"), 3);
        QCOMPARE(cj.size(0), 3);
        QVERIFY(torch::equal(cj[0], cj[2]));
        // A colour JPEG read as grey.
        writeJpeg(path("green.jpg"), uniform(16, 16, {0, 255, 0}));
        QVERIFY(std::abs(px(decodeImage(path("green.jpg"), 1), 0, 8, 8) - 150) <= 2);
    }

    void resizeGivesTheShapeAndKeepsColours()
    {
        writePng(path("uniform.png"), uniform(64, 48, {10, 200, 30}));
        const auto down = decodeImage(path("uniform.png"), 3, 16, 20);
        QCOMPARE(down.sizes().vec(), (std::vector<int64_t>{3, 16, 20}));
        QCOMPARE(down[0].min().item<int>(), 10);
        QCOMPARE(down[0].max().item<int>(), 10);
        QCOMPARE(down[1].min().item<int>(), 200);
        QCOMPARE(down[2].max().item<int>(), 30);
        const auto up = decodeImage(path("uniform.png"), 3, 100, 70);
        QCOMPARE(up.sizes().vec(), (std::vector<int64_t>{3, 100, 70}));
        QCOMPARE(up[1].min().item<int>(), 200);
        QCOMPARE(up[1].max().item<int>(), 200);

        // Shrinking averages areas: columns 0,0,0,255 repeating, 8 -> 2 wide, give 64 (a bilinear
        // sample at the centre would give 0 and miss the bright columns).
        Raw stripes = uniform(8, 2, {0});
        for (int y = 0; y < 2; ++y)
            for (int x = 3; x < 8; x += 4)
                stripes.at(y, x, 0) = 255;
        writePng(path("stripes.png"), stripes);
        const auto s = decodeImage(path("stripes.png"), 1, 2, 2);
        QCOMPARE(px(s, 0, 0, 0), 64);
        QCOMPARE(px(s, 0, 1, 1), 64);
        // Enlarging interpolates between neighbours: 0 and 200 side by side, 2 -> 4 wide.
        Raw pair = uniform(2, 1, {0});
        pair.at(0, 1, 0) = 200;
        writePng(path("pair.png"), pair);
        const auto e = decodeImage(path("pair.png"), 1, 1, 4);
        QCOMPARE(px(e, 0, 0, 0), 0);
        QCOMPARE(px(e, 0, 0, 1), 50);
        QCOMPARE(px(e, 0, 0, 2), 150);
        QCOMPARE(px(e, 0, 0, 3), 200);
        // The same size is no resize: exact.
        QVERIFY(torch::equal(decodeImage(path("rgb.png"), 3, 4, 5), decodeImage(path("rgb.png"))));

        // A big JPEG shrunk a lot (decoded at 1/8 scale first): the halves keep their colours.
        Raw big = uniform(512, 256, {250, 250, 250});
        for (int y = 0; y < 256; ++y)
            for (int x = 256; x < 512; ++x)
                for (int c = 0; c < 3; ++c)
                    big.at(y, x, c) = c == 2 ? 200 : 5;
        writeJpeg(path("big.jpg"), big, 90);
        const auto small = decodeImage(path("big.jpg"), 3, 16, 32);
        QCOMPARE(small.sizes().vec(), (std::vector<int64_t>{3, 16, 32}));
        QVERIFY(std::abs(px(small, 0, 8, 4) - 250) <= 3);
        QVERIFY(std::abs(px(small, 0, 8, 28) - 5) <= 3);
        QVERIFY(std::abs(px(small, 2, 8, 28) - 200) <= 3);
    }

    void damagedFilesThrowNamingTheFile()
    {
        writeBytes(path("random.jpg"), randomBytes(1000, 1));
        std::vector<uint8_t> fakeJpeg = randomBytes(1000, 2);
        fakeJpeg[0] = 0xFF, fakeJpeg[1] = 0xD8, fakeJpeg[2] = 0xFF;
        writeBytes(path("fake.jpg"), fakeJpeg);
        std::mt19937 rng(5);
        writePng(path("whole.png"), noisy(32, 32, {9, 99, 199}, rng, 100));
        auto png = readBytes(path("whole.png"));
        png.resize(png.size() * 2 / 3);
        writeBytes(path("cut.png"), png);
        auto jpeg = jpegBytes(noisy(64, 64, {9, 99, 199}, rng, 100));
        jpeg.resize(jpeg.size() * 2 / 3);
        writeBytes(path("cut.jpg"), jpeg);
        writeBytes(path("empty.png"), {});

        const struct {
            const char* file;
            const char* mentions;
        } cases[] = {{"random.jpg", "not a PNG or JPEG"}, {"fake.jpg", "JPEG"},      {"cut.png", "truncated"},
                     {"cut.jpg", "damaged JPEG"},         {"empty.png", "is empty"}, {"missing.png", "cannot open"}};
        for (const auto& c : cases) {
            const QString message = errorOf([&] { decodeImage(path(c.file), 3, 8, 8); });
            QVERIFY2(message.contains(QString::fromUtf8(c.file)), qPrintable(QString(c.file) + ": " + message));
            QVERIFY2(message.contains(QString::fromUtf8(c.mentions)), qPrintable(QString(c.file) + ": " + message));
            bool typed = false;
            try {
                decodeImage(path(c.file));
            } catch (const ImageDecodeError&) {
                typed = true;
            }
            QVERIFY2(typed, c.file);
        }
        QVERIFY(errorOf([&] { probeImage(path("random.jpg")); }).contains("random.jpg"));
        QVERIFY(errorOf([&] { probeImage(path("fake.jpg")); }).contains("fake.jpg"));

        // Any prefix or corruption of a valid file decodes or throws ImageDecodeError, never crashes.
        const auto pngBytes = readBytes(path("whole.png"));
        const auto jpgBytes = jpegBytes(noisy(40, 24, {50, 60, 70}, rng, 50));
        std::uniform_int_distribution<size_t> pick(0, 1u << 30);
        for (int round = 0; round < 300; ++round) {
            std::vector<uint8_t> b = round % 2 ? pngBytes : jpgBytes;
            if (round % 3 == 0)
                b.resize(pick(rng) % b.size());
            else
                for (int k = 0; k < 4; ++k)
                    b[8 + pick(rng) % (b.size() - 8)] = uint8_t(rng());
            writeBytes(path("fuzz.img"), b);
            try {
                probeImage(path("fuzz.img"));
                decodeImage(path("fuzz.img"), 3, 10, 10);
            } catch (const ImageDecodeError& e) {
                QVERIFY(QString(e.what()).contains("fuzz.img"));
            }
            // A damaged file leaves nothing behind that refuses the next, valid one.
            QVERIFY(std::abs(px(decodeImage(path("gradient.jpg")), 0, 0, 31) - 248) <= 6);
            QCOMPARE(px(decodeImage(path("rgb.png")), 0, 0, 0), 3);
        }
    }

    // ---- image folders -------------------------------------------------------------------------

    void flatFolderListsClassesAndSkipsDamagedFiles()
    {
        const QString root = dir_.filePath("flat");
        writeFlatFolder(root, 6);
        ImageFolderOptions o;
        o.threads = 2;
        const ImageFolderListing l = listImageFolder(root.toStdString(), o);
        QCOMPARE(l.classes, (std::vector<std::string>{"Zebra", "cat", "dog"}));
        QVERIFY(!l.splitFolders && !l.hasVal && !l.hasTest);
        // cat: 6 + UPPER.JPG; dog: 6 (corrupt.jpg has no readable header); Zebra: 6 + truncated.png
        // (its header is fine: it fails only when decoded).
        QCOMPARE(l.train.size(), size_t(20));
        QCOMPARE(l.val.size(), size_t(0));
        QCOMPARE(l.test.size(), size_t(0));
        QCOMPARE(l.skipped.size(), size_t(1));
        QVERIFY(QString::fromStdString(l.skipped[0].path).endsWith("dog/corrupt.jpg"));
        QVERIFY(QString::fromStdString(l.skipped[0].reason).contains("corrupt.jpg"));
        QCOMPARE(l.channels, 3);
        QCOMPARE(l.height, 16);
        QCOMPARE(l.width, 16);
        QCOMPARE(l.cacheBytes(), int64_t(20 * 3 * 16 * 16));
        bool upper = false;
        for (const auto& f : l.train.files) {
            QVERIFY2(f.find("README") == std::string::npos && f.find("/.") == std::string::npos, f.c_str());
            upper = upper || QString::fromStdString(f).endsWith("cat/UPPER.JPG");
        }
        QVERIFY(upper);

        const ImageFolderData d = decodeImageFolder(l, 2);
        QCOMPARE(d.train.images.sizes().vec(), (std::vector<int64_t>{19, 3, 16, 16}));
        QCOMPARE(d.train.labels.sizes().vec(), (std::vector<int64_t>{19}));
        QVERIFY(d.train.images.is_contiguous());
        QCOMPARE(d.val.images.size(0), 0);
        QCOMPARE(d.skipped.size(), size_t(2));
        QVERIFY(QString::fromStdString(d.skipped[1].path).endsWith("Zebra/truncated.png"));
        QVERIFY(QString::fromStdString(d.skipped[1].reason).contains("truncated"));
        // Class-major order, each class's images its colour (labels match pixels).
        const std::vector<int64_t> counts = {6, 7, 6};
        const std::vector<std::vector<uint8_t>> colours = {kRed, kGreen, kBlue};
        int64_t row = 0;
        for (int64_t k = 0; k < 3; ++k) {
            for (int64_t i = 0; i < counts[size_t(k)]; ++i, ++row) {
                QCOMPARE(d.train.labels[row].item<int64_t>(), k);
                const auto mean = d.train.images[row].to(torch::kFloat32).mean({1, 2});
                for (int c = 0; c < 3; ++c)
                    QVERIFY2(std::abs(mean[c].item<float>() - colours[size_t(k)][size_t(c)]) < 8,
                             qPrintable(QString("row %1 channel %2: %3").arg(row).arg(c).arg(mean[c].item<float>())));
            }
        }
        // One file on its own decodes as in the cache.
        QVERIFY(torch::equal(decodeListedImage(l, l.train.files[3]), d.train.images[3]));
    }

    void outputDoesNotDependOnThreads()
    {
        const QString root = dir_.filePath("flat");
        ImageFolderOptions o;
        o.threads = 1;
        o.height = 10;
        o.width = 12;
        const ImageFolderData one = readImageFolder(root.toStdString(), o);
        o.threads = 4;
        const ImageFolderData four = readImageFolder(root.toStdString(), o);
        QCOMPARE(one.train.images.sizes().vec(), (std::vector<int64_t>{19, 3, 10, 12}));
        QVERIFY(torch::equal(one.train.images, four.train.images));
        QVERIFY(torch::equal(one.train.labels, four.train.labels));
        QCOMPARE(one.skipped.size(), four.skipped.size());
        for (size_t i = 0; i < one.skipped.size(); ++i)
            QCOMPARE(one.skipped[i].path, four.skipped[i].path);
    }

    void splitFoldersUseTheTrainingClasses()
    {
        const QString root = dir_.filePath("split");
        writeSplitFolder(root, 4);
        writeBytes(mkdirs(root, "test/c") + "/notes.txt", {'x'});
        ImageFolderOptions o;
        o.threads = 3;
        const ImageFolderData d = readImageFolder(root.toStdString(), o);
        QCOMPARE(d.classes, (std::vector<std::string>{"a", "b", "c"}));
        QCOMPARE(d.train.images.sizes().vec(), (std::vector<int64_t>{12, 1, 12, 12})); // all grey: one channel
        QCOMPARE(d.val.images.size(0), 8);
        QCOMPARE(d.test.images.size(0), 12);
        QVERIFY(d.skipped.empty());
        // val has no "c": its b is still label 1, and pixels follow labels.
        QCOMPARE(d.val.labels[4].item<int64_t>(), 1);
        QVERIFY(std::abs(d.val.images[4].to(torch::kFloat32).mean().item<float>() - 128) < 4);
        QCOMPARE(d.test.labels[11].item<int64_t>(), 2);
        QVERIFY(std::abs(d.test.images[11].to(torch::kFloat32).mean().item<float>() - 220) < 4);

        const ImageFolderListing l = listImageFolder(root.toStdString(), o);
        QVERIFY(l.splitFolders && l.hasVal && l.hasTest);
        QCOMPARE(l.cacheBytes(), int64_t(32 * 1 * 12 * 12));
    }

    void channelsAreChosenOrConverted()
    {
        const std::string split = dir_.filePath("split").toStdString();
        ImageFolderOptions o;
        o.channels = 3; // grey images as RGB: three equal planes
        const ImageFolderData rgb = readImageFolder(split, o);
        QCOMPARE(rgb.train.images.size(1), 3);
        QVERIFY(torch::equal(rgb.train.images.select(1, 0), rgb.train.images.select(1, 2)));

        o.channels = 1; // colour images as grey
        const ImageFolderData grey = readImageFolder(dir_.filePath("flat").toStdString(), o);
        QCOMPARE(grey.train.images.size(1), 1);
        // Zebra (red 200,30,30) -> about 0.299*200 + 0.587*30 + 0.114*30 = 81.
        QVERIFY(std::abs(grey.train.images[0].to(torch::kFloat32).mean().item<float>() - 81) < 8);

        // Automatic: one colour image among greys makes the set RGB.
        const QString mixed = dir_.filePath("mixed");
        writePng(mkdirs(mixed, "a") + "/1.png", uniform(8, 8, {10}));
        writePng(mkdirs(mixed, "b") + "/1.png", uniform(8, 8, {20}));
        writePng(mkdirs(mixed, "b") + "/2.png", uniform(8, 8, {1, 2, 3}));
        ImageFolderOptions automatic;
        QCOMPARE(listImageFolder(mixed.toStdString(), automatic).channels, 3);
        QVERIFY(QFile::remove(mixed + "/b/2.png"));
        QCOMPARE(listImageFolder(mixed.toStdString(), automatic).channels, 1);
    }

    void folderErrorsSayWhatToDo_data()
    {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QStringList>("mentions");
        QTest::newRow("not a folder") << "file" << QStringList{"is not a folder", "one subfolder per class"};
        QTest::newRow("missing") << "missing" << QStringList{"does not exist"};
        QTest::newRow("no class folders") << "empty" << QStringList{"has no class folders"};
        QTest::newRow("one class") << "one" << QStringList{"only one class folder ('solo')", "at least two"};
        QTest::newRow("class without images") << "noimages" << QStringList{"/b'", "holds no .png, .jpg or .jpeg image"};
        QTest::newRow("class without decodable images")
            << "undecodable" << QStringList{"/b'", "no image that can be decoded", "bad.jpg"};
        QTest::newRow("class emptied by decoding") << "cutonly" << QStringList{"/b'", "no image that can be decoded", "cut.png"};
        QTest::newRow("sizes differ") << "sizes"
                                      << QStringList{"different sizes", "data.image_size: [16, 16]", "most common", "20x12"};
        QTest::newRow("val class unknown to train") << "valextra" << QStringList{"val/d'", "train/ does not have"};
        QTest::newRow("val without train") << "valonly" << QStringList{"has val/ but no train/"};
    }

    void folderErrorsSayWhatToDo()
    {
        QFETCH(QString, layout);
        QFETCH(QStringList, mentions);
        const QString root = dir_.filePath("errors-" + layout);
        QDir().mkpath(root);
        std::string target = root.toStdString();
        const auto png = [&](const QString& sub, const char* name, int w = 16, int h = 16) {
            writePng(mkdirs(root, sub) + "/" + name, uniform(w, h, {50}));
        };
        if (layout == "file") {
            writeBytes(root.toStdString() + "/a.png", {1});
            target = root.toStdString() + "/a.png";
        } else if (layout == "missing") {
            target = root.toStdString() + "/nowhere";
        } else if (layout == "one") {
            png("solo", "1.png");
        } else if (layout == "noimages") {
            png("a", "1.png");
            writeBytes(mkdirs(root, "b") + "/readme.txt", {'x'});
        } else if (layout == "undecodable") {
            png("a", "1.png");
            writeBytes(mkdirs(root, "b") + "/bad.jpg", randomBytes(100, 3));
        } else if (layout == "cutonly") {
            png("a", "1.png");
            std::mt19937 rng(1);
            const std::string cut = mkdirs(root, "b") + "/cut.png";
            writePng(cut, noisy(16, 16, {9, 9, 9}, rng, 9));
            auto bytes = readBytes(cut);
            bytes.resize(60);
            writeBytes(cut, bytes);
        } else if (layout == "sizes") {
            png("a", "1.png");
            png("a", "2.png");
            png("b", "1.png");
            png("b", "2.png", 12, 20);
        } else if (layout == "valextra") {
            png("train/a", "1.png");
            png("train/b", "1.png");
            png("val/a", "1.png");
            png("val/d", "1.png");
        } else if (layout == "valonly") {
            png("val/a", "1.png");
            png("val/b", "1.png");
        }
        ImageFolderOptions o;
        const QString message = errorOf([&] { readImageFolder(target, o); });
        QVERIFY2(!message.isEmpty(), "no error");
        QVERIFY2(message.contains(QString::fromStdString(layout == "missing" || layout == "file" ? target : root.toStdString())),
                 qPrintable(message));
        for (const QString& m : mentions)
            QVERIFY2(message.contains(m), qPrintable(m + " | " + message));
        bool runtime = false;
        try {
            readImageFolder(target, o);
        } catch (const std::runtime_error&) {
            runtime = true;
        }
        QVERIFY(runtime);
    }

    void sizesDifferButATargetIsGiven()
    {
        // The folder that failed above reads when a size is given.
        ImageFolderOptions o;
        o.height = 16;
        o.width = 16;
        const ImageFolderData d = readImageFolder(dir_.filePath("errors-sizes").toStdString(), o);
        QCOMPARE(d.train.images.sizes().vec(), (std::vector<int64_t>{4, 1, 16, 16}));
        QCOMPARE(d.train.images.min().item<int>(), 50);
        QCOMPARE(d.train.images.max().item<int>(), 50);
    }

    // ---- CIFAR-10 ------------------------------------------------------------------------------

    void cifarRecordsAndClassNames()
    {
        const std::string cifar = mkdirs(dir_.path(), "cifar/cifar-10-batches-bin");
        writeCifar(cifar, true);
        const Cifar10Data d = readCifar10(dir_.filePath("cifar").toStdString()); // finds the subfolder
        QCOMPARE(d.classes.size(), size_t(10));
        QCOMPARE(d.classes[1], std::string("car"));
        QCOMPARE(d.trainImages.sizes().vec(), (std::vector<int64_t>{15, 3, 32, 32}));
        QCOMPARE(d.trainImages.scalar_type(), torch::kUInt8);
        QCOMPARE(d.testImages.sizes().vec(), (std::vector<int64_t>{2, 3, 32, 32}));
        // Batch 3's second record (row 7): label 3, planes R = 3, G = 101, B = 250; marked pixel.
        QCOMPARE(d.trainLabels[7].item<int64_t>(), 3);
        QCOMPARE(px(d.trainImages[7], 0, 10, 10), 3);
        QCOMPARE(px(d.trainImages[7], 1, 31, 0), 101);
        QCOMPARE(px(d.trainImages[7], 2, 0, 31), 250);
        QCOMPARE(px(d.trainImages[7], 0, 0, 5), 31);
        QCOMPARE(d.testLabels[0].item<int64_t>(), 9);
        QCOMPARE(px(d.testImages[1], 2, 5, 5), 6);

        QVERIFY(QFile::remove(QString::fromStdString(cifar + "/batches.meta.txt")));
        const Cifar10Data standard = readCifar10(cifar);
        QCOMPARE(standard.classes, cifar10ClassNames());
        QCOMPARE(standard.classes[0], std::string("airplane"));
    }

    void cifarErrorsNameTheFile()
    {
        const std::string cifar = mkdirs(dir_.path(), "cifar-bad");
        writeCifar(cifar, false);
        QVERIFY(QFile::remove(QString::fromStdString(cifar + "/test_batch.bin")));
        QString message = errorOf([&] { readCifar10(cifar); });
        QVERIFY2(message.contains("test_batch.bin") && message.contains("missing"), qPrintable(message));

        writeCifar(cifar, false);
        auto bytes = readBytes(cifar + "/data_batch_2.bin");
        bytes.pop_back();
        writeBytes(cifar + "/data_batch_2.bin", bytes);
        message = errorOf([&] { readCifar10(cifar); });
        QVERIFY2(message.contains("data_batch_2.bin") && message.contains("3073"), qPrintable(message));

        writeCifar(cifar, false);
        bytes = readBytes(cifar + "/data_batch_4.bin");
        bytes[3073] = 10; // record 2's label
        writeBytes(cifar + "/data_batch_4.bin", bytes);
        message = errorOf([&] { readCifar10(cifar); });
        QVERIFY2(message.contains("data_batch_4.bin") && message.contains("record 2") && message.contains("label 10"),
                 qPrintable(message));

        // Three names in batches.meta.txt: label 3 is out of range.
        writeCifar(cifar, false);
        writeText(QString::fromStdString(cifar + "/batches.meta.txt"), "a\nb\nc\n");
        message = errorOf([&] { readCifar10(cifar); });
        QVERIFY2(message.contains("label 3 is not one of the 3 classes"), qPrintable(message));
        QVERIFY(errorOf([&] { readCifar10(cifar + "/none"); }).contains("is not a folder"));
    }

    // ---- CSV class names -----------------------------------------------------------------------

    void csvTextLabelsMapToSortedNames()
    {
        const QString train = dir_.filePath("iris-train.csv"), test = dir_.filePath("iris-test.csv");
        writeText(train, "length,species,width\n1.0,versicolor,2\n2.0,setosa,3\n3.0,virginica,1\n4.0,setosa,5\n");
        writeText(test, "length,species,width\n5,virginica,1\n6,setosa,2\n");
        const CsvPair p = readCsvPair(train.toStdString(), test.toStdString(), "species", true);
        QCOMPARE(p.train.classes, (std::vector<std::string>{"setosa", "versicolor", "virginica"}));
        QCOMPARE(p.test.classes, p.train.classes);
        QCOMPARE(p.train.labels.sizes().vec(), (std::vector<int64_t>{4}));
        QVERIFY(torch::equal(p.train.labels, torch::tensor({1, 0, 2, 0}, torch::kInt64)));
        QVERIFY(torch::equal(p.test.labels, torch::tensor({2, 0}, torch::kInt64)));
        QCOMPARE(p.train.features.sizes().vec(), (std::vector<int64_t>{4, 2}));
        QCOMPARE(p.train.features[1][1].item<float>(), 3.0f);

        // The test file's own names would sort differently (only "virginica" and "setosa"): it
        // still uses the training file's mapping, as checked above. A name the training file
        // does not have is an error naming it and the file.
        const QString unknown = dir_.filePath("iris-unknown.csv");
        writeText(unknown, "length,species,width\n5,virginica,1\n6,rose,2\n");
        const QString message = errorOf([&] { readCsvPair(train.toStdString(), unknown.toStdString(), "species", true); });
        QVERIFY2(message.contains("'rose'") && message.contains("iris-unknown.csv") && message.contains("row 3") &&
                     message.contains("iris-train.csv"),
                 qPrintable(message));
    }

    void csvNumericLabelsAreUnchanged()
    {
        const QString file = dir_.filePath("numbers.csv");
        writeText(file, "a,label\n0.5,2\n1.5,0\n2.5,1\n");
        const CsvTable t = readCsv(file.toStdString(), "label", true);
        QVERIFY(t.classes.empty());
        QVERIFY(torch::equal(t.labels, torch::tensor({2, 0, 1}, torch::kInt64)));
        QCOMPARE(t.features[2][0].item<float>(), 2.5f);
        writeText(dir_.filePath("numbers-test.csv"), "a,label\n1,3\n");
        const CsvPair p = readCsvPair(file.toStdString(), dir_.filePath("numbers-test.csv").toStdString(), "label", true);
        QCOMPARE(p.test.labels[0].item<int64_t>(), 3);
        QVERIFY(p.test.classes.empty());
    }

    void csvLabelErrors_data()
    {
        QTest::addColumn<QByteArray>("train");
        QTest::addColumn<QByteArray>("test");
        QTest::addColumn<QStringList>("mentions");
        QTest::newRow("numbers and names mixed")
            << QByteArray("x,label\n1,3\n2,cat\n") << QByteArray()
            << QStringList{"row 3 names the class 'cat'", "row 2 gives the number '3'", "all class numbers"};
        QTest::newRow("names in the test file, numbers in training")
            << QByteArray("x,label\n1,0\n2,1\n") << QByteArray("x,label\n1,cat\n")
            << QStringList{"'cat' is a class name", "class numbers", "test.csv"};
        QTest::newRow("empty label") << QByteArray("x,label\n1,cat\n2,\n") << QByteArray()
                                     << QStringList{"row 3", "the label is empty"};
        QTest::newRow("not a class number") << QByteArray("x,label\n1,0.5\n") << QByteArray()
                                            << QStringList{"is not a class number"};
    }

    void csvLabelErrors()
    {
        QFETCH(QByteArray, train);
        QFETCH(QByteArray, test);
        QFETCH(QStringList, mentions);
        const QString trainFile = dir_.filePath("train.csv"), testFile = dir_.filePath("test.csv");
        writeText(trainFile, train);
        QString message;
        if (test.isEmpty()) {
            message = errorOf([&] { readCsv(trainFile.toStdString(), "label", true); });
        } else {
            writeText(testFile, test);
            message = errorOf([&] { readCsvPair(trainFile.toStdString(), testFile.toStdString(), "label", true); });
        }
        QVERIFY2(!message.isEmpty(), "no error");
        for (const QString& m : mentions)
            QVERIFY2(message.contains(m), qPrintable(m + " | " + message));
    }
};

QTEST_GUILESS_MAIN(TestImageData)
#include "tst_image_data.moc"
