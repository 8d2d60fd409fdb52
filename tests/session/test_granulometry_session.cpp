// The granulometry through the session (label session): computed only while its dock is
// shown, on the engine thread, equal to the engine's numbers; recomputed when the angle, the
// line kind, the angle set (supremum) or its settings change and not when λ does; rapid
// angle changes coalesced to one computation of the newest; the supremum stops between
// lengths when superseded. The engine thread is held by a gate, never timed.
#include "app/session/session.h"
#include "tests/support/cpu_session.h"
#include "tests/support/engine_gate.h"
#include "tests/support/random_images.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QTest>

using namespace linescope;
using namespace linescope::session;

namespace {

constexpr int kTimeoutMs = test::kSessionTimeoutMs;

EngineQueue::Options cpuOptions() { return test::cpuSessionOptions(); }

// The newest granulometry snapshot of the session's current parameters, once it has come.
SnapshotPtr awaitCurrent(Session& session) {
    const auto matches = [&] {
        const SnapshotPtr s = session.latest(RequestKind::Granulometry);
        const auto want = session.requestFor(RequestKind::Granulometry);
        if (!s || !want || s->request.image != want->image) return false;
        const auto& a = std::get<GranulometryParams>(s->request.params);
        const auto& b = std::get<GranulometryParams>(want->params);
        return a.angle == b.angle && a.angles.has_value() == b.angles.has_value() && a.maxLength == b.maxLength &&
               a.kind == b.kind && a.rect == b.rect;
    };
    (void)QTest::qWaitFor(matches, kTimeoutMs);
    return matches() ? session.latest(RequestKind::Granulometry) : nullptr;
}

void showDock(Session& session, bool shown) {
    ViewOptions o = session.viewOptions();
    o.granulometryShown = shown;
    session.setViewOptions(o);
}

}  // namespace

class TestGranulometrySession : public QObject {
    Q_OBJECT

private slots:
    void computedWhileTheDockIsShown() {
        Session session(cpuOptions());
        const Image<std::uint16_t> img = test::randomImage<std::uint16_t>(50, 40, 3, test::ImageKind::Blocky);
        session.setImage(img);
        QVERIFY(!session.isLive(RequestKind::Granulometry));
        showDock(session, true);
        QVERIFY(session.isLive(RequestKind::Granulometry));
        session.setAngle(33);
        SnapshotPtr s = awaitCurrent(session);
        QVERIFY(s);
        QVERIFY2(s->ok(), s->error.c_str());
        GranulometryRequest req;
        req.angle = 33;
        req.maxLength = session.parameters().granulometry.maxLength;
        const Granulometry expected = *granulometry<std::uint16_t>(img.cview(), req);
        QCOMPARE(s->granulometry->sumsExact, expected.sumsExact);
        QCOMPARE(s->granulometry->spectrumExact, expected.spectrumExact);

        // λ is only marked on the plot: no new computation.
        const auto computations = session.queue().computations(RequestKind::Granulometry);
        session.setLength(5);
        QCoreApplication::processEvents();
        QCOMPARE(session.queue().computations(RequestKind::Granulometry), computations);

        // A region, a longer range, the supremum over the angle set, another line kind.
        GranulometrySettings g;
        g.maxLength = 20;
        g.region = PixelRect{5, 6, 30, 20};
        session.setGranulometrySettings(g);
        s = awaitCurrent(session);
        QVERIFY(s && s->ok());
        req.maxLength = 20;
        req.rect = g.region;
        QCOMPARE(s->granulometry->sumsExact, granulometry<std::uint16_t>(img.cview(), req)->sumsExact);

        g.supremum = true;
        session.setGranulometrySettings(g);
        session.setAngleSet(AngleSet{0, 30, 6});
        s = awaitCurrent(session);
        QVERIFY(s && s->ok());
        req.angles = AngleSet{0, 30, 6};
        QCOMPARE(s->granulometry->sumsExact, granulometry<std::uint16_t>(img.cview(), req)->sumsExact);

        session.setLineKind(LineKind::Segment);
        s = awaitCurrent(session);
        QVERIFY(s && s->ok());
        req.kind = LineKind::Segment;
        QCOMPARE(s->granulometry->sumsExact, granulometry<std::uint16_t>(img.cview(), req)->sumsExact);

        // A region outside the image: an error snapshot with the engine's sentence.
        g.region = PixelRect{500, 0, 5, 5};
        session.setGranulometrySettings(g);
        s = awaitCurrent(session);
        QVERIFY(s && !s->ok() && !s->granulometry);
        QVERIFY2(s->error.find("lies outside the 50x40 image") != std::string::npos, s->error.c_str());

        showDock(session, false);
        QVERIFY(!session.isLive(RequestKind::Granulometry));
    }

    // Angle changes while the engine is busy: one computation for all of them, of the newest.
    void rapidAnglesCoalesce() {
        Session session(cpuOptions());
        test::EngineGate gate;
        std::atomic<bool> heldOnce{false};
        session.queue().setCheckpointHookForTests([&](RequestKind k, std::uint64_t, int step) {
            if (k == RequestKind::Granulometry && step == 0 && !heldOnce.exchange(true)) gate.hold();
        });
        session.setImage(test::randomImage<std::uint8_t>(64, 48, 9, test::ImageKind::Blocky));
        showDock(session, true);
        QVERIFY(gate.waitHeld());
        const auto before = session.queue().computations(RequestKind::Granulometry);
        for (int i = 1; i <= 50; ++i) session.setAngle(2.5 * i);
        gate.release();
        const SnapshotPtr s = awaitCurrent(session);
        QVERIFY(s && s->ok());
        QCOMPARE(std::get<GranulometryParams>(s->request.params).angle, 125.0);
        (void)QTest::qWaitFor([&] { return !session.queue().busy(); }, kTimeoutMs);
        // The held request (superseded, dropped) and the newest: at most one more.
        QVERIFY(session.queue().computations(RequestKind::Granulometry) <= before + 1);
    }

    // A supremum granulometry superseded while it runs stops after the length in progress.
    void supremumStopsBetweenLengths() {
        Session session(cpuOptions());
        test::EngineGate gate;
        std::atomic<bool> heldOnce{false};
        session.queue().setCheckpointHookForTests([&](RequestKind k, std::uint64_t, int step) {
            if (k == RequestKind::Granulometry && step == 3 && !heldOnce.exchange(true)) gate.hold();
        });
        QSignalSpy cancelled(&session.queue(), &EngineQueue::cancelled);
        session.setImage(test::randomImage<std::uint8_t>(40, 30, 2));
        GranulometrySettings g;
        g.supremum = true;
        g.maxLength = 30;
        session.setGranulometrySettings(g);
        session.setAngleSet(AngleSet{0, 10, 18});
        showDock(session, true);
        QVERIFY(gate.waitHeld());
        g.maxLength = 4;
        session.setGranulometrySettings(g);
        gate.release();
        const SnapshotPtr s = awaitCurrent(session);
        QVERIFY(s && s->ok());
        QCOMPARE(s->granulometry->maxLength, 4);
        QVERIFY(QTest::qWaitFor([&] { return cancelled.count() > 0; }, kTimeoutMs));
        const auto args = cancelled.takeFirst();
        QCOMPARE(args.at(0).value<RequestKind>(), RequestKind::Granulometry);
        QVERIFY2(args.at(2).toInt() < 31, "stopped after the length in progress, not at the end");
    }
};

QTEST_MAIN(TestGranulometrySession)
#include "test_granulometry_session.moc"
