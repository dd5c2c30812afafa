"""BenchExec tool info for seqc.

seqc sequentializes concurrent C (pthreads) with Lal-Reps or KISS and
checks the result with z3, cvc5, bitwuzla or CBMC. The benchmark
definition's <option>s choose the method, bounds and backend; this module
adds the input, `--data-model ILP32` for ILP32 tasks, `--property race`
for no-data-race tasks and `--property overflow` for no-overflow tasks,
`--timeout` a little under the CPU-time limit
so that seqc answers UNKNOWN itself rather than being killed, and for
unreach-call tasks `--witness witness.graphml` (in the run's working
directory: the benchmark definition collects it with <resultfiles>).
seqc writes a witness only for a violation, after its own `seqc
validate` confirmed it.

Verdicts are read from seqc's first output line (`VERIFICATION
SUCCESSFUL`, `VERIFICATION FAILED`, `VERIFICATION UNKNOWN: why`,
`VERIFICATION INCONCLUSIVE: bound too small`) and its exit code (0 safe,
10 violation, 20 unknown, 30 bound too small, 1 bad input, 2 unsupported
input, 3 internal error). A bug seqc reports has been replayed on its
interleaving oracle before it is printed.
"""

import re

import benchexec.result as result
import benchexec.tools.template


class Tool(benchexec.tools.template.BaseTool2):
    def executable(self, tool_locator):
        # The repository's release build, or `seqc` in the tool directory
        # or on PATH.
        try:
            return tool_locator.find_executable("seqc", subdir="target/release")
        except benchexec.tools.template.ToolNotFoundException:
            return tool_locator.find_executable("seqc")

    def name(self):
        return "seqc"

    def project_url(self):
        return "https://example.invalid/seqc"

    def version(self, executable):
        return self._version_from_tool(executable, arg="--version").replace("seqc ", "")

    def cmdline(self, executable, options, task, rlimits):
        cmd = [executable]
        opts = list(options)
        if not opts or opts[0] not in ("check", "translate", "explore"):
            cmd.append("check")
        cmd += opts
        data_model = (task.options or {}).get("data_model", "LP64")
        if data_model == "ILP32" and "--data-model" not in opts:
            cmd += ["--data-model", "ILP32"]
        prop = task.property_file or ""
        if "--property" not in opts:
            if "no-data-race" in prop:
                cmd += ["--property", "race"]
            elif "no-overflow" in prop:
                cmd += ["--property", "overflow"]
            elif "unreach-call" in prop:
                cmd += ["--property", "assert"]
        method_none = any(
            o == "--method=none" or (o == "--method" and i + 1 < len(opts) and opts[i + 1] == "none")
            for i, o in enumerate(opts)
        )
        if (
            "unreach-call" in prop
            and "--witness" not in opts
            and not method_none
            and cmd[1] == "check"
        ):
            cmd += ["--witness", "witness.graphml"]
        limit = rlimits.cputime or rlimits.walltime
        if limit and "--timeout" not in opts:
            cmd += ["--timeout", str(max(1, int(limit) - 5))]
        return cmd + list(task.input_files)

    def determine_result(self, run):
        verdict = next((l for l in run.output if l.startswith("VERIFICATION ")), "")
        code = run.exit_code.value
        if verdict.startswith("VERIFICATION FAILED"):
            if any(l == "data race:" or l.startswith("DATA RACE:") for l in run.output):
                return result.RESULT_FALSE_DATARACE
            # The violation's line: `FILE:LINE:COL: overflow: ...`.
            if any(": overflow: " in l for l in run.output):
                return result.RESULT_FALSE_OVERFLOW
            return result.RESULT_FALSE_REACH
        if verdict.startswith("VERIFICATION SUCCESSFUL"):
            return result.RESULT_TRUE_PROP
        if verdict.startswith("VERIFICATION UNKNOWN"):
            why = verdict.split(":", 1)[1].strip() if ":" in verdict else ""
            if "timed out" in why or run.was_timeout:
                return result.RESULT_TIMEOUT
            return result.RESULT_UNKNOWN + (f"({why[:40]})" if why else "")
        if verdict.startswith("VERIFICATION INCONCLUSIVE"):
            return result.RESULT_UNKNOWN + "(bound too small)"
        if run.was_timeout:
            return result.RESULT_TIMEOUT
        # No verdict: an error message (`file:line:col: error: ...`).
        err = next((l.split("error:", 1)[1].strip() for l in run.output if "error:" in l), "")
        if code == 2 or "not supported" in err or "unsupported" in err:
            err = err.removeprefix("unsupported: ")
            return result.RESULT_ERROR + f"(unsupported: {err[:40]})"
        if code == 3 or err.startswith("internal error"):
            return result.RESULT_ERROR + "(internal)"
        return result.RESULT_ERROR + (f"({err[:40]})" if err else "")
