#include "ui/lesson_painter.h"

#include "ui/viewport_controller.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <limits>

namespace linescope::ui {

namespace {

// The stage image of pane 1 or 2 (pane 0 is f).
const session::AnyImage* stageOf(const LessonScene& s, int pane) {
    if (pane == 0) return s.original.get();
    if (!s.lesson || !s.lesson->stages) return nullptr;
    return pane == 1 ? s.lesson->stages->first().get() : s.lesson->stages->second.get();
}

double valueOf(const session::AnyImage& img, int x, int y) {
    return std::visit([&](const auto& i) { return static_cast<double>(i.at(x, y)); }, img);
}

QImage greyImage(const session::AnyImage& img, double lo, double hi) {
    const int w = session::widthOf(img), h = session::heightOf(img);
    QImage out(w, h, QImage::Format_Grayscale8);
    const double scale = hi > lo ? 255.0 / (hi - lo) : 0;
    std::visit(
        [&](const auto& im) {
            for (int y = 0; y < h; ++y) {
                uchar* row = out.scanLine(y);
                for (int x = 0; x < w; ++x)
                    row[x] = static_cast<uchar>(std::clamp(std::lround((static_cast<double>(im.at(x, y)) - lo) * scale), 0L, 255L));
            }
        },
        img);
    return out;
}

// 0 dark grey, negative towards blue, positive towards orange (the kinds' difference colours).
QRgb differenceColour(double d, double maxAbs) {
    const double t = maxAbs > 0 ? std::min(1.0, std::abs(d) / maxAbs) : 0;
    const QColor base(40, 40, 40);
    const QColor far = d < 0 ? QColor(70, 150, 255) : QColor(255, 150, 40);
    auto mix = [&](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * (0.25 + 0.75 * t) * (t > 0))); };
    return qRgb(mix(base.red(), far.red()), mix(base.green(), far.green()), mix(base.blue(), far.blue()));
}

QImage differenceImage(const session::AnyImage& stage, const session::AnyImage& f, double maxAbs) {
    const int w = session::widthOf(f), h = session::heightOf(f);
    QImage out(w, h, QImage::Format_RGB32);
    for (int y = 0; y < h; ++y) {
        auto* row = reinterpret_cast<QRgb*>(out.scanLine(y));
        for (int x = 0; x < w; ++x) row[x] = differenceColour(valueOf(stage, x, y) - valueOf(f, x, y), maxAbs);
    }
    return out;
}

QString valueText(const LessonScene& s, double v) {
    if (std::isnan(v)) return {};
    const bool integer = !std::holds_alternative<Image<float>>(*s.original);
    return integer ? QString::number(static_cast<long long>(v)) : QString::number(v, 'g', 4);
}

// A minus sign that reads on a projector.
QString signedText(int k) { return k < 0 ? QStringLiteral("−%1").arg(-k) : QString::number(k); }

constexpr QRgb kOutline = 0xff000000;
const QColor kWindow(255, 212, 0);      // the segment's pixels
const QColor kWinnerMin(0, 230, 255);   // the pixel that gave the min
const QColor kWinnerMax(255, 60, 220);  // the pixel that gave the max

// A pixel's square on screen.
QRectF pixelRect(const LessonViewState& st, int pane, int x, int y) {
    return QRectF(st.toCanvas(pane, QPointF(x, y)), st.toCanvas(pane, QPointF(x + 1, y + 1)));
}

// An outline that reads over anything: a dark stroke under a bright one.
void outlined(QPainter& p, const QRectF& r, const QColor& colour, double width) {
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(QColor(kOutline), width + 3, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    p.drawRect(r);
    p.setPen(QPen(colour, width, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    p.drawRect(r);
}

// A stage's window at the pin over pane `pane`: the pixels, their numbers k, the origin and
// the winner. Small pixels get a line through their centres instead of squares.
void paintWindow(QPainter& p, const LessonViewState& st, int pane, const session::LessonWindow& w, PixelAt pin) {
    const double zoom = st.transform().zoom;
    const QColor winner = w.minimum ? kWinnerMin : kWinnerMax;
    if (zoom < 6) {
        QPainterPath path;
        for (std::size_t i = 0; i < w.pixels.size(); ++i) {
            const QPointF c = st.toCanvas(pane, QPointF(w.pixels[i].x + 0.5, w.pixels[i].y + 0.5));
            if (i == 0) path.moveTo(c);
            else path.lineTo(c);
        }
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(QColor(kOutline), 6, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.drawPath(path);
        p.setPen(QPen(kWindow, 3, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.drawPath(path);
        if (w.pixels.size() == 1) p.drawPoint(path.elementAt(0));
    } else {
        for (const auto& px : w.pixels) outlined(p, pixelRect(st, pane, px.x, px.y), kWindow, std::clamp(zoom / 10, 2.0, 4.0));
    }
    if (w.extreme >= 0) {
        const auto& e = w.pixels[static_cast<std::size_t>(w.extreme)];
        const QRectF r = pixelRect(st, pane, e.x, e.y);
        const double grow = std::max(3.0, zoom * 0.12);
        outlined(p, r.adjusted(-grow, -grow, grow, grow), winner, std::clamp(zoom / 8, 2.5, 5.0));
    }
    // The origin: a dot in the pixel (odd λ: the middle; even λ: one more ahead), below its
    // value once values are printed.
    const bool values = zoom >= kLessonTextZoom;
    const QPointF c = st.toCanvas(pane, QPointF(pin.x + 0.5, pin.y + (values ? 0.82 : 0.5)));
    const double r = values ? std::clamp(zoom * 0.08, 3.0, 6.0) : std::clamp(zoom * 0.14, 3.0, 9.0);
    p.setPen(QPen(QColor(kOutline), 2));
    p.setBrush(Qt::white);
    p.drawEllipse(c, r, r);
    if (zoom < kLessonTextZoom) return;
    QFont f = p.font();
    f.setPixelSize(static_cast<int>(std::clamp(zoom * 0.2, 9.0, 18.0)));
    f.setBold(true);
    p.setFont(f);
    for (const auto& px : w.pixels) {
        const QRectF box = pixelRect(st, pane, px.x, px.y).adjusted(zoom * 0.08, zoom * 0.04, 0, 0);
        const QString k = signedText(px.k);
        // A dark plate under the number: readable over any grey.
        const QRectF plate = p.fontMetrics().boundingRect(k).translated(box.topLeft().toPoint()).adjusted(-2, p.fontMetrics().ascent(), 2, p.fontMetrics().ascent());
        p.fillRect(plate, QColor(0, 0, 0, 170));
        p.setPen(kWindow);
        p.drawText(box, Qt::AlignLeft | Qt::AlignTop, k);
    }
}

void paintValues(QPainter& p, const LessonViewState& st, const LessonScene& s, int pane, const QRectF& area) {
    const double zoom = st.transform().zoom;
    const QPointF a = st.toImage(pane, area.topLeft()), b = st.toImage(pane, area.bottomRight());
    const int x0 = std::max(0, static_cast<int>(std::floor(a.x()))), y0 = std::max(0, static_cast<int>(std::floor(a.y())));
    const int x1 = std::min(st.imageWidth() - 1, static_cast<int>(std::floor(b.x())));
    const int y1 = std::min(st.imageHeight() - 1, static_cast<int>(std::floor(b.y())));
    QFont f = p.font();
    f.setPixelSize(static_cast<int>(std::clamp(zoom * 0.3, 9.0, 26.0)));
    f.setBold(false);
    p.setFont(f);
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            const double v = lessonPaneValue(s, pane, x, y);
            const QRgb under = s.panes[static_cast<std::size_t>(pane)].pixel(x, y);
            p.setPen(qGray(under) > 110 ? Qt::black : Qt::white);
            p.drawText(pixelRect(st, pane, x, y), Qt::AlignCenter, valueText(s, v));
        }
}

void paintGrid(QPainter& p, const LessonViewState& st, int pane, const QRectF& area) {
    const QPointF a = st.toImage(pane, area.topLeft()), b = st.toImage(pane, area.bottomRight());
    p.setPen(QPen(QColor(128, 128, 128, 110), 1));
    for (int x = std::max(0, static_cast<int>(std::ceil(a.x()))); x <= std::min<double>(st.imageWidth(), b.x()); ++x)
        p.drawLine(st.toCanvas(pane, QPointF(x, std::max(0.0, a.y()))),
                   st.toCanvas(pane, QPointF(x, std::min<double>(st.imageHeight(), b.y()))));
    for (int y = std::max(0, static_cast<int>(std::ceil(a.y()))); y <= std::min<double>(st.imageHeight(), b.y()); ++y)
        p.drawLine(st.toCanvas(pane, QPointF(std::max(0.0, a.x()), y)),
                   st.toCanvas(pane, QPointF(std::min<double>(st.imageWidth(), b.x()), y)));
}

}  // namespace

void buildLessonPanes(LessonScene& s, bool difference) {
    s.difference = difference;
    s.panes = {};
    s.maxDifference = 0;
    if (!s.original) return;
    ViewportController::rangeOf(*s.original, &s.lo, &s.hi);
    s.panes[0] = greyImage(*s.original, s.lo, s.hi);
    if (!s.lesson || !s.lesson->stages) return;
    if (!difference) {
        for (int pane = 1; pane < LessonViewState::kPanes; ++pane)
            s.panes[static_cast<std::size_t>(pane)] = greyImage(*stageOf(s, pane), s.lo, s.hi);
        return;
    }
    // One scale for both panes, so that their colours compare.
    const int w = session::widthOf(*s.original), h = session::heightOf(*s.original);
    for (int pane = 1; pane < LessonViewState::kPanes; ++pane)
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                s.maxDifference = std::max(s.maxDifference, std::abs(valueOf(*stageOf(s, pane), x, y) - valueOf(*s.original, x, y)));
    for (int pane = 1; pane < LessonViewState::kPanes; ++pane)
        s.panes[static_cast<std::size_t>(pane)] = differenceImage(*stageOf(s, pane), *s.original, s.maxDifference);
}

double lessonPaneValue(const LessonScene& s, int pane, int x, int y) {
    const session::AnyImage* img = stageOf(s, pane);
    if (!img || x < 0 || y < 0 || x >= session::widthOf(*img) || y >= session::heightOf(*img))
        return std::numeric_limits<double>::quiet_NaN();
    const double v = valueOf(*img, x, y);
    return s.difference && pane > 0 ? v - valueOf(*s.original, x, y) : v;
}

QString lessonCaption(MorphOp op, int pane, bool difference) {
    const bool opening = op != MorphOp::Close;
    switch (pane) {
    case 0: return QStringLiteral("f   the image");
    case 1:
        if (difference) return opening ? QStringLiteral("ε(f) − f   what the erosion took") : QStringLiteral("δ(f) − f   what the dilation added");
        return opening ? QStringLiteral("ε(f)   erosion: min over the segment") : QStringLiteral("δ(f)   dilation: max over the segment");
    case 2:
        if (difference) return opening ? QStringLiteral("γ(f) − f   what the opening removed") : QStringLiteral("φ(f) − f   what the closing filled");
        return opening ? QStringLiteral("γ(f) = δ(ε(f))   opening") : QStringLiteral("φ(f) = ε(δ(f))   closing");
    }
    return {};
}

void paintLesson(QPainter& p, const LessonViewState& st, const LessonScene& s, double pointSize) {
    p.save();
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.setRenderHint(QPainter::Antialiasing, false);
    QFont captionFont = p.font();
    captionFont.setPointSizeF(pointSize);
    captionFont.setBold(true);
    const double zoom = st.transform().zoom;
    for (int pane = 0; pane < LessonViewState::kPanes; ++pane) {
        const QRectF area = st.paneRect(pane);
        const QRectF caption = st.captionRect(pane);
        p.setClipping(false);
        p.fillRect(caption, QColor(30, 30, 30));
        p.fillRect(area, QColor(18, 18, 18));
        p.setFont(captionFont);
        p.setPen(st.revealed(pane) ? QColor(240, 240, 240) : QColor(120, 120, 120));
        p.drawText(caption.adjusted(10, 0, -6, 0), Qt::AlignVCenter | Qt::AlignLeft | Qt::TextSingleLine,
                   p.fontMetrics().elidedText(QStringLiteral("%1  ").arg(pane + 1) + lessonCaption(s.op, pane, s.difference),
                                              Qt::ElideRight, static_cast<int>(caption.width() - 16)));
        if (!st.revealed(pane)) {
            p.setPen(QColor(150, 150, 150));
            p.drawText(area, Qt::AlignCenter, QStringLiteral("Step %1: press →").arg(pane + 1));
            continue;
        }
        const QImage& image = s.panes[static_cast<std::size_t>(pane)];
        p.setClipRect(area);
        if (image.isNull()) {
            p.setPen(QColor(150, 150, 150));
            p.drawText(area, Qt::AlignCenter, QStringLiteral("computing…"));
            continue;
        }
        // Only the visible part of the image, magnified without filtering.
        const QRectF whole(st.toCanvas(pane, QPointF(0, 0)), st.toCanvas(pane, QPointF(image.width(), image.height())));
        const QRectF shown = whole.intersected(area);
        if (!shown.isEmpty()) {
            const QPointF a = st.toImage(pane, shown.topLeft()), b = st.toImage(pane, shown.bottomRight());
            const QRect src(QPoint(static_cast<int>(std::floor(a.x())), static_cast<int>(std::floor(a.y()))),
                            QPoint(static_cast<int>(std::ceil(b.x())) - 1, static_cast<int>(std::ceil(b.y())) - 1));
            const QRect clipped = src.intersected(image.rect());
            p.drawImage(QRectF(st.toCanvas(pane, clipped.topLeft()),
                               st.toCanvas(pane, QPointF(clipped.right() + 1, clipped.bottom() + 1))),
                        image, clipped);
        }
        if (zoom >= 12) paintGrid(p, st, pane, area);
        if (zoom >= kLessonTextZoom) paintValues(p, st, s, pane, area);
        const session::LessonPin* lessonPin = s.lesson && s.lesson->pin ? &*s.lesson->pin : nullptr;
        if (lessonPin) {
            // f shows what the first stage read, the first stage what the second read; the
            // second stage shows where its output went.
            if (pane == 0) paintWindow(p, st, 0, lessonPin->first, lessonPin->pixel);
            else if (pane == 1) paintWindow(p, st, 1, lessonPin->second, lessonPin->pixel);
            else outlined(p, pixelRect(st, 2, lessonPin->pixel.x, lessonPin->pixel.y).adjusted(-2, -2, 2, 2),
                          lessonPin->second.minimum ? kWinnerMin : kWinnerMax, 3);
        }
    }
    p.restore();
}

}  // namespace linescope::ui
