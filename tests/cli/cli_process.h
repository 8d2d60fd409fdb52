// Running linescope-cli (LINESCOPE_CLI_PATH, defined by each suite's target) as a child
// process and keeping what it said: the CLI suites' common harness.
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace linescope::test {

struct CliRun {
    int code = -1;
    bool crashed = false;
    bool finished = false;
    QString out;
    QString err;
    QByteArray outBytes;  // stdout as written (out is decoded as UTF-8)
    QString describe() const {
        return QStringLiteral("exit %1%2\nstdout: %3\nstderr: %4")
            .arg(code)
            .arg(crashed ? " (crashed)" : "")
            .arg(out.left(2000), err.left(2000));
    }
};

// Runs `program` with `args` in `workingFolder` (the current one when empty); stdin is
// closed, stdout and stderr are pipes (so the CLI sees no terminal).
inline CliRun runProcess(const QString& program, const QStringList& args, int timeoutMs,
                         const QString& workingFolder = QString()) {
    QProcess p;
    p.setProgram(program);
    p.setArguments(args);
    if (!workingFolder.isEmpty()) p.setWorkingDirectory(workingFolder);
    p.start();
    CliRun r;
    if (!p.waitForStarted(30000)) return r;
    r.finished = p.waitForFinished(timeoutMs);
    if (!r.finished) {
        p.kill();
        p.waitForFinished();
    }
    r.crashed = p.exitStatus() == QProcess::CrashExit;
    r.code = p.exitCode();
    r.outBytes = p.readAllStandardOutput();
    r.out = QString::fromUtf8(r.outBytes);
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

}  // namespace linescope::test
