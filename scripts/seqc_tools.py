"""Where the scripts find the external checkers: $SEQC_TOOLS/bin, then
~/.local/seqc-tools/bin (what scripts/install-checkers fills), then PATH --
the same order as `seqc check`."""
import os, shutil


def tool(name):
    for d in [os.environ.get("SEQC_TOOLS", "") + "/bin", os.path.expanduser("~/.local/seqc-tools/bin")]:
        p = os.path.join(d, name)
        if os.path.isfile(p):
            return p
    return shutil.which(name) or name
