// Safe teardown of widgets that connect their descendants' signals to themselves.
//
// Qt breaks a receiver's connections only in ~QObject, which runs after ~QWidget has hidden
// and deleted the child widgets. A child's signal sent meanwhile (a dock's visibilityChanged
// when it is hidden, say) reaches a member function, or a lambda capturing `this`, of an
// object whose own destructor has already run: a use after free (ASan) or a call through a
// base's vptr (UBSan). Such widgets call disconnectFromDescendants(this) first in their
// destructor.
//
// Thread: the receiver's thread.
#pragma once

class QObject;

namespace linescope::ui {

// Breaks every connection from a descendant of `receiver` (children, grandchildren…) to it.
void disconnectFromDescendants(QObject* receiver);

}  // namespace linescope::ui
