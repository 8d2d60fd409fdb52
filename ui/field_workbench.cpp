#include "ui/field_workbench.h"

#include "app/io/atomic_file.h"
#include "app/io/orientation_export.h"
#include "compute/sweep.h"

#include <QBuffer>
#include <QFileInfo>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace linescope::ui {

namespace {

// The image in grey at 1:1: 8-bit images as they are, deeper ones stretched from min to max.
QImage greyOf(const session::AnyImage& img) {
    const int w = session::widthOf(img), h = session::heightOf(img);
    QImage out(w, h, QImage::Format_Grayscale8);
    std::visit(
        [&](const auto& im) {
            double lo = 0, hi = 255;
            if constexpr (!std::is_same_v<std::decay_t<decltype(im.at(0, 0))>, std::uint8_t>) {
                lo = INFINITY, hi = -INFINITY;
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x) lo = std::min(lo, double(im.at(x, y))), hi = std::max(hi, double(im.at(x, y)));
            }
            const double k = hi > lo ? 255.0 / (hi - lo) : 0;
            for (int y = 0; y < h; ++y) {
                uchar* row = out.scanLine(y);
                for (int x = 0; x < w; ++x) row[x] = static_cast<uchar>(std::clamp((double(im.at(x, y)) - lo) * k + 0.5, 0.0, 255.0));
            }
        },
        img);
    return out;
}

QColor angleColour(double angle) {
    std::uint8_t rgb[3];
    orientationColour(angle, 1.0, rgb);
    return QColor(rgb[0], rgb[1], rgb[2]);
}

FieldNeedle needleAt(int bx, int by, int b, double angle, double coherence) {
    FieldNeedle n;
    n.bx = bx, n.by = by, n.angle = angle, n.coherence = coherence;
    const double half = 0.5 * needleLength(b, coherence), a = angle * std::numbers::pi / 180.0;
    const double cx = (bx + 0.5) * b, cy = (by + 0.5) * b, dx = std::cos(a) * half, dy = -std::sin(a) * half;
    n.x0 = cx - dx, n.y0 = cy - dy, n.x1 = cx + dx, n.y1 = cy + dy;
    n.colour = angleColour(angle);
    return n;
}

void drawNeedles(QPainter& p, const std::vector<FieldNeedle>& needles, int blockSize, double scale) {
    const double width = std::clamp(0.09 * blockSize * scale, 1.5, 4.0);
    for (const FieldNeedle& n : needles) {
        // A dark rim under the colour keeps light hues readable on light ridges.
        p.setPen(QPen(QColor(0, 0, 0, 150), width + 1.5, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(n.x0 * scale, n.y0 * scale), QPointF(n.x1 * scale, n.y1 * scale));
        p.setPen(QPen(n.colour, width, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(n.x0 * scale, n.y0 * scale), QPointF(n.x1 * scale, n.y1 * scale));
    }
}

// Cores as circles, deltas as triangles: white over a black rim, readable on every colour.
void drawSingularPoints(QPainter& p, const std::vector<SingularPoint>& points, int blockSize, double scale) {
    const double r = std::max(7.0, 0.55 * blockSize * scale);
    for (const SingularPoint& s : points) {
        const QPointF c(s.x * blockSize * scale, s.y * blockSize * scale);
        QPainterPath shape;
        if (s.kind == SingularKind::Core) {
            shape.addEllipse(c, r, r);
        } else {
            shape.moveTo(c + QPointF(0, -r * 1.15));
            shape.lineTo(c + QPointF(r, r * 0.7));
            shape.lineTo(c + QPointF(-r, r * 0.7));
            shape.closeSubpath();
        }
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(Qt::black, 5));
        p.drawPath(shape);
        p.setPen(QPen(s.kind == SingularKind::Core ? QColor(255, 255, 255) : QColor(255, 235, 60), 2.5));
        p.drawPath(shape);
    }
}

// Every block's rectangle on the canvas, filled by `fill(b)` (no fill where it is transparent).
template <class Fill>
void fillBlocks(QPainter& p, const OrientationField& f, double scale, Fill&& fill) {
    // Without antialiasing: neighbouring blocks meet without a seam.
    const bool antialiased = p.testRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::Antialiasing, false);
    const double s = f.blockSize * scale;
    for (int by = 0; by < f.blocksY; ++by)
        for (int bx = 0; bx < f.blocksX; ++bx) {
            const QColor c = fill(static_cast<std::size_t>(by) * static_cast<std::size_t>(f.blocksX) + static_cast<std::size_t>(bx));
            if (c.alpha() > 0) p.fillRect(QRectF(bx * s, by * s, s, s), c);
        }
    p.setRenderHint(QPainter::Antialiasing, antialiased);
}

bool fail(QString* error, const QString& why) {
    if (error) *error = why;
    return false;
}

bool writeBytes(const QString& path, const QByteArray& bytes, QString* error) {
    try {
        io::writeFileAtomically(QFile::encodeName(path).toStdString(), std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
        return true;
    } catch (const std::exception& e) {
        return fail(error, QString::fromStdString(e.what()));
    }
}

}  // namespace

QString fieldViewTitle(FieldView v) {
    switch (v) {
    case FieldView::Needles: return QObject::tr("Needles");
    case FieldView::Coherence: return QObject::tr("Coherence");
    case FieldView::Mask: return QObject::tr("Mask");
    case FieldView::Tensor: return QObject::tr("Tensor needles");
    case FieldView::Difference: return QObject::tr("Difference");
    }
    return {};
}

double needleLength(int blockSize, double coherence) {
    return blockSize * (0.2 + 0.7 * std::clamp(coherence, 0.0, 1.0));
}

std::vector<FieldNeedle> fieldNeedles(const OrientationField& f) {
    std::vector<FieldNeedle> out;
    for (int by = 0; by < f.blocksY; ++by)
        for (int bx = 0; bx < f.blocksX; ++bx) {
            const std::size_t b = static_cast<std::size_t>(by) * static_cast<std::size_t>(f.blocksX) + static_cast<std::size_t>(bx);
            if (f.foreground[b]) out.push_back(needleAt(bx, by, f.blockSize, f.angle[b], f.coherence[b]));
        }
    return out;
}

std::vector<FieldNeedle> tensorNeedles(const analysis::BlockField& t, const std::vector<unsigned char>& foreground) {
    std::vector<FieldNeedle> out;
    for (int by = 0; by < t.blocksY; ++by)
        for (int bx = 0; bx < t.blocksX; ++bx) {
            const std::size_t b = static_cast<std::size_t>(by) * static_cast<std::size_t>(t.blocksX) + static_cast<std::size_t>(bx);
            if (b < foreground.size() && foreground[b]) out.push_back(needleAt(bx, by, t.blockSize, t.degrees[b], 1.0));
        }
    return out;
}

QRgb differenceColour(double degrees) {
    const double t = std::clamp(degrees / 30.0, 0.0, 1.0);
    // black → red (⅓) → yellow (⅔) → white
    const double r = std::min(1.0, 3 * t), g = std::clamp(3 * t - 1, 0.0, 1.0), b = std::clamp(3 * t - 2, 0.0, 1.0);
    return qRgb(int(std::lround(255 * r)), int(std::lround(255 * g)), int(std::lround(255 * b)));
}

QRgb coherenceColour(double c) {
    const double t = std::clamp(c, 0.0, 1.0);
    const QColor lo(30, 30, 110), mid(20, 150, 140), hi(250, 230, 40);
    const auto mix = [](const QColor& a, const QColor& b, double u) {
        return qRgb(int(std::lround(a.red() + (b.red() - a.red()) * u)), int(std::lround(a.green() + (b.green() - a.green()) * u)),
                    int(std::lround(a.blue() + (b.blue() - a.blue()) * u)));
    };
    return t < 0.5 ? mix(lo, mid, 2 * t) : mix(mid, hi, 2 * t - 1);
}

QImage renderFieldView(FieldView view, const session::FieldOutput& out, const session::AnyImage& image, double scale) {
    const OrientationField& f = out.field;
    const int w = session::widthOf(image), h = session::heightOf(image);
    QImage canvas(std::max(1, int(std::ceil(w * scale))), std::max(1, int(std::ceil(h * scale))), QImage::Format_ARGB32_Premultiplied);
    canvas.fill(Qt::black);
    QPainter p(&canvas);
    p.setRenderHint(QPainter::SmoothPixmapTransform);
    p.drawImage(QRectF(0, 0, w * scale, h * scale), greyOf(image));
    p.setRenderHint(QPainter::Antialiasing);
    const QColor background(0, 0, 0, 170), dim(0, 0, 0, 90);
    const auto isForeground = [&](std::size_t b) { return f.foreground[b] != 0; };
    switch (view) {
    case FieldView::Needles:
        fillBlocks(p, f, scale, [&](std::size_t b) { return isForeground(b) ? dim : background; });
        drawNeedles(p, fieldNeedles(f), f.blockSize, scale);
        break;
    case FieldView::Coherence:
        fillBlocks(p, f, scale, [&](std::size_t b) {
            if (!isForeground(b)) return background;
            QColor c = QColor::fromRgb(coherenceColour(f.coherence[b]));
            c.setAlpha(215);
            return c;
        });
        break;
    case FieldView::Mask:
        fillBlocks(p, f, scale, [&](std::size_t b) { return isForeground(b) ? QColor(40, 200, 90, 90) : QColor(0, 0, 0, 190); });
        break;
    case FieldView::Tensor:
        if (!out.tensor) break;
        fillBlocks(p, f, scale, [&](std::size_t b) { return isForeground(b) ? dim : background; });
        drawNeedles(p, tensorNeedles(*out.tensor, f.foreground), f.blockSize, scale);
        break;
    case FieldView::Difference:
        if (out.difference.empty()) break;
        fillBlocks(p, f, scale, [&](std::size_t b) {
            if (!isForeground(b)) return background;
            QColor c = QColor::fromRgb(differenceColour(out.difference[b]));
            c.setAlpha(235);
            return c;
        });
        break;
    }
    if (view == FieldView::Needles || view == FieldView::Coherence || view == FieldView::Mask)
        drawSingularPoints(p, out.singular, f.blockSize, scale);
    return canvas;
}

FieldWorkbench::FieldWorkbench(QObject* parent) : QObject(parent) {}

void FieldWorkbench::follow(session::Session& session) {
    session_ = &session;
    connect(&session, &session::Session::snapshotReady, this,
            [this](session::RequestKind kind, const session::SnapshotPtr& s) {
                if (kind != session::RequestKind::Field || !s->ok() || s->request.image != session_->image()) return;
                shown_ = s;
                emit changed();
            });
    connect(&session, &session::Session::imageChanged, this, [this] {
        shown_.reset();
        emit changed();
    });
}

const session::FieldOutput* FieldWorkbench::output() const { return shown_ ? shown_->field.get() : nullptr; }

void FieldWorkbench::setLeftView(FieldView v) {
    if (v == left_) return;
    left_ = v;
    emit changed();
}

void FieldWorkbench::setRightView(FieldView v) {
    if (v == right_) return;
    right_ = v;
    emit changed();
}

QString FieldWorkbench::summary() const {
    const session::FieldOutput* out = output();
    if (!out) return hasImage() ? tr("Computing the orientation field…") : QString();
    int cores = 0, deltas = 0, foreground = 0;
    for (const SingularPoint& s : out->singular) (s.kind == SingularKind::Core ? cores : deltas) += 1;
    for (const unsigned char fg : out->field.foreground) foreground += fg ? 1 : 0;
    QString text = (cores == 1 ? tr("1 core") : tr("%1 cores").arg(cores)) + QStringLiteral(", ") +
                   (deltas == 1 ? tr("1 delta") : tr("%1 deltas").arg(deltas)) + QStringLiteral(" · ") +
                   tr("%1 of %2 blocks on the print").arg(foreground).arg(out->field.angle.size());
    if (out->tensor) text += QStringLiteral(" · ") + tr("tensor differs by %1° on average").arg(out->meanDifference, 0, 'f', 1);
    return text;
}

bool FieldWorkbench::exportCsv(const QString& path, QString* error) const {
    const session::FieldOutput* out = output();
    if (!out) return fail(error, tr("no orientation field to export yet"));
    const std::string text = io::orientationFieldCsv(out->field);
    return writeBytes(path, QByteArray::fromStdString(text), error);
}

bool FieldWorkbench::exportJson(const QString& path, QString* error) const {
    const session::FieldOutput* out = output();
    if (!out) return fail(error, tr("no orientation field to export yet"));
    const auto& p = std::get<session::FieldParams>(shown_->request.params);
    return writeBytes(path, QByteArray::fromStdString(io::orientationFieldJson(out->field, p.field, out->fieldMs)), error);
}

bool FieldWorkbench::exportNeedleImage(const QString& path, QString* error) const {
    const session::FieldOutput* out = output();
    if (!out) return fail(error, tr("no orientation field to export yet"));
    const QImage img = renderFieldView(left_, *out, *shown_->request.image, 1.0).convertToFormat(QImage::Format_RGB888);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    const QByteArray format = QFileInfo(path).suffix().toLower().toLatin1();
    if (!img.save(&buffer, format.isEmpty() ? "png" : format.constData()))
        return fail(error, tr("cannot write '%1': no image format for '.%2'").arg(path, QString::fromLatin1(format)));
    return writeBytes(path, bytes, error);
}

}  // namespace linescope::ui
