// The contours dock (label gui): the count label and the list model show exactly the
// engine's findContours of a synthetic image with nested holes (points, hole flag, parent,
// and bounding box and area against plain loops over the points); the slider, spin box,
// Otsu button, combos and checkbox emit what the owner wires to the session; selecting a row
// emits its index; 355 216 contours load and scroll while the model walks only the points of
// the rows on screen.
#include "ui/contour_panel.h"
#include "ui/contour_table_model.h"

#include "compute/contours/contours.h"
#include "tests/support/binary_shapes.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QRect>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSlider>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <memory>

using namespace linescope;
using linescope::ui::ContourPanel;
using linescope::ui::ContourTableModel;

namespace {

Contours trace(const test::BinaryImage& img, ContourMode mode) {
    EngineOptions cpu;
    cpu.backend = Backend::Cpu;
    return findContours(img.view(), mode, ContourApprox::None, cpu);
}

// The counts the label shows: contours, outer, holes.
struct Counts {
    long long total = -1, outer = -1, holes = -1;
};
Counts countsShown(const ContourPanel& panel) {
    const auto m = QRegularExpression(QStringLiteral("(\\d+) contours: (\\d+) outer, (\\d+) holes"))
                       .match(panel.countLabel()->text());
    if (!m.hasMatch()) return {};
    return {m.captured(1).toLongLong(), m.captured(2).toLongLong(), m.captured(3).toLongLong()};
}

// Twice the signed area of the polygon through the points (the shoelace formula).
long long twiceArea(const Contours& c, std::size_t i) {
    long long s = 0;
    const std::size_t n = c.length(i);
    for (std::size_t j = 0; j < n; ++j) {
        const ContourPoint a = c.begin(i)[j], b = c.begin(i)[(j + 1) % n];
        s += static_cast<long long>(a.x) * b.y - static_cast<long long>(b.x) * a.y;
    }
    return s;
}

QVariant value(const ContourTableModel& m, int row, int column) {
    return m.data(m.index(row, column), ContourTableModel::ValueRole);
}

}  // namespace

class TestContourPanel : public QObject {
    Q_OBJECT
private slots:
    void countAndListAreTheEnginesContours() {
        ContourPanel panel;
        const test::BinaryImage img = test::randomBlobs(160, 120, 40, 7);
        const auto c = std::make_shared<const Contours>(trace(img, ContourMode::Tree));
        std::size_t holes = 0;
        int deepest = 0;
        for (std::size_t i = 0; i < c->size(); ++i) {
            holes += c->hole[i] ? 1 : 0;
            int d = 0;
            for (int p = c->parent[i]; p >= 0; p = c->parent[static_cast<std::size_t>(p)]) ++d;
            deepest = std::max(deepest, d);
        }
        QVERIFY2(deepest >= 2 && holes > 0, "the image should nest islands in holes");

        ContourTimings timings;
        timings.total = 1.5;
        panel.setContours(c, timings);
        const Counts shown = countsShown(panel);
        QCOMPARE(shown.total, static_cast<long long>(c->size()));
        QCOMPARE(shown.holes, static_cast<long long>(holes));
        QCOMPARE(shown.outer, static_cast<long long>(c->size() - holes));
        QVERIFY(panel.countLabel()->text().contains(QStringLiteral("1.500 ms")));

        const ContourTableModel& m = *panel.model();
        QCOMPARE(m.rowCount(), static_cast<int>(c->size()));
        QCOMPARE(m.columnCount(), static_cast<int>(ContourTableModel::ColumnCount));
        for (int row = 0; row < m.rowCount(); ++row) {
            const auto i = static_cast<std::size_t>(row);
            QCOMPARE(value(m, row, ContourTableModel::IndexColumn).toInt(), row);
            QCOMPARE(value(m, row, ContourTableModel::KindColumn).toBool(), c->hole[i] != 0);
            QCOMPARE(m.data(m.index(row, ContourTableModel::KindColumn)).toString(),
                     c->hole[i] ? QStringLiteral("hole") : QStringLiteral("outer"));
            QCOMPARE(value(m, row, ContourTableModel::PointsColumn).toInt(), static_cast<int>(c->length(i)));
            QCOMPARE(value(m, row, ContourTableModel::ParentColumn).toInt(), c->parent[i]);
            int x0 = img.width, y0 = img.height, x1 = -1, y1 = -1;
            for (std::size_t j = 0; j < c->length(i); ++j) {
                const ContourPoint p = c->begin(i)[j];
                x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
            }
            QCOMPARE(value(m, row, ContourTableModel::BoundsColumn).toRect(), QRect(x0, y0, x1 - x0 + 1, y1 - y0 + 1));
            QCOMPARE(value(m, row, ContourTableModel::AreaColumn).toDouble(), static_cast<double>(std::abs(twiceArea(*c, i))) / 2.0);
        }

        panel.setError(QStringLiteral("the engine failed"));
        QCOMPARE(m.rowCount(), 0);
        QCOMPARE(panel.countLabel()->text(), QStringLiteral("the engine failed"));
    }

    void sliderAndSpinBoxEmitTheThreshold() {
        ContourPanel panel;
        QSignalSpy spy(&panel, &ContourPanel::thresholdChanged);
        panel.setRange(0, 255, true);
        panel.thresholdSlider()->setValue(200);
        QCOMPARE(spy.size(), 1);
        QCOMPARE(spy.last().at(0).toDouble(), 200.0);
        QCOMPARE(panel.threshold(), 200.0);
        QCOMPARE(panel.thresholdSpin()->value(), 200.0);

        QTest::keyClick(panel.thresholdSlider(), Qt::Key_Right);  // as the user does it
        QCOMPARE(panel.thresholdSlider()->value(), 201);
        QCOMPARE(spy.last().at(0).toDouble(), 201.0);

        panel.thresholdSpin()->setValue(17);
        QCOMPARE(spy.last().at(0).toDouble(), 17.0);
        QCOMPARE(panel.thresholdSlider()->value(), 17);

        // A float source: the slider's 1000 steps span [lo, hi].
        panel.setRange(10, 137.5, false);
        const int before = static_cast<int>(spy.size());
        panel.thresholdSlider()->setValue(panel.thresholdSlider()->maximum() / 2);
        QCOMPARE(static_cast<int>(spy.size()), before + 1);
        const double expected = 10 + 127.5 * panel.thresholdSlider()->value() / panel.thresholdSlider()->maximum();
        QCOMPARE(spy.last().at(0).toDouble(), expected);
        QCOMPARE(panel.threshold(), expected);

        // Otsu's value for a uint16 source is kept whole: "pixel > T" is the same for ⌊T⌋.
        panel.setRange(5045, 54952, true);
        panel.setThreshold(29900.6431372549);
        QCOMPARE(panel.threshold(), 29900.0);
        QCOMPARE(spy.last().at(0).toDouble(), 29900.0);
        QCOMPARE(panel.thresholdSlider()->value(), 29900 - 5045);
        // A range that excludes the threshold clamps it.
        panel.setRange(0, 255, true);
        QCOMPARE(spy.last().at(0).toDouble(), 255.0);
    }

    void buttonsCombosAndCheckboxEmit() {
        ContourPanel panel;
        QSignalSpy otsu(&panel, &ContourPanel::otsuRequested);
        QSignalSpy mode(&panel, &ContourPanel::modeChanged);
        QSignalSpy approx(&panel, &ContourPanel::approxChanged);
        QSignalSpy source(&panel, &ContourPanel::sourceChanged);
        QSignalSpy visible(&panel, &ContourPanel::visibleChanged);

        QTest::mouseClick(panel.otsuButton(), Qt::LeftButton);
        QCOMPARE(otsu.size(), 1);

        panel.modeCombo()->setCurrentIndex(panel.modeCombo()->findText(QStringLiteral("tree")));
        QCOMPARE(mode.size(), 1);
        QCOMPARE(mode.last().at(0).value<ContourMode>(), ContourMode::Tree);
        QCOMPARE(panel.mode(), ContourMode::Tree);
        panel.setApprox(ContourApprox::None);
        QCOMPARE(approx.last().at(0).value<ContourApprox>(), ContourApprox::None);
        panel.sourceCombo()->setCurrentIndex(panel.sourceCombo()->findText(QStringLiteral("Supremum")));
        QCOMPARE(source.last().at(0).value<session::Plane>(), session::Plane::Supremum);
        QCOMPARE(panel.source(), session::Plane::Supremum);
        QTest::mouseClick(panel.visibleCheck(), Qt::LeftButton, {}, QPoint(4, panel.visibleCheck()->height() / 2));
        QCOMPARE(visible.size(), 1);
        QCOMPARE(visible.last().at(0).toBool(), true);  // hidden by default: the click shows them
    }

    void selectingARowEmitsItsIndex() {
        ContourPanel panel;
        panel.resize(500, 600);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const test::BinaryImage img = test::randomBlobs(160, 120, 40, 7);
        panel.setContours(std::make_shared<const Contours>(trace(img, ContourMode::Tree)));
        QSignalSpy spy(&panel, &ContourPanel::contourSelected);

        QTableView* table = panel.table();
        const QRect cell = table->visualRect(panel.model()->index(3, ContourTableModel::PointsColumn));
        QVERIFY(cell.isValid());
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(spy.size(), 1);
        QCOMPARE(spy.last().at(0).toInt(), 3);
        QCOMPARE(panel.selectedContour(), 3);

        panel.selectContour(7);
        QCOMPARE(spy.last().at(0).toInt(), 7);
        // New contours: the old index means nothing any more.
        panel.setContours(std::make_shared<const Contours>(trace(img, ContourMode::List)));
        QCOMPARE(spy.last().at(0).toInt(), -1);
        QCOMPARE(panel.selectedContour(), -1);
    }

    void exportsWriteTheSharedFormats() {
        ContourPanel panel;
        QTemporaryDir dir;
        QString error;
        QVERIFY(!panel.exportJson(dir.filePath("none.json"), {}, &error));
        QVERIFY(!error.isEmpty());
        const test::BinaryImage img = test::randomBlobs(60, 40, 8, 3);
        const Contours c = trace(img, ContourMode::Tree);
        panel.setContours(std::make_shared<const Contours>(c));
        io::ContourJsonInfo info;
        info.width = img.width;
        info.height = img.height;
        QVERIFY2(panel.exportJson(dir.filePath("c.json"), info, &error), qPrintable(error));
        QVERIFY2(panel.exportSvg(dir.filePath("c.svg"), img.width, img.height, {}, &error), qPrintable(error));
        QFile json(dir.filePath("c.json")), svg(dir.filePath("c.svg"));
        QVERIFY(json.open(QIODevice::ReadOnly) && svg.open(QIODevice::ReadOnly));
        QCOMPARE(json.readAll().toStdString(), io::contoursToJson(c, info));
        QCOMPARE(svg.readAll().toStdString(), io::contoursToSvg(c, img.width, img.height));
        error.clear();
        QVERIFY(!panel.exportSvg(dir.filePath("missing/c.svg"), img.width, img.height, {}, &error));
        QVERIFY(error.contains(QStringLiteral("cannot write")));
    }

    // 596 × 596 isolated pixels: 355 216 contours, as many as a dense page can give.
    void manyContoursStayLazy() {
        test::BinaryImage dots(1192, 1192);
        for (int y = 0; y < dots.height; y += 2)
            for (int x = 0; x < dots.width; x += 2) dots.set(x, y, 1);
        const auto c = std::make_shared<const Contours>(trace(dots, ContourMode::List));
        QCOMPARE(c->size(), std::size_t{596 * 596});

        ContourPanel panel;
        panel.resize(500, 600);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.setContours(c);
        QCOMPARE(panel.model()->rowCount(), 596 * 596);
        QCOMPARE(countsShown(panel).total, 596LL * 596);
        QCOMPARE(countsShown(panel).holes, 0LL);

        QTableView* table = panel.table();
        table->scrollToBottom();
        QCoreApplication::processEvents();
        table->verticalScrollBar()->setValue(table->verticalScrollBar()->maximum() / 2);
        QCoreApplication::processEvents();
        panel.selectContour(596 * 596 - 1);
        QCoreApplication::processEvents();
        QVERIFY(table->rowAt(table->viewport()->height() / 2) > 596 * 590);
        table->viewport()->repaint();

        // Each painted row walks its points twice (bounds, area): a few screens' worth, not 355 216.
        const quint64 walks = panel.model()->pointWalksForTests();
        qInfo("rows walked: %llu", static_cast<unsigned long long>(walks));
        QVERIFY2(walks > 0 && walks < 5000, qPrintable(QString::number(walks)));
    }
};

QTEST_MAIN(TestContourPanel)
#include "test_contour_panel.moc"
