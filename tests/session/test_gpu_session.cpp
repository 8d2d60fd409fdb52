// GPU mode of the session (label gpu; skips without a usable CUDA device): one engine
// computation per parameter change, on the device, whose planes stay there; and what every
// consumer reads from them — the planes downloaded for an export, the spectrum, the probe's
// pixels, the threshold range, the contours traced from the original, the result and the
// sweep's planes — equals the CPU engine's on the same parameters, bit for bit.
#include "app/session/device_planes.h"
#include "app/session/lesson.h"
#include "app/session/orientation_workbench.h"
#include "compute/orientation_field.h"
#include "app/session/planes.h"
#include "app/session/session.h"
#include "compute/cuda/cuda_context.h"
#include "compute/faults/fault_injection.h"
#include "tests/support/random_images.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <span>

using namespace linescope;
using namespace linescope::session;

namespace {

template <class T>
Image<T> sourceImage(int w, int h, std::uint64_t seed) {
    if constexpr (std::is_same_v<T, float>) return test::finiteFloatImage(w, h, seed, test::ImageKind::Noise);
    else return test::randomImage<T>(w, h, seed);
}

template <class T>
bool samePixels(const Image<T>& a, const Image<T>& b) {
    if (a.width() != b.width() || a.height() != b.height()) return false;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            if (std::memcmp(&a.at(x, y), &b.at(x, y), sizeof(T)) != 0) return false;
    return true;
}

bool sameContours(const Contours& a, const Contours& b) {
    if (a.points.size() != b.points.size()) return false;
    for (std::size_t i = 0; i < a.points.size(); ++i)
        if (a.points[i].x != b.points[i].x || a.points[i].y != b.points[i].y) return false;
    return a.offsets == b.offsets && a.next == b.next && a.previous == b.previous && a.firstChild == b.firstChild &&
           a.parent == b.parent && a.hole == b.hole;
}

template <class T>
Image<std::uint8_t> binaryOf(const Image<T>& img, double t) {
    Image<std::uint8_t> bin(img.width(), img.height());
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) bin.at(x, y) = static_cast<double>(img.at(x, y)) > t ? 255 : 0;
    return bin;
}

}  // namespace

class TestGpuSession : public QObject {
    Q_OBJECT

    std::unique_ptr<Session> session_;

    // Waits until the session is idle and returns the newest snapshot of `kind`.
    SnapshotPtr settle(RequestKind kind) {
        QElapsedTimer t;
        t.start();
        do {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        } while ((session_->queue().busy() || !session_->latest(kind)) && t.elapsed() < 60000);
        QCoreApplication::processEvents();  // the published signals, and the contours they submit
        while (session_->queue().busy() && t.elapsed() < 60000) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        QCoreApplication::processEvents();
        return session_->latest(kind);
    }

    template <class T>
    void consumersMatchCpu() {
        const int w = 193, h = 131;
        const Image<T> img = sourceImage<T>(w, h, 41);
        session_->setImage(AnyImage(Image<T>::copyOf(img.cview())));
        EngineOptions cpu;
        cpu.backend = Backend::Cpu;
        std::mt19937_64 rng(5);
        for (int trial = 0; trial < 4; ++trial) {
            const double angle = std::uniform_real_distribution<double>(0, 180)(rng);
            const int length = std::uniform_int_distribution<int>(1, 45)(rng);
            const MorphOp op = trial % 2 ? MorphOp::Close : MorphOp::Open;
            session_->setOp(op);
            session_->setAngle(angle);
            session_->setLength(length);
            const SnapshotPtr r = settle(RequestKind::Result);
            const SnapshotPtr s = settle(RequestKind::Sweep);
            QVERIFY(r && r->ok() && s && s->ok());
            QVERIFY2(onDevice(*r) && onDevice(*s), "GPU mode keeps the planes on the device");
            QVERIFY(!r->result && !s->sweep);  // nothing came down by itself

            const Image<T> want = lineMorph<T>(op, img.cview(), {angle, length}, cpu);
            QVERIFY(samePixels(std::get<Image<T>>(*hostResult(*r)), want));
            const SweepResult<T> ws = sweep<T>(img.cview(), {op, length, session_->parameters().angles}, cpu);
            const auto& gs = std::get<SweepResult<T>>(*hostSweep(*s));
            QVERIFY(samePixels(gs.sup, ws.sup));
            QVERIFY(samePixels(gs.inf, ws.inf));
            QVERIFY(samePixels(gs.strength, ws.strength));
            QVERIFY(samePixels(gs.argIndex, ws.argIndex));
            if constexpr (!std::is_same_v<T, float>) QCOMPARE(s->spectrum->exact, ws.spectrumExact);
            QCOMPARE(s->spectrum->values.size(), ws.spectrum.size());

            for (int k = 0; k < 20; ++k) {  // the probe
                const int x = std::uniform_int_distribution<int>(0, w - 1)(rng);
                const int y = std::uniform_int_distribution<int>(0, h - 1)(rng);
                QCOMPARE(pixelOf(*r, Plane::Result, x, y), static_cast<double>(want.at(x, y)));
                QCOMPARE(pixelOf(*s, Plane::Supremum, x, y), static_cast<double>(ws.sup.at(x, y)));
                QCOMPARE(pixelOf(*s, Plane::Strength, x, y), static_cast<double>(ws.strength.at(x, y)));
                QCOMPARE(orientationOf(*s, x, y), ws.orientation(x, y));
            }
            // The needles' samples: one angle and one strength a cell, gathered on the device.
            std::vector<double> angles, strengths;
            QVERIFY(cellSamples(*s, 16, &angles, &strengths));
            std::size_t cell = 0;
            for (int cy = 8; cy < h; cy += 16)
                for (int cx = 8; cx < w; cx += 16, ++cell) {
                    QVERIFY(cell < angles.size());
                    QCOMPARE(angles[cell], ws.orientation(cx, cy));
                    QCOMPARE(strengths[cell], static_cast<double>(ws.strength.at(cx, cy)));
                }
            QCOMPARE(angles.size(), cell);
            double lo = 0, hi = 0;
            QVERIFY(rangeOf(*s, Plane::Infimum, &lo, &hi));
            const auto [mn, mx] = std::minmax_element(ws.inf.pixels().begin(), ws.inf.pixels().end());
            QCOMPARE(lo, static_cast<double>(*mn));
            QCOMPARE(hi, static_cast<double>(*mx));

            // Contours from each source, traced on the device, as the CPU traces the same plane.
            for (const Plane src : kContourSources) {
                const Image<T>& plane = src == Plane::Original ? img
                                        : src == Plane::Result ? want
                                        : src == Plane::Supremum ? ws.sup
                                        : src == Plane::Infimum ? ws.inf
                                                                        : ws.strength;
                // Halfway through the plane's values: something on both sides to trace.
                const auto [pmin, pmax] = std::minmax_element(plane.pixels().begin(), plane.pixels().end());
                const double t = (static_cast<double>(*pmin) + static_cast<double>(*pmax)) / 2;
                session_->setThreshold(t);
                session_->setContourSource(src);
                const SnapshotPtr c = settle(RequestKind::Contours);
                QVERIFY(c && c->ok());
                QCOMPARE(c->request.contourSource, src);
                QCOMPARE(std::get<ContourParams>(c->request.params).threshold, t);
                const auto& cp = std::get<ContourParams>(c->request.params);
                Contours expected;
                ContourFinder(cpu).find(binaryOf(plane, t).cview(), cp.mode, cp.approx, expected);
                QVERIFY(expected.size() > 0);  // a threshold that leaves something to trace
                QVERIFY2(sameContours(*c->contours, expected),
                         qPrintable(QString("contours of the %1").arg(planeName(src))));
            }
            session_->setContourSource(Plane::Original);
        }
    }

private slots:
    void initTestCase() {
        std::string why;
        if (!cuda::CudaContext::usable(&why)) QSKIP(qPrintable("no usable CUDA device: " + QString::fromStdString(why)));
        EngineQueue::Options o;
        o.engine.backend = Backend::Cuda;
        o.deviceResident = true;
        o.deviceSweepChunkAngles = 7;  // many chunks: the device fold is exercised
        session_ = std::make_unique<Session>(o);
        session_->setLive(RequestKind::Skew, false);
        QVERIFY(session_->deviceResident());
        session_->setAngleSet(AngleSet{0, 1.5, 120});
    }
    void cleanupTestCase() { session_.reset(); }

    void consumersU8() { consumersMatchCpu<std::uint8_t>(); }
    void consumersU16() { consumersMatchCpu<std::uint16_t>(); }
    void consumersF32() { consumersMatchCpu<float>(); }

    // One parameter change, one engine computation of each view that depends on it, and the
    // source image is uploaded once per image.
    void oneComputationPerChange() {
        session_->setImage(AnyImage(test::randomImage<std::uint8_t>(320, 200, 9)));
        settle(RequestKind::Sweep);
        const EngineQueue& q = session_->queue();
        for (const double angle : {10.0, 20.5, 33.0}) {
            const auto before = q.computations(RequestKind::Result);
            const auto sweeps = q.computations(RequestKind::Sweep);
            const auto traffic = cuda::CudaContext::hostTraffic();
            session_->setAngle(angle);
            settle(RequestKind::Result);
            QCOMPARE(q.computations(RequestKind::Result), before + 1);
            QCOMPARE(q.computations(RequestKind::Sweep), sweeps);  // the angle is not the sweep's
            QVERIFY2(cuda::CudaContext::hostTraffic() - traffic < 4096, "no plane crossed the bus");
        }
        for (const int length : {9, 31}) {
            const auto results = q.computations(RequestKind::Result);
            const auto sweeps = q.computations(RequestKind::Sweep);
            session_->setLength(length);
            settle(RequestKind::Sweep);
            QCOMPARE(q.computations(RequestKind::Result), results + 1);
            QCOMPARE(q.computations(RequestKind::Sweep), sweeps + 1);
        }
    }

    // A big device sweep shows itself while it runs: its chunks take interleaved angles, and
    // after the first (every 4th of 180 angles) and the second (every 2nd) the sweep so far is
    // published as a preview — planes of its own equal to the CPU's sweep over those angles
    // (the angle index one of the whole set), the spectrum of those angles — before the exact
    // sweep, which equals the CPU's over the whole set. Ties are common on a few-level image:
    // the interleaved folds must still pick the smallest angle index.
    void previewsOfALongDeviceSweep() {
        EngineQueue::Options o;
        o.engine.backend = Backend::Cuda;
        o.deviceResident = true;
        o.deviceSweepChunkAngles = 45;
        o.devicePreviewMinPixels = 1;  // every image counts as big
        EngineQueue q(o);
        std::vector<SnapshotPtr> seen;
        connect(&q, &EngineQueue::published, this, [&](SnapshotPtr s) { seen.push_back(std::move(s)); });
        const auto img = std::make_shared<const AnyImage>(
            test::randomImage<std::uint8_t>(211, 157, 77, test::ImageKind::FewLevels));
        const AngleSet angles = AngleSet::overHalfTurn(180);
        Request req;
        req.image = img;
        req.params = SweepParams{SweepRequest{MorphOp::Open, 13, angles}};
        q.submit(req);
        QVERIFY(QTest::qWaitFor([&] { return !seen.empty() && !seen.back()->isPreview(); }, 60000));
        QCOMPARE(seen.size(), std::size_t{3});
        const auto& src = std::get<Image<std::uint8_t>>(*img);
        EngineOptions cpu;
        cpu.backend = Backend::Cpu;
        for (int i = 0; i < 3; ++i) {
            const SnapshotPtr& s = seen[static_cast<std::size_t>(i)];
            QVERIFY(s->ok() && onDevice(*s));
            const int stride = i == 0 ? 4 : i == 1 ? 2 : 1;
            QCOMPARE(s->isPreview(), i < 2);
            if (s->isPreview()) {
                QCOMPARE(s->preview->anglesDone, 180 / stride);
                QCOMPARE(s->preview->anglesTotal, 180);
            }
            const AngleSet covered{0, angles.step * stride, 180 / stride};
            SweepResult<std::uint8_t> want = sweep<std::uint8_t>(src.cview(), {MorphOp::Open, 13, covered}, cpu);
            for (std::uint16_t& k : std::span(want.argIndex.data(), want.argIndex.pixels().size()))
                k = static_cast<std::uint16_t>(k * stride);
            const auto& got = std::get<SweepResult<std::uint8_t>>(*hostSweep(*s));
            QVERIFY2(samePixels(got.sup, want.sup), qPrintable(QString("sup of snapshot %1").arg(i)));
            QVERIFY2(samePixels(got.inf, want.inf), qPrintable(QString("inf of snapshot %1").arg(i)));
            QVERIFY2(samePixels(got.strength, want.strength), qPrintable(QString("strength of snapshot %1").arg(i)));
            QVERIFY2(samePixels(got.argIndex, want.argIndex), qPrintable(QString("arg of snapshot %1").arg(i)));
            QCOMPARE(s->spectrum->angles.count, covered.count);
            QCOMPARE(s->spectrum->angles.step, covered.step);
            QCOMPARE(s->spectrum->exact, want.spectrumExact);
        }
        // Held (a λ drag): the same sweep stops at its first preview.
        seen.clear();
        req.interactive = true;
        q.submit(req);
        QVERIFY(QTest::qWaitFor([&] { return !q.busy() && !seen.empty(); }, 60000));
        QCoreApplication::processEvents();
        QCOMPARE(seen.size(), std::size_t{1});
        QVERIFY(seen[0]->isPreview());
        QCOMPARE(seen[0]->preview->anglesDone, 45);
        QCOMPARE(q.stats().stoppedAtPreview, std::uint64_t{1});
    }

    // The lesson in GPU mode: its stage images are computed on the device from the resident
    // source, equal to the CPU's bit for bit for openings and closings of every line kind; a
    // new angle brings the three stages down once each and uploads nothing (before, each of
    // the three operators uploaded its input: twice the traffic).
    void lessonStagesOnTheDevice() {
        const int w = 211, h = 97;
        const Image<std::uint16_t> img = sourceImage<std::uint16_t>(w, h, 77);
        session_->setImage(AnyImage(Image<std::uint16_t>::copyOf(img.cview())));
        ViewOptions lessonOnly;  // the result (on the device, nothing comes down) and the lesson
        lessonOnly.lesson = true;
        session_->setViewOptions(lessonOnly);
        session_->setLessonPin(PixelAt{100, 50});
        session_->setLength(13);
        EngineOptions cpu;
        cpu.backend = Backend::Cpu;
        const std::uint64_t stageBytes = std::uint64_t{w} * h * sizeof(std::uint16_t);
        struct Case {
            MorphOp op;
            LineKind kind;
            double angle;
        };
        for (const Case c : {Case{MorphOp::Close, LineKind::Paths, 20}, Case{MorphOp::Open, LineKind::Paths, 33.5},
                             Case{MorphOp::Open, LineKind::Segment, 71}, Case{MorphOp::Close, LineKind::Periodic, 120.5}}) {
            session_->setOp(c.op);
            session_->setLineKind(c.kind);
            settle(RequestKind::Lesson);
            const auto traffic = cuda::CudaContext::hostTraffic();
            session_->setAngle(c.angle);
            const SnapshotPtr s = settle(RequestKind::Lesson);
            const auto moved = cuda::CudaContext::hostTraffic() - traffic;
            QVERIFY(s && s->ok() && s->lesson && s->lesson->pin);
            QCOMPARE(s->backend, Backend::Cuda);
            const LessonStages& st = *s->lesson->stages;
            QCOMPARE(st.line.angle, c.angle);
            const LineParams line{c.angle, 13, c.kind};
            QVERIFY(samePixels(std::get<Image<std::uint16_t>>(*st.erosion), lineMorph<std::uint16_t>(MorphOp::Erode, img.cview(), line, cpu)));
            QVERIFY(samePixels(std::get<Image<std::uint16_t>>(*st.dilation), lineMorph<std::uint16_t>(MorphOp::Dilate, img.cview(), line, cpu)));
            QVERIFY(samePixels(std::get<Image<std::uint16_t>>(*st.second), lineMorph<std::uint16_t>(c.op, img.cview(), line, cpu)));
            QVERIFY2(moved >= 3 * stageBytes && moved < 3 * stageBytes + 65536,
                     qPrintable(QString("%1 bytes crossed the bus for three stages of %2").arg(moved).arg(stageBytes)));
        }
        ViewOptions back;  // the other views live again for the tests after this one
        back.spectrumShown = back.contoursShown = back.contoursVisible = true;
        session_->setViewOptions(back);
        session_->setLineKind(LineKind::Paths);
    }

    // Sweeps of segment and periodic lines in GPU mode stay on the device too (one opening an
    // angle, folded there): the planes and spectrum equal the CPU's sweep of the same kind.
    void kindSweepsOnTheDevice() {
        const int w = 151, h = 97;
        const Image<std::uint8_t> img = sourceImage<std::uint8_t>(w, h, 77);
        session_->setImage(AnyImage(Image<std::uint8_t>::copyOf(img.cview())));
        EngineOptions cpu;
        cpu.backend = Backend::Cpu;
        session_->setOp(MorphOp::Open);
        session_->setAngle(30);
        session_->setLength(13);
        for (LineKind kind : {LineKind::Segment, LineKind::Periodic}) {
            session_->setLineKind(kind);
            const SnapshotPtr s = settle(RequestKind::Sweep);
            QVERIFY(s && s->ok());
            QCOMPARE(std::get<SweepParams>(s->request.params).sweep.kind, kind);
            QCOMPARE(s->backend, Backend::Cuda);
            QVERIFY2(onDevice(*s), "GPU mode keeps the sweep of a line kind on the device");
            const SweepRequest req{MorphOp::Open, 13, session_->parameters().angles, kind};
            const SweepResult<std::uint8_t> ws = sweep<std::uint8_t>(img.cview(), req, cpu);
            const auto& gs = std::get<SweepResult<std::uint8_t>>(*hostSweep(*s));
            QVERIFY(samePixels(gs.sup, ws.sup));
            QVERIFY(samePixels(gs.inf, ws.inf));
            QVERIFY(samePixels(gs.strength, ws.strength));
            QVERIFY(samePixels(gs.argIndex, ws.argIndex));
            QCOMPARE(s->spectrum->exact, ws.spectrumExact);
        }
        session_->setLineKind(LineKind::Paths);
    }

    // The orientation-field workbench in GPU mode: the field computed on the CUDA backend
    // (its block measurements on the device) equals the CPU engine's, and its singular points
    // come with it.
    void fieldWorkbenchOnTheDevice() {
        const int w = 300, h = 260;
        Image<std::uint8_t> img(w, h);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)  // concentric ridges: a core in the middle
                img.at(x, y) = static_cast<std::uint8_t>(128 + 100 * std::sin(0.7 * std::hypot(x - 150.0, y - 130.0)));
        session_->setImage(AnyImage(Image<std::uint8_t>::copyOf(img.cview())));
        ViewOptions fieldOnly;
        fieldOnly.fieldWorkbench = true;
        session_->setViewOptions(fieldOnly);
        const SnapshotPtr s = settle(RequestKind::Field);
        QVERIFY(s && s->ok() && s->field);
        QCOMPARE(s->backend, Backend::Cuda);
        EngineOptions cpu;
        cpu.backend = Backend::Cpu;
        const FieldParams& p = std::get<FieldParams>(s->request.params);
        const OrientationField want = estimateOrientationField<std::uint8_t>(img.cview(), p.field, cpu);
        QVERIFY(s->field->field.angle == want.angle);
        QVERIFY(s->field->field.coherence == want.coherence);
        QVERIFY(s->field->field.foreground == want.foreground);
        QVERIFY(!s->field->singular.empty());  // the rings' centre
        ViewOptions back;  // the other views live again for the tests after this one
        back.spectrumShown = back.contoursShown = back.contoursVisible = true;
        session_->setViewOptions(back);
    }

    // A CUDA failure in GPU mode (a failing device; too little device memory fails the same
    // way, in the allocation): the request is computed again on the CPU, says so once, and
    // the session goes on with host planes. Last: the session stays on the CPU afterwards.
    void cudaFailureFallsBackToCpu() {
        const Image<std::uint16_t> img = test::randomImage<std::uint16_t>(150, 90, 3);
        session_->setImage(AnyImage(Image<std::uint16_t>::copyOf(img.cview())));
        settle(RequestKind::Sweep);
        QSignalSpy notices(session_.get(), &Session::notice);
        faults::failNthCudaCall(1);
        session_->setAngle(61.5);
        const SnapshotPtr r = settle(RequestKind::Result);
        faults::failNthCudaCall(0);
        QVERIFY(r && r->ok());
        QCOMPARE(r->backend, Backend::Cpu);
        QVERIFY2(QString::fromStdString(r->notice).startsWith("CUDA failed"), r->notice.c_str());
        QVERIFY(!onDevice(*r));
        EngineOptions cpu;
        cpu.backend = Backend::Cpu;
        QVERIFY(samePixels(std::get<Image<std::uint16_t>>(*r->result),
                           lineMorph<std::uint16_t>(session_->parameters().op, img.cview(), {61.5, session_->parameters().length}, cpu)));
        QVERIFY(!session_->deviceResident());
        QVERIFY(notices.count() >= 1);
    }
};

QTEST_GUILESS_MAIN(TestGpuSession)
#include "test_gpu_session.moc"
