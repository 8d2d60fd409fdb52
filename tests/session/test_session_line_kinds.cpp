// The session's line kind (label session): the kind reaches every request (result, sweep,
// skew) and their snapshots equal the engine's with that kind; the comparison of two kinds is
// one result request computing both, equal to the engine's two results and to a pixel count
// done here, computed only while the Result view compares kinds, and coalesced during a drag.
#include "app/session/kind_difference.h"
#include "app/session/session.h"
#include "tests/support/cpu_session.h"
#include "app/session/shown_state.h"
#include "tests/support/engine_gate.h"
#include "tests/support/random_images.h"

#include <QSignalSpy>
#include <QTest>

using namespace linescope;
using namespace linescope::session;

namespace {

constexpr int kTimeoutMs = test::kSessionTimeoutMs;

EngineQueue::Options cpuOptions() { return test::cpuSessionOptions(); }

const EngineOptions kCpu{Backend::Cpu};

Image<std::uint8_t> testImage(int w, int h, std::uint64_t seed) {
    return test::randomImage<std::uint8_t>(w, h, seed, test::ImageKind::Blocky);
}

bool settled(const Session& s) { return !const_cast<Session&>(s).queue().busy(); }

// The result options of the kinds' comparison.
ViewOptions comparing(CompareMode mode, LineKind other) {
    ViewOptions o;
    o.view = Plane::Result;
    o.compare = mode;
    o.otherKind = other;
    return o;
}

}  // namespace

class TestSessionLineKinds : public QObject {
    Q_OBJECT
private slots:
    // setLineKind submits the result, the sweep and the skew with the kind, and their
    // snapshots are the engine's for that kind.
    void lineKindReachesEveryRequest() {
        Session session(cpuOptions());
        ViewOptions o;
        o.view = Plane::Supremum;
        o.spectrumShown = true;  // the sweep and the skew are live
        session.setViewOptions(o);
        session.setAngleSet(AngleSet{0, 15, 12});
        const Image<std::uint8_t> img = testImage(61, 47, 3);
        session.setImage(img);
        QVERIFY(QTest::qWaitFor([&] { return settled(session); }, kTimeoutMs));
        const auto before = session.queue().stats().submitted;
        QSignalSpy changed(&session, &Session::parametersChanged);
        session.setAngle(30);
        session.setLength(9);
        session.setLineKind(LineKind::Segment);
        QCOMPARE(changed.count(), 3);
        QCOMPARE(session.parameters().kind, LineKind::Segment);
        session.setLineKind(LineKind::Segment);  // no change: nothing submitted
        QCOMPARE(changed.count(), 3);
        // angle: result; λ: result and sweep; kind: result, sweep and skew.
        QCOMPARE(session.queue().stats().submitted - before, std::uint64_t{6});
        QCOMPARE(std::get<ResultParams>(session.requestFor(RequestKind::Result)->params).line.kind, LineKind::Segment);
        QCOMPARE(std::get<SweepParams>(session.requestFor(RequestKind::Sweep)->params).sweep.kind, LineKind::Segment);
        QCOMPARE(std::get<SkewRequestParams>(session.requestFor(RequestKind::Skew)->params).skew.kind, LineKind::Segment);

        QVERIFY(QTest::qWaitFor([&] { return settled(session); }, kTimeoutMs));
        const SnapshotPtr result = session.latest(RequestKind::Result);
        QVERIFY(result && result->ok());
        QVERIFY(answers(*result, *session.requestFor(RequestKind::Result)));
        const auto want = lineMorph<std::uint8_t>(MorphOp::Open, img.cview(), LineParams{30, 9, LineKind::Segment}, kCpu);
        if (auto d = test::firstDifference(want, std::get<Image<std::uint8_t>>(*result->result))) QFAIL(d->c_str());
        const auto paths = lineMorph<std::uint8_t>(MorphOp::Open, img.cview(), LineParams{30, 9, LineKind::Paths}, kCpu);
        QVERIFY(test::firstDifference(paths, want));  // the kinds differ here: the test can tell them apart

        const SnapshotPtr sweepSnap = session.latest(RequestKind::Sweep);
        QVERIFY(sweepSnap && sweepSnap->ok());
        const auto wantSweep =
            sweep<std::uint8_t>(img.cview(), SweepRequest{MorphOp::Open, 9, AngleSet{0, 15, 12}, LineKind::Segment}, kCpu);
        const auto& gotSweep = std::get<SweepResult<std::uint8_t>>(*sweepSnap->sweep);
        if (auto d = test::firstDifference(wantSweep.sup, gotSweep.sup)) QFAIL(d->c_str());
        QCOMPARE(gotSweep.spectrumExact, wantSweep.spectrumExact);
    }

    // A snapshot of another kind is stale, and the mark says which kind it shows.
    void anotherKindIsStale() {
        Session session(cpuOptions());
        session.setViewOptions(ViewOptions{});
        session.setImage(testImage(20, 20, 1));
        QVERIFY(QTest::qWaitFor([&] { return settled(session); }, kTimeoutMs));
        const SnapshotPtr shown = session.latest(RequestKind::Result);
        session.setLineKind(LineKind::Periodic);
        const ShownState st = shownStateOf(shown.get(), session.requestFor(RequestKind::Result));
        QCOMPARE(st.freshness, Freshness::Stale);
        QCOMPARE(QString::fromStdString(st.text), QStringLiteral("stale: shows paths lines"));
    }

    // The comparison: one request computing both kinds, equal to the engine's two results,
    // with the differing pixels counted as a plain loop here counts them.
    void comparisonComputesBothKinds() {
        Session session(cpuOptions());
        session.setViewOptions(ViewOptions{});
        const Image<std::uint8_t> img = testImage(97, 71, 8);
        session.setAngle(30);
        session.setLength(11);
        session.setImage(img);
        QVERIFY(QTest::qWaitFor([&] { return settled(session); }, kTimeoutMs));
        QVERIFY(!session.latest(RequestKind::Result)->difference);  // not asked for yet
        const auto before = session.queue().stats().submitted;
        const auto computed = session.queue().computations(RequestKind::Result);
        session.setViewOptions(comparing(CompareMode::KindsDifference, LineKind::Segment));
        QCOMPARE(session.queue().stats().submitted - before, std::uint64_t{1});
        QVERIFY(QTest::qWaitFor([&] { return settled(session); }, kTimeoutMs));
        QCOMPARE(session.queue().computations(RequestKind::Result) - computed, std::uint64_t{1});

        const SnapshotPtr s = session.latest(RequestKind::Result);
        QVERIFY(s && s->ok() && s->against && s->difference);
        const auto a = lineMorph<std::uint8_t>(MorphOp::Open, img.cview(), LineParams{30, 11, LineKind::Paths}, kCpu);
        const auto b = lineMorph<std::uint8_t>(MorphOp::Open, img.cview(), LineParams{30, 11, LineKind::Segment}, kCpu);
        if (auto d = test::firstDifference(a, std::get<Image<std::uint8_t>>(*s->result))) QFAIL(d->c_str());
        if (auto d = test::firstDifference(b, std::get<Image<std::uint8_t>>(*s->against))) QFAIL(d->c_str());
        long long differing = 0, above = 0;
        int maxAbs = 0;
        const KindDifference& k = *s->difference;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                const int d = int(a.at(x, y)) - int(b.at(x, y));
                differing += d != 0;
                above += d > 0;
                maxAbs = std::max(maxAbs, std::abs(d));
                QCOMPARE(k.signedDifference.at(x, y), static_cast<float>(d));
            }
        QVERIFY(differing > 0);
        QCOMPARE(k.differing, differing);
        QCOMPARE(k.aAbove, above);
        QCOMPARE(k.maxAbs, static_cast<double>(maxAbs));
        QCOMPARE(k.pixels, 97LL * 71);
        QCOMPARE(k.a, LineKind::Paths);
        QCOMPARE(k.b, LineKind::Segment);
    }

    // The other kind is computed only while the Result view compares kinds; changing the
    // other kind resubmits; leaving the comparison drops it.
    void comparisonOnlyWhileLookedAt() {
        Session session(cpuOptions());
        session.setViewOptions(ViewOptions{});
        session.setImage(testImage(30, 20, 2));
        const auto against = [&] { return std::get<ResultParams>(session.requestFor(RequestKind::Result)->params).against; };
        const auto submitted = [&] { return session.queue().stats().submitted; };
        const auto n0 = submitted();
        session.setViewOptions(comparing(CompareMode::KindsSideBySide, LineKind::Periodic));
        QCOMPARE(against(), std::optional<LineKind>(LineKind::Periodic));
        QCOMPARE(submitted(), n0 + 1);
        session.setViewOptions(comparing(CompareMode::KindsDifference, LineKind::Periodic));
        QCOMPARE(submitted(), n0 + 1);  // the same two results: nothing new to compute
        session.setViewOptions(comparing(CompareMode::KindsDifference, LineKind::Segment));
        QCOMPARE(against(), std::optional<LineKind>(LineKind::Segment));
        QCOMPARE(submitted(), n0 + 2);
        ViewOptions sweepView = comparing(CompareMode::KindsDifference, LineKind::Segment);
        sweepView.view = Plane::Supremum;  // the kinds are compared in the Result view only
        session.setViewOptions(sweepView);
        QCOMPARE(against(), std::nullopt);
        session.setViewOptions(comparing(CompareMode::SideBySide, LineKind::Segment));
        QCOMPARE(against(), std::nullopt);
        QVERIFY(QTest::qWaitFor([&] { return settled(session); }, kTimeoutMs));
        QVERIFY(!session.latest(RequestKind::Result)->against);
    }

    // A drag while the engine is busy: one comparison of the newest angle.
    void comparisonCoalescesDuringADrag() {
        Session session(cpuOptions());
        test::EngineGate gate;
        auto once = std::make_shared<std::atomic<bool>>(false);
        session.queue().setCheckpointHookForTests([&gate, once](RequestKind k, std::uint64_t, int step) {
            if (k == RequestKind::Result && step == 0 && !once->exchange(true)) gate.hold();
        });
        session.setViewOptions(comparing(CompareMode::KindsDifference, LineKind::Segment));
        session.setLength(15);
        const Image<std::uint8_t> img = testImage(80, 60, 5);
        session.setImage(img);
        QVERIFY(gate.waitHeld());
        for (int i = 0; i <= 60; ++i) session.setAngle(0.5 * i);
        gate.release();
        QVERIFY(QTest::qWaitFor([&] { return settled(session); }, kTimeoutMs));
        QCOMPARE(session.queue().stats().started, std::uint64_t{2});  // the held one, then the newest
        const SnapshotPtr s = session.latest(RequestKind::Result);
        QVERIFY(s && s->difference);
        QCOMPARE(std::get<ResultParams>(s->request.params).line.angle, 30.0);
        const auto b = lineMorph<std::uint8_t>(MorphOp::Open, img.cview(), LineParams{30, 15, LineKind::Segment}, kCpu);
        if (auto d = test::firstDifference(b, std::get<Image<std::uint8_t>>(*s->against))) QFAIL(d->c_str());
    }

    // The difference of float results keeps the sign of differences too small for a float.
    void differenceOfFloats() {
        Image<float> a(3, 1), b(3, 1);
        a.at(0, 0) = 1.0f;
        b.at(0, 0) = 1.0f;
        a.at(1, 0) = 2.0f;
        b.at(1, 0) = 5.0f;
        a.at(2, 0) = 1e-30f;
        b.at(2, 0) = 0.0f;
        const KindDifference k = kindDifference(AnyImage(a), AnyImage(b), LineKind::Paths, LineKind::Periodic);
        QCOMPARE(k.differing, 2LL);
        QCOMPARE(k.aAbove, 1LL);
        QCOMPARE(k.maxAbs, 3.0);
        QCOMPARE(k.signedDifference.at(0, 0), 0.0f);
        QCOMPARE(k.signedDifference.at(1, 0), -3.0f);
        QVERIFY(k.signedDifference.at(2, 0) > 0.0f);
        QVERIFY_THROWS_EXCEPTION(Error, kindDifference(AnyImage(a), AnyImage(Image<float>(2, 1)), LineKind::Paths,
                                                       LineKind::Segment));
    }
};

QTEST_GUILESS_MAIN(TestSessionLineKinds)
#include "test_session_line_kinds.moc"
