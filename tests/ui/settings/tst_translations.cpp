// The Spanish translation is complete: every source string lupdate finds in ui/, app/bridge/ and
// the engine's registries (translations/tools/update.sh) has a finished translation in translations/entrena_es.ts.
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

namespace {

struct Entry {
    QString context, source, translation;
    bool finished = true;
};

QList<Entry> readTs(const QString& path)
{
    QList<Entry> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    QXmlStreamReader xml(&f);
    QString context;
    Entry current;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        if (xml.name() == QLatin1String("name"))
            context = xml.readElementText();
        else if (xml.name() == QLatin1String("message"))
            current = Entry{context, {}, {}, true};
        else if (xml.name() == QLatin1String("source"))
            current.source = xml.readElementText();
        else if (xml.name() == QLatin1String("translation")) {
            const auto type = xml.attributes().value(QLatin1String("type"));
            current.finished = type.isEmpty();
            if (type == QLatin1String("obsolete") || type == QLatin1String("vanished"))
                continue;
            // Plural messages hold their forms in <numerusform> children.
            current.translation = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            out.push_back(current);
        }
    }
    return out;
}

} // namespace

class TestTranslations : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void spanishIsComplete()
    {
        const QString ts = QStringLiteral(ENTRENA_SOURCE_DIR "/translations/entrena_es.ts");
        const QList<Entry> entries = readTs(ts);
        QVERIFY(entries.size() > 50);
        for (const Entry& e : entries) {
            QVERIFY2(e.finished, qPrintable(QStringLiteral("unfinished: %1 / %2").arg(e.context, e.source)));
            QVERIFY2(!e.translation.trimmed().isEmpty(), qPrintable(QStringLiteral("empty: %1 / %2").arg(e.context, e.source)));
        }
    }

    void everySourceStringIsInTheTranslation()
    {
        QTemporaryDir dir;
        const QString fresh = dir.filePath(QStringLiteral("fresh_es.ts"));
        QProcess lupdate;
        lupdate.start(QStringLiteral(ENTRENA_LUPDATE),
                      {QStringLiteral("-silent"), QStringLiteral("-locations"), QStringLiteral("none"),
                       QStringLiteral("-tr-function-alias"), QStringLiteral("QT_TRANSLATE_NOOP+=ENTRENA_LABEL"),
                       QStringLiteral(ENTRENA_SOURCE_DIR "/ui"), QStringLiteral(ENTRENA_SOURCE_DIR "/app/bridge"),
                       QStringLiteral(ENTRENA_SOURCE_DIR "/engine/src"),
                       QStringLiteral("-ts"), fresh});
        QVERIFY(lupdate.waitForFinished(120000));
        QCOMPARE(lupdate.exitCode(), 0);
        QSet<QString> translated;
        for (const Entry& e : readTs(QStringLiteral(ENTRENA_SOURCE_DIR "/translations/entrena_es.ts")))
            translated.insert(e.context + QLatin1Char('|') + e.source);
        const QList<Entry> sources = readTs(fresh);
        QVERIFY(!sources.isEmpty());
        for (const Entry& e : sources)
            QVERIFY2(translated.contains(e.context + QLatin1Char('|') + e.source),
                     qPrintable(QStringLiteral("missing from entrena_es.ts: %1 / %2").arg(e.context, e.source)));
    }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
