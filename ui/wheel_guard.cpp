#include "ui/wheel_guard.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QWidget>

namespace linescope::ui {

namespace {

class WheelGuard : public QObject {
public:
    using QObject::QObject;

    static WheelGuard* instance() {
        // One filter for the whole application, deleted with it.
        static WheelGuard* guard = new WheelGuard(QCoreApplication::instance());
        return guard;
    }

protected:
    bool eventFilter(QObject* watched, QEvent* e) override {
        if (e->type() != QEvent::Wheel) return false;
        const auto* w = qobject_cast<QWidget*>(watched);
        if (!w || w->hasFocus()) return false;
        // Ignored and filtered: Qt passes the wheel on to the parent (the dock's scroll area).
        e->ignore();
        return true;
    }
};

bool isWheelControl(const QWidget* w) {
    return qobject_cast<const QComboBox*>(w) || qobject_cast<const QAbstractSpinBox*>(w) ||
           qobject_cast<const QAbstractSlider*>(w);
}

void guardOne(QWidget* w) {
    w->setFocusPolicy(Qt::StrongFocus);
    w->installEventFilter(WheelGuard::instance());
}

}  // namespace

void guardWheel(QWidget* widget) {
    if (isWheelControl(widget)) guardOne(widget);
    for (QWidget* child : widget->findChildren<QWidget*>())
        if (isWheelControl(child)) guardOne(child);
}

}  // namespace linescope::ui
