// The main window: the viewport in the centre, a parameters toolbar across the top (operator,
// a wide angle slider + dial + spin box in 0.1° steps, λ slider + spin box), at the right the
// controls dock (view, compare mode, sweep angles, orientation options, glyph, GPU) above the
// contours dock, the angular spectrum below the viewport, File > Open (dialog, drag and drop,
// recent files) and Export, a Samples menu, and a status bar with the engine's notices,
// timings and a progress bar with Cancel for sweeps. It owns the Session; control moves call
// its setters (which return at once: the engine thread coalesces a dragged slider) and
// published snapshots go to the viewport. Settings (parameters, view options, window layout)
// are kept between runs with QSettings. Window-level keys (main_window_keys.cpp) move the
// angle, λ, operator, view, compare mode and contours from anywhere in the window; the Help
// menu lists them.
//
// Thread: UI thread only. It never waits for the engine, nor reads a file (the session does,
// on a worker thread).
#pragma once

#include "app/io/export_recipe.h"
#include "app/session/plane.h"
#include "app/session/session.h"
#include "ui/task_recipes.h"
#include "ui/ticked_slider.h"

#include <opencv2/core/mat.hpp>

#include <QMainWindow>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <memory>

class QComboBox;
class QDockWidget;
class QDoubleSpinBox;
class QLabel;
class QMenu;
class QMessageBox;
class QProgressBar;
class QPushButton;
class QSlider;
class QSpinBox;
class QStackedWidget;
class QToolButton;

namespace linescope::ui {

class AngleDial;
class AngleResolutionControl;
class LineKindCombo;
class ViewportWidget;
class ViewControls;
class SpectrumPanel;
class ContourPanel;
class GranulometryPanel;
class LessonPanel;
class LessonProfilePanel;
class LessonResponsePanel;
class FieldWorkbenchPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    struct Options {
        session::EngineQueue::Options engine;  // the session's engine (backend, threads)
        QString samplesDir;                    // folder of the Samples menu's *.png ("" : none)
        bool useSettings = true;               // recent files and parameters in QSettings (tests: off)
        bool preferGpu = true;                 // draw through CUDA-OpenGL when CUDA can run
        QString userGuide;                     // Help > User guide's file ("" : the item is disabled)
    };
    explicit MainWindow(const Options& options, QWidget* parent = nullptr);
    explicit MainWindow(QWidget* parent = nullptr) : MainWindow(Options{}, parent) {}
    ~MainWindow() override;

    // Starts opening an image file and returns at once: the session reads it on a worker
    // thread (File > Open, drag and drop, Open Recent, Samples and the command line all come
    // here), and the window shows it once decoded. On failure a (non-blocking) error dialog
    // says why and the current image stays. Session::imageOpened / openFailed tell when.
    void openFile(const QString& path);

    // The controls, in the units the session uses (they also move the widgets).
    void setAngle(double degrees);      // 0…180, rounded to 0.1°
    void setLength(int length);         // 1…501
    void setOperator(MorphOp op);
    void setLineKind(LineKind kind);
    // The lesson mode (issue 21, main_window_lesson.cpp): for a projector, large type, no
    // developer overlay, the lesson's three linked panes in the centre, its profile and angle
    // response docks with the granulometry, the other docks put away (and back when it ends).
    void setLessonMode(bool on);
    bool lessonMode() const { return lessonMode_; }
    LessonPanel* lessonPanel() const { return lesson_; }
    LessonProfilePanel* lessonProfile() const { return lessonProfile_; }
    LessonResponsePanel* lessonResponse() const { return lessonResponse_; }
    QDockWidget* lessonProfileDock() const { return lessonProfileDock_; }
    QDockWidget* lessonResponseDock() const { return lessonResponseDock_; }
    QAction* lessonAction() const { return lessonAction_; }
    // The orientation-field workbench (issue 21, main_window_field.cpp): the fingerprint
    // inspector in the centre (the engine's block field as needles, its coherence, mask and
    // singular points, the structure tensor beside it and their difference), the docks put
    // away (and back when it ends). Leaves lesson mode, as lesson mode leaves it.
    void setFieldWorkbenchMode(bool on);
    bool fieldWorkbenchMode() const { return fieldMode_; }
    FieldWorkbenchPanel* fieldWorkbenchPanel() const { return field_; }
    QAction* fieldWorkbenchAction() const { return fieldAction_; }
    // The type size factor of the lesson mode.
    static constexpr double kLessonFontScale = 1.45;
    // The angle slider's least width: 0.5° a pixel at least; less in lesson mode's large type.
    static constexpr int kAngleSliderWidth = 360;
    static constexpr int kLessonAngleSliderWidth = 200;

    // Applies the task's recipe (task_recipes.h) to the shown image: operator, λ, angle set,
    // view, compare mode, blend, needles, glyph, docks and contours (main_window_tasks.cpp).
    void applyTask(Task task);

    session::Session& session() { return *session_; }
    ViewportWidget* viewport() const { return viewport_; }
    QSlider* angleSlider() const { return angleSlider_; }
    AngleDial* angleDial() const { return angleDial_; }
    QDoubleSpinBox* angleSpin() const { return angleSpin_; }
    QSlider* lengthSlider() const { return lengthSlider_; }
    QSpinBox* lengthSpin() const { return lengthSpin_; }
    QComboBox* operatorCombo() const { return opCombo_; }
    LineKindCombo* lineKindCombo() const { return kindCombo_; }
    // The distinct segments of the current kind and λ: the angle slider's ticks, snapping.
    AngleResolutionControl* angleResolution() const { return resolution_; }
    ViewControls* viewControls() const { return viewControls_; }
    SpectrumPanel* spectrumPanel() const { return spectrum_; }
    ContourPanel* contourPanel() const { return contourPanel_; }
    QDockWidget* controlsDock() const { return controlsDock_; }
    QDockWidget* spectrumDock() const { return spectrumDock_; }
    QDockWidget* contourDock() const { return contourDock_; }
    GranulometryPanel* granulometryPanel() const { return granulometry_; }
    QDockWidget* granulometryDock() const { return granulometryDock_; }
    QProgressBar* progressBar() const { return progress_; }
    QPushButton* cancelButton() const { return cancel_; }
    // After a cancelled sweep: the status bar's "showing λ = …" mark and the action that
    // computes the sweep again (enabled only then).
    QLabel* sweepStaleLabel() const { return sweepStale_; }
    QAction* recomputeAction() const { return recompute_; }
    // The centred hint in the viewport while no image is loaded.
    QLabel* emptyHint() const { return emptyHint_; }
    QMenu* viewMenu() const { return viewMenu_; }
    QAction* shortcutsAction() const { return shortcutsAction_; }
    QMenu* samplesMenu() const { return samplesMenu_; }
    QMenu* taskMenu() const { return taskMenu_; }
    // The status bar's warning while the operator does not fit the image's polarity.
    QLabel* polarityLabel() const { return polarity_; }
    // The error dialog shown last, while it is open (nullptr otherwise).
    QMessageBox* errorDialog() const;
    QStringList recentFiles() const { return recent_; }
    // Writes the shown view's data (not the screen): grey views in their own pixel type,
    // the orientation map as 8-bit RGB; in lesson mode the lesson's canvas as shown (panes,
    // captions, the pinned segment). False with `error` set on failure.
    bool writeView(const QString& path, QString* error) const;
    // The lesson's data at the pinned pixel (lesson_export.h), written atomically: false with
    // `error` set when there is no lesson with a pin on screen or the file cannot be written.
    enum class LessonData { Json, ProfileCsv, ResponseCsv };
    bool writeLessonData(const QString& path, LessonData what, QString* error) const;

    // The size a window opens at without saved settings: 1440×900, or 90 % of the screen's
    // available area where that is smaller (a 1280×800 screen gets 1152×720).
    static QSize defaultSize(const QRect& availableScreen);

    static constexpr int kAngleSteps = 1800;  // slider units: 0.1°
    static constexpr int kMaxLength = 501;

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void closeEvent(QCloseEvent* e) override;
    void showEvent(QShowEvent* e) override;

private:
    void buildMenus();
    // Window-level keys and the Help menu (main_window_keys.cpp).
    void buildKeys(QMenu* parameters, QMenu* view);
    void buildHelpMenu();
    void showShortcuts();
    void stepAngle(double degrees);   // wraps around the half-turn
    // An angle control moved (a drag when `dragging`): setAngle, snapped to distinct segments
    // when that is on (AngleResolutionControl::snap).
    void moveAngle(double degrees, bool dragging);
    void updateAngleResolution();     // the slider's ticks and the sentence on the current segment
    void cycleOperator();
    void updateSweepMark();           // the cancelled sweep's mark and Recompute
    void updateSweepProgress();       // the progress bar: angles done, the time left, previews
    void updateResultStatus();        // the status bar's line for the controls' operator, angle and λ
    void buildControls();
    void fillSamplesMenu();
    void buildTaskMenu();
    void openSample(const QString& path);  // opens it, then applies its task's recipe
    void updatePolarityWarning();
    void rebuildRecentMenu();
    void addRecent(const QString& path);
    void showError(const QString& title, const QString& text);
    void onImageOpened(const QString& path);
    void onSnapshot(session::RequestKind kind, const session::SnapshotPtr& snapshot);
    void openDialog();
    void exportView();
    // The view options from the controls and the docks, to the session (which the viewport
    // follows and which decides what is computed).
    void pushViewOptions();
    void updateOverlayInfo();
    // The spectrum and contour docks (main_window_docks.cpp).
    void buildDocks();
    void buildLesson();  // its panel, docks and action (main_window_lesson.cpp)
    void buildFieldWorkbench();  // its panel and action (main_window_field.cpp)
    void updateFieldStatus();    // the status bar in the workbench: the field's blocks, λ and time
    void buildExportMenu(QMenu* file);
    // Edit > Copy as Python / Command Line (main_window_copy_as.cpp, text from copy_as.h).
    void buildCopyAsActions(QMenu* edit);
    void onDockSnapshot(session::RequestKind kind, const session::SnapshotPtr& snapshot);
    // A copy of the contour source's pixels (Otsu); empty when its snapshot has not come yet.
    cv::Mat contourSourceMat() const;
    void refreshContourRange();   // the threshold control's range from the source plane
    void refreshContourSource();  // the range, and the session's source
    void deskew(double skewAngle);
    void undoDeskew();
    bool isLive(session::RequestKind kind) const;
    void exportSpectrum(bool png);
    void exportContours(bool svg);
    void exportLessonData(LessonData what);  // main_window_lesson.cpp
    cv::Mat lessonCanvasMat() const;         // the canvas as 8-bit BGR (exports)
    io::ExportRecipe lessonRecipe() const;   // the shown lesson's operator, angle, λ, line
    void loadSettings();
    void applyDefaultDockSizes();
    void saveSettings() const;

    Options options_;
    std::unique_ptr<session::Session> session_;
    ViewportWidget* viewport_ = nullptr;
    QComboBox* opCombo_ = nullptr;
    TickedSlider* angleSlider_ = nullptr;
    AngleDial* angleDial_ = nullptr;
    QDoubleSpinBox* angleSpin_ = nullptr;
    QSlider* lengthSlider_ = nullptr;
    QSpinBox* lengthSpin_ = nullptr;
    LineKindCombo* kindCombo_ = nullptr;
    AngleResolutionControl* resolution_ = nullptr;
    QLabel* imageLabel_ = nullptr;
    ViewControls* viewControls_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QLabel* sweepStale_ = nullptr;
    QToolButton* recomputeButton_ = nullptr;
    QAction* recompute_ = nullptr;
    QAction* undoDeskew_ = nullptr;  // Edit > Undo Deskew
    QLabel* emptyHint_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    QAction* shortcutsAction_ = nullptr;
    QDockWidget* controlsDock_ = nullptr;
    SpectrumPanel* spectrum_ = nullptr;
    ContourPanel* contourPanel_ = nullptr;
    QDockWidget* spectrumDock_ = nullptr;
    QDockWidget* contourDock_ = nullptr;
    GranulometryPanel* granulometry_ = nullptr;
    QDockWidget* granulometryDock_ = nullptr;  // tabbed with the spectrum, hidden until asked for
    QMenu* samplesMenu_ = nullptr;
    QMenu* taskMenu_ = nullptr;
    QLabel* polarity_ = nullptr;
    bool imageIsLight_ = false;       // the shown image's mean level (task_recipes.h)
    QString pendingTaskPath_;         // a sample being opened, whose recipe follows it
    std::optional<Task> pendingTask_;
    QMenu* recentMenu_ = nullptr;
    QPointer<QMessageBox> errorBox_;
    QStringList recent_;
    QString currentFile_;
    bool dockSizesPending_ = true;  // until the first show, unless a saved layout came back

    QStackedWidget* centre_ = nullptr;  // the viewport, or the lesson
    LessonPanel* lesson_ = nullptr;
    LessonProfilePanel* lessonProfile_ = nullptr;
    LessonResponsePanel* lessonResponse_ = nullptr;
    QDockWidget* lessonProfileDock_ = nullptr;
    QDockWidget* lessonResponseDock_ = nullptr;
    QAction* lessonAction_ = nullptr;
    QAction* overlayAction_ = nullptr;
    bool lessonMode_ = false;
    FieldWorkbenchPanel* field_ = nullptr;
    QAction* fieldAction_ = nullptr;
    bool fieldMode_ = false;
    // What the workbench put away, to give back when it ends.
    struct BeforeField {
        bool controls = true, spectrum = false, contours = false, granulometry = false;
    } beforeField_;
    // What the lesson mode put away, to give back when it ends.
    struct BeforeLesson {
        bool controls = true, spectrum = true, contours = false, granulometry = false, overlay = true;
    } beforeLesson_;
};

}  // namespace linescope::ui
