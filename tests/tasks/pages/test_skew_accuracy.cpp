// placeholder
#include <QtTest>
class TestSkewAccuracy : public QObject { Q_OBJECT };
QTEST_APPLESS_MAIN(TestSkewAccuracy)
#include "test_skew_accuracy.moc"
