// The lesson mode through the session (label session, issue 21): computed only in lesson
// mode; its panes' images are the engine's stages (ε(f), δ(f), and δ(ε(f)) = the opening,
// ε(δ(f)) = the closing); at the pinned pixel each stage's window holds the engine's pixels
// and values and its extreme is the stage's output there; the profile holds the images'
// pixels along the line path; the response is lineMorph at that pixel for the sweep's angles,
// with the sweep's supremum and orientation. A pin drag is one computation of its newest pixel
// and reuses the stages. The exports (JSON, the profile's and the response's CSV) hold the
// lesson's numbers exactly. The engine thread is held by a gate, never timed.
#include "app/session/lesson.h"
#include "app/session/lesson_export.h"
#include "app/session/session.h"
#include "tests/support/cpu_session.h"
#include "compute/line_morph_at.h"
#include "tests/support/engine_gate.h"
#include "tests/support/random_images.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
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

// The data rows of a CSV (the lines after the "# …" comments and the column names), split.
std::vector<QStringList> csvRows(const std::string& text, QString* columns) {
    std::vector<QStringList> rows;
    bool named = false;
    for (const QString& line : QString::fromStdString(text).split('\n', Qt::SkipEmptyParts)) {
        if (line.startsWith('#')) continue;
        if (!named) {
            *columns = line;
            named = true;
            continue;
        }
        rows.push_back(line.split(','));
    }
    return rows;
}

// The JSON, profile CSV and response CSV of a lesson with a pin hold its numbers exactly.
void checkExports(const LessonOutput& lesson, int width, int height) {
    const LessonPin& pin = *lesson.pin;
    const LessonStages& st = *lesson.stages;
    const QString second = st.op == MorphOp::Close ? "closing" : "opening";
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(lessonJson(lesson, "f.png", width, height)), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    const QJsonObject o = doc.object();
    QCOMPARE(o["source"].toString(), QString("f.png"));
    QCOMPARE(o["operator"].toString(), QString(morphOpName(st.op)));
    QCOMPARE(o["angle"].toDouble(), st.line.angle);
    QCOMPARE(o["length"].toInt(), st.line.length);
    QCOMPARE(o["line"].toString(), QString(lineKindName(st.line.kind)));
    QCOMPARE(o["width"].toInt(), width);
    const QJsonObject jp = o["pin"].toObject();
    QCOMPARE(jp["x"].toInt(), pin.pixel.x);
    QCOMPARE(jp["y"].toInt(), pin.pixel.y);
    const auto checkWindow = [](const QJsonObject& jw, const LessonWindow& w) {
        QCOMPARE(jw["rule"].toString(), QString(w.minimum ? "min" : "max"));
        QCOMPARE(jw["output"].toDouble(), w.output);
        QCOMPARE(jw["extreme"].toInt(), w.extreme);
        const QJsonArray px = jw["pixels"].toArray();
        QCOMPARE(static_cast<std::size_t>(px.size()), w.pixels.size());
        for (std::size_t i = 0; i < w.pixels.size(); ++i) {
            const QJsonObject q = px[static_cast<int>(i)].toObject();
            QCOMPARE(q["x"].toInt(), w.pixels[i].x);
            QCOMPARE(q["y"].toInt(), w.pixels[i].y);
            QCOMPARE(q["k"].toInt(), w.pixels[i].k);
            QCOMPARE(q["value"].toDouble(), w.pixels[i].value);
        }
    };
    checkWindow(jp["first"].toObject(), pin.first);
    checkWindow(jp["second"].toObject(), pin.second);
    const QJsonObject pr = jp["profile"].toObject();
    QCOMPARE(pr["pin_index"].toInt(), pin.profile.index);
    const auto sameArray = [](const QJsonValue& v, const std::vector<double>& want) {
        const QJsonArray a = v.toArray();
        if (static_cast<std::size_t>(a.size()) != want.size()) return false;
        for (std::size_t i = 0; i < want.size(); ++i)
            if (a[static_cast<int>(i)].toDouble() != want[i]) return false;
        return true;
    };
    QVERIFY(sameArray(pr["f"], pin.profile.f));
    QVERIFY(sameArray(pr["erosion"], pin.profile.erosion));
    QVERIFY(sameArray(pr["dilation"], pin.profile.dilation));
    QVERIFY(sameArray(pr[second], pin.profile.second));
    const QJsonObject r = jp["response"].toObject();
    QVERIFY(sameArray(r["values"], pin.response.values));
    QCOMPARE(r["best_index"].toInt(), pin.response.best);
    QCOMPARE(r["best_angle"].toDouble(), pin.response.angles.angle(pin.response.best));

    // The profile CSV: a row a path pixel, position 0 at the pin, the first window marked.
    QString columns;
    const auto rows = csvRows(lessonProfileCsv(lesson, "f.png"), &columns);
    QCOMPARE(columns, "position,x,y,f,erosion,dilation," + second + ",in_first_window");
    QCOMPARE(rows.size(), pin.profile.path.size());
    std::size_t marked = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const QStringList& c = rows[i];
        QCOMPARE(c.size(), 8);
        QCOMPARE(c[0].toLongLong(), static_cast<long long>(i) - pin.profile.index);
        QCOMPARE(c[1].toInt(), pin.profile.path[i].x);
        QCOMPARE(c[2].toInt(), pin.profile.path[i].y);
        QCOMPARE(c[3].toDouble(), pin.profile.f[i]);
        QCOMPARE(c[4].toDouble(), pin.profile.erosion[i]);
        QCOMPARE(c[5].toDouble(), pin.profile.dilation[i]);
        QCOMPARE(c[6].toDouble(), pin.profile.second[i]);
        if (c[7] == "1") ++marked;
        if (c[0] == "0") QCOMPARE((PixelAt{c[1].toInt(), c[2].toInt()}), pin.pixel);
    }
    // Line paths: the first stage's window lies on the path, every pixel of it.
    if (st.line.kind == LineKind::Paths) QCOMPARE(marked, pin.first.pixels.size());

    // The response CSV: a row an angle, one best.
    const auto resp = csvRows(lessonResponseCsv(lesson, "f.png"), &columns);
    QCOMPARE(columns, "angle," + second + ",best");
    QCOMPARE(static_cast<int>(resp.size()), pin.response.angles.count);
    for (int k = 0; k < pin.response.angles.count; ++k) {
        const QStringList& c = resp[static_cast<std::size_t>(k)];
        QCOMPARE(c[0].toDouble(), pin.response.angles.angle(k));
        QCOMPARE(c[1].toDouble(), pin.response.values[static_cast<std::size_t>(k)]);
        QCOMPARE(c[2], QString(k == pin.response.best ? "1" : "0"));
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

    // What a teacher exports holds the lesson's numbers: openings and closings, integers and
    // floats (shortest round-trip text), a segment's window off the path; no pin, no CSV.
    void exportsHoldTheLessonsNumbers() {
        Session session(cpuOptions());
        session.setAngleSet(AngleSet::overHalfTurn(36));
        session.setImage(test::randomImage<std::uint8_t>(45, 33, 4, test::ImageKind::Blocky));
        lessonMode(session, true);
        SnapshotPtr s = awaitCurrent(session);
        QVERIFY(s && s->ok() && !s->lesson->pin);
        QVERIFY(QString::fromStdString(lessonJson(*s->lesson, "", 45, 33)).contains("\"pin\": null"));
        QVERIFY_THROWS_EXCEPTION(Error, lessonProfileCsv(*s->lesson, ""));
        QVERIFY_THROWS_EXCEPTION(Error, lessonResponseCsv(*s->lesson, ""));
        const struct {
            MorphOp op;
            LineKind kind;
            double angle;
            int length;
            PixelAt pin;
        } cases[] = {{MorphOp::Open, LineKind::Paths, 30, 7, {20, 15}},
                     {MorphOp::Close, LineKind::Paths, 112.5, 8, {44, 0}},
                     {MorphOp::Open, LineKind::Segment, 17, 6, {10, 10}}};
        for (const auto& c : cases) {
            session.setOp(c.op);
            session.setLineKind(c.kind);
            session.setAngle(c.angle);
            session.setLength(c.length);
            session.setLessonPin(c.pin);
            s = awaitCurrent(session);
            QVERIFY(s && s->ok() && s->lesson->pin);
            checkExports(*s->lesson, 45, 33);
            if (QTest::currentTestFailed()) return;
        }
        session.setImage(test::finiteFloatImage(31, 27, 8, test::ImageKind::Noise));
        session.setLessonPin(PixelAt{5, 26});
        s = awaitCurrent(session);
        QVERIFY(s && s->ok() && s->lesson->pin);
        checkExports(*s->lesson, 31, 27);
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
