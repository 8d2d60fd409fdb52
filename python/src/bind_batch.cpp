// linescope.dask's batches run linescope-cli batch's own code (app/cli: the jobs, the plan,
// one input's phases, the manifest), so that both write the same files and the same
// manifest, and either resumes the other's. The Python side only distributes the tasks.
#include "python/src/bindings.h"

#include "app/cli/batch_inputs.h"
#include "app/cli/batch_item.h"
#include "app/cli/batch_jobs.h"
#include "app/cli/batch_manifest.h"
#include "app/cli/batch_plan.h"

#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace linescope::python {

namespace {

namespace py = pybind11;
namespace cli = linescope::cli;

using TaskTuple = std::tuple<std::string, std::string, std::int64_t, std::int64_t>;  // input, stem, bytes, mtime

cli::BatchTask taskOf(const TaskTuple& t) { return {std::get<0>(t), std::get<1>(t), {std::get<2>(t), std::get<3>(t)}}; }

// A command with its options, checked once; runs inputs on whichever thread calls it.
// `recorded`: the options the manifest names (those given, less what only spreads the work).
class BatchJob {
public:
    BatchJob(const std::string& command, const std::vector<std::string>& options, const std::vector<std::string>& recorded)
        : command_(command), options_(cli::optionsJson(recorded)), job_(cli::makeBatchJob(command, options)) {
        if (!job_) throw cli::UsageError("'" + command + "' was given --help: a batch needs options to run");
    }

    // One input, start to end; its manifest line.
    std::string run(const TaskTuple& t, const std::string& outputFolder,
                    const std::vector<std::pair<std::int64_t, std::int64_t>>& protectedIds) const {
        cli::FileIds ids;
        for (const auto& [dev, ino] : protectedIds) ids.insert({static_cast<dev_t>(dev), static_cast<ino_t>(ino)});
        const cli::BatchTask task = taskOf(t);
        py::gil_scoped_release release;
        return cli::manifestLine(cli::runBatchItem(*job_, task, ids, outputFolder, command_, options_));
    }

    // The line of a task that failed outside the engine (its worker lost).
    std::string failedLine(const TaskTuple& t, const std::string& error) const {
        cli::BatchItem item;
        item.error = error;
        return cli::manifestLine(cli::batchRecord(item, taskOf(t), "", command_, options_));
    }

    const std::string& optionsJson() const { return options_; }

private:
    std::string command_;
    std::string options_;
    std::unique_ptr<cli::CommandJob> job_;
};

// The manifest of a batch's folder, opened for appending on the process that plans.
class Manifest {
public:
    explicit Manifest(const std::string& folder) : manifest_(folder) {}

    // (tasks, lines of the inputs settled without work), in input order.
    std::pair<std::vector<TaskTuple>, std::vector<std::string>> plan(
        const std::string& command, const BatchJob& job, const std::string& outputFolder,
        const std::vector<std::pair<std::string, std::string>>& inputs, bool redo) const {
        cli::BatchPlan plan;
        plan.command = command;
        plan.options = job.optionsJson();
        plan.outputFolder = outputFolder;
        std::vector<cli::BatchInput> batchInputs;
        for (const auto& [path, relative] : inputs) batchInputs.push_back({path, relative});
        cli::planBatch(plan, batchInputs, manifest_, redo);
        std::vector<TaskTuple> tasks;
        for (const cli::BatchTask& t : plan.tasks) tasks.emplace_back(t.input, t.stem, t.stamp.bytes, t.stamp.modifiedNs);
        std::vector<std::string> settled;
        for (const cli::ManifestRecord& r : plan.settled) settled.push_back(cli::manifestLine(r));
        return {tasks, settled};
    }
    void append(const std::string& line) { manifest_.appendLine(line); }
    const std::string& path() const { return manifest_.path(); }

private:
    cli::BatchManifest manifest_;
};

}  // namespace

void bindBatch(py::module_& m) {
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const cli::UsageError& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        }
    });
    m.def(
        "batch_inputs",
        [](const std::vector<std::string>& sources, const std::string& outputFolder) {
            std::vector<std::pair<std::string, std::string>> inputs;
            for (cli::BatchInput& i : cli::collectBatchInputs(sources, outputFolder))
                inputs.emplace_back(std::move(i.path), std::move(i.relative));
            return inputs;
        },
        py::arg("sources"), py::arg("out_dir"),
          "The (path, relative) files that linescope-cli batch --inputs takes from each source.");
    m.attr("BATCH_MANIFEST_NAME") = cli::kBatchManifestName;
    py::class_<BatchJob>(m, "BatchJob")
        .def(py::init<const std::string&, const std::vector<std::string>&, const std::vector<std::string>&>(),
             py::arg("command"), py::arg("options"), py::arg("recorded"))
        .def("run", &BatchJob::run, py::arg("task"), py::arg("out_dir"), py::arg("protected_ids"),
             "Runs one (input, stem, bytes, mtime_ns) task; returns its manifest line.")
        .def("failed_line", &BatchJob::failedLine, py::arg("task"), py::arg("error"));
    py::class_<Manifest>(m, "BatchManifest")
        .def(py::init<const std::string&>(), py::arg("out_dir"))
        .def("plan", &Manifest::plan, py::arg("command"), py::arg("job"), py::arg("out_dir"), py::arg("inputs"),
             py::arg("redo"))
        .def("append", &Manifest::append, py::arg("line"))
        .def_property_readonly("path", &Manifest::path);
}

}  // namespace linescope::python
