// A lesson (lesson.h) as files a teacher takes away: JSON with everything the panes and docks
// show at the pinned pixel, and two CSVs for a spreadsheet (the profile along the line; the
// response to the angle). Plain functions, any thread; the window writes them atomically.
#pragma once

#include "app/session/lesson.h"

#include <string>

namespace linescope::session {

// {"source", "operator": "open" | "close", "angle", "length", "line", "width", "height",
//  "pin": null | {"x", "y",
//    "first" / "second": {"stage": "erosion" | "dilation", "rule": "min" | "max", "output",
//                         "extreme": index, "pixels": [{"x", "y", "k", "value"}, …]},
//    "profile": {"pin_index", "x": […], "y": […], "f": […], "erosion": […], "dilation": […],
//                "opening" | "closing": […]},
//    "response": {"angles": […], "values": […], "best_index", "best_angle"}}}
// and a newline. Throws Error when the lesson has no stages.
std::string lessonJson(const LessonOutput& lesson, const std::string& source, int width, int height);

// "# source=…", "# operator=open", "# angle=30", "# length=9", "# line=paths", "# pin=x,y",
// then "position,x,y,f,erosion,dilation,opening,in_first_window" (closing for a closing): one
// row a pixel of the line path through the pin, position 0 at the pin. Throws Error without
// a pin.
std::string lessonProfileCsv(const LessonOutput& lesson, const std::string& source);

// The same comment lines, then "angle,opening,best" (closing for a closing): the second
// stage's value at the pin for each of the sweep's angles, best = 1 on the orientation the
// sweep gives that pixel. Throws Error without a pin.
std::string lessonResponseCsv(const LessonOutput& lesson, const std::string& source);

}  // namespace linescope::session
