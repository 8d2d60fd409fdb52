// app/io's writers of the files users keep: contoursToJson, contoursToSvg, jsonString and
// jsonNumber, on arbitrary contours, strings and numbers (NaN, infinities, bytes that are not
// UTF-8). Each output is read back with Qt's parsers, which any consumer's resemble: the JSON
// must parse (QJsonDocument) and give back the contours, strings and numbers written; the SVG
// must be well-formed XML (QXmlStreamReader) with one polygon per contour.
#include "app/io/contour_export.h"
#include "app/io/json_writer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QXmlStreamReader>

#include <fuzzer/FuzzedDataProvider.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace {

using namespace linescope;

void require(bool ok) {
    if (!ok) std::abort();
}

QJsonDocument parsed(const std::string& json) {
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json), &error);
    if (error.error != QJsonParseError::NoError) {
        std::fprintf(stderr, "not JSON (%s at %d): %s\n", qPrintable(error.errorString()), error.offset, json.c_str());
        std::abort();
    }
    return doc;
}

// A number written by jsonNumber reads back as itself; NaN and infinities as null.
void checkNumber(double v, const QJsonValue& read) {
    if (std::isfinite(v)) require(read.isDouble() && read.toDouble() == v);
    else require(read.isNull());
}

// A string reads back as itself when it is UTF-8 (else it must still parse).
void checkString(const std::string& s, const QJsonValue& read) {
    require(read.isString());
    const QString decoded = QString::fromUtf8(s);
    if (decoded.toUtf8().toStdString() == s) require(read.toString() == decoded);
}

// Any double, NaN, infinities and subnormals included (ConsumeFloatingPoint gives only finite ones).
double anyDouble(FuzzedDataProvider& in) { return std::bit_cast<double>(in.ConsumeIntegral<std::uint64_t>()); }

Contours contoursFrom(FuzzedDataProvider& in) {
    Contours c;
    const int count = in.ConsumeIntegralInRange(0, 8);
    for (int i = 0; i < count; ++i) {
        const int length = in.ConsumeIntegralInRange(0, 16);
        for (int j = 0; j < length; ++j) c.points.push_back({in.ConsumeIntegral<int>(), in.ConsumeIntegral<int>()});
        c.offsets.push_back(c.points.size());
        c.parent.push_back(in.ConsumeIntegralInRange(-1, count - 1));
        c.hole.push_back(in.ConsumeBool());
    }
    return c;
}

void checkContoursJson(const Contours& c, const io::ContourJsonInfo& info) {
    const QJsonObject root = parsed(io::contoursToJson(c, info)).object();
    const QJsonArray list = root["contours"].toArray();
    require(list.size() == static_cast<qsizetype>(c.size()));
    for (std::size_t i = 0; i < c.size(); ++i) {
        const QJsonObject o = list[static_cast<qsizetype>(i)].toObject();
        const QJsonArray points = o["points"].toArray();
        require(points.size() == static_cast<qsizetype>(c.length(i)));
        for (std::size_t j = 0; j < c.length(i); ++j) {
            const QJsonArray p = points[static_cast<qsizetype>(j)].toArray();
            require(p[0].toDouble() == c.begin(i)[j].x && p[1].toDouble() == c.begin(i)[j].y);
        }
        require(o["parent"].toInt() == c.parent[i] && o["hole"].toBool() == (c.hole[i] != 0));
    }
    require(root["width"].toDouble() == info.width && root["height"].toDouble() == info.height);
    checkNumber(info.threshold, root["threshold"]);
    checkString(info.algorithm, root["algorithm"]);
    const QJsonObject timings = root["timings_ms"].toObject();
    require(timings["total"].isDouble() || timings["total"].isNull());
}

void checkSvg(const Contours& c, int width, int height) {
    QXmlStreamReader xml(QByteArray::fromStdString(io::contoursToSvg(c, width, height)));
    std::size_t polygons = 0;
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("polygon")) ++polygons;
    require(!xml.hasError() && polygons == c.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    const Contours contours = contoursFrom(in);
    io::ContourJsonInfo info;
    info.mode = static_cast<ContourMode>(in.ConsumeIntegralInRange(0, 3));
    info.approx = static_cast<ContourApprox>(in.ConsumeIntegralInRange(0, 1));
    info.width = in.ConsumeIntegral<int>();
    info.height = in.ConsumeIntegral<int>();
    info.threshold = anyDouble(in);
    info.timings.total = anyDouble(in);
    info.timings.track = anyDouble(in);
    info.algorithm = in.ConsumeBool() ? "engine" : in.ConsumeRandomLengthString(64);
    const std::string text = in.ConsumeRandomLengthString(64);
    const double number = anyDouble(in);

    checkContoursJson(contours, info);
    checkSvg(contours, info.width, info.height);
    const QJsonArray pair = parsed("[" + io::jsonString(text) + ", " + io::jsonNumber(number) + "]").array();
    checkString(text, pair[0]);
    checkNumber(number, pair[1]);
    return 0;
}
