// A horizontal slider with ticks at given values (not evenly spaced): the angles where the
// segment's pixel set changes (AngleResolutionControl). Too many ticks for its width to tell
// apart (more than one every 3 pixels) are not drawn.
//
// Thread: UI thread only.
#pragma once

#include <QSlider>

#include <vector>

namespace linescope::ui {

class TickedSlider : public QSlider {
    Q_OBJECT
public:
    explicit TickedSlider(QWidget* parent = nullptr);

    void setTicks(std::vector<int> values);
    const std::vector<int>& ticks() const { return ticks_; }
    // Whether the ticks fit the width and are drawn.
    bool ticksDrawn() const;

protected:
    void paintEvent(QPaintEvent* e) override;

private:
    std::vector<int> ticks_;
};

}  // namespace linescope::ui
