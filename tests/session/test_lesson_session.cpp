// The lesson mode through the session (label session, issue 21): computed only in lesson
// mode; its panes' images are the engine's stages (ε(f), δ(f), and δ(ε(f)) = the opening,
// ε(δ(f)) = the closing); at the pinned pixel each stage's window holds the engine's pixels
// and values and its extreme is the stage's output there; the profile holds the images'
// pixels along the line path; the response is lineMorph at that pixel for the sweep's angles,
// with the sweep's supremum and orientation. A pin drag is one computation of its newest pixel
// and reuses the stages. The engine thread is held by a gate, never timed.
#include "app/session/lesson.h"
#include "app/session/session.h"
#include "tests/support/cpu_session.h"
#include "compute/line_morph_at.h"
#include "tests/support/engine_gate.h"
#include "tests/support/random_images.h"

#include <QCoreApplication>
#include <QTest>

#include <atomic>

using namespace linescope;
using namespace linescope::session;

namespace {

constexpr int kTimeoutMs = test::kSessionTimeoutMs;

EngineQueue::Options cpuOptions() { return test::cpuSessionOptions(); }

void lessonMode(Session& session, bool on) {
    ViewOptions o = session.viewOptions();
    o.lesson = on;
    session.setViewOptions(o);
}

bool sameParams(const LessonParams& a, const LessonParams& b) {
    return a.op == b.op && a.line.angle == b.line.angle && a.line.length == b.line.length && a.line.kind == b.line.kind &&
           a.pin == b.pin && a.angles.start == b.angles.start && a.angles.step == b.angles.step &&
           a.angles.count == b.angles.count;
}

// The newest lesson snapshot once it answers the session's current parameters.
SnapshotPtr awaitCurrent(Session& session) {
    const auto matches = [&] {
        const SnapshotPtr s = session.latest(RequestKind::Lesson);
        const auto want = session.requestFor(RequestKind::Lesson);
        return s && want && s->request.image == want->image &&
               sameParams(std::get<LessonParams>(s->request.params), std::get<LessonParams>(want->params));
    };
    (void)QTest::qWaitFor(matches, kTimeoutMs);
    return matches() ? session.latest(RequestKind::Lesson) : nullptr;
}

template <class T>
const Image<T>& imageOf(const std::shared_ptr<const AnyImage>& p) {
    return std::get<Image<T>>(*p);
}

// Everything a lesson snapshot shows, against the engine, for an image of type T.
template <class T>
void checkLesson(const Snapshot& s, const Image<T>& f, const AngleSet& angles) {
    QVERIFY2(s.ok(), s.error.c_str());
    QVERIFY(s.lesson && s.lesson->stages);
    const LessonParams& p = std::get<LessonParams>(s.request.params);
    const LessonStages& st = *s.lesson->stages;
    const auto want = [&](MorphOp op) { return lineMorph<T>(op, f.cview(), p.line); };
    QVERIFY(imageOf<T>(st.erosion) == want(MorphOp::Erode));
    QVERIFY(imageOf<T>(st.dilation) == want(MorphOp::Dilate));
    QVERIFY(imageOf<T>(st.second) == want(p.op));
    QVERIFY(st.first() == (p.op == MorphOp::Open ? st.erosion : st.dilation));
    QVERIFY(p.pin);
    QVERIFY(s.lesson->pin);
    const LessonPin& pin = *s.lesson->pin;
    const PixelAt x = *p.pin;
    QCOMPARE(pin.pixel, x);
    const Image<T>& first = imageOf<T>(st.first());
    const Image<T>& second = imageOf<T>(st.second);

    // The windows: the engine's pixels, their values in each stage's input, and the winner is
    // the stage's output at the pin.
    const bool opening = p.op == MorphOp::Open;
    const auto checkWindow = [&](const LessonWindow& w, bool minimum, const Image<T>& input, T output) {
        QCOMPARE(w.minimum, minimum);
        const auto px = stageWindow(minimum, p.line.kind, p.line.angle, p.line.length, f.width(), f.height(), x.x, x.y);
        QCOMPARE(w.pixels.size(), px.size());
        for (std::size_t i = 0; i < px.size(); ++i) {
            QCOMPARE(w.pixels[i].x, px[i].x);
            QCOMPARE(w.pixels[i].y, px[i].y);
            QCOMPARE(w.pixels[i].k, px[i].k);
            QCOMPARE(w.pixels[i].value, static_cast<double>(input.at(px[i].x, px[i].y)));
        }
        QVERIFY(w.extreme >= 0);
        QCOMPARE(w.pixels[static_cast<std::size_t>(w.extreme)].value, static_cast<double>(output));
        QCOMPARE(w.output, static_cast<double>(output));
    };
    checkWindow(pin.first, opening, f, first.at(x.x, x.y));
    checkWindow(pin.second, !opening, first, second.at(x.x, x.y));

    // The profile: the images' pixels along the line path through the pin.
    const LinePathThrough path = linePathThrough(p.line.angle, f.width(), f.height(), x.x, x.y);
    QVERIFY(pin.profile.path == path.pixels);
    QCOMPARE(pin.profile.index, path.index);
    for (std::size_t i = 0; i < path.pixels.size(); ++i) {
        const PixelAt q = path.pixels[i];
        QCOMPARE(pin.profile.f[i], static_cast<double>(f.at(q.x, q.y)));
        QCOMPARE(pin.profile.erosion[i], static_cast<double>(imageOf<T>(st.erosion).at(q.x, q.y)));
        QCOMPARE(pin.profile.dilation[i], static_cast<double>(imageOf<T>(st.dilation).at(q.x, q.y)));
        QCOMPARE(pin.profile.second[i], static_cast<double>(second.at(q.x, q.y)));
    }

    // The response: the sweep's planes at the pin, and each angle's operator there.
    const SweepResult<T> sw = sweep<T>(f.cview(), SweepRequest{p.op, p.line.length, angles, p.line.kind});
    QCOMPARE(static_cast<int>(pin.response.values.size()), angles.count);
    double hi = pin.response.values[0], lo = hi;
    for (double v : pin.response.values) hi = std::max(hi, v), lo = std::min(lo, v);
    QCOMPARE(hi, static_cast<double>(sw.sup.at(x.x, x.y)));
    QCOMPARE(lo, static_cast<double>(sw.inf.at(x.x, x.y)));
    QCOMPARE(pin.response.best, static_cast<int>(sw.argIndex.at(x.x, x.y)));
    for (int k = 0; k < angles.count; k += 5) {
        const Image<T> at = lineMorph<T>(p.op, f.cview(), LineParams{angles.angle(k), p.line.length, p.line.kind});
        QCOMPARE(pin.response.values[static_cast<std::size_t>(k)], static_cast<double>(at.at(x.x, x.y)));
    }
}

}  // namespace

class TestLessonSession : public QObject {
    Q_OBJECT

private slots:
    void computedOnlyInLessonMode() {
        Session session(cpuOptions());
        session.setImage(test::randomImage<std::uint8_t>(40, 30, 1, test::ImageKind::Blocky));
        QVERIFY(!session.isLive(RequestKind::Lesson));
        lessonMode(session, true);
        QVERIFY(session.isLive(RequestKind::Lesson));
        const SnapshotPtr s = awaitCurrent(session);
        QVERIFY(s && s->ok());
        QVERIFY(!s->lesson->pin);  // no pixel pinned yet: the stages only
        lessonMode(session, false);
        QVERIFY(!session.isLive(RequestKind::Lesson));
        const auto before = session.queue().computations(RequestKind::Lesson);
        session.setAngle(30);
        session.setLessonPin(PixelAt{3, 4});
        QCoreApplication::processEvents();
        QCOMPARE(session.queue().computations(RequestKind::Lesson), before);
    }

    // Openings and closings, every line kind, odd and even λ, integer and float images.
    void panesWindowsProfileAndResponseAreTheEngines() {
        Session session(cpuOptions());
        const AngleSet angles = AngleSet::overHalfTurn(30);
        session.setAngleSet(angles);
        const Image<std::uint8_t> f = test::randomImage<std::uint8_t>(45, 33, 4, test::ImageKind::Blocky);
        session.setImage(f);
        lessonMode(session, true);
        struct Case {
            MorphOp op;
            LineKind kind;
            double angle;
            int length;
            PixelAt pin;
        };
        const Case cases[] = {{MorphOp::Open, LineKind::Paths, 30, 7, {20, 15}},
                              {MorphOp::Open, LineKind::Paths, 63.5, 8, {0, 32}},
                              {MorphOp::Close, LineKind::Paths, 120, 5, {44, 1}},
                              {MorphOp::TopHat, LineKind::Segment, 17, 6, {10, 10}},
                              {MorphOp::Dilate, LineKind::Periodic, 150, 9, {30, 20}}};
        for (const Case& c : cases) {
            session.setOp(c.op);
            session.setLineKind(c.kind);
            session.setAngle(c.angle);
            session.setLength(c.length);
            session.setLessonPin(c.pin);
            const SnapshotPtr s = awaitCurrent(session);
            QVERIFY(s);
            QCOMPARE(std::get<LessonParams>(s->request.params).op, lessonOpOf(c.op));
            checkLesson<std::uint8_t>(*s, f, angles);
            if (QTest::currentTestFailed()) return;
        }
        const Image<float> g = test::finiteFloatImage(31, 27, 8, test::ImageKind::Noise);
        session.setImage(g);
        session.setOp(MorphOp::Open);
        session.setLessonPin(PixelAt{5, 26});
        const SnapshotPtr s = awaitCurrent(session);
        QVERIFY(s);
        checkLesson<float>(*s, g, angles);
    }

    // A pin dragged while the engine is busy: one computation, of the newest pixel, with the
    // same stage images as before (not recomputed).
    void pinDragCoalescesAndKeepsTheStages() {
        Session session(cpuOptions());
        test::EngineGate gate;
        std::atomic<bool> hold{false};
        session.queue().setCheckpointHookForTests([&](RequestKind k, std::uint64_t, int step) {
            if (k == RequestKind::Lesson && step == 0 && hold.exchange(false)) gate.hold();
        });
        session.setImage(test::randomImage<std::uint8_t>(64, 48, 9, test::ImageKind::Blocky));
        session.setLessonPin(PixelAt{1, 1});
        lessonMode(session, true);
        const SnapshotPtr first = awaitCurrent(session);
        QVERIFY(first && first->ok() && first->lesson->pin);
        hold = true;
        session.setLessonPin(PixelAt{2, 2});
        QVERIFY(gate.waitHeld());
        const auto before = session.queue().computations(RequestKind::Lesson);
        for (int i = 3; i <= 40; ++i) session.setLessonPin(PixelAt{i, i});
        gate.release();
        const SnapshotPtr s = awaitCurrent(session);
        QVERIFY(s && s->ok());
        QCOMPARE(s->lesson->pin->pixel, (PixelAt{40, 40}));
        (void)QTest::qWaitFor([&] { return !session.queue().busy(); }, kTimeoutMs);
        QVERIFY(session.queue().computations(RequestKind::Lesson) <= before + 1);
        QVERIFY(s->lesson->stages == first->lesson->stages);
        // A new angle computes new stages.
        session.setAngle(45);
        const SnapshotPtr turned = awaitCurrent(session);
        QVERIFY(turned && turned->lesson->stages != first->lesson->stages);
    }

    // A pin outside a newly opened, smaller image is not sent: the stages come, no pin.
    void pinOutsideANewImageIsDropped() {
        Session session(cpuOptions());
        lessonMode(session, true);
        session.setImage(test::randomImage<std::uint8_t>(50, 50, 2));
        session.setLessonPin(PixelAt{40, 40});
        QVERIFY(awaitCurrent(session)->lesson->pin);
        session.setImage(test::randomImage<std::uint8_t>(20, 20, 3));
        const SnapshotPtr s = awaitCurrent(session);
        QVERIFY(s && s->ok());
        QVERIFY(!s->lesson->pin);
    }
};

QTEST_GUILESS_MAIN(TestLessonSession)
#include "test_lesson_session.moc"
