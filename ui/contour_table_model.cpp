#include "ui/contour_table_model.h"

#include <opencv2/imgproc.hpp>

#include <QRect>

#include <climits>

namespace linescope::ui {

namespace {

static_assert(sizeof(ContourPoint) == sizeof(cv::Point) && alignof(ContourPoint) == alignof(cv::Point),
              "contour points are read in place as cv::Point");

// Contour i's points as an OpenCV point array, without copying them.
cv::Mat pointsOf(const Contours& c, std::size_t i) {
    return cv::Mat(static_cast<int>(c.length(i)), 1, CV_32SC2, const_cast<ContourPoint*>(c.begin(i)));
}

}  // namespace

ContourTableModel::ContourTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ContourTableModel::setContours(std::shared_ptr<const Contours> contours) {
    beginResetModel();
    contours_ = std::move(contours);
    endResetModel();
}

int ContourTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !contours_) return 0;
    return static_cast<int>(std::min<std::size_t>(contours_->size(), INT_MAX));
}

int ContourTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ContourTableModel::value(int row, int column) const {
    const Contours& c = *contours_;
    const auto i = static_cast<std::size_t>(row);
    switch (column) {
    case IndexColumn: return row;
    case KindColumn: return c.hole[i] != 0;
    case PointsColumn: return static_cast<int>(c.length(i));
    case BoundsColumn: {
        ++pointWalks_;
        const cv::Rect r = cv::boundingRect(pointsOf(c, i));
        return QRect(r.x, r.y, r.width, r.height);
    }
    case AreaColumn: ++pointWalks_; return cv::contourArea(pointsOf(c, i));
    case ParentColumn: return c.parent[i];
    default: return {};
    }
}

QVariant ContourTableModel::data(const QModelIndex& index, int role) const {
    if (!contours_ || !index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return column == KindColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != ValueRole) return {};
    const QVariant v = value(index.row(), column);
    if (role == ValueRole) return v;
    switch (column) {
    case KindColumn: return v.toBool() ? tr("hole") : tr("outer");
    case BoundsColumn: {
        const QRect r = v.toRect();
        return QStringLiteral("%1, %2  %3×%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
    }
    case AreaColumn: return QString::number(v.toDouble(), 'f', 1);
    case ParentColumn: return v.toInt() < 0 ? QStringLiteral("–") : QString::number(v.toInt());
    default: return v;
    }
}

QVariant ContourTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case IndexColumn: return tr("#");
    case KindColumn: return tr("kind");
    case PointsColumn: return tr("points");
    case BoundsColumn: return tr("bounding box");
    case AreaColumn: return tr("area");
    case ParentColumn: return tr("parent");
    default: return {};
    }
}

}  // namespace linescope::ui
