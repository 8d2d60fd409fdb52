// The contour list as a table model: one row a contour (index, outer/hole, points, bounding
// box, area, parent). Lazy: it holds only the shared, immutable Contours of a snapshot and
// computes a row's cells when a view asks for them, so 355 000 contours cost nothing until
// shown and a view pays only for its visible rows.
//
// Thread: UI thread (a Qt model).
#pragma once

#include "compute/contours/contours.h"

#include <QAbstractTableModel>

#include <memory>

namespace linescope::ui {

class ContourTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { IndexColumn, KindColumn, PointsColumn, BoundsColumn, AreaColumn, ParentColumn, ColumnCount };
    // The cell's value rather than its text: int (index, points, parent; −1 for none),
    // bool (KindColumn: true for a hole border), QRect (bounds, cv::boundingRect's
    // convention: width = max x − min x + 1) and double (area: cv::contourArea of the
    // polygon through the points, in pixels²).
    static constexpr int ValueRole = Qt::UserRole;

    explicit ContourTableModel(QObject* parent = nullptr);

    // Shows `contours` (nullptr: none), resetting the model.
    void setContours(std::shared_ptr<const Contours> contours);
    const std::shared_ptr<const Contours>& contours() const { return contours_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // How many times data() walked a contour's points (bounds, area): tests check that a
    // view of many contours asks only for the rows it shows.
    quint64 pointWalksForTests() const { return pointWalks_; }

private:
    QVariant value(int row, int column) const;

    std::shared_ptr<const Contours> contours_;
    mutable quint64 pointWalks_ = 0;
};

}  // namespace linescope::ui
