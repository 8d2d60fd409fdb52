// The orientation-field workbench through the session (label session, issue 21): computed only
// in the workbench; on the engine thread, never the caller's; its field is the engine's, its
// singular points and tensor difference those of that field; a block-size drag while the engine
// is busy is one computation, of the newest value. The engine thread is held by a gate, never timed.
#include "app/session/orientation_workbench.h"
#include "app/session/session.h"
#include "tests/support/cpu_session.h"
#include "tests/support/engine_gate.h"
#include "tests/support/random_images.h"

#include <QTest>
#include <QThread>

#include <atomic>

using namespace linescope;
using namespace linescope::session;

namespace {

constexpr int kTimeoutMs = test::kSessionTimeoutMs;

void workbench(Session& session, bool on) {
    ViewOptions o = session.viewOptions();
    o.fieldWorkbench = on;
    session.setViewOptions(o);
}

// The newest field snapshot once it answers the session's current block size and λ.
SnapshotPtr awaitCurrent(Session& session) {
    const auto matches = [&] {
        const SnapshotPtr s = session.latest(RequestKind::Field);
        const auto want = session.requestFor(RequestKind::Field);
        if (!s || !want || s->request.image != want->image) return false;
        const auto& a = std::get<FieldParams>(s->request.params).field;
        const auto& b = std::get<FieldParams>(want->params).field;
        return a.blockSize == b.blockSize && a.length == b.length && a.smoothing == b.smoothing;
    };
    (void)QTest::qWaitFor(matches, kTimeoutMs);
    return matches() ? session.latest(RequestKind::Field) : nullptr;
}

// Oblique stripes, 9 px apart, at 30°.
Image<std::uint8_t> stripes(int w, int h) {
    Image<std::uint8_t> img(w, h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const double across = -x * std::sin(30 * 3.14159265358979 / 180) - y * std::cos(30 * 3.14159265358979 / 180);
            img.at(x, y) = static_cast<std::uint8_t>(128 + 100 * std::cos(2 * 3.14159265358979 * across / 9));
        }
    return img;
}

}  // namespace

class TestFieldSession : public QObject {
    Q_OBJECT
private slots:
    void onlyInTheWorkbench() {
        Session session(test::cpuSessionOptions());
        session.setImage(stripes(96, 80));
        QVERIFY(!session.isLive(RequestKind::Field));
        workbench(session, false);
        QVERIFY(!session.isLive(RequestKind::Field));
        (void)QTest::qWaitFor([&] { return !session.queue().busy(); }, kTimeoutMs);
        QCOMPARE(session.queue().computations(RequestKind::Field), std::uint64_t{0});
        workbench(session, true);
        QVERIFY(session.isLive(RequestKind::Field));
        QVERIFY(awaitCurrent(session));
    }

    // The snapshot's field is estimateOrientationField's; the points and the difference are
    // computed from it; the work ran on the engine thread.
    void fieldIsTheEnginesOnTheEngineThread() {
        Session session(test::cpuSessionOptions());
        std::atomic<bool> onCaller{false}, seen{false};
        QThread* caller = QThread::currentThread();
        session.queue().setCheckpointHookForTests([&](RequestKind k, std::uint64_t, int) {
            if (k != RequestKind::Field) return;
            seen = true;
            if (QThread::currentThread() == caller) onCaller = true;
        });
        const Image<std::uint8_t> img = stripes(96, 80);
        session.setImage(Image<std::uint8_t>::copyOf(img.cview()));
        workbench(session, true);
        const SnapshotPtr s = awaitCurrent(session);
        QVERIFY(s && s->ok() && s->field);
        QVERIFY(seen);
        QVERIFY(!onCaller);
        const auto& p = std::get<FieldParams>(s->request.params);
        const OrientationField want = estimateOrientationField(img.cview(), p.field);
        QCOMPARE(s->field->field.angle, want.angle);
        QCOMPARE(s->field->field.coherence, want.coherence);
        QVERIFY(s->field->tensor);
        QCOMPARE(s->field->difference, periodicDifference(want.angle, s->field->tensor->degrees));
        // Straight stripes have no core and no delta (the fields' accuracy is the engine's and
        // the task evaluation's business: tests/tasks/prints).
        QCOMPARE(s->field->singular, singularPoints(want.angle, want.foreground, want.blocksX, want.blocksY, p.singular));
        QVERIFY(s->field->singular.empty());
    }

    // A block-size slider dragged while the engine is busy: one computation, of the last value.
    void dragCoalescesToItsLastValue() {
        Session session(test::cpuSessionOptions());
        test::EngineGate gate;
        std::atomic<bool> hold{false};
        session.queue().setCheckpointHookForTests([&](RequestKind k, std::uint64_t, int step) {
            if (k == RequestKind::Field && step == 0 && hold.exchange(false)) gate.hold();
        });
        session.setImage(stripes(128, 96));
        workbench(session, true);
        QVERIFY(awaitCurrent(session));
        hold = true;
        FieldParams p = session.parameters().field;
        p.field.blockSize = 8;
        session.setFieldParams(p);
        QVERIFY(gate.waitHeld());
        const auto before = session.queue().computations(RequestKind::Field);
        for (int b = 10; b <= 32; b += 2) {
            p.field.blockSize = b;
            session.setFieldParams(p);
        }
        gate.release();
        const SnapshotPtr s = awaitCurrent(session);
        QVERIFY(s && s->ok());
        QCOMPARE(s->field->field.blockSize, 32);
        (void)QTest::qWaitFor([&] { return !session.queue().busy(); }, kTimeoutMs);
        // The held one (block 8, dropped as stale) and the newest; none of the values between.
        QVERIFY2(session.queue().computations(RequestKind::Field) <= before + 1,
                 qPrintable(QString("%1 → %2").arg(before).arg(session.queue().computations(RequestKind::Field))));
    }
};

QTEST_GUILESS_MAIN(TestFieldSession)
#include "test_field_session.moc"
