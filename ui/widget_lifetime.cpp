#include "ui/widget_lifetime.h"

#include <QObject>

namespace linescope::ui {

void disconnectFromDescendants(QObject* receiver) {
    for (QObject* descendant : receiver->findChildren<QObject*>())
        QObject::disconnect(descendant, nullptr, receiver, nullptr);
}

}  // namespace linescope::ui
